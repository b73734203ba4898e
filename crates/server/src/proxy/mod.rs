//! Proxy mode: `predmarket-server --upstream URL` serves the operations of
//! the core's table from another service (the public one, or another
//! predmarket-server) instead of local data. It forwards operations, never
//! paths.
//!
//! A request's way: the visitor's key is checked as on the local server
//! (`auth::check`), or with `--public-proxy` the visitor is its client
//! address, admitted by its buckets and cap (`visitors`); the route of its
//! operation reads it with the operation's core request type, as the local
//! server does (a bad parameter is the same 400; undeclared ones are
//! dropped), and renders the request to send from that typed value, which
//! is also the cache key; its URL must stay under the upstream's base path
//! (`upstream::Target`). A fresh entry is served at once, one past its
//! freshness is served while one background request refreshes it;
//! otherwise the request joins the identical request in flight or starts
//! one (single flight). That one request asks Redis (with `--redis`), then
//! passes the circuit breaker (`breaker`; a half-open circuit first sends
//! the proxy's own probe), waits for a slot of the upstream budget in its
//! visitor's fair queue (`budget`) and goes upstream with the upstream key
//! (`upstream`). Its answer is judged (`judge`): JSON objects are served
//! and cached, typed errors pass through with the upstream's codes, faults
//! become typed errors, and when the upstream fails a stale entry is served
//! instead, marked `X-Cache: STALE` and `meta.stale`.

pub mod breaker;
pub mod budget;
pub mod cache;
pub mod judge;
pub mod metrics;
pub mod settings;
pub mod shared;
pub mod stale;
pub mod upstream;
pub mod visitors;

use crate::access_log::AccessLog;
use crate::auth::{KeyId, Keys};
use crate::error::ApiError;
use crate::query::Query;
use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use breaker::{Admit, Breaker, Report};
use budget::{Budget, Ticket};
use cache::{Cache, Entry, Freshness, Policy};
use futures::FutureExt;
use futures::future::{BoxFuture, Shared as SharedFuture};
use judge::{Health, Outcome, error_entry, judge};
use metrics::{Gauges, Metrics};
use predmarket_core::ErrorCode;
use predmarket_core::request::{HttpRequest, ListPlatforms, Operation, Request as CoreRequest};
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use upstream::{Target, Upstream, UpstreamKey};
use visitors::{Refusal, Visitor, Visitors};

pub use settings::ProxyArgs;

/// What the router hands `forward` with each request: the operation and
/// its cache lifetimes, fixed when the route is built (no path is parsed
/// again to find them).
#[derive(Debug, Clone, Copy)]
struct Route {
    op: Operation,
    policy: Policy,
}

macro_rules! proxy_routes {
    ($($variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*];)+) => {
        /// The route of `op`: its visitors' requests read by its core
        /// request type.
        fn route(op: Operation, state: &Arc<ProxyState>) -> MethodRouter {
            match op {
                $(Operation::$variant => route_of::<$request>(state),)+
            }
        }
    };
}

predmarket_core::for_each_operation!(proxy_routes);

/// A visitor's request is read as the reference server reads it (`Query`:
/// the core's parameters and checks, the same 400 on a bad one), and only
/// the typed value goes on: parameters the operation does not declare are
/// dropped (as the server ignores them), ids are one encoded segment each.
fn route_of<R: CoreRequest + Send + 'static>(state: &Arc<ProxyState>) -> MethodRouter {
    let route = Route {
        op: R::OP,
        policy: Policy::of(R::OP).scaled(state.ttl_scale),
    };
    let state = state.clone();
    get(
        move |key: Option<Extension<KeyId>>,
              client: Option<Extension<Visitor>>,
              headers: HeaderMap,
              Query(request): Query<R>| {
            let state = state.clone();
            let visitor = match (key, client) {
                (Some(Extension(KeyId(id))), _) => Who::Key(id as u64),
                (None, Some(Extension(client))) => Who::Client(client),
                (None, None) => Who::Key(0),
            };
            let gzip = accepts_gzip(&headers);
            async move {
                match request.to_http() {
                    Ok(http) => forward(state, route, visitor, http, gzip).await,
                    Err(error) => crate::query::invalid(error).into_response(),
                }
            }
        },
    )
}

type Flight = SharedFuture<BoxFuture<'static, Outcome>>;

/// Who asks: a proxy key's visitor (its lane is the key's position), or
/// with `--public-proxy` a client address.
enum Who {
    Key(u64),
    Client(Visitor),
}

impl Who {
    fn lane(&self) -> u64 {
        match self {
            Self::Key(lane) => *lane,
            Self::Client(client) => client.lane(),
        }
    }
}

/// A request in flight: its answer to come, and its wait for an upstream
/// slot, which joiners queue in their own lanes.
struct InFlight {
    answer: Flight,
    ticket: Arc<Ticket>,
}

/// Aborts the budget's dispatcher when the proxy goes away.
pub struct AbortOnDrop(pub tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

pub struct ProxyState {
    upstream: Upstream,
    /// The half-open circuit's probe: the proxy's own cheap request.
    probe: Target,
    cache: Cache,
    budget: Arc<Budget>,
    breaker: Breaker,
    pub metrics: Arc<Metrics>,
    /// Marked bodies of entries served stale.
    pub stale: stale::StaleBodies,
    shared: Option<Arc<shared::Shared>>,
    /// `None` with `--public-proxy`.
    keys: Option<Keys>,
    /// Set with `--public-proxy`.
    visitors: Option<Arc<Visitors>>,
    flights: Mutex<HashMap<String, InFlight>>,
    max_wait: Duration,
    upstream_timeout: Duration,
    ttl_scale: f64,
    log: Arc<AccessLog>,
    _dispatcher: AbortOnDrop,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What proxy mode is built from: its flags, and the parts the command
/// line settles for both modes.
pub struct Settings<'a> {
    pub args: &'a ProxyArgs,
    /// The upstream's key (`upstream::UpstreamKey::load`).
    pub upstream_key: UpstreamKey,
    /// The visitors' keys; `None` with `--public-proxy`.
    pub keys: Option<Keys>,
    /// `--request-timeout`: the upstream's wait and timeout must stay below.
    pub request_timeout_secs: f64,
    /// Whether requests are logged on stderr.
    pub log_requests: bool,
}

/// Checks the proxy's options and starts its state (connecting to Redis,
/// starting the budget's dispatcher). Every error is a sentence for the
/// operator, without any key in it.
pub async fn start(settings: Settings<'_>) -> Result<Arc<ProxyState>, String> {
    let args = settings.args;
    let base = args
        .upstream
        .as_deref()
        .ok_or("proxy mode needs --upstream URL")?;
    let key = settings.upstream_key;
    let keys = settings.keys;
    let visitors = if args.public_proxy {
        if args.visitor_requests == 0 || args.visitor_misses == 0 || args.visitor_in_flight == 0 {
            return Err(
                "--visitor-requests, --visitor-misses and --visitor-in-flight must be at least 1"
                    .into(),
            );
        }
        let trusted = args
            .trusted_proxies
            .iter()
            .map(|t| visitors::Network::parse(t))
            .collect::<Result<Vec<_>, _>>()?;
        Some(Visitors::new(visitors::Limits {
            requests_per_minute: args.visitor_requests,
            misses_per_minute: args.visitor_misses,
            in_flight: args.visitor_in_flight,
            trusted,
        }))
    } else {
        if !args.trusted_proxies.is_empty() {
            return Err("--trusted-proxy applies only with --public-proxy".into());
        }
        None
    };
    for (flag, secs) in [
        ("--upstream-timeout", args.upstream_timeout_secs),
        ("--upstream-max-wait", args.max_wait_secs),
        ("--breaker-cooldown", args.breaker_cooldown_secs),
    ] {
        if !(secs.is_finite() && secs > 0.0 && secs <= 3600.0) {
            return Err(format!("{flag} must be above 0 and at most 3600 seconds"));
        }
    }
    if args.max_wait_secs + args.upstream_timeout_secs >= settings.request_timeout_secs {
        return Err(format!(
            "--upstream-max-wait ({}) plus --upstream-timeout ({}) must stay below \
             --request-timeout ({}), so a visitor gets the proxy's answer rather than a 504",
            args.max_wait_secs, args.upstream_timeout_secs, settings.request_timeout_secs
        ));
    }
    if !(args.cache_ttl_scale.is_finite()
        && args.cache_ttl_scale > 0.0
        && args.cache_ttl_scale <= 100.0)
    {
        return Err("--cache-ttl-scale must be above 0 and at most 100".into());
    }
    if args.upstream_limit == 0 || args.cache_mb == 0 || args.redis_max_entry_kb == 0 {
        return Err(
            "--upstream-limit, --cache-mb and --redis-max-entry-kb must be at least 1".into(),
        );
    }
    if !(args.redis_fallback_share > 0.0 && args.redis_fallback_share <= 1.0) {
        return Err("--redis-fallback-share must be above 0 and at most 1".into());
    }
    args.metrics_addr()?;
    let upstream_timeout = Duration::from_secs_f64(args.upstream_timeout_secs);
    let upstream = Upstream::new(base, &key, upstream_timeout)?;
    let probe = ListPlatforms
        .to_http()
        .map_err(|e| e.to_string())
        .and_then(|http| upstream.target(&http).map_err(|e| e.to_string()))
        .map_err(|e| format!("--upstream: the proxy's probe request: {e}"))?;
    let shared = match &args.redis {
        Some(url) => Some(
            shared::Shared::connect(
                url,
                upstream.base(),
                args.redis_fallback_share,
                usize::try_from(args.redis_max_entry_kb.saturating_mul(1024)).unwrap_or(usize::MAX),
            )
            .await?,
        ),
        None => None,
    };
    let metrics = Arc::new(Metrics::default());
    let budget = Budget::new(args.upstream_limit, shared.clone(), metrics.clone());
    let dispatcher = AbortOnDrop(budget.start());
    let mut secrets = keys.as_ref().map(Keys::secrets).unwrap_or_default();
    secrets.push(key.secret());
    let log = Arc::new(AccessLog::new(settings.log_requests, secrets));
    let state = Arc::new(ProxyState {
        upstream,
        probe,
        cache: Cache::new(args.cache_mb.saturating_mul(1024 * 1024)),
        budget,
        breaker: Breaker::new(
            args.breaker_failures,
            Duration::from_secs_f64(args.breaker_cooldown_secs),
        ),
        metrics,
        stale: stale::StaleBodies::new(args.cache_mb.saturating_mul(1024 * 1024) / 4),
        shared,
        keys,
        visitors,
        flights: Mutex::new(HashMap::new()),
        max_wait: Duration::from_secs_f64(args.max_wait_secs),
        upstream_timeout,
        ttl_scale: args.cache_ttl_scale,
        log,
        _dispatcher: dispatcher,
    });
    Ok(state)
}

/// The operations, behind the visitors' keys or (`--public-proxy`) their
/// per-address admission.
pub fn operations(state: &Arc<ProxyState>) -> Router {
    let mut operations = Router::new();
    for &op in Operation::ALL {
        operations = operations.route(op.path(), route(op, state));
    }
    if state.keys.is_some() {
        operations = operations.layer(axum::middleware::from_fn_with_state(
            state.clone(),
            require_visitor_key,
        ));
    }
    if let Some(visitors) = &state.visitors {
        operations = operations.layer(axum::middleware::from_fn_with_state(
            visitors.clone(),
            visitors::admit,
        ));
    }
    operations
}

/// `router` behind the visitors' keys, when the proxy has keys. With
/// `--public-proxy` nothing is added: a stream's caps per address are its
/// admission (a visitor's in-flight slot would be held for its life).
pub fn behind_visitor_key(state: &Arc<ProxyState>, router: Router) -> Router {
    if state.keys.is_some() {
        router.layer(axum::middleware::from_fn_with_state(
            state.clone(),
            require_visitor_key,
        ))
    } else {
        router
    }
}

/// The router of `/metrics`, served on its own address.
pub fn metrics_router(state: &Arc<ProxyState>) -> Router {
    Router::new()
        .route("/metrics", get(metrics_text))
        .with_state(state.clone())
        .fallback(crate::error::not_found_fallback)
}

async fn require_visitor_key(
    State(state): State<Arc<ProxyState>>,
    request: Request,
    next: Next,
) -> Response {
    match &state.keys {
        Some(keys) => crate::auth::check(keys, request, |request| next.run(request)).await,
        None => next.run(request).await,
    }
}

async fn metrics_text(State(state): State<Arc<ProxyState>>) -> Response {
    let gauges = Gauges {
        queue: state.budget.queued(),
        budget_left: state.budget.left(),
        limit: state.budget.limit(),
        circuit: state.breaker.gauge(),
        cache_bytes: state.cache.weighted_bytes(),
        cache_entries: state.cache.entries(),
        redis_errors: state
            .shared
            .as_ref()
            .map(|s| s.errors.load(Ordering::Relaxed)),
    };
    let mut response = Response::new(Body::from(state.metrics.render(&gauges)));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    response
}

/// Serves one checked request: from the cache, from the request in flight
/// for the same key, or from the upstream. The cache key is the request as
/// it is sent upstream.
async fn forward(
    state: Arc<ProxyState>,
    route: Route,
    visitor: Who,
    http: HttpRequest,
    gzip: bool,
) -> Response {
    let http = cache::canonical(http);
    let target = match state.upstream.target(&http) {
        Ok(target) => target,
        Err(refused) => {
            tracing::warn!(op = route.op.name(), "proxy refused a request: {refused}");
            return ApiError::invalid("path", refused.to_string())
                .with_details(json!({ "reason": "outside_upstream_base" }))
                .into_response();
        }
    };
    let key = target.key().to_owned();
    let gzip = gzip.then_some(&state.cache.compressions);
    let now = cache::now_ms();
    if let Some(entry) = state.cache.get(&key) {
        match entry.freshness(now) {
            Freshness::Fresh => {
                state.metrics.hits.fetch_add(1, Ordering::Relaxed);
                return respond(&entry, "HIT", now, gzip);
            }
            // A stream's poller is what keeps the resource live: it waits
            // for the refresh (and so learns when the upstream fails)
            // rather than taking the entry being revalidated.
            Freshness::Revalidate if matches!(visitor, Who::Key(budget::STREAM_LANE)) => {}
            Freshness::Revalidate => {
                state.metrics.revalidations.fetch_add(1, Ordering::Relaxed);
                // Not awaited: the visitor has its answer; the flight
                // runs as a task of its own.
                drop(
                    state
                        .clone()
                        .flight(key, target, &Who::Key(budget::REFRESH_LANE), route),
                );
                return respond(&entry, "UPDATING", now, gzip);
            }
            Freshness::Stale => {}
        }
    }
    state.metrics.misses.fetch_add(1, Ordering::Relaxed);
    let flight = match state.clone().flight(key.clone(), target, &visitor, route) {
        Ok(flight) => flight,
        Err(refusal) => return refusal.into_response(),
    };
    match flight.await {
        Outcome::Answer(entry) => respond(&entry, "MISS", cache::now_ms(), gzip),
        Outcome::Passed(entry) => respond(&entry, "PASS", cache::now_ms(), gzip),
        Outcome::Failed(error) => {
            let now = cache::now_ms();
            match state.cache.get(&key).filter(|e| e.usable_stale(now)) {
                // Another flight refreshed it meanwhile.
                Some(entry) if entry.freshness(now) == Freshness::Fresh => {
                    respond(&entry, "HIT", now, gzip)
                }
                Some(entry) => {
                    state.metrics.stale.fetch_add(1, Ordering::Relaxed);
                    respond_stale(&state, &key, &entry, now)
                }
                None => respond(&error, "ERROR", now, gzip),
            }
        }
    }
}

/// The stream's poll of one resource (`stream::source::Proxied`): served
/// as a visitor's request is, through the cache and single flight, in a
/// budget lane of the pollers' own (so they queue fairly beside visitors).
pub async fn poll(state: &Arc<ProxyState>, op: Operation, http: HttpRequest) -> Response {
    let route = Route {
        op,
        policy: Policy::of(op).scaled(state.ttl_scale),
    };
    forward(
        state.clone(),
        route,
        Who::Key(budget::STREAM_LANE),
        http,
        false,
    )
    .await
}

impl ProxyState {
    /// The upstream's requests per minute, as the budget knows it now.
    pub fn budget_limit(&self) -> u32 {
        self.budget.limit()
    }

    /// Upstream requests left in the budget's window.
    pub fn budget_left(&self) -> u32 {
        self.budget.left()
    }

    /// The request log, which hides the visitors' and the upstream's keys.
    pub fn log(&self) -> Arc<AccessLog> {
        self.log.clone()
    }

    /// The upstream's base URL (for the start-up line).
    pub fn upstream_base(&self) -> &str {
        self.upstream.base()
    }

    /// Joins the request for `key` in flight (queueing its wait in the
    /// joiner's lane too), or starts it as a task (so that it finishes,
    /// and its answer is cached, even when every visitor waiting on it has
    /// gone). Starting one is a miss: with `--public-proxy` it is charged
    /// to the client's bucket of misses, and refused past it; joining is
    /// not charged.
    fn flight(
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
        if let Who::Client(client) = visitor {
            client.charge_miss()?;
        }
        let state = self.clone();
        let task_key = key.clone();
        let ticket = Ticket::in_lane(lane);
        let task_ticket = ticket.clone();
        let task = tokio::spawn(async move {
            let outcome = state.fetch(&target, &task_ticket, lane, route).await;
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

    /// Redis, then the upstream (with one retry of a quick failure).
    async fn fetch(
        &self,
        target: &Target,
        ticket: &Arc<Ticket>,
        lane: u64,
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
                    .send(&self.probe, ticket, lane, probe, Admit::Probe)
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
            let (verdict, started) =
                match self.send(target, ticket, lane, route, Admit::Closed).await {
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

    /// Whether `entry` may take the place of what is cached for `key`: an
    /// error (a 404 remembered for a while) never replaces a good answer
    /// that is still served, fresh or while revalidating. A resource that
    /// is gone upstream then disappears when its entry ages out, rather than
    /// one revalidation wiping a good entry for everyone.
    fn replaces(&self, key: &str, entry: &Entry, now_ms: u64) -> bool {
        entry.status == 200
            || self
                .cache
                .get(key)
                .is_none_or(|old| old.status != 200 || old.freshness(now_ms) == Freshness::Stale)
    }

    /// Keeps an answer, here and (with `--redis`) for the other replicas.
    async fn store(&self, key: &str, entry: Arc<Entry>) {
        if !self.replaces(key, &entry, cache::now_ms()) {
            return;
        }
        self.cache.insert(key, entry.clone());
        if let Some(shared) = &self.shared {
            shared.put(key, &entry).await;
        }
    }

    /// The answer while the circuit is open for `wait_ms` more.
    fn circuit_open(&self, wait_ms: u64) -> Outcome {
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

    /// One request upstream: a slot of the budget, the request, its
    /// verdict, and the verdict's word to the circuit breaker. `Err`: it
    /// was not sent (no slot in time).
    async fn send(
        &self,
        target: &Target,
        ticket: &Arc<Ticket>,
        lane: u64,
        route: Route,
        admit: Admit,
    ) -> Result<(judge::Verdict, Instant), Outcome> {
        if let Err(rejected) = self
            .budget
            .acquire_ticket(ticket, lane, self.max_wait)
            .await
        {
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
                        visitor: lane,
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

    /// Upstream requests sent so far (tests compare it with the upstream's
    /// own count).
    pub fn upstream_requests(&self) -> u64 {
        self.metrics.upstream_total()
    }

    /// Requests waiting for an upstream slot (places in the lanes).
    pub fn queued(&self) -> usize {
        self.budget.queued()
    }

    /// Bodies gzip-compressed so far (tests check that a cache hit adds
    /// none).
    pub fn compressions(&self) -> u64 {
        self.cache.compressions.load(Ordering::Relaxed)
    }
}

/// A cache key as the breaker tells requests apart.
fn key_hash(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

/// Whether the visitor takes gzip: then the counter of compressions, for
/// an answer not compressed yet.
type Gzip<'a> = Option<&'a std::sync::atomic::AtomicU64>;

/// Whether `Accept-Encoding` takes gzip (`gzip`, `x-gzip` or `*`, with a
/// q-value above 0).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            q > 0.0
                && ["gzip", "x-gzip", "*"]
                    .iter()
                    .any(|n| name.eq_ignore_ascii_case(n))
        })
}

/// An entry's answer: its gzip bytes, compressed once when it was stored,
/// when the visitor takes gzip (the compression layer leaves an answer
/// with a `Content-Encoding` alone), else its body.
fn respond(entry: &Entry, how: &'static str, now_ms: u64, gzip: Gzip<'_>) -> Response {
    let compressed = gzip.and_then(|counter| entry.gzip(counter));
    let mut response = Response::new(Body::from(
        compressed.clone().unwrap_or_else(|| entry.body.clone()),
    ));
    *response.status_mut() =
        StatusCode::from_u16(entry.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if compressed.is_some() {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    headers.insert("x-cache", HeaderValue::from_static(how));
    if matches!(how, "HIT" | "UPDATING" | "STALE") {
        headers.insert(header::AGE, HeaderValue::from(entry.age_ms(now_ms) / 1000));
    }
    if let Some(secs) = entry.retry_after {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// A stale entry, marked: `X-Cache: STALE` and `meta.stale: true` with
/// `meta.stale_age_seconds` (`stale`: no JSON work per request).
fn respond_stale(state: &ProxyState, key: &str, entry: &Entry, now_ms: u64) -> Response {
    let body = state.stale.body(key, entry, entry.age_ms(now_ms) / 1000);
    // Uncompressed: the body is swapped for the marked one (the server's
    // compression layer compresses it for a visitor who asks).
    let mut response = respond(entry, "STALE", now_ms, None);
    *response.body_mut() = Body::from(body);
    response.headers_mut().remove(header::RETRY_AFTER);
    response
}
