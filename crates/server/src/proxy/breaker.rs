//! The circuit breaker: after `threshold` upstream failures in a row (what
//! `judge` counts: connect errors, timeouts, 5xx; never an answer a visitor
//! could choose) no request goes upstream for `cooldown`; then one probe is
//! let through (half-open), the proxy's own cheap request. The probe's
//! success closes the circuit, its failure opens it again. While open,
//! visitors get stale data or a 503 with `Retry-After` at once.
//!
//! A failure that one request can cause by itself (a timeout of a costly
//! query, a 5xx of one id) is counted with its cache key and the visitor
//! who asked (their key, or their address in public mode), and the circuit
//! opens on those only when they come from more than one request and more
//! than one visitor: one visitor sending bad requests, one or many, cannot
//! switch the proxy off for everyone. A connect error says nothing about
//! the request and counts alone.

use std::sync::Mutex;
use std::time::Duration;

/// What one upstream request said about the upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    Success,
    /// A failure of any request (a connect error).
    Down,
    /// A failure this request may have caused (a timeout, a 5xx): the
    /// hash of its cache key, and the lane of the visitor who asked.
    Failed {
        key: u64,
        visitor: u64,
    },
}

#[derive(Debug, Default)]
struct State {
    failures: u32,
    /// Whether one of the failures in a row was `Report::Down`.
    down: bool,
    /// The distinct keys of the `Report::Failed` in a row (two are enough).
    keys: Vec<u64>,
    /// The distinct visitors of those failures (two are enough).
    visitors: Vec<u64>,
    /// Unix ms until which the circuit is open.
    open_until: Option<u64>,
    /// A half-open probe is under way.
    probing: bool,
}

pub struct Breaker {
    state: Mutex<State>,
    threshold: u32,
    cooldown: Duration,
}

/// What `admit` decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    Closed,
    /// The one request of a half-open circuit.
    Probe,
}

impl Breaker {
    pub fn new(threshold: u32, cooldown: Duration) -> Self {
        Self {
            state: Mutex::new(State::default()),
            threshold: threshold.max(1),
            cooldown,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// May a request go upstream now? `Err(ms)`: not for that long.
    pub fn admit(&self, now_ms: u64) -> Result<Admit, u64> {
        let mut state = self.lock();
        match state.open_until {
            None => Ok(Admit::Closed),
            Some(until) if now_ms < until => Err(until - now_ms),
            // Another request is the probe: wait for its verdict.
            Some(_) if state.probing => Err(1000),
            Some(_) => {
                state.probing = true;
                Ok(Admit::Probe)
            }
        }
    }

    /// The verdict of a request that went upstream. Returns whether the
    /// circuit changed between open and closed (for the log).
    pub fn record(&self, report: Report, now_ms: u64) -> Option<bool> {
        let mut state = self.lock();
        let was_open = state.open_until.is_some();
        if report == Report::Success {
            *state = State::default();
        } else {
            state.failures += 1;
            match report {
                Report::Failed { key, visitor } => {
                    if !state.keys.contains(&key) && state.keys.len() < 2 {
                        state.keys.push(key);
                    }
                    if !state.visitors.contains(&visitor) && state.visitors.len() < 2 {
                        state.visitors.push(visitor);
                    }
                }
                Report::Down => state.down = true,
                Report::Success => {}
            }
            let not_one_visitor =
                state.down || (state.keys.len() >= 2 && state.visitors.len() >= 2);
            let not_one_request = not_one_visitor || self.threshold == 1;
            if state.probing || (state.failures >= self.threshold && not_one_request) {
                state.open_until = Some(now_ms + self.cooldown.as_millis() as u64);
                state.probing = false;
            }
        }
        let open = state.open_until.is_some();
        (open != was_open).then_some(open)
    }

    /// A probe that never went upstream (no budget): let another try.
    pub fn cancel(&self, admit: Admit) {
        if admit == Admit::Probe {
            self.lock().probing = false;
        }
    }

    /// 0 closed, 1 open, 2 half-open (probing).
    pub fn gauge(&self) -> u8 {
        let state = self.lock();
        match (state.open_until, state.probing) {
            (None, _) => 0,
            (Some(_), true) => 2,
            (Some(_), false) => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_failures_and_probes_once() {
        let breaker = Breaker::new(3, Duration::from_secs(10));
        assert_eq!(breaker.admit(0), Ok(Admit::Closed));
        assert_eq!(breaker.record(Report::Down, 0), None);
        assert_eq!(breaker.record(failed(1, 1), 0), None);
        assert_eq!(breaker.record(failed(1, 1), 0), Some(true));
        assert_eq!(breaker.admit(5_000), Err(5_000));
        assert_eq!(breaker.admit(10_000), Ok(Admit::Probe));
        assert!(breaker.admit(10_001).is_err(), "one probe at a time");
        // The probe fails: open again for a full cooldown.
        breaker.record(failed(1, 1), 10_500);
        assert_eq!(breaker.admit(11_000), Err(9_500));
        assert_eq!(breaker.admit(20_500), Ok(Admit::Probe));
        assert_eq!(breaker.record(Report::Success, 20_600), Some(false));
        assert_eq!(breaker.admit(20_700), Ok(Admit::Closed));
    }

    fn failed(key: u64, visitor: u64) -> Report {
        Report::Failed { key, visitor }
    }

    #[test]
    fn one_request_failing_again_and_again_does_not_open_it() {
        let breaker = Breaker::new(3, Duration::from_secs(10));
        for _ in 0..50 {
            assert_eq!(breaker.record(failed(7, 1), 0), None);
        }
        assert_eq!(breaker.admit(0), Ok(Admit::Closed));
        // A second request of a second visitor failing too: the upstream's
        // fault.
        assert_eq!(breaker.record(failed(8, 2), 0), Some(true));
        // A success in between starts the count again.
        let breaker = Breaker::new(2, Duration::from_secs(10));
        breaker.record(failed(1, 1), 0);
        breaker.record(Report::Success, 0);
        assert_eq!(breaker.record(failed(2, 2), 0), None);
        // Connect errors need no second request.
        let breaker = Breaker::new(2, Duration::from_secs(10));
        breaker.record(Report::Down, 0);
        assert_eq!(breaker.record(Report::Down, 0), Some(true));
    }

    #[test]
    fn one_visitor_failing_many_requests_does_not_open_it() {
        let breaker = Breaker::new(3, Duration::from_secs(10));
        for key in 0..100 {
            assert_eq!(breaker.record(failed(key, 9), 0), None);
        }
        assert_eq!(breaker.admit(0), Ok(Admit::Closed));
        // Many visitors failing one request: that request's trouble.
        let breaker = Breaker::new(3, Duration::from_secs(10));
        for visitor in 0..100 {
            assert_eq!(breaker.record(failed(5, visitor), 0), None);
        }
        // Two requests of two visitors.
        assert_eq!(breaker.record(failed(6, 0), 0), Some(true));
    }
}
