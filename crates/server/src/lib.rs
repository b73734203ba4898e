//! predmarket-server: the service of `service.md` on local data.
//!
//! `app` builds the router (used by tests in-process over loopback),
//! `serve` runs it until shutdown.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// The OpenAPI document is one large `json!` literal.
#![recursion_limit = "512"]

pub mod access_log;
pub mod auth;
pub mod config;
pub mod cursor;
pub mod data;
pub mod encoding;
pub mod error;
pub mod faults;
pub mod front;
pub mod guard;
pub mod headers;
pub mod layers;
pub mod listen;
pub mod logs;
pub mod openapi;
pub mod proxy;
pub mod proxy_mode;
pub mod query;
pub mod record;
mod routes;
pub mod runtimes;
pub mod state;
pub mod stream;

pub use layers::PREFLIGHT_MAX_AGE;
pub use state::{AppState, SharedState};

use axum::Router;
use config::Config;
use data::Dataset;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

/// Builds the whole application for `config`.
///
/// A configuration that does not validate (see `Config::validate`) still
/// builds: unusable parts are dropped (e.g. an unreadable key file leaves the
/// `--api-key` keys). `serve` refuses such a configuration up front.
pub fn app(config: &Config) -> Router {
    app_with_data(config, Arc::new(Dataset::generate(&config.data_options())))
}

/// Like `app`, over data generated already (tests share one large data set
/// between servers).
pub fn app_with_data(config: &Config, data: Arc<Dataset>) -> Router {
    let recorder = record::Recorder::from_args(&config.record, config.stream.interval_scale);
    app_with_recorder(config, data, recorder.as_ref())
}

/// `app_with_data` and its front service (`served`): what the binary
/// serves, over data generated already (the in-process suites).
pub fn served_with_data(config: &Config, data: Arc<Dataset>) -> front::Served {
    let recorder = record::Recorder::from_args(&config.record, config.stream.interval_scale);
    served(config, data, recorder.as_ref())
}

/// Like `app_with_data`, its streams' answers recorded by `recorder`.
pub fn app_with_recorder(
    config: &Config,
    data: Arc<Dataset>,
    recorder: Option<&Arc<record::Recorder>>,
) -> Router {
    served(config, data, recorder).router
}

/// `app_with_recorder`, and the front service of its pages of markets
/// (`routes::kept`), which shares its in-flight cap (none with
/// `--router-only`): what the binary serves.
pub fn served(
    config: &Config,
    data: Arc<Dataset>,
    recorder: Option<&Arc<record::Recorder>>,
) -> front::Served {
    let specs = config.key_specs().unwrap_or_else(|_| {
        config
            .api_key
            .iter()
            .filter_map(|k| auth::KeySpec::parse(k, config.rate_limit).ok().flatten())
            .collect()
    });
    let keys = auth::Keys::new(&specs, config.max_in_flight_per_key);
    let log = Arc::new(access_log::AccessLog::new(!config.quiet, keys.secrets()));
    let state = Arc::new(AppState {
        data,
        keys,
        faults: faults::Faults::new(&config.faults()),
        cursors: cursor::CursorKey::random(config.cursor_ttl_secs),
        started: Instant::now(),
        openapi: std::sync::OnceLock::new(),
        searches: Arc::new(tokio::sync::Semaphore::new(guard::search_permits())),
        answers: Arc::new(encoding::Answers::new(encoding::MAX_BYTES)),
    });
    // The streams poll the operations' handlers in-process, behind no key:
    // the stream's own key was checked when it opened.
    let settings = config.stream();
    let broker = settings.local_broker();
    let hub = stream::Hub::start(
        record::source::wrap(
            Arc::new(stream::source::Local::new(routes::router(state.clone()))),
            recorder,
        ),
        settings,
        broker,
        stream::admission::Door::default(),
    );
    let streams = Router::new()
        .route(
            predmarket_core::live::PATH,
            axum::routing::get(stream::open),
        )
        .with_state(hub)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            stream_key,
        ));
    let mut operations = routes::router(state.clone());
    if let Some(recorder) = recorder {
        operations = operations.merge(record::history::router(recorder.dir().to_owned()));
    }
    let api = operations
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            operation,
        ))
        .merge(streams);
    // The OpenAPI document needs no key.
    let document = match recorder {
        Some(_) => axum::routing::get(openapi::serve_recording),
        None => axum::routing::get(openapi::serve),
    };
    let answers = state.answers.clone();
    let kept_state = state.clone();
    let public = Router::new()
        .route("/openapi.json", document)
        .with_state(state);
    let mut app = api.merge(public);
    if let Some(dir) = &config.web {
        let policy = Arc::new(headers::WebPolicy::new(dir));
        app = app.merge(
            routes::web(dir).layer(axum::middleware::from_fn_with_state(policy, headers::apply)),
        );
    }
    let app = app
        .fallback(error::not_found_fallback)
        .method_not_allowed_fallback(error::method_not_allowed_fallback);
    let settings = config.layers();
    let in_flight = guard::InFlightLayer::new(settings.max_in_flight);
    let front = (!config.router_only).then(|| {
        Arc::new(front::Front::new(
            Arc::new(routes::kept::MarketPages::new(kept_state)),
            &settings,
            in_flight.clone(),
            log.clone(),
        ))
    });
    front::Served {
        router: access_log::wrap(
            layers::wrap_sharing(app, &settings, answers, in_flight),
            log,
        ),
        front,
    }
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

/// A stream's key check: opening one is one request of its key's budget;
/// what its pollers read is not charged to anyone.
async fn stream_key(
    axum::extract::State(state): axum::extract::State<SharedState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    auth::check(&state.keys, request, |request| next.run(request)).await
}

/// The layers every answer passes (`layers::wrap`), as `config` sets them.
///
/// Public so tests can wrap a route of their own (one that panics) in the
/// very same stack.
pub fn with_layers(app: Router, config: &Config) -> Router {
    layers::wrap(app, &config.layers())
}

/// Binds `config.addr` and serves until Ctrl-C / SIGTERM.
pub async fn serve(config: Config) -> std::io::Result<()> {
    if config.proxy.upstream.is_some() {
        return proxy_mode::serve(config).await;
    }
    if config.replay.dir.is_some() {
        return record::replay_mode::serve(config).await;
    }
    config
        .validate()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    let generated = Instant::now();
    let data = Arc::new(Dataset::generate(&config.data_options()));
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
    let listeners = runtimes::bind(config.addr, runtimes::count())?;
    let addr: SocketAddr = listeners[0].local_addr()?;
    tracing::info!("predmarket-server listening on http://{addr}");
    runtimes::log(&listeners);
    if let Some(warning) = demo_key_warning(&config, addr) {
        tracing::warn!("{warning}");
    }
    if let Some(dir) = &config.web {
        tracing::info!(
            "serving the demo from {} at http://{addr}/app/",
            dir.display()
        );
    }
    let recorder = match config.record.settings() {
        Some(settings) => Some(record::Recorder::start(
            settings,
            config.stream.interval_scale,
        )?),
        None => None,
    };
    runtimes::serve(
        listeners,
        served(&config, data, recorder.as_ref()),
        config.connection_limits(),
        listen::shutdown_signal(),
    )
    .await?;
    if let Some(recorder) = &recorder {
        recorder.flush(record::FLUSH_PATIENCE);
    }
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
