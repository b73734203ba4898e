//! The admit phase: a miss joins the identical request in flight or starts
//! one (single flight; with `--public-proxy` starting one is charged to the
//! client's misses), and that one request asks Redis (with `--redis`),
//! then passes the circuit breaker (a half-open circuit first sends the
//! proxy's own probe) before it is sent (`send`), with one retry of a
//! quick failure.

use super::breaker::Admit;
use super::budget::{self, Ticket};
use super::cache::{self, Freshness, Policy};
use super::judge::{Health, Outcome, error_entry};
use super::state::{Flight, InFlight, ProxyState, Route, Who, lock};
use super::upstream::Target;
use super::visitors::Refusal;
use futures::FutureExt;
use predmarket_core::ErrorCode;
use predmarket_core::request::{ListPlatforms, Request as CoreRequest};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl ProxyState {
    /// Joins the request for `key` in flight (queueing its wait in the
    /// joiner's lane too), or starts it as a task (so that it finishes,
    /// and its answer is cached, even when every visitor waiting on it has
    /// gone). Starting one is a miss: with `--public-proxy` it is charged
    /// to the client's bucket of misses, and refused past it; joining is
    /// not charged.
    pub(super) fn flight(
        self: Arc<Self>,
        key: String,
        target: Target,
        visitor: &Who,
        route: Route,
    ) -> Result<Flight, Refusal> {
        let lane = visitor.lane();
        let mut flights = lock(&self.flights);
        if let Some(flight) = flights.get(&key) {
            self.metrics.joined.fetch_add(1, Ordering::Relaxed);
            if lane != budget::REFRESH_LANE {
                self.budget.join(&flight.ticket, lane);
            }
            return Ok(flight.answer.clone());
        }
        // Checked under the flights' lock: a flight stores its answer
        // before it leaves the map (`fetch`, then `remove` below), so a
        // caller who read the old entry just before that flight finished
        // finds its answer here instead of asking the upstream again
        // (without this, two refreshes of one entry could start 11 ms
        // apart: session 23's CI). One upstream request per entry per
        // freshness, however the callers interleave.
        if let Some(entry) = self.cache.get(&key)
            && entry.freshness(cache::now_ms()) == Freshness::Fresh
        {
            self.metrics.joined.fetch_add(1, Ordering::Relaxed);
            return Ok(futures::future::ready(Outcome::Answer(entry))
                .boxed()
                .shared());
        }
        if let Who::Client(client) = visitor {
            client.charge_miss()?;
        }
        // A stream's poll waits for its slot rather than fail: it is due
        // (the scheduler spaced the polls to fit the budget), nobody is
        // held up by its wait, and a refusal would be fanned out to every
        // subscriber as a failure. Its subscribers hear `stale` if the
        // data grows late meanwhile (`stream::topic`).
        let max_wait = match visitor {
            Who::Poll(_) => budget::STREAM_MAX_WAIT.max(self.max_wait),
            _ => self.max_wait,
        };
        let state = self.clone();
        let task_key = key.clone();
        let ticket = Ticket::in_lane(lane);
        let task_ticket = ticket.clone();
        let task = tokio::spawn(async move {
            let outcome = state
                .fetch(&target, &task_ticket, lane, max_wait, route)
                .await;
            lock(&state.flights).remove(&task_key);
            outcome
        });
        let flight = async move {
            task.await.unwrap_or_else(|_| {
                Outcome::Failed(error_entry(
                    ErrorCode::InternalError,
                    "the upstream request failed",
                    json!({ "reason": "proxy_task_failed" }),
                    None,
                    cache::now_ms(),
                ))
            })
        }
        .boxed()
        .shared();
        flights.insert(
            key,
            InFlight {
                answer: flight.clone(),
                ticket,
            },
        );
        Ok(flight)
    }

    /// Redis, then the upstream (with one retry of a quick failure),
    /// waiting at most `max_wait` for each budget slot.
    pub(super) async fn fetch(
        &self,
        target: &Target,
        ticket: &Arc<Ticket>,
        lane: u64,
        max_wait: std::time::Duration,
        route: Route,
    ) -> Outcome {
        let key = target.key();
        if let Some(shared) = &self.shared
            && let Some(entry) = shared.get(key).await
        {
            let entry = Arc::new(entry);
            let now = cache::now_ms();
            if entry.freshness(now) == Freshness::Fresh {
                self.metrics.shared_hits.fetch_add(1, Ordering::Relaxed);
                if self.replaces(key, &entry, now) {
                    self.cache.insert(key, entry.clone());
                }
                return Outcome::Answer(entry);
            }
            // Older: kept as the fallback should the upstream fail.
            if entry.usable_stale(now)
                && self
                    .cache
                    .get(key)
                    .is_none_or(|local| local.fetched_ms < entry.fetched_ms)
            {
                self.cache.insert(key, entry);
            }
        }
        let mut retried = false;
        loop {
            let admit = match self.breaker.admit(cache::now_ms()) {
                Ok(admit) => admit,
                Err(wait_ms) => return self.circuit_open(wait_ms),
            };
            if admit == Admit::Probe {
                // The half-open probe is the proxy's own cheap request,
                // never a visitor's: no visitor's choice of request can
                // keep the circuit open.
                let probe = Route {
                    op: ListPlatforms::OP,
                    policy: Policy::of(ListPlatforms::OP).scaled(self.ttl_scale),
                };
                match self
                    .send(&self.probe, ticket, lane, max_wait, probe, Admit::Probe)
                    .await
                {
                    Ok((verdict, _)) if verdict.health == Health::Good => {
                        if let Outcome::Answer(entry) = verdict.outcome {
                            self.store(self.probe.key(), entry).await;
                        }
                    }
                    Ok(_) => return self.circuit_open(1000),
                    Err(outcome) => return outcome,
                }
            }
            let (verdict, started) = match self
                .send(target, ticket, lane, max_wait, route, Admit::Closed)
                .await
            {
                Ok(sent) => sent,
                Err(outcome) => return outcome,
            };
            match verdict.outcome {
                Outcome::Answer(entry) => {
                    self.store(key, entry.clone()).await;
                    return Outcome::Answer(entry);
                }
                // A quick failure the upstream may not repeat (a connect
                // error, a 5xx) is retried once, through the budget again;
                // a slow one is not, so the visitor is answered within
                // --request-timeout, and an unreadable body is not.
                Outcome::Failed(_)
                    if verdict.retry
                        && !retried
                        && started.elapsed() < self.upstream_timeout / 4 =>
                {
                    retried = true;
                }
                other => return other,
            }
        }
    }

    /// The answer while the circuit is open for `wait_ms` more.
    pub(super) fn circuit_open(&self, wait_ms: u64) -> Outcome {
        self.metrics
            .circuit_refusals
            .fetch_add(1, Ordering::Relaxed);
        let retry = wait_ms.div_ceil(1000).max(1);
        Outcome::Failed(error_entry(
            ErrorCode::PlatformUnavailable,
            "the upstream service is failing; the proxy is not sending requests for a while",
            json!({ "reason": "upstream_circuit_open", "retry_after": retry }),
            Some(retry),
            cache::now_ms(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::cache::Entry;
    use super::super::state::{Settings, start};
    use super::super::upstream::UpstreamKey;
    use super::*;
    use crate::proxy::ProxyArgs;
    use clap::Parser;
    use predmarket_core::request::ListMarkets;
    use std::sync::OnceLock;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        proxy: ProxyArgs,
    }

    /// The interleaving session 23's CI hit once, made certain: a caller
    /// read an entry past its freshness, and before it asked for a flight
    /// another flight stored the refreshed entry and left the map. The
    /// upstream (nothing listens on its port: a flight sent there would
    /// fail) is not asked; the caller gets the refreshed entry.
    #[tokio::test]
    async fn a_flight_asked_for_once_a_refresh_has_landed_takes_the_refreshed_entry() {
        let line = Line::try_parse_from(["proxy", "--upstream", "http://127.0.0.1:9"]).unwrap();
        let state = start(Settings {
            args: &line.proxy,
            upstream_key: UpstreamKey::for_tests(),
            keys: None,
            request_timeout_secs: 30.0,
            log_requests: false,
        })
        .await
        .unwrap();
        let http = cache::canonical(
            ListMarkets::from_query(&[], "limit=3")
                .unwrap()
                .to_http()
                .unwrap(),
        );
        let key = http.path_and_query();
        let target = state.upstream.target(&http).unwrap();
        let route = Route {
            op: ListMarkets::OP,
            policy: Policy::of(ListMarkets::OP),
        };
        let refreshed = Arc::new(Entry {
            status: 200,
            body: bytes::Bytes::from_static(b"{\"markets\":[]}"),
            fetched_ms: cache::now_ms(),
            fresh_ms: 60_000,
            revalidate_ms: 60_000,
            retry_after: None,
            compressed: OnceLock::new(),
        });
        state.cache.insert(&key, refreshed.clone());
        let flight = state
            .clone()
            .flight(key, target, &Who::Key(budget::REFRESH_LANE), route)
            .unwrap();
        match flight.await {
            Outcome::Answer(entry) => assert!(Arc::ptr_eq(&entry, &refreshed)),
            other => panic!("the upstream was asked: {other:?}"),
        }
        assert_eq!(state.upstream_requests(), 0);
    }
}
