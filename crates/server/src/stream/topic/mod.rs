//! One watched resource: its numbering, its last answer, the events it
//! published (a bounded replay buffer, `state`) and the channel its
//! subscribers read; what a poll's answer publishes is `apply`. One topic
//! per resource whatever the audience: the first subscriber starts its
//! poller, and the poller stops a grace period after the last one left.
//!
//! A topic does not know where its events are kept. Its broker
//! (`broker`, through `replicate`) decides which replica polls the
//! resource: the one holding the lease numbers its events and hands them
//! to the broker, and every replica's topic, that one's included, shows
//! its subscribers the events the broker took (`ingest`), so a position is
//! the same on every replica. Every subscriber of every topic receives
//! the `Arc<Frame>`s sent on its channel (`subscribe`), nothing else.

mod apply;
mod state;

use super::frame::{Frame, Kind};
use predmarket_core::HttpRequest;
use predmarket_core::change::WatchKind;
use predmarket_core::live::{self, Body};
use serde_json::value::RawValue;
use state::State;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, broadcast, mpsc};
use tokio::time::Instant;

/// How long a snapshot built for one subscriber serves the next ones: its
/// `age_ms` is then off by less than this, as the `Age` header's whole
/// seconds are.
pub const SNAPSHOT_SHARED_MS: u64 = 1_000;

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
    /// This replica, for its own subscribers, under no broker (a topic
    /// before the hub hands it to one).
    Alone = 0,
    /// Another replica holds the lease; this one takes in its events.
    Follower = 1,
    /// This replica holds the lease and publishes through the broker.
    Leader = 2,
    /// The broker failed: this replica polls for its own clients.
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
    /// Set once the topic knows where the resource is (after reading it
    /// from its broker), so a subscriber starts from there.
    ready: AtomicBool,
    ready_notify: Notify,
    replay_cap: usize,
    /// The stream's heartbeat (ms): with the interval, the deadline each
    /// event announces (`stale_after_ms`).
    heartbeat_ms: f64,
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

    /// A topic under a broker: it follows until it takes the lease, and
    /// is not ready until it was read from the broker.
    pub fn brokered(&self) {
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
    /// events come back through `ingest` once the broker took them.
    pub fn lead(&self, outbox: mpsc::UnboundedSender<Arc<Frame>>) {
        let mut state = self.lock();
        let draft = state.draft(outbox);
        state.draft = Some(Box::new(draft));
        self.mode.store(Mode::Leader as u8, Ordering::SeqCst);
        self.leadership.notify_one();
    }

    /// Another replica polls from now on: what this one polled and the
    /// broker did not take is forgotten, unseen.
    pub fn follow(&self) {
        let mut state = self.lock();
        state.draft = None;
        if self.mode() == Mode::Leader {
            self.mode.store(Mode::Follower as u8, Ordering::SeqCst);
        }
    }

    /// The broker failed: this replica polls for its own clients from now
    /// on.
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

    /// The broker answers again after this degraded topic polled on its
    /// own: it follows the resource's shared numbering again, from what
    /// the broker holds (`last`, `events`, as `seed` takes them), or, when
    /// it holds nothing of it, from the numbering the next leader starts.
    /// Subscribers get a `resync` (and the snapshot, when it had one).
    pub fn rejoin(&self, last: Option<Arc<Frame>>, events: Vec<Arc<Frame>>) {
        let mut state = self.lock();
        let idle_since = state.idle_since;
        *state = State {
            epoch: new_epoch(),
            idle_since,
            ..State::default()
        };
        if state.seed(self.replay_cap, last, events, unix_ms()) {
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
        if let Some(refused) = state.refused.as_mut() {
            // Told only while it is as young as the negative cache keeps
            // one; a viewer after that waits for the next poll, due now
            // (the draft's, while this replica leads).
            if unix_ms().saturating_sub(refused.at_ms) <= apply::refusal_told_ms() {
                frames.push(refused.frame.clone());
            } else {
                refused.asked = true;
                if let Some(refused) = state.working().refused.as_mut() {
                    refused.asked = true;
                }
                drop(state);
                self.audience.notify_one();
            }
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
    /// the data's age now (the answer itself is written once). Subscribers
    /// that come within [`SNAPSHOT_SHARED_MS`] of one another share one
    /// snapshot while any of their streams holds it: an open of many
    /// streams (a burst of viewers, or one visitor's streams that do not
    /// read) holds one copy of the answer, not one per stream.
    fn snapshot(&self, state: &mut State) -> Option<Arc<Frame>> {
        let now = unix_ms();
        if let Some((built, shared)) = &state.snapshot
            && now.saturating_sub(*built) < SNAPSHOT_SHARED_MS
            && let Some(shared) = shared.upgrade()
            && (shared.epoch, shared.seq) == (state.epoch, state.seq)
        {
            return Some(shared);
        }
        let frame = self.build_snapshot(state)?;
        state.snapshot = Some((now, Arc::downgrade(&frame)));
        Some(frame)
    }

    fn build_snapshot(&self, state: &mut State) -> Option<Arc<Frame>> {
        let text = match (&state.data_text, &state.data) {
            (Some(text), _) => text.clone(),
            (None, Some(data)) => {
                let text: Arc<RawValue> = serde_json::value::to_raw_value(data).ok()?.into();
                state.data_text = Some(text.clone());
                text
            }
            (None, None) => return None,
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
    /// hands it to the broker (it is kept and sent when the broker took
    /// it).
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

    /// Starts from what the broker holds of the resource: its last
    /// answer (`last`, a snapshot or change event) and its latest events,
    /// oldest first (the replay buffer). Nothing is sent: the topic is not
    /// ready yet, so nobody has subscribed.
    pub fn seed(&self, last: Option<Arc<Frame>>, events: Vec<Arc<Frame>>) {
        self.lock().seed(self.replay_cap, last, events, unix_ms());
    }

    /// An event the broker took (from another replica, or this one's own
    /// as a leader): kept and sent, unless already known.
    pub fn ingest(&self, frame: Arc<Frame>) {
        let mut state = self.lock();
        if frame.epoch != state.epoch && state.seq == 0 {
            // The first event, of a numbering the leader drew.
            state.epoch = frame.epoch;
        } else if frame.epoch != state.epoch {
            // The resource's numbering started again (nothing of it was
            // left in the broker): subscribers start again too.
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
        state.absorb(&frame, unix_ms());
        self.keep(&mut state, frame);
    }

    /// The broker would not keep the event this replica's draft numbered
    /// `frame.seq`: the draft takes in what was published in its place.
    pub fn stand_in(&self, frame: &Arc<Frame>) {
        let mut state = self.lock();
        if let Some(draft) = state.draft.as_mut() {
            draft.absorb(frame, unix_ms());
        }
    }

    /// Whether the upstream refuses the resource (as this replica's polls
    /// found, while it leads): it is polled again with backoff only.
    pub fn refused(&self) -> bool {
        self.lock().working().refused.is_some()
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

#[cfg(test)]
mod tests;
