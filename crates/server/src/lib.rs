//! predmarket-server: the service of `service.md` on local data.
//!
//! `app` builds the router (used by tests in-process over loopback),
//! `serve` runs it until shutdown.

// The OpenAPI document is one large `json!` literal.
#![recursion_limit = "512"]

pub mod access_log;
pub mod auth;
pub mod config;
pub mod cursor;
pub mod data;
pub mod error;
pub mod faults;
pub mod guard;
pub mod headers;
pub mod listen;
pub mod logs;
pub mod openapi;
pub mod proxy;
pub mod query;
mod routes;

use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::http::{HeaderName, HeaderValue, Method, header};
use config::Config;
use data::Dataset;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;

/// How long a browser may cache a CORS preflight answer.
pub const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// Everything a handler needs, shared.
pub struct AppState {
    pub data: Arc<Dataset>,
    pub keys: auth::Keys,
    pub faults: faults::Faults,
    pub cursors: cursor::CursorKey,
    pub started: Instant,
    /// `/openapi.json`, built on first request (it names ids of the data).
    pub openapi: std::sync::OnceLock<Vec<u8>>,
    /// Searches running at once on the blocking pool (see `guard::offload`).
    pub searches: Arc<tokio::sync::Semaphore>,
}

pub type SharedState = Arc<AppState>;

/// Builds the whole application for `config`.
///
/// A configuration that does not validate (see `Config::validate`) still
/// builds: unusable parts are dropped (e.g. an unreadable key file leaves the
/// `--api-key` keys). `serve` refuses such a configuration up front.
pub fn app(config: &Config) -> Router {
    app_with_data(
        config,
        Arc::new(Dataset::generate(&data::Options::from(config))),
    )
}

/// Like `app`, over data generated already (tests share one large data set
/// between servers).
pub fn app_with_data(config: &Config, data: Arc<Dataset>) -> Router {
    let specs = config.key_specs().unwrap_or_else(|_| {
        config
            .api_key
            .iter()
            .filter_map(|k| config::KeySpec::parse(k, config.rate_limit).ok().flatten())
            .collect()
    });
    let keys = auth::Keys::new(&specs, config.max_in_flight_per_key);
    let log = Arc::new(access_log::AccessLog::new(!config.quiet, keys.secrets()));
    let state = Arc::new(AppState {
        data,
        keys,
        faults: faults::Faults::new(config),
        cursors: cursor::CursorKey::random(config.cursor_ttl_secs),
        started: Instant::now(),
        openapi: std::sync::OnceLock::new(),
        searches: Arc::new(tokio::sync::Semaphore::new(guard::search_permits())),
    });
    let api = routes::router(state.clone()).layer(axum::middleware::from_fn_with_state(
        state.clone(),
        operation,
    ));
    let mut app = api.merge(routes::public(state));
    if let Some(dir) = &config.web {
        let policy = Arc::new(headers::WebPolicy::new(dir));
        app = app.merge(
            routes::web(dir).layer(axum::middleware::from_fn_with_state(policy, headers::apply)),
        );
    }
    let app = app
        .fallback(error::not_found_fallback)
        .method_not_allowed_fallback(error::method_not_allowed_fallback);
    access_log::wrap(with_layers(app, config), log)
}

/// The checks of every operation, in order: the key (`auth::check`), then
/// injected faults, then searches moved to the blocking pool
/// (`guard::offload`). One middleware rather than three: each `from_fn`
/// layer boxes the inner service and its future once per request, which
/// the load bench measured (docs/benchmarks.md). Also the
/// request's `Started`, when no access log set it earlier.
async fn operation(
    axum::extract::State(state): axum::extract::State<SharedState>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if request.extensions().get::<access_log::Started>().is_none() {
        request
            .extensions_mut()
            .insert(access_log::Started(Instant::now()));
    }
    auth::check(&state.keys, request, |request| {
        faults::inject(&state.faults, request, |request| {
            guard::offload(&state.searches, request, next)
        })
    })
    .await
}

/// The layers every answer passes, outermost last:
/// - CORS outside everything that can answer on its own (shedding, timeout,
///   panic), so a browser can read those errors too;
/// - `nosniff` and `Cache-Control: no-store` (unless the demo set its own);
/// - shedding at `max_in_flight` requests in progress (503 + Retry-After)
///   instead of a queue, a request counted until its answer is written
///   (`guard::in_flight`), and the request timeout (504), as JSON errors;
/// - CatchPanic inside both, so a panic's 500 carries CORS headers;
/// - compression innermost.
///
/// Public so tests can wrap a route of their own (one that panics) in the
/// very same stack.
pub fn with_layers(app: Router, config: &Config) -> Router {
    let request_timeout = Duration::from_secs_f64(config.request_timeout_secs);
    app.layer(CompressionLayer::new())
        .layer(CatchPanicLayer::custom(error::panic_response))
        .layer(
            ServiceBuilder::new()
                .layer(HandleErrorLayer::new(guard::overloaded))
                .timeout(request_timeout),
        )
        // One semaphore for every route (axum clones a layer per route).
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(tokio::sync::Semaphore::new(config.max_in_flight)),
            guard::in_flight,
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(cors(config))
}

fn cors(config: &Config) -> CorsLayer {
    let origins = if config.cors_origins.is_empty() && config.proxy.public_proxy {
        // A public proxy spends its operator's quota: same-origin only (the
        // demo it serves) unless --cors-origin lists others.
        AllowOrigin::list([])
    } else if config.cors_origins.is_empty() {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            config
                .cors_origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::OPTIONS])
        .allow_headers([HeaderName::from_static("x-api-key"), header::ACCEPT])
        .expose_headers([
            header::RETRY_AFTER,
            HeaderName::from_static("x-ratelimit-limit"),
            HeaderName::from_static("x-ratelimit-remaining"),
            HeaderName::from_static("x-ratelimit-reset"),
            // Proxy mode: how an answer was served.
            HeaderName::from_static("x-cache"),
            header::AGE,
        ])
        .max_age(PREFLIGHT_MAX_AGE)
}

/// Binds `config.addr` and serves until Ctrl-C / SIGTERM.
pub async fn serve(config: Config) -> std::io::Result<()> {
    if config.proxy.upstream.is_some() {
        return proxy::serve(config).await;
    }
    config
        .validate()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    let generated = Instant::now();
    let data = Arc::new(Dataset::generate(&data::Options::from(&config)));
    tracing::info!(
        "generated {} markets, {} events, {} series, {} games in {:.0} ms (seed {}, scale {})",
        data.catalog.markets.len(),
        data.catalog.events.len(),
        data.catalog.series.len(),
        data.sports.games_count(),
        generated.elapsed().as_secs_f64() * 1000.0,
        config.seed,
        config.scale
    );
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr: SocketAddr = listener.local_addr()?;
    tracing::info!("predmarket-server listening on http://{addr}");
    if let Some(warning) = demo_key_warning(&config, addr) {
        tracing::warn!("{warning}");
    }
    if let Some(dir) = &config.web {
        tracing::info!(
            "serving the demo from {} at http://{addr}/app/",
            dir.display()
        );
    }
    listen::serve(
        listener,
        app_with_data(&config, data),
        listen::ConnectionLimits::from_config(&config),
        shutdown_signal(),
    )
    .await?;
    tracing::info!("predmarket-server stopped");
    Ok(())
}

/// The warning for a server that accepts the public demo key on an address
/// other machines can reach.
pub fn demo_key_warning(config: &Config, addr: SocketAddr) -> Option<String> {
    (config.demo_key_active() && !addr.ip().is_loopback()).then(|| {
        format!(
            "warning: no API key is configured, so the public demo key is accepted \
             on {addr}, which is reachable beyond this machine; give --api-key or \
             --api-key-file to make the server private"
        )
    })
}

pub(crate) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_key_beyond_loopback_is_warned_about() {
        let mut config = Config::for_tests("k");
        let public: SocketAddr = "0.0.0.0:8787".parse().unwrap();
        let loopback: SocketAddr = "127.0.0.1:8787".parse().unwrap();
        assert_eq!(demo_key_warning(&config, public), None);
        config.api_key.clear();
        assert!(demo_key_warning(&config, public).is_some_and(|w| w.contains("demo key")));
        assert_eq!(demo_key_warning(&config, loopback), None);
        assert!(demo_key_warning(&config, "[::]:1".parse().unwrap()).is_some());
    }
}
