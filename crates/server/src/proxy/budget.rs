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
//! (per proxy key; one lane for background refreshes), and a dispatcher
//! hands each free slot to the next lane in round-robin order, so a visitor
//! paging hard cannot starve one asking once. Before queueing, the wait is
//! estimated from the lanes ahead; above `--upstream-max-wait` the visitor
//! gets 429 `RATE_LIMITED` with `Retry-After` at once rather than a hang.

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

#[derive(Default)]
struct Queue {
    lanes: HashMap<u64, VecDeque<oneshot::Sender<()>>>,
    /// Lanes with waiters, in serving order.
    ring: VecDeque<u64>,
    len: usize,
}

impl Queue {
    /// The next waiter in round-robin order.
    fn pop(&mut self) -> Option<oneshot::Sender<()>> {
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
        let max_wait_ms = max_wait.as_secs_f64() * 1000.0;
        let receiver = {
            let mut guard = lock(&self.queue);
            let queue = &mut *guard;
            let mine = queue.lanes.get(&lane).map_or(0, VecDeque::len);
            // Round-robin: before this request go `mine` of this lane and,
            // of every other lane, as many as it has up to `mine + 1`.
            let ahead: usize = queue
                .lanes
                .iter()
                .filter(|(l, _)| **l != lane)
                .map(|(_, w)| w.len().min(mine + 1))
                .sum::<usize>()
                + mine;
            let wait = self.wait_estimate(now()) + ahead as f64 * self.params().t_ms;
            if wait > max_wait_ms || queue.len >= MAX_QUEUE {
                return Err(Rejected {
                    retry_after_secs: retry_secs(wait),
                });
            }
            let (sender, receiver) = oneshot::channel();
            let waiters = queue.lanes.entry(lane).or_default();
            if waiters.is_empty() {
                queue.ring.push_back(lane);
            }
            waiters.push_back(sender);
            queue.len += 1;
            receiver
        };
        self.wake.notify_one();
        // The estimate can be wrong (the upstream lowered the limit, another
        // replica took slots): the wait itself is bounded too.
        match tokio::time::timeout(max_wait + Duration::from_millis(250), receiver).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(Rejected {
                retry_after_secs: retry_secs(self.wait_estimate(now()).max(1000.0)),
            }),
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
                while let Some(waiter) = queue.pop() {
                    if waiter.send(()).is_ok() {
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

#[cfg(test)]
mod tests {
    use super::*;

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
            let (tx, rx) = oneshot::channel();
            let waiters = queue.lanes.entry(lane).or_default();
            if waiters.is_empty() {
                queue.ring.push_back(lane);
            }
            waiters.push_back(tx);
            queue.len += 1;
            receivers.push((lane, rx));
        }
        // 1, 2, 1, 1: lane 2's single request goes second, not last.
        let mut order = Vec::new();
        while let Some(tx) = queue.pop() {
            let _ = tx.send(());
            for (lane, rx) in receivers.iter_mut() {
                if rx.try_recv().is_ok() {
                    order.push(*lane);
                }
            }
        }
        assert_eq!(order, [1, 2, 1, 1]);
        assert_eq!(queue.len, 0);
    }
}
