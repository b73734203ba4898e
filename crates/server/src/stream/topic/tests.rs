//! The topic's rules, one event at a time: numbering, replay, freshness,
//! refusals, and the leader/follower hand-over through a broker's hands
//! (the broker itself is played by the test).

use super::*;
use crate::stream::source::{Answer, StaleReason};
use serde_json::{Value, json};

fn topic() -> Topic {
    let kind = WatchKind::Market;
    Topic::new(
        "market:m".into(),
        kind,
        kind.request("m").expect("id"),
        1_000.0,
        4,
        Duration::from_secs(15),
    )
}

fn fresh(price: f64) -> Answer {
    Answer::Fresh {
        body: json!({ "data": { "id": "m", "price": price }, "meta": { "request_time": price } }),
        age_ms: 0,
    }
}

fn kinds(frames: &[Arc<Frame>]) -> Vec<&'static str> {
    frames.iter().map(|f| f.kind.name()).collect()
}

fn drain(receiver: &mut broadcast::Receiver<Arc<Frame>>) -> Vec<Arc<Frame>> {
    let mut out = Vec::new();
    while let Ok(frame) = receiver.try_recv() {
        out.push(frame);
    }
    out
}

#[test]
fn snapshot_then_changes_only_when_something_changed() {
    let t = topic();
    let mut start = t.subscribe(None);
    assert!(start.frames.is_empty(), "nothing before the first answer");
    t.apply(fresh(0.5), 1_000);
    t.apply(fresh(0.5), 2_000);
    t.apply(fresh(0.6), 3_000);
    let got = drain(&mut start.receiver);
    assert_eq!(kinds(&got), ["snapshot", "change"]);
    assert_eq!(got.iter().map(|f| f.seq).collect::<Vec<_>>(), [1, 2]);
    let text = String::from_utf8(got[1].data.to_vec()).expect("utf-8");
    assert!(text.contains(r#""path":"data.price""#), "{text}");
    // A late subscriber starts from a snapshot at the current position.
    let late = t.subscribe(None);
    assert_eq!(kinds(&late.frames), ["snapshot"]);
    assert_eq!(late.frames[0].seq, 2);
}

#[test]
fn a_failure_is_told_at_once_and_once_then_live() {
    let t = topic();
    t.apply(fresh(0.5), 1_000);
    let mut start = t.subscribe(None);
    let failed = || Answer::Failed {
        reason: StaleReason::PollFailed,
        status: Some(503),
        code: "PLATFORM_UNAVAILABLE".into(),
        message: "down".into(),
    };
    t.apply(failed(), 2_000);
    t.apply(failed(), 3_000);
    let late = t.subscribe(None);
    assert_eq!(
        kinds(&late.frames),
        ["snapshot", "stale"],
        "a newcomer is told too"
    );
    t.apply(fresh(0.5), 4_000);
    let got = drain(&mut start.receiver);
    assert_eq!(kinds(&got), ["stale", "live"]);
    let stale = String::from_utf8(got[0].data.to_vec()).expect("utf-8");
    assert!(stale.contains(r#""reason":"poll_failed""#), "{stale}");
    assert!(stale.contains(r#""age_ms":1000"#), "{stale}");
}

fn refused() -> Answer {
    Answer::Refused {
        status: 404,
        code: "NOT_FOUND".into(),
        message: "market not found".into(),
    }
}

#[test]
fn a_refused_resource_is_polled_again_with_backoff_and_announced_by_a_snapshot_when_it_appears() {
    let t = topic();
    let mut watcher = t.subscribe(None);
    let now = unix_ms();
    t.apply(refused(), now);
    assert!(t.refused());
    assert_eq!(kinds(&drain(&mut watcher.receiver)), ["error"]);
    assert_eq!(
        kinds(&t.subscribe(None).frames),
        ["error"],
        "a young refusal is told"
    );
    // Polled again after the negative cache's lifetime, doubled each time
    // it is still refused, at most a minute; told once.
    let mut at = now;
    for expected in [5, 10, 20, 40, 60, 60] {
        assert_eq!(t.refused_due(at), Some(Duration::from_secs(expected)));
        at += expected * 1_000;
        t.apply(refused(), at);
    }
    assert!(drain(&mut watcher.receiver).is_empty(), "told once");
    // It appears: a snapshot, to the watchers and to whoever comes next.
    t.apply(fresh(0.5), at + 1_000);
    assert!(!t.refused());
    assert_eq!(t.refused_due(at), None);
    assert_eq!(kinds(&drain(&mut watcher.receiver)), ["snapshot"]);
    assert_eq!(kinds(&t.subscribe(None).frames), ["snapshot"]);
    // Had data, refused, back: a snapshot again, not a change.
    t.apply(refused(), at + 2_000);
    t.apply(fresh(0.6), at + 3_000);
    assert_eq!(kinds(&drain(&mut watcher.receiver)), ["error", "snapshot"]);
}

#[test]
fn a_new_viewer_never_inherits_a_refusal_older_than_the_negative_cache() {
    let t = topic();
    let mut first = t.subscribe(None);
    let old = unix_ms() - 6_000;
    t.apply(refused(), old);
    assert_eq!(kinds(&drain(&mut first.receiver)), ["error"]);
    // Six seconds on: not told; the next poll is due at once.
    let late = t.subscribe(None);
    assert!(late.frames.is_empty(), "{:?}", kinds(&late.frames));
    assert_eq!(t.refused_due(unix_ms()), Some(Duration::ZERO));
    // Still refused: told afresh (a new number), and again only when
    // another viewer comes after it grew old.
    let now = unix_ms();
    t.apply(refused(), now);
    assert_eq!(kinds(&drain(&mut first.receiver)), ["error"]);
    assert_eq!(kinds(&t.subscribe(None).frames), ["error"]);
    assert_eq!(t.refused_due(now), Some(Duration::from_secs(10)));
    t.apply(refused(), now + 10_000);
    assert!(drain(&mut first.receiver).is_empty());
}

#[test]
fn a_reconnect_replays_what_it_missed_or_resyncs() {
    let t = topic();
    for (i, price) in [0.1, 0.2, 0.3].into_iter().enumerate() {
        t.apply(fresh(price), 1_000 * i as u64);
    }
    // Saw seq 1 (the snapshot): gets the two changes after it.
    let epoch = t.epoch();
    let replay = t.subscribe(Some((epoch, 1)));
    assert_eq!(kinds(&replay.frames), ["change", "change"]);
    // Up to date: nothing.
    assert!(t.subscribe(Some((epoch, 3))).frames.is_empty());
    // Another run of the poller, or a position from the future: resync.
    let other = t.subscribe(Some((epoch.wrapping_add(1), 1)));
    assert_eq!(kinds(&other.frames), ["resync", "snapshot"]);
    let ahead = t.subscribe(Some((epoch, 9)));
    assert_eq!(kinds(&ahead.frames), ["resync", "snapshot"]);
    // Older than the buffer (4 events): resync.
    for (i, price) in [0.4, 0.5, 0.6, 0.7].into_iter().enumerate() {
        t.apply(fresh(price), 10_000 + i as u64);
    }
    let old = t.subscribe(Some((epoch, 1)));
    assert_eq!(kinds(&old.frames), ["resync", "snapshot"]);
    assert_eq!(old.frames[1].seq, 7);
}

#[test]
fn a_stretched_interval_is_stale_once_the_data_is_older_than_wanted_and_live_at_each_answer() {
    let t = topic();
    t.apply(fresh(0.1), 1_000);
    let mut start = t.subscribe(None);
    // Polls every 4 s where 1 s is wanted: told once the data is older
    // than the interval wanted and the patience (1 + 2 s), not before.
    t.set_interval_ms(4_000.0);
    assert_eq!(t.tell_stretched(3_999), Some(Duration::from_millis(1)));
    assert!(drain(&mut start.receiver).is_empty());
    assert_eq!(t.tell_stretched(4_000), None);
    assert_eq!(t.tell_stretched(4_500), None, "told once");
    let late = t.subscribe(None);
    assert_eq!(kinds(&late.frames), ["snapshot", "stale"]);
    // The next answer is fresh, changed or not: live, then stale again
    // when it too is older than wanted.
    t.apply(fresh(0.1), 5_000);
    assert!(t.tell_stretched(7_000).is_some());
    t.tell_stretched(8_000);
    let got = drain(&mut start.receiver);
    assert_eq!(kinds(&got), ["stale", "live", "stale"]);
    let text = String::from_utf8(got[0].data.to_vec()).expect("utf-8");
    assert!(text.contains(r#""reason":"interval_stretched""#), "{text}");
    assert!(text.contains(r#""interval_ms":4000.0"#), "{text}");
    assert!(text.contains(r#""age_ms":3000"#), "{text}");
    // Not stretched: never told for its age alone.
    t.apply(fresh(0.2), 9_000);
    t.set_interval_ms(1_000.0);
    assert_eq!(t.tell_stretched(60_000), None);
    assert_eq!(kinds(&drain(&mut start.receiver)), ["change", "live"]);
    // A stretch within the patience is never told.
    t.set_interval_ms(2_500.0);
    assert!(t.tell_stretched(9_000 + 2_500).is_some());
}

#[test]
fn a_replica_taking_over_polls_when_due_and_tells_stale_only_if_overdue() {
    let leader = topic();
    let (outbox, mut published) = mpsc::unbounded_channel();
    leader.lead(outbox);
    leader.set_interval_ms(10_000.0);
    leader.apply(fresh(0.1), 1_000);
    leader.apply(
        Answer::Failed {
            reason: StaleReason::PollFailed,
            status: Some(503),
            code: "X".into(),
            message: "down".into(),
        },
        11_000,
    );
    // Fresh again, nothing changed: the `live` says when it was polled.
    leader.apply(fresh(0.1), 12_000);
    let mut sent = Vec::new();
    while let Ok(frame) = published.try_recv() {
        sent.push(frame);
    }
    assert_eq!(kinds(&sent), ["snapshot", "stale", "live"]);

    let taking = || {
        let t = topic();
        t.brokered();
        t.set_interval_ms(10_000.0);
        t.seed(Some(sent[0].clone()), sent.clone());
        // A follower's own poll, ended after it lost the lease, is
        // dropped: its number would be the leader's.
        t.apply(fresh(0.9), 13_000);
        assert_eq!(t.seq(), 3);
        let (outbox, published) = mpsc::unbounded_channel();
        t.lead(outbox);
        (t, published)
    };
    // Within its interval of the last answer: nothing to tell, and
    // the poll waits until due.
    let (t, mut published) = taking();
    assert!(!t.took_over(15_000));
    assert!(published.try_recv().is_err());
    assert_eq!(t.due_in(15_000), Duration::from_millis(7_000));
    // Past it: stale at once, and due now.
    let (t, mut published) = taking();
    assert!(t.took_over(23_000));
    let stale = published.try_recv().expect("stale");
    let json: Value = serde_json::from_slice(stale.json()).expect("json");
    assert_eq!(
        (json["code"].as_str(), json["age_ms"].as_u64()),
        (Some("REPLICA_FAILOVER"), Some(11_000))
    );
    assert_eq!(t.due_in(23_000), Duration::ZERO);
    t.apply(fresh(0.1), 24_000);
    assert_eq!(kinds(&[published.try_recv().expect("live")]), ["live"]);
}

#[test]
fn a_late_snapshot_tells_the_age_the_data_has_when_sent() {
    let t = topic();
    t.apply(fresh(0.5), unix_ms() - 5_000);
    let late = t.subscribe(None);
    let json: Value = serde_json::from_slice(late.frames[0].json()).expect("json");
    assert!(
        json["age_ms"].as_u64().is_some_and(|age| age >= 5_000),
        "{json}"
    );
    assert_eq!(json["data"]["data"]["price"], 0.5);
}

#[test]
fn a_follower_numbers_and_replays_as_the_leader() {
    let leader = topic();
    let (outbox, mut published) = mpsc::unbounded_channel();
    leader.lead(outbox);
    leader.apply(fresh(0.1), 1_000);
    leader.apply(fresh(0.2), 2_000);
    let mut sent = Vec::new();
    while let Ok(frame) = published.try_recv() {
        // The broker takes it.
        leader.ingest(frame.clone());
        sent.push(frame);
    }
    // Starts from the last answer and the events the broker holds.
    let follower = topic();
    follower.brokered();
    follower.seed(Some(sent[1].clone()), sent.clone());
    assert_eq!(
        (follower.epoch(), follower.seq()),
        (leader.epoch(), leader.seq())
    );
    let mut watcher = follower.subscribe(None);
    leader.apply(
        Answer::Failed {
            reason: StaleReason::PollFailed,
            status: Some(503),
            code: "X".into(),
            message: "down".into(),
        },
        3_000,
    );
    leader.apply(fresh(0.3), 4_000);
    while let Ok(frame) = published.try_recv() {
        leader.ingest(frame.clone());
        sent.push(frame);
    }
    // Events come in again (a read from an earlier position): once.
    for frame in &sent {
        follower.ingest(frame.clone());
    }
    assert_eq!(
        kinds(&drain(&mut watcher.receiver)),
        ["stale", "change", "live"]
    );
    let epoch = leader.epoch();
    let replay = follower.subscribe(Some((epoch, 1)));
    assert_eq!(
        replay.frames.iter().map(|f| f.seq).collect::<Vec<_>>(),
        [2, 3, 4, 5]
    );
    let late = follower.subscribe(None);
    let json: Value = serde_json::from_slice(late.frames[0].json()).expect("json");
    assert_eq!(
        (json["seq"].as_u64(), &json["data"]["data"]["price"]),
        (Some(5), &json!(0.3))
    );
    // A numbering started anew is a resync for the follower's watchers.
    let mut watcher = follower.subscribe(None);
    let other = Arc::new(Frame::new(
        Kind::Snapshot,
        epoch ^ 1,
        &Body::<Value>::new("market:m", 1),
    ));
    follower.ingest(other);
    assert_eq!(kinds(&drain(&mut watcher.receiver)), ["resync", "snapshot"]);
    assert_eq!(follower.epoch(), epoch ^ 1);
}

fn price(frame: &Frame) -> Value {
    let json: Value = serde_json::from_slice(frame.json()).expect("json");
    json["data"]["data"]["price"].clone()
}

#[test]
fn a_leader_shows_its_events_only_once_the_broker_took_them() {
    let leader = topic();
    leader.brokered();
    let mut watcher = leader.subscribe(None);
    let (outbox, mut published) = mpsc::unbounded_channel();
    leader.lead(outbox);
    leader.apply(fresh(0.1), 1_000);
    let first = published.try_recv().expect("handed to the broker");
    assert!(
        drain(&mut watcher.receiver).is_empty(),
        "not shown before the broker took it"
    );
    leader.ingest(first);
    assert_eq!(kinds(&drain(&mut watcher.receiver)), ["snapshot"]);

    // Another replica took the lease meanwhile and numbers 2 itself.
    let rival = topic();
    rival.brokered();
    rival.seed(
        None,
        vec![leader.subscribe(Some((leader.epoch(), 0))).frames[0].clone()],
    );
    let (rival_out, mut rival_published) = mpsc::unbounded_channel();
    rival.lead(rival_out);
    rival.apply(fresh(0.3), 2_500);
    let theirs = rival_published.try_recv().expect("the rival's event");

    // This replica's next poll is refused by the broker: nobody sees it,
    // not even a subscriber that joins before the refusal.
    leader.apply(fresh(0.2), 2_000);
    let refused = published.try_recv().expect("handed to the broker");
    assert_eq!((refused.seq, theirs.seq), (2, 2));
    let newcomer = leader.subscribe(None);
    assert_eq!(kinds(&newcomer.frames), ["snapshot"]);
    assert_eq!(
        (newcomer.frames[0].seq, price(&newcomer.frames[0])),
        (1, json!(0.1))
    );
    leader.follow();
    leader.ingest(theirs);
    let got = drain(&mut watcher.receiver);
    assert_eq!(kinds(&got), ["change"]);
    assert_eq!((got[0].seq, price(&got[0])), (2, json!(0.3)));
    // The next answer builds on what the broker took, not on the refused.
    let (outbox, mut published) = mpsc::unbounded_channel();
    leader.lead(outbox);
    leader.apply(fresh(0.3), 3_000);
    assert!(published.try_recv().is_err(), "0.3 is no change");
}

#[test]
fn degraded_topics_number_apart_and_rejoin_the_shared_numbering() {
    let t = topic();
    t.brokered();
    let (outbox, mut published) = mpsc::unbounded_channel();
    t.lead(outbox);
    t.apply(fresh(0.1), 1_000);
    let shared = published.try_recv().expect("handed to the broker");
    t.ingest(shared.clone());
    let mut watcher = t.subscribe(None);
    let epoch = t.epoch();
    // The broker fails: a numbering of this replica's own.
    t.degrade();
    assert_eq!(t.mode(), Mode::Degraded);
    assert_ne!(t.epoch(), epoch);
    t.apply(fresh(0.2), 2_000);
    let got = drain(&mut watcher.receiver);
    assert_eq!(kinds(&got), ["resync", "snapshot", "change"]);
    assert!(got.iter().all(|f| f.epoch == t.epoch()));
    assert_eq!(
        kinds(&t.subscribe(Some((epoch, 1))).frames),
        ["resync", "snapshot"]
    );
    // The broker is back, holding what the leader published: followed again.
    t.rejoin(Some(shared.clone()), vec![shared]);
    assert_eq!((t.mode(), t.epoch(), t.seq()), (Mode::Follower, epoch, 1));
    let got = drain(&mut watcher.receiver);
    assert_eq!(kinds(&got), ["resync", "snapshot"]);
    assert_eq!(
        (got[1].epoch, got[1].seq, price(&got[1])),
        (epoch, 1, json!(0.1))
    );
    // The broker lost everything: the next leader's numbering is adopted.
    t.degrade();
    t.rejoin(None, Vec::new());
    let _ = drain(&mut watcher.receiver);
    let next = Arc::new(Frame::new(
        Kind::Snapshot,
        42,
        &Body::<Value>::new("market:m", 1),
    ));
    t.ingest(next);
    assert_eq!((t.epoch(), t.seq()), (42, 1));
    assert_eq!(kinds(&drain(&mut watcher.receiver)), ["snapshot"]);
}

#[test]
fn subscribers_within_a_second_share_one_snapshot_while_a_stream_holds_it() {
    let t = topic();
    t.apply(fresh(0.5), unix_ms());
    let first = t.subscribe(None);
    let second = t.subscribe(None);
    assert!(
        Arc::ptr_eq(&first.frames[0], &second.frames[0]),
        "one copy of the answer for both"
    );
    // Once no stream holds it, it costs nothing: the next one is built anew.
    let weak = Arc::downgrade(&first.frames[0]);
    drop((first, second));
    assert!(weak.upgrade().is_none());
    let third = t.subscribe(None);
    assert_eq!(kinds(&third.frames), ["snapshot"]);
    // A new position: a new snapshot.
    t.apply(fresh(0.6), unix_ms());
    let fourth = t.subscribe(None);
    assert!(!Arc::ptr_eq(&third.frames[0], &fourth.frames[0]));
    assert_eq!(fourth.frames[0].seq, 2);
}
