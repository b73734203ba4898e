//! `/metrics` in the Prometheus text format. Counters are atomics bumped on
//! the request path; the upstream statuses live in a small map behind a
//! mutex, touched only when a request goes upstream. Nothing here holds a
//! key or a query.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Default)]
pub struct Metrics {
    /// Upstream requests by status code or fault (`timeout`, `unreachable`).
    upstream: Mutex<BTreeMap<String, u64>>,
    pub hits: AtomicU64,
    pub misses: AtomicU64,
    /// Served past its freshness while one request refreshes it.
    pub revalidations: AtomicU64,
    /// Served stale because the upstream failed.
    pub stale: AtomicU64,
    /// Requests that joined an identical request already in flight.
    pub joined: AtomicU64,
    /// Visitors answered 429 by the proxy's budget.
    pub rejected: AtomicU64,
    /// Requests refused while the circuit was open.
    pub circuit_refusals: AtomicU64,
    /// Pauses ordered by the upstream (429, exhausted remaining).
    pub pauses: AtomicU64,
    /// Entries found in Redis.
    pub shared_hits: AtomicU64,
    /// Upstream slots granted by this replica's fallback share while Redis
    /// was down (rendered with `--redis` only).
    pub redis_fallback_slots: AtomicU64,
}

/// Gauges read at scrape time.
pub struct Gauges {
    pub queue: usize,
    pub budget_left: u32,
    pub limit: u32,
    pub circuit: u8,
    pub cache_bytes: u64,
    pub cache_entries: u64,
    pub redis_errors: Option<u64>,
}

impl Metrics {
    pub fn upstream(&self, outcome: &str) {
        let mut map = self
            .upstream
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *map.entry(outcome.to_owned()).or_default() += 1;
    }

    /// Upstream requests so far, all outcomes.
    pub fn upstream_total(&self) -> u64 {
        self.upstream
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
            .sum()
    }

    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::with_capacity(2048);
        out.push_str(
            "# HELP predmarket_proxy_upstream_requests_total Requests sent upstream, by status or fault.\n\
             # TYPE predmarket_proxy_upstream_requests_total counter\n",
        );
        let upstream = self
            .upstream
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        for (outcome, n) in &upstream {
            let _ = writeln!(
                out,
                "predmarket_proxy_upstream_requests_total{{status=\"{outcome}\"}} {n}"
            );
        }
        let counters = [
            (
                "cache_hits_total",
                "Answers served fresh from the cache.",
                &self.hits,
            ),
            (
                "cache_misses_total",
                "Answers that needed the upstream.",
                &self.misses,
            ),
            (
                "cache_revalidations_total",
                "Answers served while revalidating in the background.",
                &self.revalidations,
            ),
            (
                "cache_stale_total",
                "Stale answers served because the upstream failed.",
                &self.stale,
            ),
            (
                "single_flight_joined_total",
                "Requests that joined an identical one in flight.",
                &self.joined,
            ),
            (
                "rejected_total",
                "Visitors answered 429 by the proxy's upstream budget.",
                &self.rejected,
            ),
            (
                "circuit_refusals_total",
                "Requests not sent while the circuit was open.",
                &self.circuit_refusals,
            ),
            (
                "upstream_pauses_total",
                "Pauses ordered by the upstream (429, no requests remaining).",
                &self.pauses,
            ),
            (
                "shared_cache_hits_total",
                "Entries found in Redis.",
                &self.shared_hits,
            ),
        ];
        for (name, help, value) in counters {
            let _ = write!(
                out,
                "# HELP predmarket_proxy_{name} {help}\n# TYPE predmarket_proxy_{name} counter\npredmarket_proxy_{name} {}\n",
                value.load(Ordering::Relaxed)
            );
        }
        let mut gauges_list = vec![
            (
                "queue_length",
                "Requests waiting for an upstream slot.",
                gauges.queue as u64,
            ),
            (
                "budget_left",
                "Upstream requests that could go now.",
                u64::from(gauges.budget_left),
            ),
            (
                "upstream_limit",
                "Upstream requests per minute in force.",
                u64::from(gauges.limit),
            ),
            (
                "circuit_state",
                "0 closed, 1 open, 2 half-open.",
                u64::from(gauges.circuit),
            ),
            (
                "cache_bytes",
                "Bytes held by the local cache.",
                gauges.cache_bytes,
            ),
            (
                "cache_entries",
                "Entries in the local cache.",
                gauges.cache_entries,
            ),
        ];
        if let Some(errors) = gauges.redis_errors {
            gauges_list.push(("redis_errors", "Redis commands that failed.", errors));
            let _ = write!(
                out,
                "# HELP predmarket_proxy_redis_fallback_slots_total Upstream slots granted on this replica's fallback share while Redis was down.\n\
                 # TYPE predmarket_proxy_redis_fallback_slots_total counter\n\
                 predmarket_proxy_redis_fallback_slots_total {}\n",
                self.redis_fallback_slots.load(Ordering::Relaxed)
            );
        }
        for (name, help, value) in gauges_list {
            let _ = write!(
                out,
                "# HELP predmarket_proxy_{name} {help}\n# TYPE predmarket_proxy_{name} gauge\npredmarket_proxy_{name} {value}\n"
            );
        }
        out
    }
}
