//! Client-side rate budget: the service allows 100 requests per minute per
//! key, and a well-behaved program should never see a 429. Sans-IO: the
//! caller passes the time (milliseconds on any monotonic clock) and sleeps
//! for as long as it is told.
//!
//! The headers, as the client reads them (the public service documents
//! none of them, `docs/spec/public-service-facts.md`; the reference
//! server sends all four, `docs/spec/where-the-spec-is-silent.md`):
//! - `X-RateLimit-Limit`: requests allowed per window (one minute).
//! - `X-RateLimit-Remaining`: requests left in the current window.
//! - `X-RateLimit-Reset`: **seconds until the current window resets** (a
//!   delay, not a Unix time). It says when the budget refills; it is a
//!   reason to wait only when `Remaining` is 0 or the answer is a 429. A
//!   `Reset: 0` on a 500 is not "retry now".
//! - `Retry-After`: seconds to wait before the next request (the HTTP-date
//!   form is not used by the service and is ignored).
//!
//! Every wait read from a header is capped ([`MAX_HEADER_WAIT_MS`]): a
//! header came over the network and may say anything.

use std::collections::VecDeque;

/// The service's documented budget.
pub const DEFAULT_REQUESTS_PER_MINUTE: u32 = 100;
const WINDOW_MS: f64 = 60_000.0;

/// The longest wait any header can impose on the budget: one window. The
/// service's budget is per minute, so a longer reset is a broken or hostile
/// header; the budget waits at most this and then asks again.
pub const MAX_HEADER_WAIT_MS: f64 = WINDOW_MS;

/// A rolling one-minute window of the requests sent, corrected by what the
/// service reports (`X-RateLimit-*`, `Retry-After`) when it reports it.
#[derive(Debug, Clone)]
pub struct RateBudget {
    /// What the caller configured: the ceiling a learned limit returns to.
    configured: u32,
    /// In force now: the configured limit, or a lower one the service
    /// reported on its latest answer that reported one.
    limit: u32,
    sent: VecDeque<f64>,
    /// No request before this time (from a 429 or an exhausted budget).
    blocked_until: f64,
}

/// What the service said about the budget in a response's headers.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RateLimitHeaders {
    /// `X-RateLimit-Limit`.
    pub limit: Option<u32>,
    /// `X-RateLimit-Remaining`.
    pub remaining: Option<u32>,
    /// `X-RateLimit-Reset`: seconds until the window resets.
    pub reset_secs: Option<f64>,
    /// `Retry-After`, in seconds (the HTTP-date form is not used by the service).
    pub retry_after_secs: Option<f64>,
}

impl RateLimitHeaders {
    /// Reads the headers through a lookup function (case-insensitive names are
    /// the transport's business).
    pub fn read(get: impl Fn(&str) -> Option<String>) -> Self {
        fn num(v: Option<String>) -> Option<f64> {
            v.and_then(|s| crate::number::parse(s.trim()))
                .filter(|n| n.is_finite() && *n >= 0.0)
        }
        Self {
            limit: num(get("x-ratelimit-limit")).map(|n| n as u32),
            remaining: num(get("x-ratelimit-remaining")).map(|n| n as u32),
            reset_secs: num(get("x-ratelimit-reset")),
            retry_after_secs: num(get("retry-after")),
        }
    }

    /// How long the service asked us to wait before the next request, if
    /// it did: `Retry-After`, or the reset of an exhausted window
    /// (`Remaining: 0`). A reset alone, with requests remaining, asks for no
    /// wait. Not capped here: the caller compares it with what it is willing
    /// to wait, and an error reports it as the service said it.
    pub fn retry_after_ms(&self) -> Option<u64> {
        let exhausted_reset = self.reset_secs.filter(|_| self.remaining == Some(0));
        self.retry_after_secs
            .or(exhausted_reset)
            .map(|s| (s * 1000.0).ceil() as u64)
    }
}

impl RateBudget {
    pub fn new(requests_per_minute: u32) -> Self {
        let limit = requests_per_minute.max(1);
        Self {
            configured: limit,
            limit,
            sent: VecDeque::new(),
            blocked_until: f64::MIN,
        }
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    fn forget_old(&mut self, now_ms: f64) {
        while self.sent.front().is_some_and(|t| now_ms - t >= WINDOW_MS) {
            self.sent.pop_front();
        }
    }

    /// Takes a slot for a request at `now_ms`, or says how long to wait
    /// before asking again.
    pub fn try_acquire(&mut self, now_ms: f64) -> Result<(), f64> {
        if now_ms < self.blocked_until {
            return Err(self.blocked_until - now_ms);
        }
        self.forget_old(now_ms);
        if self.sent.len() < self.limit as usize {
            self.sent.push_back(now_ms);
            return Ok(());
        }
        let oldest = self.sent.front().copied().unwrap_or(now_ms);
        Err((oldest + WINDOW_MS - now_ms).max(1.0))
    }

    /// Requests left in the window at `now_ms`.
    pub fn remaining(&mut self, now_ms: f64) -> u32 {
        self.forget_old(now_ms);
        if now_ms < self.blocked_until {
            return 0;
        }
        self.limit.saturating_sub(self.sent.len() as u32)
    }

    /// Seconds until a slot frees up (0 when one is free now).
    pub fn reset_secs(&mut self, now_ms: f64) -> u64 {
        self.forget_old(now_ms);
        let blocked = (self.blocked_until - now_ms).max(0.0);
        let window = if self.sent.len() >= self.limit as usize {
            self.sent.front().map_or(0.0, |t| t + WINDOW_MS - now_ms)
        } else {
            0.0
        };
        (blocked.max(window) / 1000.0).ceil() as u64
    }

    /// Takes what the service reported into account: its limit (lower than
    /// ours, or back up again after a lower one: the key's plan may have
    /// changed; never above what the caller configured), or an exhausted
    /// budget with its reset time (capped at [`MAX_HEADER_WAIT_MS`]).
    pub fn observe(&mut self, now_ms: f64, headers: &RateLimitHeaders) {
        if let Some(limit) = headers.limit
            && limit > 0
        {
            self.limit = limit.min(self.configured);
        }
        if headers.remaining == Some(0)
            && let Some(reset) = headers.reset_secs
        {
            let wait = (reset * 1000.0).min(MAX_HEADER_WAIT_MS);
            self.blocked_until = self.blocked_until.max(now_ms + wait);
        }
    }

    /// A 429 arrived: nothing more until the service's `Retry-After` (capped
    /// at [`MAX_HEADER_WAIT_MS`]), or, without one, until the oldest request
    /// of our window leaves it.
    pub fn on_rate_limited(&mut self, now_ms: f64, retry_after_ms: Option<u64>) {
        self.forget_old(now_ms);
        let wait = match retry_after_ms {
            Some(ms) => (ms as f64).min(MAX_HEADER_WAIT_MS),
            None => self
                .sent
                .front()
                .map_or(1000.0, |t| (t + WINDOW_MS - now_ms).max(1000.0)),
        };
        self.blocked_until = self.blocked_until.max(now_ms + wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_101st_request_in_a_minute_waits_for_the_first_to_leave_the_window() {
        let mut budget = RateBudget::new(100);
        for i in 0..100 {
            assert_eq!(budget.try_acquire(i as f64 * 10.0), Ok(()));
        }
        let wait = budget.try_acquire(1000.0).unwrap_err();
        assert_eq!(wait, 59_000.0);
        assert_eq!(budget.try_acquire(60_000.0), Ok(()));
        assert!(budget.try_acquire(60_001.0).is_err());
    }

    #[test]
    fn a_429_blocks_until_retry_after() {
        let mut budget = RateBudget::new(100);
        budget.on_rate_limited(0.0, Some(2_000));
        assert_eq!(budget.try_acquire(500.0), Err(1_500.0));
        assert_eq!(budget.try_acquire(2_000.0), Ok(()));
    }

    #[test]
    fn a_429_without_headers_waits_for_the_window() {
        let mut budget = RateBudget::new(100);
        budget.try_acquire(0.0).unwrap();
        budget.on_rate_limited(30_000.0, None);
        assert_eq!(budget.try_acquire(30_000.0), Err(30_000.0));
    }

    #[test]
    fn service_headers_lower_the_limit_and_block_when_exhausted() {
        let mut budget = RateBudget::new(100);
        let headers = RateLimitHeaders::read(|name| match name {
            "x-ratelimit-limit" => Some("10".into()),
            "x-ratelimit-remaining" => Some("0".into()),
            "x-ratelimit-reset" => Some("12".into()),
            _ => None,
        });
        budget.observe(0.0, &headers);
        assert_eq!(budget.limit(), 10);
        assert_eq!(budget.try_acquire(1.0), Err(11_999.0));
        assert_eq!(headers.retry_after_ms(), Some(12_000));
    }

    fn headers(pairs: &[(&str, &str)]) -> RateLimitHeaders {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        RateLimitHeaders::read(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn a_reset_with_requests_remaining_asks_for_no_wait() {
        // The reference server sends `X-RateLimit-Reset` on every answer,
        // a 500 included: that is when the window refills, not "retry now".
        let h = headers(&[
            ("x-ratelimit-limit", "100"),
            ("x-ratelimit-remaining", "57"),
            ("x-ratelimit-reset", "0"),
        ]);
        assert_eq!(h.retry_after_ms(), None);
        let exhausted = headers(&[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "3")]);
        assert_eq!(exhausted.retry_after_ms(), Some(3_000));
        let told = headers(&[("retry-after", "2"), ("x-ratelimit-reset", "0")]);
        assert_eq!(told.retry_after_ms(), Some(2_000));
    }

    #[test]
    fn a_huge_reset_blocks_for_one_window_at_most() {
        let mut budget = RateBudget::new(100);
        let h = headers(&[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "1e12"),
        ]);
        budget.observe(0.0, &h);
        assert_eq!(budget.try_acquire(0.0), Err(MAX_HEADER_WAIT_MS));
        assert_eq!(budget.try_acquire(MAX_HEADER_WAIT_MS), Ok(()));
        let mut budget = RateBudget::new(100);
        budget.on_rate_limited(0.0, Some(u64::MAX));
        assert_eq!(budget.try_acquire(1.0), Err(MAX_HEADER_WAIT_MS - 1.0));
    }

    #[test]
    fn a_learned_limit_recovers_but_never_exceeds_the_configured_one() {
        let mut budget = RateBudget::new(100);
        budget.observe(0.0, &headers(&[("x-ratelimit-limit", "5")]));
        assert_eq!(budget.limit(), 5);
        budget.observe(1.0, &headers(&[("x-ratelimit-limit", "60")]));
        assert_eq!(budget.limit(), 60);
        budget.observe(2.0, &headers(&[("x-ratelimit-limit", "1000")]));
        assert_eq!(budget.limit(), 100);
        // An answer without the header changes nothing.
        budget.observe(3.0, &headers(&[]));
        assert_eq!(budget.limit(), 100);
    }

    #[test]
    fn garbage_headers_are_ignored() {
        let headers = RateLimitHeaders::read(|_| Some("soon".into()));
        assert_eq!(headers, RateLimitHeaders::default());
    }
}
