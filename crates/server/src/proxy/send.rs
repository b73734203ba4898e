//! The budget and send phases: one request upstream waits for a slot of
//! the upstream budget in its visitor's fair queue (`budget`), goes with
//! the upstream key (`upstream`), is logged and counted, has its answer
//! judged (`judge`), and tells the circuit breaker the verdict's health.

use super::breaker::{Admit, Report};
use super::budget::{self, Ticket};
use super::cache;
use super::judge::{self, Health, Outcome, error_entry, judge};
use super::state::{ProxyState, Route};
use super::upstream::{self, Target};
use predmarket_core::ErrorCode;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

impl ProxyState {
    /// One request upstream: a slot of the budget (waited for at most
    /// `max_wait`), the request, its verdict, and the verdict's word to
    /// the circuit breaker. `Err`: it was not sent (no slot in time).
    pub(super) async fn send(
        &self,
        target: &Target,
        ticket: &Arc<Ticket>,
        lane: u64,
        max_wait: std::time::Duration,
        route: Route,
        admit: Admit,
    ) -> Result<(judge::Verdict, Instant), Outcome> {
        if let Err(rejected) = self.budget.acquire_ticket(ticket, lane, max_wait).await {
            self.breaker.cancel(admit);
            self.metrics.rejected.fetch_add(1, Ordering::Relaxed);
            let retry = rejected.retry_after_secs;
            return Err(Outcome::Failed(error_entry(
                ErrorCode::RateLimited,
                "the upstream's request budget is used up for now; retry later",
                json!({
                    "reason": "upstream_budget",
                    "limit": self.budget.limit(),
                    "retry_after_seconds": retry,
                }),
                Some(retry),
                cache::now_ms(),
            )));
        }
        let started = Instant::now();
        let result = self.upstream.get(target).await;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let label = match &result {
            Ok(raw) => raw.status.to_string(),
            Err(fault) => fault.label().to_owned(),
        };
        self.metrics.upstream(&label);
        if let Some(logged) = self.log.scrub(target.key()) {
            tracing::info!(
                op = route.op.name(),
                status = %label,
                ms = (ms * 10.0).round() / 10.0,
                probe = admit == Admit::Probe,
                target = %logged,
                "proxy upstream"
            );
        }
        if let Ok(raw) = &result {
            self.budget.observe(raw.status, &raw.rate).await;
        }
        let down = matches!(result, Err(upstream::Fault::Unreachable));
        let verdict = judge(result, route.policy, cache::now_ms());
        if verdict.key_refused {
            tracing::error!(
                status = %label,
                "the upstream refused the proxy's key; check --upstream-key-file / PREDMARKET_UPSTREAM_KEY"
            );
        }
        match verdict.health {
            Health::Neutral => self.breaker.cancel(admit),
            health => {
                let report = match health {
                    Health::Good => Report::Success,
                    _ if down => Report::Down,
                    _ => Report::Failed {
                        key: key_hash(target.key()),
                        visitor: budget::is_visitors(lane).then_some(lane),
                    },
                };
                if let Some(open) = self.breaker.record(report, cache::now_ms()) {
                    tracing::warn!(
                        circuit = if open { "opened" } else { "closed" },
                        status = %label,
                        "proxy circuit changed after an upstream answer"
                    );
                }
            }
        }
        Ok((verdict, started))
    }
}

/// A cache key as the breaker tells requests apart.
fn key_hash(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}
