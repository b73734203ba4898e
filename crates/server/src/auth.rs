//! `X-API-Key` on every operation, and each key's budget of requests per
//! minute. Keys are compared in constant time and never logged.

use crate::error::ApiError;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use predmarket_core::rate::RateBudget;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use subtle::ConstantTimeEq;
use tokio::sync::Semaphore;

pub struct Keys {
    entries: Vec<KeyEntry>,
    started: Instant,
}

struct KeyEntry {
    /// Position in the key list: who the visitor is, for the proxy's fair
    /// queue (the key itself stays here).
    id: usize,
    key: Vec<u8>,
    /// `None`: unlimited (load tests).
    budget: Option<Mutex<RateBudget>>,
    /// Requests of this key in progress, capped so one key cannot take
    /// every slot of `--max-in-flight`.
    in_flight: Arc<Semaphore>,
    in_flight_cap: usize,
    /// This key's searches on the blocking pool (see `guard::offload`).
    lane: crate::guard::KeyLane,
}

impl Keys {
    /// `in_flight_per_key`: requests of one key in progress at most.
    pub fn new(specs: &[KeySpec], in_flight_per_key: usize) -> Self {
        let entries = specs
            .iter()
            .enumerate()
            .map(|(id, spec)| KeyEntry {
                id,
                key: spec.key.as_bytes().to_vec(),
                budget: spec.per_minute.map(|n| Mutex::new(RateBudget::new(n))),
                in_flight: Arc::new(Semaphore::new(in_flight_per_key)),
                in_flight_cap: in_flight_per_key,
                lane: crate::guard::KeyLane {
                    searches: Arc::new(Semaphore::new(crate::guard::key_search_permits())),
                },
            })
            .collect();
        Self {
            entries,
            started: Instant::now(),
        }
    }

    /// Every key, for scrubbing log lines.
    pub fn secrets(&self) -> Vec<Vec<u8>> {
        self.entries.iter().map(|e| e.key.clone()).collect()
    }

    /// The entry of `presented`, comparing against every key in constant
    /// time so timing says nothing about how much of a key matched.
    fn find(&self, presented: &[u8]) -> Option<&KeyEntry> {
        let mut found = None;
        for entry in &self.entries {
            if bool::from(entry.key.as_slice().ct_eq(presented)) {
                found = Some(entry);
            }
        }
        found
    }

    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }
}

/// Which configured key a request presented (its position in the key
/// list), set by `check` for the handlers behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId(pub usize);

/// Rejects requests without a known key (401), over the key's budget (429)
/// or over the key's requests in progress (503 with Retry-After); passes the
/// others to `run`, with the key's `KeyLane` and `KeyId` in the extensions.
///
/// `run` rather than a `Next`, so the server runs its other per-operation
/// checks inside this one middleware (the `operation` middleware in
/// `lib.rs`).
pub async fn check<B, F, Fut>(keys: &Keys, mut request: axum::http::Request<B>, run: F) -> Response
where
    F: FnOnce(axum::http::Request<B>) -> Fut,
    Fut: Future<Output = Response>,
{
    let entry = match keys.presented(request.headers()) {
        Ok(entry) => entry,
        Err(refused) => return refused.into_response(),
    };
    request.extensions_mut().insert(entry.lane.clone());
    request.extensions_mut().insert(KeyId(entry.id));
    let charge = keys.charge(entry);
    let response = match charge.refusal() {
        Some(refused) => refused,
        None => match entry.in_flight.clone().try_acquire_owned() {
            // Held while `run` runs.
            Ok(_permit) => run(request).await,
            Err(_) => over_cap(entry),
        },
    };
    charge.stamp(response)
}

/// `check` for an answer made already (`front`, a kept answer): the same
/// key, budget and in-flight rules and headers, nothing left to await, no
/// extensions for handlers that will not run.
pub fn check_now(keys: &Keys, headers: &HeaderMap, answer: impl FnOnce() -> Response) -> Response {
    let entry = match keys.presented(headers) {
        Ok(entry) => entry,
        Err(refused) => return refused.into_response(),
    };
    let charge = keys.charge(entry);
    let response = match charge.refusal() {
        Some(refused) => refused,
        None => match entry.in_flight.try_acquire() {
            Ok(_permit) => answer(),
            Err(_) => over_cap(entry),
        },
    };
    charge.stamp(response)
}

impl Keys {
    /// Whether `headers` present a known key; charges nothing. The front
    /// service asks before it makes a kept answer, so a request without a
    /// key it knows costs what it costs behind the router: its 401.
    pub fn knows(&self, headers: &HeaderMap) -> bool {
        self.presented(headers).is_ok()
    }

    /// The entry of the key `headers` present, or why there is none.
    fn presented(&self, headers: &HeaderMap) -> Result<&KeyEntry, Unauthorized> {
        match headers.get("x-api-key").map(HeaderValue::as_bytes) {
            None => Err(Unauthorized::Missing),
            Some(key) => self.find(key).ok_or(Unauthorized::Unknown),
        }
    }

    /// One request charged to `entry`'s budget.
    fn charge(&self, entry: &KeyEntry) -> Charge {
        let Some(budget) = &entry.budget else {
            return Charge::Unlimited;
        };
        let now = self.now_ms();
        let mut budget = match budget.lock() {
            Ok(b) => b,
            Err(poisoned) => poisoned.into_inner(),
        };
        Charge::Counted {
            verdict: budget.try_acquire(now),
            limit: budget.limit(),
            remaining: budget.remaining(now),
            reset_secs: budget.reset_secs(now),
        }
    }
}

/// Why a request has no key's entry: its 401.
enum Unauthorized {
    Missing,
    Unknown,
}

impl IntoResponse for Unauthorized {
    fn into_response(self) -> Response {
        ApiError::unauthorized(match self {
            Self::Missing => "missing X-API-Key header",
            Self::Unknown => "unknown API key",
        })
        .into_response()
    }
}

/// A request charged to its key's budget: refused or not, and the
/// rate-limit headers its answer carries.
enum Charge {
    Unlimited,
    Counted {
        /// `Err`: milliseconds until the budget has room.
        verdict: Result<(), f64>,
        limit: u32,
        remaining: u32,
        reset_secs: u64,
    },
}

impl Charge {
    /// The 429 of a request over its budget.
    fn refusal(&self) -> Option<Response> {
        let Self::Counted {
            verdict: Err(wait_ms),
            limit,
            ..
        } = self
        else {
            return None;
        };
        let retry_after = (wait_ms / 1000.0).ceil().max(1.0) as u64;
        let mut response = ApiError::rate_limited(*limit, retry_after).into_response();
        set(response.headers_mut(), "retry-after", retry_after);
        Some(response)
    }

    /// `response` with the rate-limit headers of a key with a budget.
    fn stamp(&self, mut response: Response) -> Response {
        if let Self::Counted {
            limit,
            remaining,
            reset_secs,
            ..
        } = self
        {
            let headers = response.headers_mut();
            set(headers, "x-ratelimit-limit", limit);
            set(headers, "x-ratelimit-remaining", remaining);
            set(headers, "x-ratelimit-reset", reset_secs);
        }
        response
    }
}

/// The 503 of a key at its cap of requests in progress.
fn over_cap(entry: &KeyEntry) -> Response {
    crate::guard::shed(&format!(
        "this API key has {} requests in progress, its limit; retry shortly",
        entry.in_flight_cap
    ))
}

fn set(headers: &mut HeaderMap, name: &'static str, value: impl ToString) {
    if let Ok(value) = HeaderValue::from_str(&value.to_string()) {
        headers.insert(name, value);
    }
}

/// One accepted key and its budget.
#[derive(Clone, PartialEq, Eq)]
pub struct KeySpec {
    pub key: String,
    /// Requests per minute; `None` is unlimited.
    pub per_minute: Option<u32>,
}

// Keys must never reach a log, so Debug hides them.
impl std::fmt::Debug for KeySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeySpec")
            .field("key", &"[redacted]")
            .field("per_minute", &self.per_minute)
            .finish()
    }
}

impl KeySpec {
    /// `KEY`, `KEY:N` or `KEY:unlimited`; `Ok(None)` for a blank entry.
    pub fn parse(raw: &str, default_per_minute: u32) -> Result<Option<Self>, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Ok(None);
        }
        let (key, per_minute) = match raw.rsplit_once(':') {
            None => (raw, Some(default_per_minute)),
            Some((key, limit)) => {
                let limit = limit.trim();
                let per_minute = if limit.eq_ignore_ascii_case("unlimited") {
                    None
                } else {
                    match limit.parse::<u32>() {
                        Ok(n) if n > 0 => Some(n),
                        // The key itself is never echoed, only its position.
                        _ => {
                            return Err("an API key entry has an invalid limit after ':' \
                                 (expected a positive number or `unlimited`)"
                                .into());
                        }
                    }
                };
                (key.trim(), per_minute)
            }
        };
        if key.is_empty() {
            return Err("an API key entry has an empty key".into());
        }
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("an API key may only hold visible ASCII characters".into());
        }
        Ok(Some(Self {
            key: key.to_owned(),
            per_minute,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_syntax() {
        let spec = |s| KeySpec::parse(s, 100).unwrap().unwrap();
        assert_eq!(spec("abc").per_minute, Some(100));
        assert_eq!(spec("abc:5").per_minute, Some(5));
        assert_eq!(spec("abc:5").key, "abc");
        assert_eq!(spec("a:b:unlimited").per_minute, None);
        assert_eq!(spec("a:b:unlimited").key, "a:b");
        assert!(KeySpec::parse("abc:0", 100).is_err());
        assert!(KeySpec::parse("a:b", 100).is_err());
        assert!(KeySpec::parse(":5", 100).is_err());
        assert_eq!(KeySpec::parse("  ", 100), Ok(None));
        let err = KeySpec::parse("secret:x", 100).unwrap_err();
        assert!(!err.contains("secret"));
        assert!(!format!("{:?}", spec("secret")).contains("secret"));
    }
}
