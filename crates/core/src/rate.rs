//! Client-side rate budget: the service allows 100 requests per minute per
//! key, and a well-behaved program should never see a 429. Sans-IO: the
//! caller passes the time (milliseconds on any monotonic clock) and sleeps
//! for as long as it is told.

use std::collections::VecDeque;

/// The service's documented budget.
pub const DEFAULT_REQUESTS_PER_MINUTE: u32 = 100;
const WINDOW_MS: f64 = 60_000.0;

/// A rolling one-minute window of the requests sent, corrected by what the
/// service reports (`X-RateLimit-*`, `Retry-After`) when it reports it.
#[derive(Debug, Clone)]
pub struct RateBudget {
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
            v.and_then(|s| s.trim().parse::<f64>().ok())
                .filter(|n| n.is_finite() && *n >= 0.0)
        }
        Self {
            limit: num(get("x-ratelimit-limit")).map(|n| n as u32),
            remaining: num(get("x-ratelimit-remaining")).map(|n| n as u32),
            reset_secs: num(get("x-ratelimit-reset")),
            retry_after_secs: num(get("retry-after")),
        }
    }

    /// How long the service asked us to wait, if it did.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.retry_after_secs
            .or(self.reset_secs)
            .map(|s| (s * 1000.0).ceil() as u64)
    }
}

impl RateBudget {
    pub fn new(requests_per_minute: u32) -> Self {
        Self {
            limit: requests_per_minute.max(1),
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

    /// Takes what the service reported into account: a lower limit than ours,
    /// or an exhausted budget with its reset time.
    pub fn observe(&mut self, now_ms: f64, headers: &RateLimitHeaders) {
        if let Some(limit) = headers.limit
            && limit > 0
            && limit < self.limit
        {
            self.limit = limit;
        }
        if headers.remaining == Some(0)
            && let Some(reset) = headers.reset_secs
        {
            self.blocked_until = self.blocked_until.max(now_ms + reset * 1000.0);
        }
    }

    /// A 429 arrived: nothing more until the service's `Retry-After`, or,
    /// without one, until the oldest request of our window leaves it.
    pub fn on_rate_limited(&mut self, now_ms: f64, retry_after_ms: Option<u64>) {
        self.forget_old(now_ms);
        let wait = match retry_after_ms {
            Some(ms) => ms as f64,
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

    #[test]
    fn garbage_headers_are_ignored() {
        let headers = RateLimitHeaders::read(|_| Some("soon".into()));
        assert_eq!(headers, RateLimitHeaders::default());
    }
}
