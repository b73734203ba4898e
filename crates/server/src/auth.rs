//! `X-API-Key` on every operation, and each key's budget of requests per
//! minute. Keys are compared in constant time and never logged.

use crate::error::ApiError;
use axum::extract::Request;
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
pub async fn check<F, Fut>(keys: &Keys, mut request: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let presented = request
        .headers()
        .get("x-api-key")
        .map(HeaderValue::as_bytes);
    let entry = match presented {
        None => return ApiError::unauthorized("missing X-API-Key header").into_response(),
        Some(key) => match keys.find(key) {
            Some(entry) => entry,
            None => return ApiError::unauthorized("unknown API key").into_response(),
        },
    };
    request.extensions_mut().insert(entry.lane.clone());
    request.extensions_mut().insert(KeyId(entry.id));
    let Some(budget) = &entry.budget else {
        return run_counted(entry, request, run).await;
    };
    let now = keys.now_ms();
    let (verdict, limit, remaining, reset_secs) = {
        let mut budget = match budget.lock() {
            Ok(b) => b,
            Err(poisoned) => poisoned.into_inner(),
        };
        let verdict = budget.try_acquire(now);
        (
            verdict,
            budget.limit(),
            budget.remaining(now),
            budget.reset_secs(now),
        )
    };
    let mut response = match verdict {
        Ok(()) => run_counted(entry, request, run).await,
        Err(wait_ms) => {
            let retry_after = (wait_ms / 1000.0).ceil().max(1.0) as u64;
            let mut response = ApiError::rate_limited(limit, retry_after).into_response();
            set(response.headers_mut(), "retry-after", retry_after);
            response
        }
    };
    let headers = response.headers_mut();
    set(headers, "x-ratelimit-limit", limit);
    set(headers, "x-ratelimit-remaining", remaining);
    set(headers, "x-ratelimit-reset", reset_secs);
    response
}

/// Runs `request` inside its key's cap of requests in progress.
async fn run_counted<F, Fut>(entry: &KeyEntry, request: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    match entry.in_flight.clone().try_acquire_owned() {
        Ok(_permit) => run(request).await,
        Err(_) => crate::guard::shed(&format!(
            "this API key has {} requests in progress, its limit; retry shortly",
            entry.in_flight_cap
        )),
    }
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
