//! The verdict on one upstream answer: what the visitors get, whether it
//! says anything about the upstream's health, and whether it is worth one
//! retry. Pure: the answer, the operation's lifetimes and the clock in, the
//! verdict out; the body is read once.
//!
//! Only what no visitor can choose counts against the upstream (and may
//! open the circuit): connect errors, timeouts and 5xx answers to requests
//! the proxy validated. A body that is not JSON, a redirect, an answer too
//! large, an untyped 4xx (a firewall's page) are failures of that request
//! alone. A 401 or 403 is the upstream refusing the proxy's key only when
//! the upstream says so in its own error envelope.

use super::cache::{self, Entry, Policy};
use super::upstream::{Fault, Raw};
use bytes::Bytes;
use predmarket_core::ErrorCode;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The answer of one upstream request, shared by everyone who waited on it.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Served and cached (a JSON object, or a 404 for a short while).
    Answer(Arc<Entry>),
    /// A typed error about the request itself (400, ...): passed through,
    /// never replaced by stale data.
    Passed(Arc<Entry>),
    /// The upstream (or the budget, or the circuit) failed: stale data is
    /// served instead when there is some.
    Failed(Arc<Entry>),
}

/// Whether an upstream answer says the upstream is healthy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    Good,
    Bad,
    /// Says nothing either way (a 429, which the budget deals with; an
    /// answer a visitor could have chosen).
    Neutral,
}

#[derive(Debug, Clone)]
pub struct Verdict {
    pub outcome: Outcome,
    pub health: Health,
    /// Worth sending once more (a connect error, a 5xx): never an answer
    /// whose body could not be read.
    pub retry: bool,
    /// The upstream refused the proxy's own key (for the operator's log).
    pub key_refused: bool,
}

/// The body as the verdict reads it, parsed once.
#[derive(Debug, Default)]
struct View {
    /// A JSON object (what every operation answers).
    object: bool,
    /// One of the public service's error envelopes (`{error: {code, ...}}`):
    /// its code.
    code: Option<String>,
    /// An error envelope whose `details.platform` names the one platform
    /// that failed (the local server's answer when a platform alone is
    /// down; an outage of the whole upstream names none).
    names_a_platform: bool,
}

impl View {
    fn of(status: u16, body: &[u8]) -> Self {
        let starts_object = body
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| *b == b'{');
        if !starts_object {
            return Self::default();
        }
        if (200..300).contains(&status) {
            // Successful answers are large: checked, not built.
            return Self {
                object: serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok(),
                ..Self::default()
            };
        }
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => Self {
                object: value.is_object(),
                code: value
                    .pointer("/error/code")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                names_a_platform: value
                    .pointer("/error/details/platform")
                    .is_some_and(Value::is_string),
            },
            Err(_) => Self::default(),
        }
    }
}

fn verdict(outcome: Outcome, health: Health) -> Verdict {
    Verdict {
        outcome,
        health,
        retry: false,
        key_refused: false,
    }
}

/// What an upstream answer (or its absence) is worth.
pub fn judge(result: Result<Raw, Fault>, policy: Policy, now_ms: u64) -> Verdict {
    let raw = match result {
        Ok(raw) => raw,
        Err(Fault::Timeout) => {
            return verdict(
                Outcome::Failed(error_entry(
                    ErrorCode::Timeout,
                    "the upstream service did not answer in time",
                    json!({ "reason": "upstream_timeout" }),
                    None,
                    now_ms,
                )),
                Health::Bad,
            );
        }
        Err(Fault::Unreachable) => {
            return Verdict {
                retry: true,
                ..verdict(
                    Outcome::Failed(error_entry(
                        ErrorCode::PlatformUnavailable,
                        "the upstream service could not be reached",
                        json!({ "reason": "upstream_unreachable", "retry_after": 1 }),
                        Some(1),
                        now_ms,
                    )),
                    Health::Bad,
                )
            };
        }
        Err(Fault::TooLarge) => {
            return verdict(
                Outcome::Failed(error_entry(
                    ErrorCode::PlatformUnavailable,
                    "the upstream's answer is larger than the proxy reads",
                    json!({ "reason": "upstream_too_large" }),
                    None,
                    now_ms,
                )),
                Health::Neutral,
            );
        }
    };
    let status = raw.status;
    let retry_after = raw.rate.retry_after_secs.map(|s| s.ceil() as u64);
    let view = View::of(status, &raw.body);
    let entry = |fresh: Duration, revalidate: Duration| {
        Arc::new(Entry {
            status,
            body: raw.body.clone(),
            fetched_ms: now_ms,
            fresh_ms: fresh.as_millis() as u64,
            revalidate_ms: revalidate.as_millis() as u64,
            retry_after,
            compressed: std::sync::OnceLock::new(),
        })
    };
    let typed = view.code.is_some();
    match status {
        200..=299 if view.object => verdict(
            Outcome::Answer(entry(policy.fresh, policy.revalidate)),
            Health::Good,
        ),
        200..=299 => verdict(
            Outcome::Failed(error_entry(
                ErrorCode::PlatformUnavailable,
                "the upstream service sent a body that is not JSON",
                json!({ "reason": "upstream_malformed_body", "upstream_status": status }),
                None,
                now_ms,
            )),
            Health::Neutral,
        ),
        // One platform behind the upstream is down and the upstream says
        // so, as the spec has it: its deliberate answer, passed on (not
        // cached, not retried) and no sign that the upstream itself is
        // failing, so the circuit stays closed for the operations that do
        // not need that platform.
        500..=599 if view.names_a_platform => verdict(
            Outcome::Passed(entry(Duration::ZERO, Duration::ZERO)),
            Health::Good,
        ),
        500..=599 => Verdict {
            retry: true,
            ..verdict(
                Outcome::Failed(if typed {
                    entry(Duration::ZERO, Duration::ZERO)
                } else {
                    error_entry(
                        ErrorCode::PlatformUnavailable,
                        "the upstream service failed",
                        json!({ "reason": "upstream_error", "upstream_status": status, "retry_after": 1 }),
                        Some(1),
                        now_ms,
                    )
                }),
                Health::Bad,
            )
        },
        404 if typed => verdict(
            Outcome::Answer(entry(cache::NEGATIVE_TTL, Duration::ZERO)),
            Health::Good,
        ),
        // The proxy's own key was refused, in the upstream's words: the
        // visitor can do nothing about it, and its code must not read as
        // theirs.
        401 | 403 if typed => Verdict {
            key_refused: true,
            ..verdict(
                Outcome::Failed(error_entry(
                    ErrorCode::PlatformUnavailable,
                    "the upstream service refused the proxy's credentials",
                    json!({ "reason": "upstream_key_rejected", "retry_after": 60 }),
                    Some(60),
                    now_ms,
                )),
                Health::Bad,
            )
        },
        429 => verdict(
            Outcome::Failed(if typed {
                entry(Duration::ZERO, Duration::ZERO)
            } else {
                error_entry(
                    ErrorCode::RateLimited,
                    "the upstream service is rate limiting; retry later",
                    json!({ "reason": "upstream_rate_limited" }),
                    Some(retry_after.unwrap_or(10)),
                    now_ms,
                )
            }),
            Health::Neutral,
        ),
        400..=499 if typed => verdict(
            Outcome::Passed(entry(Duration::ZERO, Duration::ZERO)),
            Health::Good,
        ),
        404 => verdict(
            Outcome::Passed(error_entry(
                ErrorCode::NotFound,
                "not found upstream",
                json!({ "reason": "upstream_not_found" }),
                None,
                now_ms,
            )),
            Health::Neutral,
        ),
        400..=499 => verdict(
            Outcome::Passed(error_entry(
                ErrorCode::ValidationError,
                "the upstream service refused the request",
                json!({ "reason": "upstream_rejected", "upstream_status": status }),
                None,
                now_ms,
            )),
            Health::Neutral,
        ),
        // 1xx, 3xx (redirects are not followed: one could carry the key
        // elsewhere) and anything else.
        _ => verdict(
            Outcome::Failed(error_entry(
                ErrorCode::PlatformUnavailable,
                "the upstream service gave an answer the proxy does not serve",
                json!({ "reason": "upstream_unexpected_status", "upstream_status": status }),
                None,
                now_ms,
            )),
            Health::Neutral,
        ),
    }
}

/// An error of the proxy's own, in the service's error envelope.
pub fn error_entry(
    code: ErrorCode,
    message: &str,
    details: Value,
    retry_after: Option<u64>,
    now_ms: u64,
) -> Arc<Entry> {
    let body = json!({
        "error": {
            "code": code.as_str(),
            "message": message,
            "details": details,
            "timestamp": crate::data::time::now_iso8601(),
        },
        "meta": { "request_time": 0 },
    });
    Arc::new(Entry {
        status: code.http_status(),
        body: Bytes::from(serde_json::to_vec(&body).unwrap_or_default()),
        fetched_ms: now_ms,
        fresh_ms: 0,
        revalidate_ms: 0,
        retry_after,
        compressed: std::sync::OnceLock::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use predmarket_core::rate::RateLimitHeaders;

    fn raw(status: u16, body: &str) -> Result<Raw, Fault> {
        Ok(Raw {
            status,
            body: Bytes::from(body.to_owned()),
            rate: RateLimitHeaders::default(),
        })
    }

    const TYPED: &str = r#"{"error":{"code":"SOMETHING","message":"m"}}"#;
    const PLATFORM_DOWN: &str =
        r#"{"error":{"code":"PLATFORM_UNAVAILABLE","message":"m","details":{"platform":"a"}}}"#;
    const HTML: &str = "<html>blocked</html>";

    /// `(name, answer, outcome kind, status served, health, retried, key refused)`.
    type Case = (
        &'static str,
        Result<Raw, Fault>,
        &'static str,
        u16,
        Health,
        bool,
        bool,
    );

    #[test]
    fn one_verdict_per_status_class() {
        let policy = Policy::of(predmarket_core::request::Operation::ListMarkets);
        let cases: Vec<Case> = vec![
            (
                "200 object",
                raw(200, r#"{"markets":[]}"#),
                "answer",
                200,
                Health::Good,
                false,
                false,
            ),
            (
                "200 html",
                raw(200, HTML),
                "failed",
                503,
                Health::Neutral,
                false,
                false,
            ),
            (
                "200 truncated",
                raw(200, r#"{"markets":["#),
                "failed",
                503,
                Health::Neutral,
                false,
                false,
            ),
            (
                "200 array",
                raw(200, "[]"),
                "failed",
                503,
                Health::Neutral,
                false,
                false,
            ),
            (
                "301",
                raw(301, ""),
                "failed",
                503,
                Health::Neutral,
                false,
                false,
            ),
            (
                "400 typed",
                raw(400, TYPED),
                "passed",
                400,
                Health::Good,
                false,
                false,
            ),
            (
                "400 html",
                raw(400, HTML),
                "passed",
                400,
                Health::Neutral,
                false,
                false,
            ),
            (
                "401 typed",
                raw(401, TYPED),
                "failed",
                503,
                Health::Bad,
                false,
                true,
            ),
            (
                "403 html",
                raw(403, HTML),
                "passed",
                400,
                Health::Neutral,
                false,
                false,
            ),
            (
                "404 typed",
                raw(404, TYPED),
                "answer",
                404,
                Health::Good,
                false,
                false,
            ),
            (
                "404 html",
                raw(404, HTML),
                "passed",
                404,
                Health::Neutral,
                false,
                false,
            ),
            (
                "429 typed",
                raw(429, TYPED),
                "failed",
                429,
                Health::Neutral,
                false,
                false,
            ),
            (
                "429 bare",
                raw(429, ""),
                "failed",
                429,
                Health::Neutral,
                false,
                false,
            ),
            (
                "500 typed",
                raw(500, TYPED),
                "failed",
                500,
                Health::Bad,
                true,
                false,
            ),
            (
                "502 html",
                raw(502, HTML),
                "failed",
                503,
                Health::Bad,
                true,
                false,
            ),
            (
                "503 one platform",
                raw(503, PLATFORM_DOWN),
                "passed",
                503,
                Health::Good,
                false,
                false,
            ),
            (
                "timeout",
                Err(Fault::Timeout),
                "failed",
                504,
                Health::Bad,
                false,
                false,
            ),
            (
                "unreachable",
                Err(Fault::Unreachable),
                "failed",
                503,
                Health::Bad,
                true,
                false,
            ),
            (
                "too large",
                Err(Fault::TooLarge),
                "failed",
                503,
                Health::Neutral,
                false,
                false,
            ),
        ];
        for (name, answer, kind, status, health, retry, key_refused) in cases {
            let v = judge(answer, policy, 1_000);
            let (got_kind, entry) = match &v.outcome {
                Outcome::Answer(e) => ("answer", e),
                Outcome::Passed(e) => ("passed", e),
                Outcome::Failed(e) => ("failed", e),
            };
            assert_eq!(
                (got_kind, entry.status, v.health, v.retry, v.key_refused),
                (kind, status, health, retry, key_refused),
                "{name}"
            );
            assert!(
                serde_json::from_slice::<Value>(&entry.body).is_ok_and(|b| b.is_object()),
                "{name}: every body served is a JSON object"
            );
        }
    }

    #[test]
    fn answers_carry_the_operations_lifetimes() {
        let policy = Policy::of(predmarket_core::request::Operation::GetOrderbook);
        let Outcome::Answer(entry) = judge(raw(200, "{}"), policy, 7).outcome else {
            panic!("an answer");
        };
        assert_eq!(entry.fetched_ms, 7);
        assert_eq!(entry.fresh_ms, policy.fresh.as_millis() as u64);
        let Outcome::Answer(missing) = judge(raw(404, TYPED), policy, 7).outcome else {
            panic!("a remembered 404");
        };
        assert_eq!(missing.fresh_ms, cache::NEGATIVE_TTL.as_millis() as u64);
    }
}
