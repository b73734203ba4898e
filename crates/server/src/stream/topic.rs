//! One watched resource: its poller, its last answer, the events it
//! published (a bounded replay buffer) and the channel its subscribers
//! read. One topic per resource whatever the audience: the first
//! subscriber starts its poller, and the poller stops a grace period after
//! the last one left.
//!
//! With `--redis` a topic is on every replica whose clients watch the
//! resource, but only the one holding the resource's lease polls it
//! (`relay`): its events go out through Redis, and the other replicas'
//! topics take them in (`ingest`) with their numbers, so a position is
//! the same on every replica.

use super::frame::{Frame, Kind};
use super::source::{Answer, Source, StaleReason};
use predmarket_core::HttpRequest;
use predmarket_core::change::{WatchKind, book_changes, value_changes};
use predmarket_core::live::{self, Body, FAILOVER_CODE};
use predmarket_core::models::Orderbook;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, broadcast, mpsc};
use tokio::time::Instant;

/// What a subscriber starts from.
pub struct Start {
    /// Events to send before the live ones.
    pub frames: Vec<Arc<Frame>>,
    pub receiver: broadcast::Receiver<Arc<Frame>>,
    /// The numbering the subscriber starts in.
    pub epoch: u32,
}

/// Who polls a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// This replica, alone (no `--redis`).
    Alone = 0,
    /// Another replica holds the lease; this one takes in its events.
    Follower = 1,
    /// This replica holds the lease and publishes through Redis.
    Leader = 2,
    /// Redis failed: this replica polls for its own clients.
    Degraded = 3,
}

pub struct Topic {
    /// `kind:id`, as the stream named it.
    pub key: String,
    pub kind: WatchKind,
    pub http: HttpRequest,
    /// The interval this kind wants, before the scheduler.
    pub wanted_ms: f64,
    /// The interval the scheduler grants (f64 bits).
    interval_ms: AtomicU64,
    pub subscribers: AtomicUsize,
    state: Mutex<State>,
    sender: broadcast::Sender<Arc<Frame>>,
    /// Woken when the audience changes (the poller may stop).
    pub audience: Notify,
    /// Woken when this replica starts or stops polling the topic.
    pub leadership: Notify,
    mode: AtomicU8,
    /// Set once the topic knows where the resource is (with `--redis`,
    /// after reading it from Redis), so a subscriber starts from there.
    ready: AtomicBool,
    ready_notify: Notify,
    replay_cap: usize,
    /// The stream's heartbeat (ms): with the interval, the deadline each
    /// event announces (`stale_after_ms`).
    heartbeat_ms: f64,
}

/// A failed poll's answer, as a `stale` event tells it.
struct Failure {
    status: Option<u16>,
    code: String,
    message: String,
}

#[derive(Default)]
struct State {
    /// This numbering of the resource's events (a topic with no history
    /// anywhere draws a new one, so old positions are told apart).
    epoch: u32,
    seq: u64,
    /// The last good answer, and the same written as JSON (for snapshots;
    /// written when first needed).
    data: Option<Value>,
    data_text: Option<Arc<RawValue>>,
    as_of: Option<String>,
    /// Unix ms when the last good answer arrived, and how old it was then.
    polled_ms: u64,
    age_at_poll_ms: u64,
    /// Set while the data is not fresh.
    stale: Option<StaleReason>,
    stale_frame: Option<Arc<Frame>>,
    /// The resource cannot be watched; nothing follows this event.
    ended: Option<Arc<Frame>>,
    replay: VecDeque<Arc<Frame>>,
    /// When the last subscriber left.
    idle_since: Option<Instant>,
    /// In a leader's draft: where its events go to be published (they
    /// reach its own subscribers only once Redis took them).
    outbox: Option<mpsc::UnboundedSender<Arc<Frame>>>,
    /// While this replica leads: the state its polls build on, ahead of
    /// what its subscribers see by the events Redis has not taken yet.
    /// Subscribers see only what Redis took, so no replica ever shows an
    /// event under a number another replica uses for something else.
    draft: Option<Box<State>>,
}

impl State {
    /// What a leader's polls start from: this state, publishing into
    /// `outbox`.
    fn draft(&self, outbox: mpsc::UnboundedSender<Arc<Frame>>) -> State {
        State {
            epoch: self.epoch,
            seq: self.seq,
            data: self.data.clone(),
            data_text: self.data_text.clone(),
            as_of: self.as_of.clone(),
            polled_ms: self.polled_ms,
            age_at_poll_ms: self.age_at_poll_ms,
            stale: self.stale,
            stale_frame: self.stale_frame.clone(),
            ended: self.ended.clone(),
            replay: VecDeque::new(),
            idle_since: None,
            outbox: Some(outbox),
            draft: None,
        }
    }

    /// The state polls build on: the draft while leading, else this.
    fn working(&mut self) -> &mut State {
        match self.draft {
            Some(ref mut draft) => draft,
            None => self,
        }
    }
}

impl Topic {
    pub fn new(
        key: String,
        kind: WatchKind,
        http: HttpRequest,
        wanted_ms: f64,
        replay: usize,
        heartbeat: Duration,
    ) -> Self {
        let replay = replay.max(1);
        let (sender, _) = broadcast::channel(replay);
        Self {
            key,
            kind,
            http,
            wanted_ms,
            interval_ms: AtomicU64::new(wanted_ms.to_bits()),
            subscribers: AtomicUsize::new(0),
            state: Mutex::new(State {
                epoch: new_epoch(),
                ..State::default()
            }),
            sender,
            audience: Notify::new(),
            leadership: Notify::new(),
            mode: AtomicU8::new(Mode::Alone as u8),
            ready: AtomicBool::new(true),
            ready_notify: Notify::new(),
            replay_cap: replay,
            heartbeat_ms: heartbeat.as_secs_f64() * 1000.0,
        }
    }

    /// An event's body of this resource with the deadline it announces
    /// now (its number is set when published).
    fn body<D>(&self) -> Body<D> {
        let mut body = Body::new(&self.key, 0);
        body.stale_after_ms = Some(live::stale_after_ms(self.interval_ms(), self.heartbeat_ms));
        body
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

    /// How long after a poll its data counts as older than wanted: the
    /// interval wanted, and the patience a late poll gets before it is
    /// told (so a stretch within that patience is not told each cycle).
    fn overdue_after_ms(&self) -> f64 {
        live::overdue_after_ms(self.wanted_ms)
    }

    /// The state this replica's polls build on, or `None` while another
    /// replica polls: a poll that ends after the lease was lost is
    /// dropped, lest its event take a number the new leader gives to
    /// another.
    fn polling(guard: &mut State, mode: Mode) -> Option<&mut State> {
        if guard.draft.is_none() && mode == Mode::Follower {
            return None;
        }
        Some(guard.working())
    }

    /// The numbering of the topic's events now.
    pub fn epoch(&self) -> u32 {
        self.lock().epoch
    }

    /// The number of the topic's last event.
    pub fn seq(&self) -> u64 {
        self.lock().seq
    }

    pub fn mode(&self) -> Mode {
        match self.mode.load(Ordering::SeqCst) {
            1 => Mode::Follower,
            2 => Mode::Leader,
            3 => Mode::Degraded,
            _ => Mode::Alone,
        }
    }

    /// Whether this replica polls the topic.
    pub fn polls_here(&self) -> bool {
        self.mode() != Mode::Follower
    }

    /// A topic of a replica among several (`--redis`): it follows until it
    /// takes the lease, and is not ready until it was read from Redis.
    pub fn relayed(&self) {
        self.mode.store(Mode::Follower as u8, Ordering::SeqCst);
        self.ready.store(false, Ordering::SeqCst);
    }

    pub fn set_ready(&self) {
        self.ready.store(true, Ordering::SeqCst);
        self.ready_notify.notify_waiters();
    }

    /// Waits until the topic is ready, at most `ceiling`.
    pub async fn ready(&self, ceiling: Duration) {
        let wait = self.ready_notify.notified();
        if self.ready.load(Ordering::SeqCst) {
            return;
        }
        let _ = tokio::time::timeout(ceiling, wait).await;
    }

    /// This replica polls from now on and publishes into `outbox`; its
    /// events come back through `ingest` once Redis took them.
    pub fn lead(&self, outbox: mpsc::UnboundedSender<Arc<Frame>>) {
        let mut state = self.lock();
        let draft = state.draft(outbox);
        state.draft = Some(Box::new(draft));
        self.mode.store(Mode::Leader as u8, Ordering::SeqCst);
        self.leadership.notify_one();
    }

    /// Another replica polls from now on: what this one polled and Redis
    /// did not take is forgotten, unseen.
    pub fn follow(&self) {
        let mut state = self.lock();
        state.draft = None;
        if self.mode() == Mode::Leader {
            self.mode.store(Mode::Follower as u8, Ordering::SeqCst);
        }
    }

    /// Redis failed: this replica polls for its own clients from now on.
    /// The other replicas may too, so its events take a numbering of
    /// their own (a `resync` and the snapshot to subscribers), lest two
    /// replicas show different events under one number.
    pub fn degrade(&self) {
        let mut state = self.lock();
        state.draft = None;
        self.mode.store(Mode::Degraded as u8, Ordering::SeqCst);
        if state.seq > 0 {
            state.epoch = new_epoch();
            self.restart(&mut state);
        }
        drop(state);
        self.leadership.notify_one();
        self.set_ready();
    }

    /// Tells subscribers the numbering started again: `resync`, then the
    /// held answer as a snapshot, at the current position of
    /// `state.epoch`. The replay buffer holds the old numbering's events
    /// no more.
    fn restart(&self, state: &mut State) {
        state.replay.clear();
        let _ = self
            .sender
            .send(Arc::new(Frame::resync(&self.key, state.epoch, state.seq)));
        if let Some(snapshot) = self.snapshot(state) {
            let _ = self.sender.send(snapshot);
        }
    }

    /// Redis answers again after this degraded topic polled on its own:
    /// it follows the resource's shared numbering again, from what Redis
    /// holds (`last`, `events`, as `seed` takes them), or, when Redis
    /// holds nothing of it, from the numbering the next leader starts.
    /// Subscribers get a `resync` (and the snapshot, when Redis had one).
    pub fn rejoin(&self, last: Option<Arc<Frame>>, events: Vec<Arc<Frame>>) {
        let mut state = self.lock();
        let idle_since = state.idle_since;
        *state = State {
            epoch: new_epoch(),
            idle_since,
            ..State::default()
        };
        if Self::seed_into(&mut state, self.replay_cap, last, events) {
            self.restart(&mut state);
        } else {
            // Subscribers keep what they hold until the next leader's
            // first answer: a snapshot at number 1, in a numbering of its
            // own that this topic adopts.
            let _ = self
                .sender
                .send(Arc::new(Frame::resync(&self.key, state.epoch, 0)));
        }
        self.mode.store(Mode::Follower as u8, Ordering::SeqCst);
    }

    /// A subscriber's first events and its channel, taken under the lock
    /// events are published under, so nothing is missed or sent twice.
    /// `from`: the `(epoch, seq)` a reconnecting client last saw.
    pub fn subscribe(&self, from: Option<(u32, u64)>) -> Start {
        let mut state = self.lock();
        let receiver = self.sender.subscribe();
        let epoch = state.epoch;
        let mut frames = Vec::new();
        if let Some(ended) = &state.ended {
            frames.push(ended.clone());
            return Start {
                frames,
                receiver,
                epoch,
            };
        }
        let replayable = from.filter(|&(from_epoch, seq)| {
            from_epoch == epoch
                && seq <= state.seq
                && (seq == state.seq || state.replay.front().is_some_and(|f| f.seq <= seq + 1))
        });
        match (replayable, from) {
            (Some((_, seq)), _) => {
                frames.extend(state.replay.iter().filter(|f| f.seq > seq).cloned());
                return Start {
                    frames,
                    receiver,
                    epoch,
                };
            }
            (None, Some(_)) => frames.push(Arc::new(Frame::resync(&self.key, epoch, state.seq))),
            (None, None) => {}
        }
        if let Some(snapshot) = self.snapshot(&mut state) {
            frames.push(snapshot);
        }
        if let Some(stale) = &state.stale_frame {
            frames.push(stale.clone());
        }
        Start {
            frames,
            receiver,
            epoch,
        }
    }

    /// The current answer as a `snapshot` at the current position, with
    /// the data's age now (the answer itself is written once).
    fn snapshot(&self, state: &mut State) -> Option<Arc<Frame>> {
        let data = state.data.as_ref()?;
        let text = match &state.data_text {
            Some(text) => text.clone(),
            None => {
                let text: Arc<RawValue> = serde_json::value::to_raw_value(data).ok()?.into();
                state.data_text = Some(text.clone());
                text
            }
        };
        let mut body = self.body::<&RawValue>();
        body.seq = state.seq;
        body.as_of = state.as_of.clone();
        body.age_ms = Some(age_now(state));
        body.polled_ms = Some(state.polled_ms);
        body.data = Some(&*text);
        Some(Arc::new(Frame::new(Kind::Snapshot, state.epoch, &body)))
    }

    /// Keeps an event for replay and sends it to the subscribers.
    fn keep(&self, state: &mut State, frame: Arc<Frame>) {
        if state.replay.len() == self.replay_cap {
            state.replay.pop_front();
        }
        state.replay.push_back(frame.clone());
        // No receiver is not an error: the topic waits out its grace.
        let _ = self.sender.send(frame);
    }

    /// Numbers one event and keeps and sends it, or, in a leader's draft,
    /// hands it to Redis (it is kept and sent when Redis took it).
    fn publish(&self, state: &mut State, kind: Kind, mut body: Body) -> Arc<Frame> {
        state.seq += 1;
        body.seq = state.seq;
        let frame = Arc::new(Frame::new(kind, state.epoch, &body));
        match &state.outbox {
            Some(outbox) => {
                let _ = outbox.send(frame.clone());
            }
            None => self.keep(state, frame.clone()),
        }
        frame
    }

    /// What an event published elsewhere says about the resource, taken
    /// into `state` (not kept, not sent).
    fn absorb(state: &mut State, frame: &Arc<Frame>) {
        let Some(body) = frame.body() else {
            return;
        };
        match frame.kind {
            Kind::Snapshot | Kind::Change => {
                state.polled_ms = body.polled_ms.unwrap_or(state.polled_ms);
                // A snapshot's age was taken when it was sent.
                let age = body.age_ms.unwrap_or(0);
                state.age_at_poll_ms = if frame.kind == Kind::Snapshot {
                    age.saturating_sub(unix_ms().saturating_sub(state.polled_ms))
                } else {
                    age
                };
                state.as_of = body.as_of;
                state.data = body.data;
                state.data_text = None;
            }
            Kind::Stale => {
                let reason = body.stale_reason().unwrap_or(StaleReason::PollFailed);
                state.stale = Some(reason);
                state.stale_frame = Some(frame.clone());
            }
            Kind::Live => {
                // A fresh answer with nothing changed: when it was polled
                // is what a replica taking over counts its interval from.
                if let Some(polled) = body.polled_ms {
                    state.polled_ms = polled;
                    state.age_at_poll_ms = body.age_ms.unwrap_or(0);
                }
                if body.as_of.is_some() {
                    state.as_of = body.as_of;
                }
                state.stale = None;
                state.stale_frame = None;
            }
            Kind::Error => state.ended = Some(frame.clone()),
            Kind::Resync => {}
        }
        state.seq = frame.seq;
    }

    /// Starts from what Redis holds of the resource: its last answer
    /// (`last`, a snapshot or change event) and its latest events, oldest
    /// first (the replay buffer). Nothing is sent: the topic is not ready
    /// yet, so nobody has subscribed.
    pub fn seed(&self, last: Option<Arc<Frame>>, events: Vec<Arc<Frame>>) {
        let mut state = self.lock();
        Self::seed_into(&mut state, self.replay_cap, last, events);
    }

    /// `seed` into `state`; whether Redis held anything of the resource.
    fn seed_into(
        state: &mut State,
        replay_cap: usize,
        last: Option<Arc<Frame>>,
        events: Vec<Arc<Frame>>,
    ) -> bool {
        let Some(epoch) = last.as_ref().or(events.last()).map(|f| f.epoch) else {
            return false;
        };
        state.epoch = epoch;
        if let Some(last) = &last {
            Self::absorb(state, last);
        }
        for frame in events.into_iter().filter(|f| f.epoch == epoch) {
            if frame.seq > state.seq {
                Self::absorb(state, &frame);
            }
            if state.replay.len() == replay_cap {
                state.replay.pop_front();
            }
            state.replay.push_back(frame);
        }
        true
    }

    /// An event Redis took (from another replica, or this one's own as a
    /// leader): kept and sent, unless already known.
    pub fn ingest(&self, frame: Arc<Frame>) {
        let mut state = self.lock();
        if state.ended.is_some() {
            return;
        }
        if frame.epoch != state.epoch && state.seq == 0 {
            // The first event, of a numbering the leader drew.
            state.epoch = frame.epoch;
        } else if frame.epoch != state.epoch {
            // The resource's numbering started again (nothing of it was
            // left in Redis): subscribers start again too.
            let idle_since = state.idle_since;
            *state = State {
                epoch: frame.epoch,
                idle_since,
                ..State::default()
            };
            let resync = Arc::new(Frame::resync(
                &self.key,
                frame.epoch,
                frame.seq.saturating_sub(1),
            ));
            let _ = self.sender.send(resync);
        } else if frame.seq <= state.seq {
            return;
        }
        Self::absorb(&mut state, &frame);
        self.keep(&mut state, frame);
    }

    /// This replica takes over the polls: when the data has gone without
    /// a poll for longer than its interval (the replica that polled
    /// stopped), subscribers are told at once. Otherwise nothing is told:
    /// the takeover made the data no older, and no fresher either, so a
    /// `stale` the subscribers hold stays until this replica's first
    /// answer (`due_in`).
    pub fn took_over(&self, now_ms: u64) -> bool {
        let mut guard = self.lock();
        let Some(state) = Self::polling(&mut guard, self.mode()) else {
            return false;
        };
        let late = now_ms.saturating_sub(state.polled_ms) as f64 > self.interval_ms();
        if state.ended.is_none() && state.data.is_some() && late {
            let failure = Failure {
                status: None,
                code: FAILOVER_CODE.into(),
                message: "the replica that polled this resource stopped; another took over".into(),
            };
            self.mark_stale(state, StaleReason::PollFailed, Some(failure), now_ms);
            return true;
        }
        false
    }

    /// A poll's answer: `snapshot` the first time, then `change` when
    /// something changed, `stale`/`live` as freshness comes and goes, and
    /// `error` once when the resource cannot be watched.
    pub fn apply(&self, answer: Answer, now_ms: u64) {
        let mut guard = self.lock();
        let Some(state) = Self::polling(&mut guard, self.mode()) else {
            return;
        };
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
                // Only what is published becomes the topic's data, so that
                // every replica holds the same.
                let (kind, changes) = match changes {
                    // The first answer: the snapshot every subscriber
                    // waiting for it receives.
                    None => (Some(Kind::Snapshot), None),
                    Some(changes) if changes.as_array().is_some_and(|c| !c.is_empty()) => {
                        (Some(Kind::Change), Some(changes))
                    }
                    Some(_) => (None, None),
                };
                if let Some(kind) = kind {
                    state.data_text = None;
                    let mut event = self.body();
                    event.as_of = Some(as_of.clone());
                    event.age_ms = Some(age_ms);
                    event.polled_ms = Some(now_ms);
                    event.changes = changes;
                    event.data = Some(body.clone());
                    state.data = Some(body);
                    self.publish(state, kind, event);
                }
                // Fresh whatever the interval: a stretched resource is
                // told stale again only once this answer grows older than
                // wanted (`tell_stretched`).
                if state.stale.take().is_some() {
                    state.stale_frame = None;
                    let mut event = self.body();
                    event.as_of = Some(as_of);
                    event.age_ms = Some(age_ms);
                    event.polled_ms = Some(now_ms);
                    self.publish(state, Kind::Live, event);
                }
            }
            Answer::Failed {
                reason,
                status,
                code,
                message,
            } => {
                let failure = Failure {
                    status,
                    code,
                    message,
                };
                self.mark_stale(state, reason, Some(failure), now_ms);
            }
            Answer::Refused {
                status,
                code,
                message,
            } => {
                let mut event = self.body();
                event.status = Some(status);
                event.code = Some(code);
                event.message = Some(message);
                let frame = self.publish(state, Kind::Error, event);
                state.ended = Some(frame);
            }
        }
    }

    /// The poll is taking longer than the interval: told at once.
    pub fn delayed(&self, reason: StaleReason, now_ms: u64) {
        let mut guard = self.lock();
        let Some(state) = Self::polling(&mut guard, self.mode()) else {
            return;
        };
        if state.ended.is_none() && state.data.is_some() {
            self.mark_stale(state, reason, None, now_ms);
        }
    }

    /// Between polls of a resource whose interval the budget stretched:
    /// once its data is older than wanted (`overdue_after_ms` since the
    /// poll), subscribers are told `stale` (`interval_stretched`), once
    /// per poll; the next answer brings `live`. Returns how long until
    /// that moment, when it is still to come.
    pub fn tell_stretched(&self, now_ms: u64) -> Option<Duration> {
        let mut guard = self.lock();
        let state = Self::polling(&mut guard, self.mode())?;
        if state.ended.is_some()
            || state.data.is_none()
            || state.stale.is_some()
            || !self.stretched()
        {
            return None;
        }
        let since = now_ms.saturating_sub(state.polled_ms) as f64;
        let after = self.overdue_after_ms();
        if since < after {
            return Some(Duration::from_secs_f64((after - since) / 1000.0));
        }
        self.mark_stale(state, StaleReason::IntervalStretched, None, now_ms);
        None
    }

    /// How long until the resource is due for a poll, from the last answer
    /// this replica knows of (its own, or, after taking over, the one the
    /// last event published) and the interval granted now. Due at once
    /// when nothing was answered yet.
    pub fn due_in(&self, now_ms: u64) -> Duration {
        let mut guard = self.lock();
        let state = guard.working();
        if state.data.is_none() || state.polled_ms == 0 {
            return Duration::ZERO;
        }
        let due = state.polled_ms as f64 + self.interval_ms();
        Duration::from_secs_f64((due - now_ms as f64).max(0.0) / 1000.0)
    }

    fn mark_stale(
        &self,
        state: &mut State,
        reason: StaleReason,
        failure: Option<Failure>,
        now_ms: u64,
    ) {
        if state.stale == Some(reason) {
            return;
        }
        state.stale = Some(reason);
        let mut event = self.body();
        event.reason = Some(reason.name().to_owned());
        event.as_of = state.as_of.clone();
        event.age_ms = state
            .data
            .is_some()
            .then(|| now_ms.saturating_sub(state.polled_ms) + state.age_at_poll_ms);
        event.interval_ms = Some(self.interval_ms().round());
        event.wanted_ms = Some(self.wanted_ms.round());
        if let Some(failure) = failure {
            event.status = failure.status;
            event.code = Some(failure.code);
            event.message = Some(failure.message);
        }
        let frame = self.publish(state, Kind::Stale, event);
        state.stale_frame = Some(frame);
    }

    /// Whether the resource cannot be watched (as this replica's polls
    /// found, while it leads).
    pub fn ended(&self) -> bool {
        self.lock().working().ended.is_some()
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
        // Told when the poll takes longer than the interval wanted, but not
        // for the blink of a busy machine when intervals are short.
        let patience = Duration::from_secs_f64(live::patience_ms(self.wanted_ms) / 1000.0);
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

/// A numbering drawn at random, so that an old position is told apart.
fn new_epoch() -> u32 {
    let mut epoch = [0u8; 4];
    let _ = getrandom::fill(&mut epoch);
    u32::from_le_bytes(epoch)
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
    use serde_json::json;

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
            t.relayed();
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
            // Redis takes it.
            leader.ingest(frame.clone());
            sent.push(frame);
        }
        // Starts from the last answer and the events Redis holds.
        let follower = topic();
        follower.relayed();
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
    fn a_leader_shows_its_events_only_once_redis_took_them() {
        let leader = topic();
        leader.relayed();
        let mut watcher = leader.subscribe(None);
        let (outbox, mut published) = mpsc::unbounded_channel();
        leader.lead(outbox);
        leader.apply(fresh(0.1), 1_000);
        let first = published.try_recv().expect("handed to Redis");
        assert!(
            drain(&mut watcher.receiver).is_empty(),
            "not shown before Redis took it"
        );
        leader.ingest(first);
        assert_eq!(kinds(&drain(&mut watcher.receiver)), ["snapshot"]);

        // Another replica took the lease meanwhile and numbers 2 itself.
        let rival = topic();
        rival.relayed();
        rival.seed(
            None,
            vec![leader.subscribe(Some((leader.epoch(), 0))).frames[0].clone()],
        );
        let (rival_out, mut rival_published) = mpsc::unbounded_channel();
        rival.lead(rival_out);
        rival.apply(fresh(0.3), 2_500);
        let theirs = rival_published.try_recv().expect("the rival's event");

        // This replica's next poll is refused by Redis: nobody sees it,
        // not even a subscriber that joins before the refusal.
        leader.apply(fresh(0.2), 2_000);
        let refused = published.try_recv().expect("handed to Redis");
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
        // The next answer builds on what Redis took, not on the refused.
        let (outbox, mut published) = mpsc::unbounded_channel();
        leader.lead(outbox);
        leader.apply(fresh(0.3), 3_000);
        assert!(published.try_recv().is_err(), "0.3 is no change");
    }

    #[test]
    fn degraded_topics_number_apart_and_rejoin_the_shared_numbering() {
        let t = topic();
        t.relayed();
        let (outbox, mut published) = mpsc::unbounded_channel();
        t.lead(outbox);
        t.apply(fresh(0.1), 1_000);
        let shared = published.try_recv().expect("handed to Redis");
        t.ingest(shared.clone());
        let mut watcher = t.subscribe(None);
        let epoch = t.epoch();
        // Redis fails: a numbering of this replica's own.
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
        // Redis is back, holding what the leader published: followed again.
        t.rejoin(Some(shared.clone()), vec![shared]);
        assert_eq!((t.mode(), t.epoch(), t.seq()), (Mode::Follower, epoch, 1));
        let got = drain(&mut watcher.receiver);
        assert_eq!(kinds(&got), ["resync", "snapshot"]);
        assert_eq!(
            (got[1].epoch, got[1].seq, price(&got[1])),
            (epoch, 1, json!(0.1))
        );
        // Redis lost everything: the next leader's numbering is adopted.
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
}
