//! One watched resource: its poller, its last answer, the events it
//! published (a bounded replay buffer) and the channel its subscribers
//! read. One topic per resource whatever the audience: the first
//! subscriber starts its poller, and the poller stops a grace period after
//! the last one left.

use super::frame::{Frame, Kind};
use super::source::{Answer, Source, StaleReason};
use predmarket_core::HttpRequest;
use predmarket_core::change::{WatchKind, book_changes, value_changes};
use predmarket_core::models::Orderbook;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, broadcast};
use tokio::time::Instant;

/// What a subscriber starts from.
pub struct Start {
    /// Events to send before the live ones.
    pub frames: Vec<Arc<Frame>>,
    pub receiver: broadcast::Receiver<Arc<Frame>>,
}

pub struct Topic {
    /// `kind:id`, as the stream named it.
    pub key: String,
    pub kind: WatchKind,
    pub http: HttpRequest,
    /// This run of the poller (a new topic for the same resource gets
    /// another, so old positions are told apart).
    pub epoch: u32,
    /// The interval this kind wants, before the scheduler.
    pub wanted_ms: f64,
    /// The interval the scheduler grants (f64 bits).
    interval_ms: AtomicU64,
    pub subscribers: AtomicUsize,
    state: Mutex<State>,
    sender: broadcast::Sender<Arc<Frame>>,
    /// Woken when the audience changes (the poller may stop).
    pub audience: Notify,
    replay_cap: usize,
}

#[derive(Default)]
struct State {
    seq: u64,
    /// The last good answer.
    data: Option<Value>,
    as_of: Option<String>,
    /// Unix ms when the last good answer arrived, and how old it was then.
    polled_ms: u64,
    age_at_poll_ms: u64,
    snapshot: Option<Arc<Frame>>,
    /// Set while the data is not fresh.
    stale: Option<StaleReason>,
    stale_frame: Option<Arc<Frame>>,
    /// The resource cannot be watched; nothing follows this event.
    ended: Option<Arc<Frame>>,
    replay: VecDeque<Arc<Frame>>,
    /// When the last subscriber left.
    idle_since: Option<Instant>,
}

impl Topic {
    pub fn new(
        key: String,
        kind: WatchKind,
        http: HttpRequest,
        wanted_ms: f64,
        replay: usize,
    ) -> Self {
        let replay = replay.max(1);
        let (sender, _) = broadcast::channel(replay);
        let mut epoch = [0u8; 4];
        let _ = getrandom::fill(&mut epoch);
        Self {
            key,
            kind,
            http,
            epoch: u32::from_le_bytes(epoch),
            wanted_ms,
            interval_ms: AtomicU64::new(wanted_ms.to_bits()),
            subscribers: AtomicUsize::new(0),
            state: Mutex::new(State::default()),
            sender,
            audience: Notify::new(),
            replay_cap: replay,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn interval_ms(&self) -> f64 {
        f64::from_bits(self.interval_ms.load(Ordering::Relaxed))
    }

    pub fn set_interval_ms(&self, ms: f64) {
        self.interval_ms.store(ms.to_bits(), Ordering::Relaxed);
    }

    /// Whether the scheduler grants a longer interval than wanted.
    fn stretched(&self) -> bool {
        self.interval_ms() > self.wanted_ms * 1.01
    }

    /// A subscriber's first events and its channel, taken under the lock
    /// events are published under, so nothing is missed or sent twice.
    /// `from`: the `(epoch, seq)` a reconnecting client last saw.
    pub fn subscribe(&self, from: Option<(u32, u64)>) -> Start {
        let mut state = self.lock();
        let receiver = self.sender.subscribe();
        let mut frames = Vec::new();
        if let Some(ended) = &state.ended {
            frames.push(ended.clone());
            return Start { frames, receiver };
        }
        let replayable = from.filter(|&(epoch, seq)| {
            epoch == self.epoch
                && seq <= state.seq
                && (seq == state.seq || state.replay.front().is_some_and(|f| f.seq <= seq + 1))
        });
        match (replayable, from) {
            (Some((_, seq)), _) => {
                frames.extend(state.replay.iter().filter(|f| f.seq > seq).cloned());
                return Start { frames, receiver };
            }
            (None, Some(_)) => frames.push(Arc::new(Frame::resync(&self.key, state.seq))),
            (None, None) => {}
        }
        if let Some(snapshot) = self.snapshot(&mut state) {
            frames.push(snapshot);
        }
        if let Some(stale) = &state.stale_frame {
            frames.push(stale.clone());
        }
        Start { frames, receiver }
    }

    /// The current answer as a `snapshot` at the current position (made
    /// once per position).
    fn snapshot(&self, state: &mut State) -> Option<Arc<Frame>> {
        let data = state.data.as_ref()?;
        if let Some(frame) = state.snapshot.as_ref().filter(|f| f.seq == state.seq) {
            return Some(frame.clone());
        }
        let frame = Arc::new(Frame::new(
            Kind::Snapshot,
            &self.key,
            state.seq,
            json!({
                "as_of": state.as_of,
                "age_ms": age_now(state),
                "polled_ms": state.polled_ms,
                "data": data,
            }),
        ));
        state.snapshot = Some(frame.clone());
        Some(frame)
    }

    /// Numbers, keeps and sends one event.
    fn publish(&self, state: &mut State, kind: Kind, fields: Value) -> Arc<Frame> {
        state.seq += 1;
        let frame = Arc::new(Frame::new(kind, &self.key, state.seq, fields));
        if state.replay.len() == self.replay_cap {
            state.replay.pop_front();
        }
        state.replay.push_back(frame.clone());
        // No receiver is not an error: the topic waits out its grace.
        let _ = self.sender.send(frame.clone());
        frame
    }

    /// A poll's answer: `snapshot` the first time, then `change` when
    /// something changed, `stale`/`live` as freshness comes and goes, and
    /// `error` once when the resource cannot be watched.
    pub fn apply(&self, answer: Answer, now_ms: u64) {
        let mut state = self.lock();
        if state.ended.is_some() {
            return;
        }
        match answer {
            Answer::Fresh { body, age_ms } => {
                let as_of = as_of(&body).unwrap_or_else(|| {
                    crate::data::time::iso8601(
                        i64::try_from(now_ms.saturating_sub(age_ms) / 1000).unwrap_or(0),
                    )
                });
                state.polled_ms = now_ms;
                state.age_at_poll_ms = age_ms;
                state.as_of = Some(as_of.clone());
                let changes = state
                    .data
                    .as_ref()
                    .map(|before| changes(self.kind, before, &body));
                state.data = Some(body);
                match changes {
                    None => {
                        // The first answer: the snapshot every subscriber
                        // waiting for it receives.
                        state.seq += 1;
                        if let Some(snapshot) = self.snapshot(&mut state) {
                            if state.replay.len() == self.replay_cap {
                                state.replay.pop_front();
                            }
                            state.replay.push_back(snapshot.clone());
                            let _ = self.sender.send(snapshot);
                        }
                    }
                    Some(changes) if changes.as_array().is_some_and(|c| !c.is_empty()) => {
                        let data = state.data.clone();
                        self.publish(
                            &mut state,
                            Kind::Change,
                            json!({
                                "as_of": as_of,
                                "age_ms": age_ms,
                                "polled_ms": now_ms,
                                "changes": changes,
                                "data": data,
                            }),
                        );
                    }
                    Some(_) => {}
                }
                if self.stretched() {
                    self.mark_stale(&mut state, StaleReason::IntervalStretched, None, now_ms);
                } else if state.stale.take().is_some() {
                    state.stale_frame = None;
                    self.publish(
                        &mut state,
                        Kind::Live,
                        json!({ "as_of": as_of, "age_ms": age_ms, "polled_ms": now_ms }),
                    );
                }
            }
            Answer::Failed {
                reason,
                status,
                code,
                message,
            } => {
                let detail = json!({ "status": status, "code": code, "message": message });
                self.mark_stale(&mut state, reason, Some(detail), now_ms);
            }
            Answer::Refused {
                status,
                code,
                message,
            } => {
                let frame = self.publish(
                    &mut state,
                    Kind::Error,
                    json!({ "status": status, "code": code, "message": message }),
                );
                state.ended = Some(frame);
            }
        }
    }

    /// The poll is taking longer than the interval: told at once.
    pub fn delayed(&self, reason: StaleReason, now_ms: u64) {
        let mut state = self.lock();
        if state.ended.is_none() && state.data.is_some() {
            self.mark_stale(&mut state, reason, None, now_ms);
        }
    }

    fn mark_stale(
        &self,
        state: &mut State,
        reason: StaleReason,
        detail: Option<Value>,
        now_ms: u64,
    ) {
        if state.stale == Some(reason) {
            return;
        }
        state.stale = Some(reason);
        let age = if state.data.is_some() {
            Value::from(now_ms.saturating_sub(state.polled_ms) + state.age_at_poll_ms)
        } else {
            Value::Null
        };
        let mut fields = json!({
            "reason": reason.name(),
            "as_of": state.as_of,
            "age_ms": age,
            "interval_ms": self.interval_ms().round(),
            "wanted_ms": self.wanted_ms.round(),
        });
        if let (Some(object), Some(Value::Object(detail))) = (fields.as_object_mut(), detail) {
            object.extend(detail);
        }
        let frame = self.publish(state, Kind::Stale, fields);
        state.stale_frame = Some(frame);
    }

    pub fn ended(&self) -> bool {
        self.lock().ended.is_some()
    }

    /// One subscriber more.
    pub fn join(&self) {
        self.subscribers.fetch_add(1, Ordering::SeqCst);
        self.lock().idle_since = None;
        self.audience.notify_one();
    }

    /// One subscriber less; the last one starts the grace period.
    pub fn leave(&self) {
        if self.subscribers.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.lock().idle_since = Some(Instant::now());
            self.audience.notify_one();
        }
    }

    /// How long nobody has watched, if nobody does.
    pub fn idle_for(&self) -> Option<Duration> {
        if self.subscribers.load(Ordering::SeqCst) > 0 {
            return None;
        }
        self.lock().idle_since.map(|since| since.elapsed())
    }

    /// Reads the resource once from `source`, telling subscribers `stale`
    /// if the answer takes longer than the interval wanted.
    pub async fn poll(&self, source: &dyn Source) {
        let op = self.kind.operation();
        let fetch = source.fetch(op, self.http.clone());
        tokio::pin!(fetch);
        let patience = Duration::from_secs_f64(self.wanted_ms.max(1.0) / 1000.0);
        let answer = tokio::select! {
            answer = &mut fetch => answer,
            () = tokio::time::sleep(patience) => {
                let reason = if source.budget().is_some() {
                    StaleReason::Budget
                } else {
                    StaleReason::PollFailed
                };
                self.delayed(reason, unix_ms());
                fetch.await
            }
        };
        self.apply(answer, unix_ms());
    }
}

/// How old the held data is now.
fn age_now(state: &State) -> u64 {
    unix_ms().saturating_sub(state.polled_ms) + state.age_at_poll_ms
}

pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The time the answer says its data is from: a book's `timestamp`, the
/// response's `data_freshness`.
fn as_of(body: &Value) -> Option<String> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    text(body.pointer("/data/timestamp"))
        .or_else(|| text(body.pointer("/meta/data_freshness")))
        .or_else(|| text(body.pointer("/data_freshness")))
}

/// What changed, by the core's rules: price levels for a book, values by
/// path for the rest (and for a book whose shape the model cannot read).
fn changes(kind: WatchKind, before: &Value, after: &Value) -> Value {
    if kind == WatchKind::Orderbook {
        let book = |v: &Value| {
            v.get("data")
                .and_then(|d| serde_json::from_value::<Orderbook>(d.clone()).ok())
        };
        if let (Some(a), Some(b)) = (book(before), book(after)) {
            return serde_json::to_value(book_changes(&a, &b)).unwrap_or(Value::Null);
        }
    }
    serde_json::to_value(value_changes(before, after)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic() -> Topic {
        let kind = WatchKind::Market;
        Topic::new(
            "market:m".into(),
            kind,
            kind.request("m").expect("id"),
            1_000.0,
            4,
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

    #[test]
    fn a_refusal_ends_the_resource() {
        let t = topic();
        t.apply(
            Answer::Refused {
                status: 404,
                code: "NOT_FOUND".into(),
                message: "market not found".into(),
            },
            1_000,
        );
        t.apply(fresh(0.5), 2_000);
        assert!(t.ended());
        assert_eq!(kinds(&t.subscribe(None).frames), ["error"]);
    }

    #[test]
    fn a_reconnect_replays_what_it_missed_or_resyncs() {
        let t = topic();
        for (i, price) in [0.1, 0.2, 0.3].into_iter().enumerate() {
            t.apply(fresh(price), 1_000 * i as u64);
        }
        // Saw seq 1 (the snapshot): gets the two changes after it.
        let replay = t.subscribe(Some((t.epoch, 1)));
        assert_eq!(kinds(&replay.frames), ["change", "change"]);
        // Up to date: nothing.
        assert!(t.subscribe(Some((t.epoch, 3))).frames.is_empty());
        // Another run of the poller, or a position from the future: resync.
        let other = t.subscribe(Some((t.epoch.wrapping_add(1), 1)));
        assert_eq!(kinds(&other.frames), ["resync", "snapshot"]);
        let ahead = t.subscribe(Some((t.epoch, 9)));
        assert_eq!(kinds(&ahead.frames), ["resync", "snapshot"]);
        // Older than the buffer (4 events): resync.
        for (i, price) in [0.4, 0.5, 0.6, 0.7].into_iter().enumerate() {
            t.apply(fresh(price), 10_000 + i as u64);
        }
        let old = t.subscribe(Some((t.epoch, 1)));
        assert_eq!(kinds(&old.frames), ["resync", "snapshot"]);
        assert_eq!(old.frames[1].seq, 7);
    }

    #[test]
    fn a_stretched_interval_is_stale_until_it_is_not() {
        let t = topic();
        t.apply(fresh(0.1), 1_000);
        let mut start = t.subscribe(None);
        t.set_interval_ms(4_000.0);
        t.apply(fresh(0.1), 2_000);
        t.set_interval_ms(1_000.0);
        t.apply(fresh(0.1), 3_000);
        let got = drain(&mut start.receiver);
        assert_eq!(kinds(&got), ["stale", "live"]);
        let text = String::from_utf8(got[0].data.to_vec()).expect("utf-8");
        assert!(text.contains(r#""reason":"interval_stretched""#), "{text}");
        assert!(text.contains(r#""interval_ms":4000.0"#), "{text}");
    }
}
