//! When and how long to wait before sending a failed request again:
//! exponential backoff with full jitter, honouring the service's
//! `Retry-After`. Sans-IO and seedable, so tests are exact; the client
//! seeds it randomly per client (`getrandom`-like sources are the
//! transport's business: this crate does no I/O), so processes that failed
//! together do not retry together.

use crate::error::Error;

#[derive(Debug, Clone)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base_delay_ms: u64,
    pub max_delay_ms: u64,
    rng: SplitMix64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::new(3, 0x5eed)
    }
}

impl RetryPolicy {
    pub fn new(max_retries: u32, seed: u64) -> Self {
        Self {
            max_retries,
            base_delay_ms: 250,
            max_delay_ms: 20_000,
            rng: SplitMix64(seed),
        }
    }

    /// The wait before retry number `attempt + 1` after `error`, or `None`
    /// when the request should not be sent again.
    pub fn next_delay_ms(&mut self, attempt: u32, error: &Error) -> Option<u64> {
        self.delay_ms(attempt, self.max_retries, error)
    }

    /// [`RetryPolicy::next_delay_ms`] with another retry count than the
    /// policy's (a call's own `maxRetries`).
    pub fn delay_ms(&mut self, attempt: u32, max_retries: u32, error: &Error) -> Option<u64> {
        if attempt >= max_retries || !error.is_retryable() {
            return None;
        }
        let ceiling = self
            .base_delay_ms
            .saturating_mul(1u64 << attempt.min(20))
            .min(self.max_delay_ms);
        // Full jitter, but never less than a tenth of the ceiling.
        let backoff = ceiling / 10 + self.rng.below(ceiling - ceiling / 10 + 1);
        match error.retry_after_ms() {
            // The service knows best; a little jitter spreads clients that
            // were told the same time. Saturating: the header came over the
            // network and may be huge (the client refuses waits beyond its
            // cap). Never less than the backoff: a `Retry-After: 0` on a
            // 5xx must not turn retries into a tight loop.
            Some(after) => {
                let told = after.saturating_add(self.rng.below(after / 10 + 1));
                Some(told.max(backoff))
            }
            None => Some(backoff),
        }
    }
}

/// Whether an HTTP status may be answered differently a moment later: a
/// timeout (408), a rate limit (429) or a server failure (5xx). Every other
/// refusal is about the request and is not sent again.
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 408 | 429 | 500..=599)
}

/// A tiny seedable generator: good enough for jitter, no dependency.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiFailure;
    use crate::rate::RateLimitHeaders;

    fn server_error(retry_after_ms: Option<u64>) -> Error {
        Error::Server(ApiFailure {
            status: 503,
            code: "INTERNAL_ERROR".into(),
            message: "x".into(),
            details: None,
            retry_after_ms,
        })
    }

    #[test]
    fn backoff_grows_and_stays_within_its_ceiling() {
        let mut policy = RetryPolicy::new(10, 1);
        for attempt in 0..10 {
            let delay = policy.next_delay_ms(attempt, &server_error(None)).unwrap();
            let ceiling = (250u64 << attempt).min(20_000);
            assert!(
                delay >= ceiling / 10 && delay <= ceiling,
                "attempt {attempt}: {delay}"
            );
        }
        assert_eq!(policy.next_delay_ms(10, &server_error(None)), None);
    }

    #[test]
    fn a_zero_retry_after_still_backs_off() {
        let mut policy = RetryPolicy::new(3, 9);
        for attempt in 0..3 {
            let delay = policy
                .next_delay_ms(attempt, &server_error(Some(0)))
                .unwrap();
            let ceiling = 250u64 << attempt;
            assert!(delay >= ceiling / 10 && delay <= ceiling, "{delay}");
        }
    }

    #[test]
    fn different_seeds_give_different_delays() {
        let delays = |seed| {
            let mut policy = RetryPolicy::new(5, seed);
            (0..5)
                .map(|a| policy.next_delay_ms(a, &server_error(None)))
                .collect::<Vec<_>>()
        };
        assert_ne!(delays(1), delays(2));
    }

    #[test]
    fn retry_after_is_honoured() {
        let mut policy = RetryPolicy::new(3, 7);
        let delay = policy.next_delay_ms(0, &server_error(Some(2_000))).unwrap();
        assert!((2_000..=2_200).contains(&delay), "{delay}");
    }

    #[test]
    fn same_seed_same_delays() {
        let mut a = RetryPolicy::new(5, 42);
        let mut b = RetryPolicy::new(5, 42);
        for attempt in 0..5 {
            assert_eq!(
                a.next_delay_ms(attempt, &server_error(None)),
                b.next_delay_ms(attempt, &server_error(None))
            );
        }
    }

    #[test]
    fn a_huge_retry_after_does_not_overflow() {
        let mut policy = RetryPolicy::new(3, 7);
        let huge = RateLimitHeaders::read(|n| (n == "retry-after").then(|| "1e300".to_owned()));
        let delay = policy.next_delay_ms(0, &server_error(huge.retry_after_ms()));
        assert_eq!(delay, Some(u64::MAX));
    }

    /// Every status the client may meet, through the error the client
    /// builds from it (with and without a code in the body: a code that
    /// reads as retryable on a 4xx must not make it so).
    #[test]
    fn only_408_429_and_5xx_statuses_are_retried() {
        let retried = [408, 429, 500, 501, 502, 503, 504, 520, 599];
        for status in 300..600u16 {
            let bodies = [
                String::new(),
                r#"{"error":{"code":"PLATFORM_UNAVAILABLE","message":"x"}}"#.to_owned(),
                r#"{"error":{"code":"INTERNAL_ERROR","message":"x"}}"#.to_owned(),
            ];
            for body in &bodies {
                let error = Error::from_response(status, body, None);
                let mut policy = RetryPolicy::new(3, 1);
                let delay = policy.next_delay_ms(0, &error);
                let expected = retried.contains(&status) || (500..600).contains(&status);
                assert_eq!(delay.is_some(), expected, "{status} {body}");
                assert_eq!(retryable_status(status), expected, "{status}");
            }
        }
        for status in [405, 413, 414, 422, 431] {
            let error = Error::from_response(status, "", None);
            assert!(!error.is_retryable(), "{status}");
        }
    }

    #[test]
    fn a_refused_redirect_is_not_retried() {
        let error = Error::Redirected {
            status: 302,
            location: "http://elsewhere.test/".into(),
        };
        assert_eq!(RetryPolicy::default().next_delay_ms(0, &error), None);
        assert_eq!(error.status(), Some(302));
    }

    #[test]
    fn client_errors_are_not_retried() {
        let mut policy = RetryPolicy::default();
        assert_eq!(policy.next_delay_ms(0, &Error::invalid("limit", "x")), None);
        assert_eq!(policy.next_delay_ms(0, &Error::Aborted), None);
    }
}
