//! The streams' broker suite: one set of rules, run alike on both
//! brokers (`stream::broker`): this process's (`memory`) and Redis's (a
//! real `redis-server` on a free loopback port, `redis`). Each rule is a
//! function over two replicas of one store; `on_both!` makes a test of it
//! per broker. Without `redis-server` the Redis ones are ignored with
//! their reason (`cfg(redis_missing)`), or, with `CI` or
//! `PREDMARKET_REQUIRE_REDIS` set, fail.
//!
//! Then what only Redis has to prove: one connection reads every followed
//! resource, and an entry written into Redis by someone else is never
//! framed as it was written.
//! Waits poll for a condition under a generous ceiling; nothing is timed.

#[path = "common/redis.rs"]
mod redis_kit;

use predmarket_core::change::WatchKind;
use predmarket_core::live::{Body, TOO_LARGE_CODE};
use predmarket_server::stream::broker::memory::Memory;
use predmarket_server::stream::broker::redis::Redis;
use predmarket_server::stream::broker::{Broker, Follower, Lease, Limits, Published};
use predmarket_server::stream::frame::{Frame, Kind};
use predmarket_server::stream::replicate;
use predmarket_server::stream::source::Answer;
use predmarket_server::stream::topic::{Mode, Topic};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a test waits for something that should happen, at most.
const CEILING: Duration = Duration::from_secs(30);
const KEY: &str = "orderbook:m1";

const LIMITS: Limits = Limits {
    lease: Duration::from_millis(600),
    max_events: 4,
    max_event_bytes: 64 * 1024,
};

/// Two replicas' brokers over one store (and the Redis server, if any).
struct Pair {
    a: Arc<dyn Broker>,
    b: Arc<dyn Broker>,
    _redis: Option<redis_kit::Redis>,
}

fn memory_pair() -> Pair {
    // Events kept as long as on Redis, so a released resource stays.
    let store = Memory::new(LIMITS, Duration::from_secs(600));
    Pair {
        a: store.replica(),
        b: store.replica(),
        _redis: None,
    }
}

/// `None`: `redis-server` is missing and not required (said loudly).
async fn redis_pair() -> Option<Pair> {
    let redis =
        redis_kit::start("the streams' Redis broker", &[]).unwrap_or_else(|e| panic!("{e}"))?;
    let connect = || Redis::connect(&redis.url, "http://upstream.test", LIMITS);
    let a = connect().await.expect("replica a connects");
    let b = connect().await.expect("replica b connects");
    Some(Pair {
        a,
        b,
        _redis: Some(redis),
    })
}

/// A test of `rule` per broker.
macro_rules! on_both {
    ($rule:ident) => {
        mod $rule {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn memory() {
                super::$rule(super::memory_pair()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(
                redis_missing,
                ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
            )]
            async fn redis() {
                if let Some(pair) = super::redis_pair().await {
                    super::$rule(pair).await;
                }
            }
        }
    };
}

fn event(kind: Kind, seq: u64, data: Option<Value>) -> Arc<Frame> {
    let mut body = Body::<Value>::new(KEY, seq);
    body.age_ms = Some(seq * 10);
    if kind == Kind::Stale {
        body.reason = Some("poll_failed".into());
    }
    body.data = data;
    Arc::new(Frame::new(kind, 7, &body))
}

fn answer(price: f64) -> Option<Value> {
    Some(json!({ "data": { "bids": [[price, 10]] } }))
}

fn seqs(frames: &[Arc<Frame>]) -> Vec<u64> {
    frames.iter().map(|f| f.seq).collect()
}

async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < CEILING,
            "{what}: not within {CEILING:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn publish(broker: &dyn Broker, frame: &Arc<Frame>) -> Published {
    broker
        .publish(KEY, frame)
        .await
        .expect("the broker answers")
}

async fn lease_is_one_replicas_at_a_time(p: Pair) {
    assert_eq!(p.a.hold(KEY).await, Some(Lease::Held { taken: true }));
    assert_eq!(p.b.hold(KEY).await, Some(Lease::Other));
    assert_eq!(p.a.hold(KEY).await, Some(Lease::Held { taken: false }));
    p.a.release(KEY).await;
    assert_eq!(p.b.hold(KEY).await, Some(Lease::Held { taken: true }));
    assert_eq!(p.a.hold(KEY).await, Some(Lease::Other));
}
on_both!(lease_is_one_replicas_at_a_time);

async fn a_lease_not_renewed_runs_out(p: Pair) {
    assert_eq!(p.a.hold(KEY).await, Some(Lease::Held { taken: true }));
    let b = p.b.clone();
    assert_eq!(
        b.hold(KEY).await,
        Some(Lease::Other),
        "held until it runs out"
    );
    let started = Instant::now();
    loop {
        if b.hold(KEY).await == Some(Lease::Held { taken: true }) {
            break;
        }
        assert!(started.elapsed() < CEILING, "the lease never ran out");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
on_both!(a_lease_not_renewed_runs_out);

async fn publishing_needs_the_lease_and_a_free_number(p: Pair) {
    let first = event(Kind::Snapshot, 1, answer(0.5));
    assert_eq!(publish(&*p.b, &first).await, Published::Refused, "no lease");
    p.a.hold(KEY).await;
    assert_eq!(publish(&*p.a, &first).await, Published::Done);
    assert_eq!(
        publish(&*p.a, &first).await,
        Published::Refused,
        "number taken"
    );
    let second = event(Kind::Change, 2, answer(0.6));
    assert_eq!(publish(&*p.a, &second).await, Published::Done);
    assert_eq!(
        publish(&*p.b, &event(Kind::Live, 3, None)).await,
        Published::Refused
    );
}
on_both!(publishing_needs_the_lease_and_a_free_number);

async fn history_holds_the_last_answer_and_the_latest_events(p: Pair) {
    p.a.hold(KEY).await;
    let sent = [
        event(Kind::Snapshot, 1, answer(0.5)),
        event(Kind::Change, 2, answer(0.6)),
        event(Kind::Stale, 3, None),
        event(Kind::Live, 4, None),
        event(Kind::Stale, 5, None),
        event(Kind::Live, 6, None),
    ];
    for frame in &sent {
        assert_eq!(publish(&*p.a, frame).await, Published::Done);
    }
    let history = p.b.history(KEY, 4).await.expect("history");
    assert_eq!(seqs(&history.events), [3, 4, 5, 6]);
    let last = history.last.expect("the last answer");
    assert_eq!((last.kind, last.seq, last.epoch), (Kind::Change, 2, 7));
    assert_eq!(last.json(), sent[1].json(), "kept as published");
    let since = p.b.since(KEY, 4).await.expect("since");
    assert_eq!(seqs(&since), [5, 6]);
    for (got, sent) in since.iter().zip(&sent[4..]) {
        assert_eq!((got.kind, got.json()), (sent.kind, sent.json()));
    }
}
on_both!(history_holds_the_last_answer_and_the_latest_events);

async fn an_error_is_never_the_last_answer(p: Pair) {
    p.a.hold(KEY).await;
    publish(&*p.a, &event(Kind::Snapshot, 1, answer(0.5))).await;
    let mut refusal = Body::<Value>::new(KEY, 2);
    refusal.status = Some(404);
    refusal.code = Some("NOT_FOUND".into());
    publish(&*p.a, &Arc::new(Frame::new(Kind::Error, 7, &refusal))).await;
    let history = p.b.history(KEY, 8).await.expect("history");
    assert_eq!(
        history.last.map(|f| (f.kind, f.seq)),
        Some((Kind::Snapshot, 1))
    );
    assert_eq!(history.events.last().map(|f| f.kind), Some(Kind::Error));
}
on_both!(an_error_is_never_the_last_answer);

async fn clear_starts_the_numbering_anew(p: Pair) {
    p.a.hold(KEY).await;
    publish(&*p.a, &event(Kind::Snapshot, 1, answer(0.5))).await;
    publish(&*p.a, &event(Kind::Change, 2, answer(0.6))).await;
    p.a.clear(KEY).await.expect("cleared");
    let history = p.b.history(KEY, 8).await.expect("history");
    assert!(history.last.is_none() && history.events.is_empty());
    assert_eq!(
        publish(&*p.a, &event(Kind::Snapshot, 1, answer(0.7))).await,
        Published::Done
    );
}
on_both!(clear_starts_the_numbering_anew);

async fn an_event_larger_than_the_cap_is_not_kept(p: Pair) {
    p.a.hold(KEY).await;
    let big = Some(json!({ "data": "x".repeat(LIMITS.max_event_bytes) }));
    assert_eq!(
        publish(&*p.a, &event(Kind::Snapshot, 1, big)).await,
        Published::TooLarge
    );
    let history = p.b.history(KEY, 8).await.expect("history");
    assert!(history.last.is_none() && history.events.is_empty());
}
on_both!(an_event_larger_than_the_cap_is_not_kept);

/// A follower that records what it is given.
#[derive(Default)]
struct Recorder {
    seq: AtomicU64,
    frames: Mutex<Vec<Arc<Frame>>>,
}

impl Follower for Recorder {
    fn following_from(&self) -> Option<u64> {
        Some(self.seq.load(Ordering::SeqCst))
    }

    fn deliver(&self, frame: Arc<Frame>) {
        if frame.seq > self.seq.load(Ordering::SeqCst) {
            self.seq.store(frame.seq, Ordering::SeqCst);
            self.frames.lock().unwrap().push(frame);
        }
    }
}

impl Recorder {
    fn seqs(&self) -> Vec<u64> {
        seqs(&self.frames.lock().unwrap())
    }
}

async fn a_follower_gets_each_event_of_another_replica_in_order(p: Pair) {
    p.a.hold(KEY).await;
    let sent: Vec<Arc<Frame>> = (1..=5)
        .map(|seq| match seq {
            1 => event(Kind::Snapshot, 1, answer(0.1)),
            _ => event(Kind::Change, seq, answer(seq as f64 / 10.0)),
        })
        .collect();
    for frame in &sent[..2] {
        publish(&*p.a, frame).await;
    }
    let recorder = Arc::new(Recorder::default());
    let follower: Arc<dyn Follower> = recorder.clone();
    let _following = p.b.follow(KEY, Arc::downgrade(&follower));
    for frame in &sent[2..] {
        publish(&*p.a, frame).await;
    }
    until("the follower has all five", || recorder.seqs().len() == 5).await;
    assert_eq!(recorder.seqs(), [1, 2, 3, 4, 5]);
    let got = recorder.frames.lock().unwrap().clone();
    for (got, sent) in got.iter().zip(&sent) {
        assert_eq!(
            (got.kind, got.epoch, got.json()),
            (sent.kind, sent.epoch, sent.json())
        );
    }
}
on_both!(a_follower_gets_each_event_of_another_replica_in_order);

/// A topic of `key`'s kind under `broker`, replicated, with a viewer.
fn topic_on(broker: &Arc<dyn Broker>) -> (Arc<Topic>, replicate::Replication) {
    let kind = WatchKind::Orderbook;
    let topic = Arc::new(Topic::new(
        KEY.into(),
        kind,
        kind.request("m1").expect("id"),
        1_000.0,
        LIMITS.max_events,
        Duration::from_secs(15),
    ));
    topic.brokered();
    topic.join();
    let replication = replicate::start(broker, &topic, &Arc::new(AtomicU64::new(0)));
    (topic, replication)
}

fn book(price: f64) -> Answer {
    Answer::Fresh {
        body: json!({ "data": { "market_id": "m1", "yes": { "bids": [{ "price": price, "size": 10.0 }], "asks": [] } } }),
        age_ms: 0,
    }
}

async fn two_topics_on_one_store_show_one_numbering(p: Pair) {
    let (leader, _a) = topic_on(&p.a);
    until("a replica leads", || leader.mode() == Mode::Leader).await;
    let (follower, _b) = topic_on(&p.b);
    let mut watching = follower.subscribe(None).receiver;
    for price in [0.1, 0.2, 0.2, 0.3] {
        leader.apply(book(price), predmarket_server::stream::topic::unix_ms());
    }
    until("both hold three events", || {
        leader.seq() == 3 && follower.seq() == 3
    })
    .await;
    assert_eq!(follower.mode(), Mode::Follower);
    assert_eq!(follower.epoch(), leader.epoch());
    let mut got = Vec::new();
    while let Ok(frame) = watching.try_recv() {
        got.push((frame.kind, frame.seq));
    }
    assert_eq!(
        got,
        [(Kind::Snapshot, 1), (Kind::Change, 2), (Kind::Change, 3)]
    );
    let theirs = leader.subscribe(Some((leader.epoch(), 0))).frames;
    let ours = follower.subscribe(Some((leader.epoch(), 0))).frames;
    let json = |f: &Vec<Arc<Frame>>| f.iter().map(|f| f.json().to_vec()).collect::<Vec<_>>();
    assert_eq!(
        json(&theirs),
        json(&ours),
        "the same events under the same numbers"
    );
    // An answer too large to share: every replica shows a stale instead.
    let huge = "x".repeat(LIMITS.max_event_bytes);
    leader.apply(
        Answer::Fresh {
            body: json!({ "data": { "market_id": "m1", "note": huge } }),
            age_ms: 0,
        },
        predmarket_server::stream::topic::unix_ms(),
    );
    until("both hold the stand-in", || {
        follower.seq() == 4 && leader.seq() == 4
    })
    .await;
    let stand_in = follower.subscribe(Some((leader.epoch(), 3))).frames;
    let body: Value = serde_json::from_slice(stand_in[0].json()).expect("json");
    assert_eq!(
        (stand_in[0].kind, body["code"].as_str()),
        (Kind::Stale, Some(TOO_LARGE_CODE))
    );
}
on_both!(two_topics_on_one_store_show_one_numbering);

/// `connected_clients` of the Redis server.
async fn connections(conn: &mut redis::aio::MultiplexedConnection) -> u64 {
    let info: String = redis::cmd("INFO")
        .arg("clients")
        .query_async(conn)
        .await
        .expect("INFO");
    info.lines()
        .find_map(|l| l.strip_prefix("connected_clients:")?.trim().parse().ok())
        .expect("connected_clients")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn one_connection_reads_every_followed_resource() {
    let Some(p) = redis_pair().await else { return };
    let url = p._redis.as_ref().map(|r| r.url.clone()).expect("redis");
    let mut probe = redis::Client::open(url.as_str())
        .expect("url")
        .get_multiplexed_async_connection()
        .await
        .expect("probe");
    let keys: Vec<String> = (0..40).map(|i| format!("orderbook:m{i}")).collect();
    let mut recorders = Vec::new();
    let mut registrations = Vec::new();
    let mut with_one = 0;
    for (i, key) in keys.iter().enumerate() {
        let recorder = Arc::new(Recorder::default());
        let follower: Arc<dyn Follower> = recorder.clone();
        registrations.push(p.b.follow(key, Arc::downgrade(&follower)));
        recorders.push((recorder, follower));
        p.a.hold(key).await;
        let mut body = Body::<Value>::new(key, 1);
        body.data = answer(0.5);
        let frame = Arc::new(Frame::new(Kind::Snapshot, 7, &body));
        assert_eq!(p.a.publish(key, &frame).await, Some(Published::Done));
        if i == 0 {
            until("the first follower reads", || recorders[0].0.seqs() == [1]).await;
            with_one = connections(&mut probe).await;
        }
    }
    until("every follower reads", || {
        recorders.iter().all(|(r, _)| r.seqs() == [1])
    })
    .await;
    let with_forty = connections(&mut probe).await;
    assert_eq!(
        with_forty, with_one,
        "following 40 resources opened connections beyond following one"
    );
    drop(registrations);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn an_entry_forged_in_redis_is_not_framed_verbatim() {
    let Some(p) = redis_pair().await else { return };
    let url = p._redis.as_ref().map(|r| r.url.clone()).expect("redis");
    let mut conn = redis::Client::open(url.as_str())
        .expect("url")
        .get_multiplexed_async_connection()
        .await
        .expect("conn");
    let events = Redis::connect(&url, "http://upstream.test", LIMITS)
        .await
        .expect("connects")
        .events_key(KEY);
    let forge = |id: &str, json: &str| {
        redis::cmd("XADD")
            .arg(&events)
            .arg(id)
            .arg("epoch")
            .arg("7")
            .arg("kind")
            .arg("change")
            .arg("json")
            .arg(json)
            .arg("answer")
            .arg("")
            .clone()
    };
    let smuggled = format!(
        "{{\"resource\":\"{KEY}\",\"seq\":1}}\n\nevent: error\ndata: {{\"resource\":\"{KEY}\",\"seq\":9}}"
    );
    let untidy =
        format!("{{ \"resource\" : \"{KEY}\" , \"seq\" : 2 , \"message\" : \"a\\u000ab\" }}");
    for (id, json) in [("1-0", smuggled.as_str()), ("2-0", untidy.as_str())] {
        let _: String = forge(id, json).query_async(&mut conn).await.expect("XADD");
    }
    let recorder = Arc::new(Recorder::default());
    let follower: Arc<dyn Follower> = recorder.clone();
    let _following = p.b.follow(KEY, Arc::downgrade(&follower));
    until("the tidy entry is read", || recorder.seqs() == [2]).await;
    let got = recorder.frames.lock().unwrap()[0].clone();
    let wire = String::from_utf8(got.data.to_vec()).expect("utf-8");
    assert_eq!(wire.matches('\n').count(), 2, "one data line: {wire:?}");
    assert!(!wire.contains("event:"), "{wire:?}");
    let body: Value = serde_json::from_slice(got.json()).expect("json");
    assert_eq!(body["message"], "a\nb");
    let history = p.b.history(KEY, 8).await.expect("history");
    assert_eq!(seqs(&history.events), [2], "the forged entry is left out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn redis_keeps_each_answer_once() {
    let Some(p) = redis_pair().await else { return };
    let url = p._redis.as_ref().map(|r| r.url.clone()).expect("redis");
    let mut conn = redis::Client::open(url.as_str())
        .expect("url")
        .get_multiplexed_async_connection()
        .await
        .expect("conn");
    let names = Redis::connect(&url, "http://upstream.test", LIMITS)
        .await
        .expect("connects");
    p.a.hold(KEY).await;
    // The same answer twice (it went and came back), another between.
    let sent = [
        event(Kind::Snapshot, 1, answer(0.5)),
        event(Kind::Change, 2, answer(0.6)),
        event(Kind::Change, 3, answer(0.5)),
    ];
    for frame in &sent {
        assert_eq!(publish(&*p.a, frame).await, Published::Done);
    }
    let answers: u64 = redis::cmd("HLEN")
        .arg(names.answers_key(KEY))
        .query_async(&mut conn)
        .await
        .expect("HLEN");
    assert_eq!(answers, 2, "one copy per distinct answer");
    // Neither the events nor the last answer hold an answer's text.
    let entries: redis::Value = redis::cmd("XRANGE")
        .arg(names.events_key(KEY))
        .arg("-")
        .arg("+")
        .query_async(&mut conn)
        .await
        .expect("XRANGE");
    assert!(!format!("{entries:?}").contains("bids"), "{entries:?}");
    let history = p.b.history(KEY, 8).await.expect("history");
    assert_eq!(
        history.last.map(|f| f.json().to_vec()),
        Some(sent[2].json().to_vec())
    );
    // Answers no kept event names are dropped (as events are trimmed).
    for seq in 4..=20 {
        let frame = event(Kind::Change, seq, answer(seq as f64));
        assert_eq!(publish(&*p.a, &frame).await, Published::Done);
    }
    let _: u64 = redis::cmd("XTRIM")
        .arg(names.events_key(KEY))
        .arg("MAXLEN")
        .arg(2)
        .query_async(&mut conn)
        .await
        .expect("XTRIM");
    let frame = event(Kind::Change, 21, answer(21.0));
    assert_eq!(publish(&*p.a, &frame).await, Published::Done);
    let answers: u64 = redis::cmd("HLEN")
        .arg(names.answers_key(KEY))
        .query_async(&mut conn)
        .await
        .expect("HLEN");
    assert_eq!(
        answers, 3,
        "the answers of the 3 events left, not of all 21"
    );
}
