//! The proxy's state and its start: the parts every phase of a request
//! uses (the upstream, the cache, the budget, the breaker, Redis, the
//! visitors' admission, the requests in flight), built from the proxy's
//! flags, which are checked here first.

use super::breaker::Breaker;
use super::budget::{Budget, Ticket};
use super::cache::{Cache, Policy};
use super::judge::Outcome;
use super::metrics::Metrics;
use super::settings::ProxyArgs;
use super::upstream::{Target, Upstream, UpstreamKey};
use super::visitors::{self, Visitor, Visitors};
use super::{shared, stale};
use crate::access_log::AccessLog;
use crate::auth::Keys;
use futures::future::{BoxFuture, Shared as SharedFuture};
use predmarket_core::request::Operation;
use predmarket_core::request::{ListPlatforms, Request as CoreRequest};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the router hands `forward` with each request: the operation and
/// its cache lifetimes, fixed when the route is built (no path is parsed
/// again to find them).
#[derive(Debug, Clone, Copy)]
pub(super) struct Route {
    pub(super) op: Operation,
    pub(super) policy: Policy,
}

/// Who asks: a proxy key's visitor (its lane is the key's position), or
/// with `--public-proxy` a client address.
pub(super) enum Who {
    Key(u64),
    Client(Visitor),
    /// A stream's poll, waiting in budget lane `u64` (the pollers' own,
    /// or for a topic's first poll its opener's, charged when the topic
    /// was made).
    Poll(u64),
}

impl Who {
    pub(super) fn lane(&self) -> u64 {
        match self {
            Self::Key(lane) | Self::Poll(lane) => *lane,
            Self::Client(client) => client.lane(),
        }
    }
}

pub(super) type Flight = SharedFuture<BoxFuture<'static, Outcome>>;

/// A request in flight: its answer to come, and its wait for an upstream
/// slot, which joiners queue in their own lanes.
pub(super) struct InFlight {
    pub(super) answer: Flight,
    pub(super) ticket: Arc<Ticket>,
}

/// Aborts the budget's dispatcher when the proxy goes away.
pub struct AbortOnDrop(pub tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

pub struct ProxyState {
    pub(super) upstream: Upstream,
    /// The half-open circuit's probe: the proxy's own cheap request.
    pub(super) probe: Target,
    pub(super) cache: Cache,
    pub(super) budget: Arc<Budget>,
    pub(super) breaker: Breaker,
    pub metrics: Arc<Metrics>,
    /// Marked bodies of entries served stale.
    pub stale: stale::StaleBodies,
    pub(super) shared: Option<Arc<shared::Shared>>,
    /// `None` with `--public-proxy`.
    pub(super) keys: Option<Keys>,
    /// Set with `--public-proxy`.
    pub(super) visitors: Option<Arc<Visitors>>,
    pub(super) flights: Mutex<HashMap<String, InFlight>>,
    pub(super) max_wait: Duration,
    pub(super) upstream_timeout: Duration,
    pub(super) ttl_scale: f64,
    pub(super) log: Arc<AccessLog>,
    _dispatcher: AbortOnDrop,
}

impl ProxyState {
    /// With `--public-proxy`: the visitors' admission, which the streams'
    /// opens go through too.
    pub fn visitors(&self) -> Option<Arc<Visitors>> {
        self.visitors.clone()
    }
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
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

impl ProxyState {
    /// The upstream's requests per minute, as the budget knows it now.
    pub fn budget_limit(&self) -> u32 {
        self.budget.limit()
    }

    /// Upstream requests the budget could still send within a minute.
    pub fn budget_left(&self) -> u32 {
        self.budget.left_in_minute()
    }

    /// The request log, which hides the visitors' and the upstream's keys.
    pub fn log(&self) -> Arc<AccessLog> {
        self.log.clone()
    }

    /// The upstream's base URL (for the start-up line).
    pub fn upstream_base(&self) -> &str {
        self.upstream.base()
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
