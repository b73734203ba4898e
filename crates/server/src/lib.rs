//! predmarket-server: the service of `service.md` on local data.
//!
//! `app` builds the router (used by tests in-process over loopback),
//! `serve` runs it until shutdown.

pub mod auth;
pub mod config;
pub mod data;
pub mod error;
mod routes;

use axum::Router;
use axum::http::{HeaderName, HeaderValue, Method, header};
use config::Config;
use data::Dataset;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Everything a handler needs, shared.
pub struct AppState {
    pub data: Dataset,
    pub keys: auth::Keys,
    pub started: Instant,
}

pub type SharedState = Arc<AppState>;

/// Builds the whole application for `config`.
pub fn app(config: &Config) -> Router {
    let state = Arc::new(AppState {
        data: Dataset::generate(config.seed),
        keys: auth::Keys::new(&config.api_keys(), config.rate_limit),
        started: Instant::now(),
    });
    let api = routes::router(state.clone()).layer(axum::middleware::from_fn_with_state(
        state,
        auth::require_key,
    ));
    let mut app = match &config.web {
        Some(dir) => api.merge(routes::web(dir)),
        None => api,
    };
    app = app.fallback(error::not_found_fallback);
    app.layer(cors(config)).layer(CompressionLayer::new())
}

fn cors(config: &Config) -> CorsLayer {
    let origins = if config.cors_origins.is_empty() {
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
        ])
}

/// Binds `config.addr` and serves until Ctrl-C / SIGTERM.
pub async fn serve(config: Config) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr: SocketAddr = listener.local_addr()?;
    eprintln!("predmarket-server listening on http://{addr}");
    if let Some(dir) = &config.web {
        eprintln!(
            "serving the demo from {} at http://{addr}/app/",
            dir.display()
        );
    }
    axum::serve(listener, app(&config))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    eprintln!("predmarket-server stopped");
    Ok(())
}

async fn shutdown_signal() {
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
