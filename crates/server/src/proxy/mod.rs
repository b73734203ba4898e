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
pub mod shared;
pub mod stale;
pub mod upstream;
pub mod visitors;

use crate::access_log::AccessLog;
use crate::auth::{KeyId, Keys};
use crate::config::Config;
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
use bytes::Bytes;
use cache::{Cache, Entry, Freshness, Policy};
use futures::FutureExt;
use futures::future::{BoxFuture, Shared as SharedFuture};
use judge::{Health, Outcome, error_entry, judge};
use metrics::{Gauges, Metrics};
use predmarket_core::ErrorCode;
use predmarket_core::request::{HttpRequest, ListPlatforms, Operation, Request as CoreRequest};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use upstream::{Target, Upstream, UpstreamKey};
use visitors::{Refusal, Visitor, Visitors};

/// The command line of proxy mode, flattened into `Config`.
#[derive(Debug, Clone, clap::Args)]
pub struct ProxyArgs {
    /// Serve the operations from this service (http:// or https:// base
    /// URL) through a cache, instead of local data. The key comes from
    /// --upstream-key-file or PREDMARKET_UPSTREAM_KEY.
    #[arg(long, env = "PREDMARKET_UPSTREAM")]
    pub upstream: Option<String>,

    /// File holding the upstream's API key (first line that is not blank or
    /// a `#` comment). Without it, PREDMARKET_UPSTREAM_KEY is read.
    #[arg(long = "upstream-key-file", env = "PREDMARKET_UPSTREAM_KEY_FILE")]
    pub upstream_key_file: Option<PathBuf>,

    /// The upstream's requests per minute for that key. The proxy never
    /// sends more in any minute (less when the upstream's X-RateLimit-Limit
    /// says less).
    #[arg(long = "upstream-limit", default_value_t = 100)]
    pub upstream_limit: u32,

    /// Seconds one upstream request may take.
    #[arg(long = "upstream-timeout", default_value_t = 4.0)]
    pub upstream_timeout_secs: f64,

    /// Seconds a visitor may wait for an upstream slot; a longer expected
    /// wait is answered 429 with Retry-After at once.
    #[arg(long = "upstream-max-wait", default_value_t = 5.0)]
    pub max_wait_secs: f64,

    /// Visitors need no API key (the demo served from the same origin).
    /// Without it, visitors use the --api-key keys with their limits.
    #[arg(long = "public-proxy")]
    pub public_proxy: bool,

    /// Redis URL: replicas share one upstream budget and one cache
    /// (`rediss://` for TLS, the password in the URL; README, Proxy mode).
    #[arg(long, env = "PREDMARKET_REDIS", hide_env_values = true)]
    pub redis: Option<String>,

    /// Share (above 0, at most 1) of --upstream-limit this replica spends on
    /// its own while Redis is down: 1 / the number of replicas keeps them
    /// together within one budget.
    #[arg(long = "redis-fallback-share", default_value_t = 0.5)]
    pub redis_fallback_share: f64,

    /// Largest answer shared through Redis, in KiB; larger ones are cached
    /// by each replica only.
    #[arg(long = "redis-max-entry-kb", default_value_t = 256)]
    pub redis_max_entry_kb: u64,

    /// Serve GET /metrics here only (a port alone means 127.0.0.1:PORT);
    /// without it there is no /metrics. Never on the visitors' address: it
    /// tells when the budget is low and the circuit open.
    #[arg(long = "metrics-addr", env = "PREDMARKET_METRICS_ADDR")]
    pub metrics_addr: Option<String>,

    /// Memory bound of the local cache, in MiB (keys and bodies).
    #[arg(long = "cache-mb", default_value_t = 64)]
    pub cache_mb: u64,

    /// Upstream failures in a row that open the circuit (connect errors,
    /// or timeouts and 5xx of more than one request).
    #[arg(long = "breaker-failures", default_value_t = 5)]
    pub breaker_failures: u32,

    /// Seconds the circuit stays open before one probe request.
    #[arg(long = "breaker-cooldown", default_value_t = 10.0)]
    pub breaker_cooldown_secs: f64,

    /// Factor on every cache lifetime of proxy::cache (0.5 halves them;
    /// tests use small factors to see entries age).
    #[arg(long = "cache-ttl-scale", default_value_t = 1.0)]
    pub cache_ttl_scale: f64,

    /// With --public-proxy: requests per minute from one client address
    /// (a quarter of them at once).
    #[arg(long = "visitor-requests", default_value_t = 240)]
    pub visitor_requests: u32,

    /// With --public-proxy: of those, requests per minute the cache cannot
    /// answer (they spend the upstream budget).
    #[arg(long = "visitor-misses", default_value_t = 30)]
    pub visitor_misses: u32,

    /// With --public-proxy: requests of one client address in progress at
    /// most.
    #[arg(long = "visitor-in-flight", default_value_t = 8)]
    pub visitor_in_flight: usize,

    /// With --public-proxy: a load balancer's address or network (CIDR,
    /// repeatable) whose X-Forwarded-For is believed; the client is then
    /// the rightmost untrusted address in it.
    #[arg(long = "trusted-proxy", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
}

impl Default for ProxyArgs {
    fn default() -> Self {
        Self {
            upstream: None,
            upstream_key_file: None,
            upstream_limit: 100,
            upstream_timeout_secs: 4.0,
            max_wait_secs: 5.0,
            public_proxy: false,
            redis: None,
            redis_fallback_share: 0.5,
            redis_max_entry_kb: 256,
            metrics_addr: None,
            cache_mb: 64,
            breaker_failures: 5,
            breaker_cooldown_secs: 10.0,
            cache_ttl_scale: 1.0,
            visitor_requests: 240,
            visitor_misses: 30,
            visitor_in_flight: 8,
            trusted_proxies: Vec::new(),
        }
    }
}

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
struct AbortOnDrop(tokio::task::JoinHandle<()>);

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

/// A built proxy: its router, the router of `/metrics` (served on its own
/// address), and, for tests, its state.
pub struct Proxy {
    pub router: Router,
    pub metrics: Router,
    pub state: Arc<ProxyState>,
}

impl ProxyArgs {
    /// `--metrics-addr`: an address, or a port alone on loopback.
    pub fn metrics_addr(&self) -> Result<Option<std::net::SocketAddr>, String> {
        let Some(text) = self.metrics_addr.as_deref().map(str::trim) else {
            return Ok(None);
        };
        if let Ok(port) = text.parse::<u16>() {
            return Ok(Some(std::net::SocketAddr::from(([127, 0, 0, 1], port))));
        }
        text.parse()
            .map(Some)
            .map_err(|_| format!("--metrics-addr: expected HOST:PORT or a port, got {text:?}"))
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Checks the proxy's options and builds it (connecting to Redis). Every
/// error is a sentence for the operator, without any key in it.
pub async fn build(config: &Config) -> Result<Proxy, String> {
    let args = &config.proxy;
    let base = args
        .upstream
        .as_deref()
        .ok_or("proxy mode needs --upstream URL")?;
    let key = UpstreamKey::load(args.upstream_key_file.as_deref())?;
    let keys = if args.public_proxy {
        if !config.api_key.is_empty() || config.api_key_file.is_some() {
            return Err(
                "--public-proxy lets every visitor in; it cannot be combined with --api-key \
                 or --api-key-file"
                    .into(),
            );
        }
        None
    } else {
        if config.demo_key_active() {
            return Err(
                "proxy mode needs keys for its visitors (--api-key or --api-key-file), \
                 or --public-proxy to let visitors in without one; the public demo key \
                 is not accepted in front of a real upstream"
                    .into(),
            );
        }
        let specs = config.key_specs()?;
        Some(Keys::new(&specs, config.max_in_flight_per_key))
    };
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
    if args.max_wait_secs + args.upstream_timeout_secs >= config.request_timeout_secs {
        return Err(format!(
            "--upstream-max-wait ({}) plus --upstream-timeout ({}) must stay below \
             --request-timeout ({}), so a visitor gets the proxy's answer rather than a 504",
            args.max_wait_secs, args.upstream_timeout_secs, config.request_timeout_secs
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
    let log = Arc::new(AccessLog::new(!config.quiet, secrets));
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
        log: log.clone(),
        _dispatcher: dispatcher,
    });
    Ok(Proxy {
        router: router(state.clone(), config, log),
        metrics: Router::new()
            .route("/metrics", get(metrics_text))
            .with_state(state.clone())
            .fallback(crate::error::not_found_fallback),
        state,
    })
}

fn router(state: Arc<ProxyState>, config: &Config, log: Arc<AccessLog>) -> Router {
    let mut operations = Router::new();
    for &op in Operation::ALL {
        operations = operations.route(op.path(), route(op, &state));
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
    // As on the local server, the OpenAPI document needs no key. It is the
    // proxy's own: it serves the same operations, and the public service
    // documents none of its own.
    let public = Router::new()
        .route("/openapi.json", get(own_openapi))
        .with_state(state);
    let mut app = operations.merge(public);
    if let Some(dir) = &config.web {
        let policy = Arc::new(crate::headers::WebPolicy::new(dir));
        app = app.merge(
            crate::routes::web(dir).layer(axum::middleware::from_fn_with_state(
                policy,
                crate::headers::apply,
            )),
        );
    }
    let app = app
        .fallback(crate::error::not_found_fallback)
        .method_not_allowed_fallback(crate::error::method_not_allowed_fallback);
    crate::access_log::wrap(crate::with_layers(app, config), log)
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

/// The reference server's document, minus the examples drawn from local
/// data (a proxy has none), with what the proxy adds to every answer.
async fn own_openapi() -> Response {
    static DOCUMENT: std::sync::OnceLock<Bytes> = std::sync::OnceLock::new();
    let bytes = DOCUMENT.get_or_init(|| {
        let mut doc = crate::openapi::document();
        if let Some(info) = doc.get_mut("info").and_then(Value::as_object_mut) {
            info.insert("title".into(), json!("predmarket service (caching proxy)"));
            let text = info
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let text = format!(
                "Served by predmarket-server in proxy mode: every operation is answered from \
                 an upstream service through a cache. `X-Cache` says how (HIT, MISS, UPDATING, \
                 STALE, PASS, ERROR); a stale answer served because the upstream failed has \
                 `meta.stale: true` and `meta.stale_age_seconds`.\n\n{text}"
            );
            info.insert("description".into(), Value::from(text));
        }
        open_parameter_sets(&mut doc);
        Bytes::from(serde_json::to_vec(&doc).unwrap_or_default())
    });
    crate::routes::bytes_response(bytes.to_vec())
}

/// Drops the `enum` of every parameter: the reference server lists the
/// values it accepts (its platform and league ids among them), while which
/// values a proxy accepts is the upstream's call, and the public service's
/// ids are not the spec's labels.
fn open_parameter_sets(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for operation in paths.values_mut().filter_map(|p| p.get_mut("get")) {
        let Some(parameters) = operation
            .get_mut("parameters")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for parameter in parameters {
            let dropped = parameter
                .get_mut("schema")
                .and_then(Value::as_object_mut)
                .and_then(|schema| schema.remove("enum"));
            if dropped.is_some()
                && let Some(text) = parameter.get("description").and_then(Value::as_str)
            {
                let text = format!("{text} Which values are accepted is the upstream's call.");
                parameter["description"] = Value::from(text);
            }
        }
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

impl ProxyState {
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

/// Runs the proxy until Ctrl-C / SIGTERM (`serve` of proxy mode).
pub async fn serve(config: Config) -> std::io::Result<()> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    config.validate().map_err(invalid)?;
    let proxy = build(&config).await.map_err(invalid)?;
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    tracing::info!(
        "predmarket-server proxy listening on http://{addr}, upstream {} ({} requests per minute{}{})",
        proxy.state.upstream.base(),
        config.proxy.upstream_limit,
        if config.proxy.redis.is_some() {
            ", budget and cache shared through Redis"
        } else {
            ""
        },
        if config.proxy.public_proxy {
            ", visitors need no key"
        } else {
            ""
        },
    );
    if let Some(dir) = &config.web {
        tracing::info!(
            "serving the demo from {} at http://{addr}/app/",
            dir.display()
        );
    }
    let limits = crate::listen::ConnectionLimits::from_config(&config);
    // Ended with the proxy (aborted on drop).
    let _metrics = match config.proxy.metrics_addr().map_err(invalid)? {
        Some(metrics_addr) => {
            let listener = tokio::net::TcpListener::bind(metrics_addr).await?;
            let metrics_addr = listener.local_addr()?;
            tracing::info!("proxy metrics on http://{metrics_addr}/metrics");
            if !metrics_addr.ip().is_loopback() {
                tracing::warn!(
                    "--metrics-addr {metrics_addr} is reachable beyond this machine: \
                     /metrics tells when the upstream budget is low"
                );
            }
            Some(AbortOnDrop(tokio::spawn(async move {
                let _ =
                    crate::listen::serve(listener, proxy.metrics, limits, std::future::pending())
                        .await;
            })))
        }
        None => None,
    };
    crate::listen::serve(listener, proxy.router, limits, crate::shutdown_signal()).await?;
    tracing::info!("predmarket-server stopped");
    Ok(())
}
