//! The request phase: the proxy's routes, one per operation of the core's
//! table, read a visitor's request with the operation's core request type
//! (the same 400 as the local server on a bad parameter; undeclared
//! parameters dropped), find who asks (a key's visitor or, with
//! `--public-proxy`, a client address) and the content coding it takes, and hand
//! the typed request on (`key::forward`). Also the routers of the
//! operations and of `/metrics`.

use super::cache::Policy;
use super::key::forward;
use super::metrics::Gauges;
use super::state::{ProxyState, Route, Who};
use super::visitors::{self, Visitor};
use crate::auth::KeyId;
use crate::encoding::coding::Coding;
use crate::query::Query;
use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use predmarket_core::request::{Operation, Request as CoreRequest};
use std::sync::Arc;
use std::sync::atomic::Ordering;

macro_rules! proxy_routes {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
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
            let coding = Coding::accepted(&headers);
            async move {
                match request.to_http() {
                    Ok(http) => forward(state, route, visitor, http, coding).await,
                    Err(error) => crate::query::invalid(error).into_response(),
                }
            }
        },
    )
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

/// The stream's poll of one resource (`stream::source::Proxied`): served
/// as a visitor's request is, through the cache and single flight, in
/// budget lane `lane`: the pollers' own (`budget::STREAM_LANE`, so they
/// queue fairly beside visitors), or for a topic's first poll its
/// opener's (charged to the opener when the topic was made, so not here).
pub async fn poll(
    state: &Arc<ProxyState>,
    op: Operation,
    http: predmarket_core::HttpRequest,
    lane: u64,
) -> Response {
    let route = Route {
        op,
        policy: Policy::of(op).scaled(state.ttl_scale),
    };
    let who = Who::Poll(lane);
    forward(state.clone(), route, who, http, Coding::Identity).await
}

/// The router of `/metrics`, served on its own address.
/// Appends more figures to `/metrics` (the streams').
pub type MoreMetrics = Arc<dyn Fn(&mut String) + Send + Sync>;

/// `/metrics`: the proxy's figures, then `more`.
pub fn metrics_router(state: &Arc<ProxyState>, more: MoreMetrics) -> Router {
    Router::new()
        .route("/metrics", get(metrics_text))
        .with_state((state.clone(), more))
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

async fn metrics_text(State((state, more)): State<(Arc<ProxyState>, MoreMetrics)>) -> Response {
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
            .map(|s| s.health.errors.load(Ordering::Relaxed)),
    };
    let mut text = state.metrics.render(&gauges);
    more(&mut text);
    let mut response = Response::new(Body::from(text));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    response
}
