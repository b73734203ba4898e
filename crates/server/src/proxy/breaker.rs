//! The circuit breaker: it opens when, over the last `WINDOW`, at least
//! half (`FAILURE_RATE`) of the validated requests that went upstream
//! failed, there were at least `threshold` failures (`--breaker-failures`,
//! the minimum volume), and those failures came from at least `DISTINCT`
//! cache keys and `DISTINCT` visitors. Then no request goes upstream for
//! `cooldown`; after it one probe is let through (half-open), the proxy's
//! own cheap request: its success closes the circuit, its failure opens it
//! again for a full cooldown. While open, visitors get stale data or a 503
//! with `Retry-After` at once.
//!
//! What counts is what `judge` says no visitor can choose: connect errors,
//! timeouts and 5xx. A timeout or a 5xx can still be caused by one request
//! (a costly query, a broken id), so each is counted with its cache key and
//! its visitor (their key, or their address in public mode): one visitor
//! failing many requests, or many visitors failing one request, opens
//! nothing, however fast they send. The proxy's own lanes (background
//! refreshes, the streams' pollers, which poll whatever visitors chose to
//! watch) never count as a visitor, lest one visitor's broken requests and
//! a stream of another broken id pass for two visitors. A connect error
//! says nothing about the request, so it needs no second key or visitor.
//!
//! Sans-IO: every call takes the time, in Unix ms.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

/// How far back verdicts count.
pub const WINDOW: Duration = Duration::from_secs(30);
/// The share of the window's verdicts that must be failures.
pub const FAILURE_RATE: f64 = 0.5;
/// Distinct cache keys, and distinct visitors, among the window's timeouts
/// and 5xx.
pub const DISTINCT: usize = 2;
/// Verdicts kept at most, the oldest dropped first (memory stays bounded
/// however fast requests go).
const KEEP: usize = 1024;

/// What one upstream request said about the upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    Success,
    /// A failure of any request (a connect error).
    Down,
    /// A failure this request may have caused (a timeout, a 5xx): the
    /// hash of its cache key, and the lane of the visitor who asked
    /// (`None`: one of the proxy's own lanes, never a visitor).
    Failed {
        key: u64,
        visitor: Option<u64>,
    },
}

#[derive(Debug, Default)]
struct State {
    /// The verdicts of the last `WINDOW`, oldest first, with their time.
    window: VecDeque<(u64, Report)>,
    /// Unix ms until which the circuit is open.
    open_until: Option<u64>,
    /// A half-open probe is under way.
    probing: bool,
}

impl State {
    /// Whether the window's verdicts say the upstream is failing.
    fn failing(&self, threshold: u32) -> bool {
        let failures = self
            .window
            .iter()
            .filter(|(_, r)| *r != Report::Success)
            .count();
        if failures < threshold as usize
            || (failures as f64) < FAILURE_RATE * self.window.len() as f64
        {
            return false;
        }
        if self.window.iter().any(|(_, r)| *r == Report::Down) {
            return true;
        }
        let mut keys = Vec::with_capacity(DISTINCT);
        let mut visitors = Vec::with_capacity(DISTINCT);
        for (_, report) in &self.window {
            if let Report::Failed { key, visitor } = *report {
                if keys.len() < DISTINCT && !keys.contains(&key) {
                    keys.push(key);
                }
                if let Some(visitor) = visitor
                    && visitors.len() < DISTINCT
                    && !visitors.contains(&visitor)
                {
                    visitors.push(visitor);
                }
                if keys.len() >= DISTINCT && visitors.len() >= DISTINCT {
                    return true;
                }
            }
        }
        false
    }
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
    /// `threshold`: the failures in the window needed to open (at least 1).
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
        if state.probing {
            // The probe's verdict (the one request a half-open circuit
            // lets through) decides alone.
            state.probing = false;
            if report == Report::Success {
                state.open_until = None;
                state.window.clear();
            } else {
                state.open_until = Some(now_ms + self.cooldown.as_millis() as u64);
            }
        } else if !was_open {
            let since = now_ms.saturating_sub(WINDOW.as_millis() as u64);
            while state
                .window
                .front()
                .is_some_and(|(at, _)| *at < since || state.window.len() >= KEEP)
            {
                state.window.pop_front();
            }
            state.window.push_back((now_ms, report));
            if report != Report::Success && state.failing(self.threshold) {
                state.open_until = Some(now_ms + self.cooldown.as_millis() as u64);
                state.window.clear();
            }
        }
        // Open and not probing: the verdict of a request sent before the
        // circuit opened; only the probe closes it.
        let open = state.open_until.is_some();
        (open != was_open).then_some(open)
    }

    /// A probe that never went upstream (no budget), or whose answer said
    /// nothing about the upstream: let another try.
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

    const WINDOW_MS: u64 = WINDOW.as_millis() as u64;

    fn failed(key: u64, visitor: u64) -> Report {
        Report::Failed {
            key,
            visitor: Some(visitor),
        }
    }

    fn breaker(threshold: u32) -> Breaker {
        Breaker::new(threshold, Duration::from_secs(10))
    }

    #[test]
    fn opens_on_failures_of_two_keys_and_two_visitors_and_probes_once() {
        let breaker = breaker(3);
        assert_eq!(breaker.admit(0), Ok(Admit::Closed));
        assert_eq!(breaker.record(failed(1, 1), 0), None);
        assert_eq!(breaker.record(failed(2, 1), 0), None);
        // The volume is there, but all of one visitor's.
        assert_eq!(breaker.record(failed(3, 1), 0), None);
        assert_eq!(breaker.record(failed(4, 2), 100), Some(true));
        assert_eq!(breaker.admit(5_100), Err(5_000));
        assert_eq!(breaker.admit(10_100), Ok(Admit::Probe));
        assert!(breaker.admit(10_101).is_err(), "one probe at a time");
        // The probe fails: open again for a full cooldown.
        assert_eq!(breaker.record(failed(9, 0), 10_500), None);
        assert_eq!(breaker.admit(11_000), Err(9_500));
        assert_eq!(breaker.admit(20_500), Ok(Admit::Probe));
        assert_eq!(breaker.record(Report::Success, 20_600), Some(false));
        assert_eq!(breaker.admit(20_700), Ok(Admit::Closed));
        // Closing forgot the window: one more failure opens nothing.
        assert_eq!(breaker.record(failed(5, 3), 20_800), None);
    }

    #[test]
    fn one_request_failing_again_and_again_does_not_open_it() {
        let breaker = breaker(3);
        for visitor in 0..50 {
            assert_eq!(breaker.record(failed(7, visitor), 0), None);
        }
        assert_eq!(breaker.admit(0), Ok(Admit::Closed));
        // A second request failing too: the upstream's fault.
        assert_eq!(breaker.record(failed(8, 2), 0), Some(true));
    }

    #[test]
    fn one_visitor_failing_many_requests_does_not_open_it() {
        let breaker = breaker(3);
        // Five a second for two windows, while another visitor's misses
        // succeed now and then.
        for i in 0..(2 * WINDOW_MS / 200) {
            let now = i * 200;
            assert_eq!(breaker.record(failed(i, 9), now), None);
            if i % 5 == 0 {
                assert_eq!(breaker.record(Report::Success, now), None);
            }
        }
        assert_eq!(breaker.admit(2 * WINDOW_MS), Ok(Admit::Closed));
    }

    #[test]
    fn a_failure_rate_below_half_does_not_open_it() {
        let breaker = breaker(3);
        for i in 0..100 {
            // One failure in three, of many keys and visitors.
            let report = if i % 3 == 0 {
                failed(i, i)
            } else {
                Report::Success
            };
            assert_eq!(breaker.record(report, i * 10), None, "{i}");
        }
        // At half, with the volume, it opens.
        let mut now = 1_000;
        let opened = loop {
            now += 10;
            if let Some(open) = breaker.record(failed(now, now), now) {
                break open;
            }
            assert!(now < 10_000, "never opened");
        };
        assert!(opened);
    }

    #[test]
    fn the_proxys_own_lanes_are_no_second_visitor() {
        let breaker = breaker(3);
        // One visitor's broken requests, and a stream's polls of another
        // broken id: together they once opened the circuit for everyone.
        for i in 0..10 {
            assert_eq!(breaker.record(failed(i, 1), i * 10), None);
            let poll = Report::Failed {
                key: 100 + i,
                visitor: None,
            };
            assert_eq!(breaker.record(poll, i * 10 + 5), None);
        }
        assert_eq!(breaker.admit(1_000), Ok(Admit::Closed));
        // A second visitor's failure too: the upstream's fault.
        assert_eq!(breaker.record(failed(200, 2), 1_000), Some(true));
    }

    #[test]
    fn the_volume_is_needed_too() {
        let breaker = breaker(5);
        for i in 0..4 {
            assert_eq!(breaker.record(failed(i, i), 0), None);
        }
        assert_eq!(breaker.record(failed(4, 4), 0), Some(true));
    }

    #[test]
    fn failures_older_than_the_window_do_not_count() {
        let breaker = breaker(3);
        breaker.record(failed(1, 1), 0);
        breaker.record(failed(2, 2), 0);
        // The third arrives after the first two have left the window.
        assert_eq!(breaker.record(failed(3, 3), WINDOW_MS + 1), None);
        assert_eq!(breaker.record(failed(4, 4), WINDOW_MS + 2), None);
        assert_eq!(breaker.record(failed(5, 5), WINDOW_MS + 3), Some(true));
    }

    #[test]
    fn successes_age_out_as_well() {
        let breaker = breaker(2);
        for i in 0..10 {
            breaker.record(Report::Success, i);
        }
        assert_eq!(breaker.record(failed(1, 1), WINDOW_MS + 100), None);
        assert_eq!(breaker.record(failed(2, 2), WINDOW_MS + 100), Some(true));
    }

    #[test]
    fn connect_errors_need_no_second_key_or_visitor() {
        let breaker = breaker(2);
        breaker.record(Report::Success, 0);
        assert_eq!(breaker.record(Report::Down, 0), None);
        assert_eq!(breaker.record(Report::Down, 0), Some(true));
    }

    #[test]
    fn while_open_only_the_probe_decides() {
        let breaker = breaker(2);
        breaker.record(failed(1, 1), 0);
        assert_eq!(breaker.record(failed(2, 2), 0), Some(true));
        // A request sent before the circuit opened succeeds late.
        assert_eq!(breaker.record(Report::Success, 10), None);
        assert_eq!(breaker.gauge(), 1);
        assert_eq!(breaker.admit(10_000), Ok(Admit::Probe));
        assert_eq!(breaker.gauge(), 2);
        // The probe went nowhere: another may try.
        breaker.cancel(Admit::Probe);
        assert_eq!(breaker.admit(10_001), Ok(Admit::Probe));
        assert_eq!(breaker.record(Report::Success, 10_002), Some(false));
        assert_eq!(breaker.gauge(), 0);
    }

    #[test]
    fn the_window_stays_bounded() {
        let breaker = breaker(3);
        for i in 0..(KEEP as u64 * 3) {
            breaker.record(Report::Success, i / 100);
        }
        assert_eq!(breaker.lock().window.len(), KEEP);
    }
}
