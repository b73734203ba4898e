//! One upstream budget, shared fairly by the visitors.
//!
//! The limiter is GCRA (a leaky bucket kept as one "theoretical arrival
//! time"), tuned so that no 60-second window can hold more than the
//! upstream's limit `L`, whatever the upstream's own window looks like
//! (the reference server counts a rolling minute): a burst of `B = L/10`
//! and then one request per `61 s / (L - B)`. In any window of `W` seconds
//! GCRA admits at most `B + W / T` requests, i.e. `B + (L - B) * 60/61 < L`;
//! the extra second absorbs the skew between our clock and the upstream's.
//! Locally the state lives in a mutex; with `--redis` it lives in Redis and
//! is updated by one Lua script, so replicas draw on one budget (and while
//! Redis is down, in the mutex again, at the replica's fallback share of
//! the limit: `shared`).
//!
//! Fairness: requests that need the upstream wait in one FIFO per visitor
//! (per proxy key, or per client address with `--public-proxy`; one lane
//! for background refreshes), and a dispatcher hands each free slot to the
//! next lane in round-robin order, so a visitor paging hard cannot starve
//! one asking once. Before queueing, the wait is estimated from the lanes
//! ahead; above `--upstream-max-wait` the visitor gets 429 `RATE_LIMITED`
//! with `Retry-After` at once rather than a hang.
//!
//! A request waits as a [`Ticket`]. Visitors who join an identical request
//! in flight put its ticket in their own lanes too ([`Budget::join`]): the
//! request takes the first slot any of its lanes is given, so a joiner
//! waits for its own turn, not for its turn in another visitor's queue.

use super::metrics::Metrics;
use super::shared::Shared;
use predmarket_core::rate::RateLimitHeaders;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, oneshot};

/// The window the limit is spread over, with a second of margin.
pub const WINDOW_MS: f64 = 61_000.0;
/// Waiting requests at most, whatever the estimate says.
pub const MAX_QUEUE: usize = 4096;
/// Pause after an upstream 429 that carries no `Retry-After`.
pub const DEFAULT_429_PAUSE_MS: f64 = 10_000.0;
/// The lane of background refreshes (visitors' lanes are small numbers or
/// hashes; this one is out of their way).
pub const REFRESH_LANE: u64 = u64::MAX;

/// The lane of the streams' pollers (`proxy::poll`): one lane for all of
/// them, so however many resources are watched, visitors keep their turns.
pub const STREAM_LANE: u64 = u64::MAX - 1;

/// Whether `lane` is a visitor's, not one of the proxy's own (refreshes,
/// the streams' pollers).
pub fn is_visitors(lane: u64) -> bool {
    lane != REFRESH_LANE && lane != STREAM_LANE
}

/// How long a stream's poll may wait for its slot (visitors wait at most
/// `--upstream-max-wait`): long enough for the first polls of every
/// watched resource at once, queued one slot apart, and for a pause after
/// an upstream 429.
pub const STREAM_MAX_WAIT: Duration = Duration::from_millis(2 * WINDOW_MS as u64);

/// GCRA parameters for a limit per minute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Milliseconds between two requests at the steady rate.
    pub t_ms: f64,
    /// How far ahead of the steady rate a burst may run.
    pub tau_ms: f64,
    pub burst: u32,
}

impl Params {
    pub fn for_limit(limit: u32) -> Self {
        let limit = limit.max(1);
        let burst = (limit / 10).clamp(1, limit);
        let rate = (limit - burst).max(1);
        let t_ms = WINDOW_MS / f64::from(rate);
        Self {
            t_ms,
            tau_ms: f64::from(burst - 1) * t_ms,
            burst,
        }
    }
}

/// Why a request gets no slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejected {
    pub retry_after_secs: u64,
}

/// One request's wait for slots, possibly queued in several lanes (its
/// starter's and its joiners'). Each wait is a new round: places queued in
/// an earlier round are dead.
#[derive(Default)]
pub struct Ticket {
    state: Mutex<TicketState>,
}

#[derive(Default)]
struct TicketState {
    round: u64,
    /// Set while a round waits; taken by the first place served.
    sender: Option<oneshot::Sender<()>>,
    /// Its starter's lane and its joiners', queued in every round from
    /// the one they joined on.
    lanes: Vec<u64>,
}

impl Ticket {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// A ticket whose starter waits in `lane` (a joiner from that lane
    /// adds no second place).
    pub fn in_lane(lane: u64) -> Arc<Self> {
        let ticket = Self::new();
        lock(&ticket.state).lanes.push(lane);
        ticket
    }
}

/// A ticket's place in a lane for one round.
struct Place {
    ticket: Arc<Ticket>,
    round: u64,
}

impl Place {
    /// Hands the slot to the ticket; false when that round is over (served
    /// through another lane, or given up).
    fn serve(self) -> bool {
        let mut state = lock(&self.ticket.state);
        if state.round != self.round {
            return false;
        }
        state
            .sender
            .take()
            .is_some_and(|sender| sender.send(()).is_ok())
    }
}

#[derive(Default)]
struct Queue {
    lanes: HashMap<u64, VecDeque<Place>>,
    /// Lanes with waiters, in serving order.
    ring: VecDeque<u64>,
    len: usize,
}

impl Queue {
    /// The next place in round-robin order.
    fn pop(&mut self) -> Option<Place> {
        let lane = self.ring.pop_front()?;
        let waiters = self.lanes.get_mut(&lane)?;
        let waiter = waiters.pop_front();
        if waiters.is_empty() {
            self.lanes.remove(&lane);
        } else {
            self.ring.push_back(lane);
        }
        if waiter.is_some() {
            self.len -= 1;
        }
        waiter
    }

    fn push(&mut self, lane: u64, place: Place) {
        let waiters = self.lanes.entry(lane).or_default();
        if waiters.is_empty() {
            self.ring.push_back(lane);
        }
        waiters.push_back(place);
        self.len += 1;
    }

    /// Places before a new one in `lane`: `mine` of this lane and, of
    /// every other lane, as many as it has up to `mine + 1`.
    fn ahead(&self, lane: u64) -> usize {
        let mine = self.lanes.get(&lane).map_or(0, VecDeque::len);
        self.lanes
            .iter()
            .filter(|(l, _)| **l != lane)
            .map(|(_, w)| w.len().min(mine + 1))
            .sum::<usize>()
            + mine
    }
}

pub struct Budget {
    configured: u32,
    /// In force: `configured` or lower, as the upstream's headers said.
    limit: AtomicU32,
    queue: Mutex<Queue>,
    wake: Notify,
    /// Local GCRA state: the theoretical arrival time, Unix ms.
    tat: Mutex<f64>,
    shared: Option<Arc<Shared>>,
    metrics: Arc<Metrics>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn now() -> f64 {
    super::cache::now_ms() as f64
}

fn retry_secs(wait_ms: f64) -> u64 {
    (wait_ms / 1000.0).ceil().max(1.0) as u64
}

impl Budget {
    pub fn new(limit: u32, shared: Option<Arc<Shared>>, metrics: Arc<Metrics>) -> Arc<Self> {
        Arc::new(Self {
            configured: limit.max(1),
            limit: AtomicU32::new(limit.max(1)),
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
            tat: Mutex::new(0.0),
            shared,
            metrics,
        })
    }

    /// Starts the dispatcher; it runs until the returned handle is aborted.
    pub fn start(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let budget = self.clone();
        tokio::spawn(async move { budget.dispatch().await })
    }

    pub fn limit(&self) -> u32 {
        self.limit.load(Ordering::Relaxed)
    }

    fn params(&self) -> Params {
        let limit = self.limit();
        match &self.shared {
            Some(shared) if !shared.up() => Params::for_limit(shared.fallback_limit(limit)),
            _ => Params::for_limit(limit),
        }
    }

    /// Redis, unless there is none or it is down (the local state then
    /// stands in).
    fn redis(&self) -> Option<&Shared> {
        self.shared.as_deref().filter(|shared| shared.up())
    }

    /// Waits for an upstream slot in `lane`'s FIFO, at most `max_wait`.
    pub async fn acquire(&self, lane: u64, max_wait: Duration) -> Result<(), Rejected> {
        self.acquire_ticket(&Ticket::new(), lane, max_wait).await
    }

    /// Waits for an upstream slot, at most `max_wait`, in `lane` and in
    /// the lanes of the ticket's joiners: the first of them served wins.
    pub async fn acquire_ticket(
        &self,
        ticket: &Arc<Ticket>,
        lane: u64,
        max_wait: Duration,
    ) -> Result<(), Rejected> {
        let max_wait_ms = max_wait.as_secs_f64() * 1000.0;
        let receiver = {
            let mut queue = lock(&self.queue);
            let mut state = lock(&ticket.state);
            let mut lanes = state.lanes.clone();
            lanes.push(lane);
            lanes.sort_unstable();
            lanes.dedup();
            // Its best place decides the estimate.
            let ahead = lanes.iter().map(|l| queue.ahead(*l)).min().unwrap_or(0);
            let wait = self.wait_estimate(now()) + ahead as f64 * self.params().t_ms;
            if wait > max_wait_ms || queue.len >= MAX_QUEUE {
                return Err(Rejected {
                    retry_after_secs: retry_secs(wait),
                });
            }
            let (sender, receiver) = oneshot::channel();
            state.round += 1;
            state.sender = Some(sender);
            for lane in lanes {
                queue.push(
                    lane,
                    Place {
                        ticket: ticket.clone(),
                        round: state.round,
                    },
                );
            }
            receiver
        };
        self.wake.notify_one();
        // The estimate can be wrong (the upstream lowered the limit, another
        // replica took slots): the wait itself is bounded too.
        let served = tokio::time::timeout(max_wait + Duration::from_millis(250), receiver).await;
        // Ends the round: its places left in other lanes are dead.
        lock(&ticket.state).sender = None;
        match served {
            Ok(Ok(())) => Ok(()),
            _ => Err(Rejected {
                retry_after_secs: retry_secs(self.wait_estimate(now()).max(1000.0)),
            }),
        }
    }

    /// A visitor in `lane` joins the request waiting with `ticket`: the
    /// ticket is queued in `lane` now (when it waits) and in later rounds
    /// (a retry).
    pub fn join(&self, ticket: &Arc<Ticket>, lane: u64) {
        let mut queue = lock(&self.queue);
        let mut state = lock(&ticket.state);
        if state.lanes.contains(&lane) {
            return;
        }
        state.lanes.push(lane);
        if state.sender.is_some() && queue.len < MAX_QUEUE {
            queue.push(
                lane,
                Place {
                    ticket: ticket.clone(),
                    round: state.round,
                },
            );
        }
    }

    /// Milliseconds until the next slot frees, as far as this replica knows.
    fn wait_estimate(&self, now: f64) -> f64 {
        let tat = match self.redis() {
            Some(shared) => shared.last_tat(),
            None => *lock(&self.tat),
        };
        (tat - self.params().tau_ms - now).max(0.0)
    }

    /// Requests that could go upstream right now.
    pub fn left(&self) -> u32 {
        let p = self.params();
        let tat = match self.redis() {
            Some(shared) => shared.last_tat(),
            None => *lock(&self.tat),
        };
        let now = now();
        if tat <= now {
            return p.burst;
        }
        let free = ((now - (tat - p.tau_ms)) / p.t_ms).floor() + 1.0;
        free.clamp(0.0, f64::from(p.burst)) as u32
    }

    /// Requests that could go upstream within the next minute: the burst
    /// left now and the steady rate after it (none while a pause lasts).
    /// This, not [`Budget::left`] (at most the burst, a tenth of the
    /// limit), is what a watch scheduler's "left in the window" means.
    pub fn left_in_minute(&self) -> u32 {
        let tat = match self.redis() {
            Some(shared) => shared.last_tat(),
            None => *lock(&self.tat),
        };
        admissible_within(self.params(), tat, now(), 60_000.0)
    }

    pub fn queued(&self) -> usize {
        lock(&self.queue).len
    }

    async fn dispatch(&self) {
        loop {
            if lock(&self.queue).len == 0 {
                // A notify_one between the check and here leaves a permit,
                // so no wake-up is lost.
                self.wake.notified().await;
                continue;
            }
            match self.take().await {
                Ok(()) => {}
                Err(wait_ms) => {
                    // Re-checked at least every 250 ms: the queue may have
                    // emptied, another replica may have paused the budget.
                    tokio::time::sleep(Duration::from_secs_f64(
                        (wait_ms.clamp(1.0, 250.0)) / 1000.0,
                    ))
                    .await;
                    continue;
                }
            }
            let handed = {
                let mut queue = lock(&self.queue);
                let mut handed = false;
                while let Some(place) = queue.pop() {
                    if place.serve() {
                        handed = true;
                        break;
                    }
                }
                handed
            };
            if !handed {
                self.refund().await;
            }
        }
    }

    /// Takes one slot now, or says how long until one frees.
    async fn take(&self) -> Result<(), f64> {
        if let Some(shared) = self.redis()
            && let Some(taken) = shared.take(self.params()).await
        {
            return taken;
        }
        let p = self.params();
        let now = now();
        let mut tat = lock(&self.tat);
        let at = tat.max(now);
        if now < at - p.tau_ms {
            return Err(at - p.tau_ms - now);
        }
        *tat = at + p.t_ms;
        if self.shared.is_some() {
            self.metrics
                .redis_fallback_slots
                .fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Gives back a slot nobody took (every waiter had left).
    async fn refund(&self) {
        let p = self.params();
        match self.redis() {
            Some(shared) => shared.refund(p).await,
            None => *lock(&self.tat) -= p.t_ms,
        }
    }

    /// Learns from an upstream answer: a lower `X-RateLimit-Limit`, an
    /// exhausted `X-RateLimit-Remaining`, a 429 (pause for its
    /// `Retry-After`, or 10 s without one, rather than retry into a storm).
    pub async fn observe(&self, status: u16, rate: &RateLimitHeaders) {
        if let Some(limit) = rate.limit.filter(|l| *l >= 1) {
            self.limit
                .store(limit.min(self.configured), Ordering::Relaxed);
        }
        let pause_ms = if status == 429 {
            Some(
                rate.retry_after_secs
                    .map_or(DEFAULT_429_PAUSE_MS, |s| s * 1000.0),
            )
        } else if rate.remaining == Some(0) {
            Some(rate.reset_secs.map_or(WINDOW_MS, |s| s * 1000.0))
        } else {
            None
        };
        if let Some(pause_ms) = pause_ms {
            let pause_ms = pause_ms.clamp(0.0, 10.0 * WINDOW_MS);
            self.metrics.pauses.fetch_add(1, Ordering::Relaxed);
            let p = self.params();
            match self.redis() {
                Some(shared) => shared.defer(pause_ms, p).await,
                None => {
                    let mut tat = lock(&self.tat);
                    *tat = tat.max(now() + pause_ms + p.tau_ms);
                }
            }
        }
    }
}

/// How many requests GCRA admits from `now` to `now + window_ms`, asked
/// back to back, with the theoretical arrival time at `tat`.
fn admissible_within(p: Params, tat: f64, now: f64, window_ms: f64) -> u32 {
    // The first goes at `max(now, tat - tau)`, each next one `t` later.
    let first = now.max(tat - p.tau_ms);
    let span = now + window_ms - first;
    if span < 0.0 {
        return 0;
    }
    let backlog = ((tat.max(now) - now) / p.t_ms).ceil().max(0.0);
    let idle_burst = f64::from(p.burst) - backlog.min(f64::from(p.burst));
    // Idle: the burst at once, then one per `t`.
    let count = if tat - p.tau_ms <= now {
        idle_burst + (window_ms / p.t_ms).floor()
    } else {
        (span / p.t_ms).floor() + 1.0
    };
    count.clamp(0.0, f64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `admissible_within` against the limiter itself, stepped in 1 ms.
    #[test]
    fn left_in_a_minute_is_what_the_limiter_admits() {
        for limit in [10, 100, 600] {
            let p = Params::for_limit(limit);
            // Idle, half-spent burst, all spent, paused for 30 s and 90 s.
            for tat in [
                0.0,
                5.0 * p.t_ms,
                200_000.0 + p.tau_ms,
                230_000.0 + p.tau_ms,
                290_000.0 + p.tau_ms,
            ] {
                let now = 200_000.0;
                let said = admissible_within(p, tat.max(now - 1.0), now, 60_000.0);
                let mut sim = tat.max(now - 1.0);
                let mut admitted = 0u32;
                let mut at = now;
                while at < now + 60_000.0 {
                    let next = sim.max(at);
                    if at >= next - p.tau_ms {
                        sim = next + p.t_ms;
                        admitted += 1;
                    } else {
                        at += 1.0;
                    }
                }
                assert!(
                    said.abs_diff(admitted) <= 1,
                    "limit {limit}, tat {tat}: said {said}, admitted {admitted}"
                );
            }
            // The scheduler's reserve is not the budget's burst: an idle
            // budget has far more than it left in a minute.
            let idle = admissible_within(p, 0.0, 200_000.0, 60_000.0);
            assert!(idle > limit * 8 / 10, "limit {limit}: {idle}");
        }
    }

    /// At most `limit` admissions in any 60 s window, simulated over ten
    /// minutes of a client that asks every 10 ms.
    #[test]
    fn no_window_holds_more_than_the_limit() {
        for limit in [1, 2, 10, 60, 100, 1000] {
            let p = Params::for_limit(limit);
            let mut tat: f64 = 0.0;
            let mut admitted = Vec::new();
            let mut now = 0.0;
            while now < 600_000.0 {
                let at = tat.max(now);
                if now >= at - p.tau_ms {
                    tat = at + p.t_ms;
                    admitted.push(now);
                }
                now += 10.0;
            }
            let mut max = 0;
            for (i, t) in admitted.iter().enumerate() {
                let n = admitted[i..]
                    .iter()
                    .take_while(|u| **u < t + 60_000.0)
                    .count();
                max = max.max(n);
            }
            assert!(max <= limit as usize, "limit {limit}: {max} in a minute");
            // And most of the budget is used.
            assert!(
                max as f64 >= f64::from(limit) * 0.9 - 1.0,
                "limit {limit}: {max}"
            );
        }
    }

    #[test]
    fn round_robin_serves_lanes_in_turn() {
        let mut queue = Queue::default();
        let mut receivers = Vec::new();
        for lane in [1u64, 1, 1, 2] {
            let (ticket, rx) = waiting();
            queue.push(lane, Place { ticket, round: 1 });
            receivers.push((lane, rx));
        }
        // 1, 2, 1, 1: lane 2's single request goes second, not last.
        let mut order = Vec::new();
        while let Some(place) = queue.pop() {
            assert!(place.serve());
            for (lane, rx) in receivers.iter_mut() {
                if rx.try_recv().is_ok() {
                    order.push(*lane);
                }
            }
        }
        assert_eq!(order, [1, 2, 1, 1]);
        assert_eq!(queue.len, 0);
    }

    /// A ticket waiting in round 1 with its receiver.
    fn waiting() -> (Arc<Ticket>, oneshot::Receiver<()>) {
        let ticket = Ticket::new();
        let (tx, rx) = oneshot::channel();
        {
            let mut state = lock(&ticket.state);
            state.round = 1;
            state.sender = Some(tx);
        }
        (ticket, rx)
    }

    /// A joiner's place is served in its own lane's turn, and the
    /// ticket's place in the starter's lane is then dead.
    #[test]
    fn a_ticket_is_served_from_its_best_lane_once() {
        let mut queue = Queue::default();
        // The starter's lane 1 holds five others first.
        let mut others = Vec::new();
        for _ in 0..5 {
            let (ticket, rx) = waiting();
            queue.push(1, Place { ticket, round: 1 });
            others.push(rx);
        }
        let (shared, mut shared_rx) = waiting();
        queue.push(
            1,
            Place {
                ticket: shared.clone(),
                round: 1,
            },
        );
        queue.push(
            2,
            Place {
                ticket: shared.clone(),
                round: 1,
            },
        );
        // Lane 1's first, then lane 2: the joined ticket.
        assert!(queue.pop().is_some_and(Place::serve));
        assert!(queue.pop().is_some_and(Place::serve));
        assert!(shared_rx.try_recv().is_ok());
        // The rest of lane 1: four live places, then the dead one.
        let served: Vec<bool> = std::iter::from_fn(|| queue.pop().map(Place::serve)).collect();
        assert_eq!(served, [true, true, true, true, false]);
        assert_eq!(queue.len, 0);
    }
}
