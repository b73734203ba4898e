//! Fault injection: a failing platform, added latency, a share of 5xx and
//! 429 answers, malformed bodies. For testing clients and the demo against
//! the failures the real service can show.
//!
//! Draws come from a counter hashed with the seed, so a run with the same
//! seed and the same sequence of requests fails the same requests.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use predmarket_core::ErrorCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The faults to inject (the `--fail-platform`, `--latency-ms` and
/// `--fault-*` flags).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Platforms that fail, in either spelling of their ids.
    pub fail_platforms: Vec<String>,
    pub latency: Duration,
    pub share_5xx: f64,
    pub share_429: f64,
    pub share_malformed: f64,
    pub seed: u64,
}

pub struct Faults {
    down: Vec<String>,
    latency: Duration,
    share_5xx: f64,
    share_429: f64,
    share_malformed: f64,
    seed: u64,
    counter: AtomicU64,
}

/// What the dice decided for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Pass,
    ServerError,
    RateLimited,
    Malformed,
}

impl Faults {
    pub fn new(settings: &Settings) -> Self {
        Self {
            // Kept as labels, the server's own names, whichever spelling
            // the flag used.
            down: settings
                .fail_platforms
                .iter()
                .map(|p| {
                    crate::data::names::label_of_any(p).map_or_else(|| p.clone(), str::to_owned)
                })
                .collect(),
            latency: settings.latency,
            share_5xx: settings.share_5xx,
            share_429: settings.share_429,
            share_malformed: settings.share_malformed,
            seed: settings.seed,
            counter: AtomicU64::new(0),
        }
    }

    /// Whether `platform` is configured to fail.
    pub fn is_down(&self, platform: &str) -> bool {
        self.down.iter().any(|p| p == platform)
    }

    /// Whether any fault is drawn per request (latency, errors).
    pub fn any_per_request(&self) -> bool {
        !self.latency.is_zero()
            || self.share_5xx > 0.0
            || self.share_429 > 0.0
            || self.share_malformed > 0.0
    }

    fn draw(&self) -> (Verdict, u64) {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let bits = splitmix(self.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let roll = (bits >> 11) as f64 / (1u64 << 53) as f64;
        let verdict = if roll < self.share_5xx {
            Verdict::ServerError
        } else if roll < self.share_5xx + self.share_429 {
            Verdict::RateLimited
        } else if roll < self.share_5xx + self.share_429 + self.share_malformed {
            Verdict::Malformed
        } else {
            Verdict::Pass
        };
        (verdict, bits)
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Applies latency and per-request faults to the operations (runs after the
/// key check, so injected failures still use up the key's budget like real
/// ones would); passes the others to `run`.
pub async fn inject<F, Fut>(faults: &Faults, request: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    if !faults.any_per_request() {
        return run(request).await;
    }
    if !faults.latency.is_zero() {
        tokio::time::sleep(faults.latency).await;
    }
    let (verdict, bits) = faults.draw();
    match verdict {
        Verdict::Pass => run(request).await,
        Verdict::ServerError => {
            if bits & 1 == 0 {
                ApiError::internal("injected failure").into_response()
            } else {
                let mut response = ApiError::new(ErrorCode::PlatformUnavailable, "injected outage")
                    .into_response();
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                response
            }
        }
        Verdict::RateLimited => {
            let mut response =
                ApiError::new(ErrorCode::RateLimited, "injected rate limit").into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            response
        }
        Verdict::Malformed => {
            let body = if bits & 1 == 0 {
                // Cut mid-object, as a dropped connection would leave it.
                r#"{"markets":[{"id":"pm_a_000001","title":"Will the"#
            } else {
                "<html><body>502 Bad Gateway</body></html>"
            };
            let mut response = Response::new(Body::from(body));
            *response.status_mut() = StatusCode::OK;
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_roughly_respected() {
        let faults = Faults::new(&Settings {
            share_5xx: 0.2,
            share_429: 0.1,
            seed: 42,
            ..Settings::default()
        });
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            let i = match faults.draw().0 {
                Verdict::Pass => 0,
                Verdict::ServerError => 1,
                Verdict::RateLimited => 2,
                Verdict::Malformed => 3,
            };
            counts[i] += 1;
        }
        assert!((1_800..2_200).contains(&counts[1]), "{counts:?}");
        assert!((800..1_200).contains(&counts[2]), "{counts:?}");
        assert_eq!(counts[3], 0);
    }
}
