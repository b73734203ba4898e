//! The layers every answer of either mode passes: CORS, `nosniff`,
//! `Cache-Control`, shedding, the request timeout, panics as 500s,
//! compression.

use crate::config::Config;
use crate::{error, guard};
use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::http::{HeaderName, HeaderValue, Method, header};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;

/// How long a browser may cache a CORS preflight answer.
pub const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

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
