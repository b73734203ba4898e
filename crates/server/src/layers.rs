//! The layers every answer of either mode passes: CORS, `nosniff` and
//! `Cache-Control` (one layer), shedding, the request timeout, panics as 500s,
//! compression (answers from kept parts, `encoding`; anything else per
//! request).

use crate::{encoding, error, guard};
use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::http::{HeaderName, HeaderValue, Method, header};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceBuilder;
use tower::util::MapResponseLayer;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// How long a browser may cache a CORS preflight answer.
pub const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// What the layers depend on (built by `config::Config::layers`).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Then the answer is 504 `TIMEOUT`.
    pub request_timeout: Duration,
    /// Requests in progress at most; above it, 503 with Retry-After.
    pub max_in_flight: usize,
    /// Which origins a browser may read answers from.
    pub origins: Origins,
}

/// Which origins CORS lets read answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origins {
    Any,
    /// Same-origin only.
    None,
    /// These origins (ones that are not a valid header value are dropped).
    List(Vec<String>),
}

/// The layers every answer passes, outermost first:
/// - CORS outside everything that can answer on its own (shedding, timeout,
///   panic), so a browser can read those errors too;
/// - `nosniff` and `Cache-Control: no-store` (unless the demo set its own);
/// - shedding at `max_in_flight` requests in progress (503 + Retry-After)
///   instead of a queue, a request counted until its answer is written
///   (`guard::InFlightLayer`), and the request timeout (504), as JSON errors;
/// - CatchPanic inside both, so a panic's 500 carries CORS headers;
/// - compression innermost: answers of the operations from kept parts
///   (`encoding::layer::EncodeLayer`, one byte-bounded cache of `encoding::MAX_BYTES`
///   per app), then what is left (errors, the demo's files) per request.
///
/// `with_layers` in `lib.rs` builds the settings from the command line.
pub fn wrap(app: Router, settings: &Settings) -> Router {
    wrap_with(
        app,
        settings,
        Arc::new(encoding::Answers::new(encoding::MAX_BYTES)),
    )
}

/// `wrap`, its compression layer keeping middles in `answers` (the local
/// server's handlers keep their lists' middles there too).
pub fn wrap_with(app: Router, settings: &Settings, answers: Arc<encoding::Answers>) -> Router {
    wrap_sharing(
        app,
        settings,
        answers,
        guard::InFlightLayer::new(settings.max_in_flight),
    )
}

/// `wrap_with`, counting requests in progress in `in_flight`, which the
/// front service of kept answers shares (`front::Front`).
pub fn wrap_sharing(
    app: Router,
    settings: &Settings,
    answers: Arc<encoding::Answers>,
    in_flight: guard::InFlightLayer,
) -> Router {
    // One stack, given to the router once: axum boxes what each `layer`
    // call returns and clones that box for every request, so eight calls
    // cost every request eight boxed clones (docs/benchmarks.md, "Answers at the speed of a static file server").
    // Outermost first.
    app.layer(
        ServiceBuilder::new()
            .layer(cors(&settings.origins))
            .layer(MapResponseLayer::new(constant_headers))
            .layer(in_flight)
            .layer(HandleErrorLayer::new(guard::overloaded))
            .timeout(settings.request_timeout)
            .layer(CatchPanicLayer::custom(error::panic_response))
            .layer(compression())
            .layer(encoding::layer::EncodeLayer::new(answers)),
    )
}

/// `nosniff` on every answer, and `Cache-Control: no-store` on those that
/// set none (the demo's files set their own): one layer for both, as each
/// layer costs every request a step (docs/benchmarks.md, "Answers at the speed of a static file server").
pub(crate) fn constant_headers(mut response: axum::response::Response) -> axum::response::Response {
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// Compression per request, of what no kept part answers.
pub(crate) fn compression() -> CompressionLayer {
    CompressionLayer::new()
}

pub(crate) fn cors(origins: &Origins) -> CorsLayer {
    let origins = match origins {
        Origins::Any => AllowOrigin::any(),
        Origins::None => AllowOrigin::list([]),
        Origins::List(list) => {
            AllowOrigin::list(list.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
        }
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::OPTIONS])
        // `Last-Event-ID`: a browser resuming a stream (`GET /stream`).
        .allow_headers([
            HeaderName::from_static("x-api-key"),
            header::ACCEPT,
            HeaderName::from_static(predmarket_core::live::LAST_EVENT_ID_HEADER),
        ])
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
