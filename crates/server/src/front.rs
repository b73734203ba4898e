//! The front service for kept answers: a `GET` whose answer is kept for
//! this exact canonical request and coding (the proxy's fresh cache hits,
//! `proxy::fresh`; the local server's pages of markets, assembled from
//! their kept middle, `routes::kept`) is answered here, before the
//! router, by the few layers such an answer needs; every other request
//! goes to the router unchanged (`listen.rs` asks [`Front::find`]).
//!
//! The router's path costs a kept answer about as much as the answer
//! itself: matching the route, the `Query` extractor, the extension map
//! (`ConnectInfo`, the streaming mark, the key's lane and id, axum's
//! matched path and original URI), the boxed route future, the `from_fn`
//! key middleware, the timeout, panic and compression layers
//! (docs/benchmarks.md, "Sixth round"). Here the answer is found first
//! ([`KeptAnswers::find`], no side effect: a request not found was neither
//! charged nor counted and goes to the router as it came; none is looked
//! for without a known key, whose 401 stays the router's), then passes
//! what a visitor can tell apart, each rule stated once and shared with
//! the router's stack: the access log line (`access_log::AccessLog::line`),
//! CORS (`layers::cors`), `nosniff` and `Cache-Control`
//! (`layers::constant_headers`), the server's in-flight cap (the very
//! `guard::InFlightLayer` of the router's stack), and the key's check,
//! budget, in-flight cap and rate-limit headers (`auth::check_now`), and
//! tower-http's compression (for the check's refusals). The timeout
//! layer has nothing to do for an answer made before it would run; a
//! panic while making it is the panic layer's 500 (`Front::find`).

use crate::access_log::{AccessLog, Started};
use crate::auth::Keys;
use crate::encoding::whole::Whole;
use crate::error::ApiError;
use crate::{guard, layers};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, Uri, header};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;
use tower::util::{MapResponse, MapResponseLayer};
use tower::{Service, ServiceBuilder};
use tower_http::compression::{Compression, CompressionBody};
use tower_http::cors::Cors;

/// Answers kept for their exact canonical request and coding.
pub trait KeptAnswers: Send + Sync + 'static {
    /// The answer to a `GET` of `uri` with `headers`, bodiless, when it is
    /// kept for this request and the coding its client takes (or is made
    /// and kept when served); `None` sends the request to the router.
    /// Charges and counts nothing, and makes no page: that waits for the
    /// key's check ([`KeptAnswer::Later`]).
    fn find(&self, uri: &Uri, headers: &HeaderMap) -> Option<KeptAnswer>;

    /// The keys the answers are behind; `None` sends every request to
    /// the router.
    fn keys(&self) -> Option<&Keys>;

    /// A found answer passed the key check and is served.
    fn served(&self, answer: &KeptAnswer);
}

/// What a connection serves: the router, and the front service when the
/// mode has kept answers.
#[derive(Clone)]
pub struct Served {
    pub router: Router,
    pub front: Option<Arc<Front>>,
}

impl From<Router> for Served {
    fn from(router: Router) -> Self {
        Self {
            router,
            front: None,
        }
    }
}

/// The layers a kept answer passes, outermost first (as in
/// `layers::wrap_sharing`): CORS, the constant headers, the in-flight cap,
/// then the key's check around the answer found ([`Checked`]), whose
/// refusals pass tower-http's compression as the router's do.
pub type Stack = Cors<MapResponse<guard::InFlight<Checked>, fn(Response) -> Response>>;

/// The key's check's refusals, through tower-http's compression.
type Refusals = MapResponse<Compression<Carry>, fn(Compressed) -> Response>;

/// An answer out of tower-http's compression.
type Compressed = axum::http::Response<CompressionBody<Body>>;

/// Boxes a compressed body as every answer's body, as axum's routes do.
fn boxed(response: Compressed) -> Response {
    response.map(Body::new)
}

/// The front service of one mode.
pub struct Front {
    kept: Arc<dyn KeptAnswers>,
    stack: Stack,
    log: Option<Arc<AccessLog>>,
}

impl Front {
    /// `in_flight` must be the layer of the router's stack, so the cap
    /// counts requests of both paths.
    pub fn new(
        kept: Arc<dyn KeptAnswers>,
        settings: &layers::Settings,
        in_flight: guard::InFlightLayer,
        log: Arc<AccessLog>,
    ) -> Self {
        let constant_headers: fn(Response) -> Response = layers::constant_headers;
        let boxed: fn(Compressed) -> Response = boxed;
        let refusals = ServiceBuilder::new()
            .layer(MapResponseLayer::new(boxed))
            .layer(layers::compression())
            .service(Carry);
        let stack = ServiceBuilder::new()
            .layer(layers::cors(&settings.origins))
            .layer(MapResponseLayer::new(constant_headers))
            .layer(in_flight)
            .service(Checked {
                kept: kept.clone(),
                refusals,
            });
        Self {
            kept,
            stack,
            log: log.enabled().then_some(log),
        }
    }

    /// The stack for one connection (cloned once per connection: the CORS
    /// layer's clone copies its lists).
    pub fn stack(&self) -> Stack {
        self.stack.clone()
    }

    /// The kept answer to `request`, if it is one for this service.
    pub fn find<B: http_body::Body>(&self, request: &Request<B>) -> Option<KeptAnswer> {
        // A body (a `GET` may have one) is the router's to drain or refuse.
        if request.method() != Method::GET || !request.body().is_end_stream() {
            return None;
        }
        // No answer is made for a visitor without a known key: its 401 is
        // the router's, as cheap as before (an answer made first would be
        // work a keyless stranger could ask for at will).
        if !self
            .kept
            .keys()
            .is_some_and(|keys| keys.knows(request.headers()))
        {
            return None;
        }
        // Looked for outside the router's panic layer: a panic is the
        // same 500 it makes (and then passes the key check, as a
        // handler's panic does behind it).
        let find = || self.kept.find(request.uri(), request.headers());
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(find)) {
            Ok(found) => found,
            Err(panic) => Some(KeptAnswer::Made(crate::error::panic_response(panic))),
        }
    }

    /// `request` as the stack takes it, its kept `answer` (from
    /// [`Front::find`]) in place of its body, and what its log line needs
    /// (`started`: before the answer was looked for).
    pub fn taken<B>(
        &self,
        request: Request<B>,
        answer: KeptAnswer,
        started: Instant,
    ) -> (Request<Found>, Option<Logged>) {
        let logged = self.log.as_ref().map(|log| Logged {
            log: log.clone(),
            uri: request.uri().clone(),
            started,
        });
        (request.map(|_| Carried(answer)), logged)
    }
}

/// A kept answer found for a request ([`Front::find`]), made into its
/// response only once the key's check has let the request through: a key
/// over its budget gets its 429 before any page is made.
pub enum KeptAnswer {
    /// Made already, from stored bytes (the proxy's fresh hit: its entry's
    /// bytes and headers; a panic's 500).
    Made(Response),
    /// A page kept whole for this second (`encoding::whole`): only its
    /// tail, with this request's time since `started`, is written.
    Whole(Arc<Whole>, Started),
    /// A page to make (and keep) when served: not kept whole in this
    /// second yet. Its request was read and checked by `find`.
    Later(Box<dyn FnOnce() -> Response + Send>),
}

impl KeptAnswer {
    /// The response, made now; a panic while making it is the panic
    /// layer's 500, as behind the router.
    fn answer(self) -> Response {
        let make = move || match self {
            Self::Made(response) => response,
            Self::Whole(whole, started) => whole.answer(started.elapsed_ms()),
            Self::Later(make) => make(),
        };
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(make))
            .unwrap_or_else(crate::error::panic_response)
    }
}

/// A request the front service answers: its body is its kept answer.
pub type Found = Carried<KeptAnswer>;

/// What the access log line of a kept answer needs.
pub struct Logged {
    log: Arc<AccessLog>,
    uri: Uri,
    started: Instant,
}

impl Logged {
    pub fn write(self, status: axum::http::StatusCode) {
        self.log.line(&Method::GET, &self.uri, status, self.started);
    }
}

/// The innermost service of the stack: the key's check (`auth::check_now`)
/// around the answer found. A kept answer it serves goes out as it is:
/// tower-http's compression would hand it on untouched
/// (`untouched_by_compression`), and passing it through cost a box and
/// a wrapper around its body on every request (docs/benchmarks.md,
/// "Seventh round"); anything else (the check's refusals, an answer a
/// compressed client gets uncompressed) passes the compression.
#[derive(Clone)]
pub struct Checked {
    kept: Arc<dyn KeptAnswers>,
    refusals: Refusals,
}

impl Service<Request<Found>> for Checked {
    type Response = Response;
    type Error = Infallible;
    type Future = futures::future::Either<
        Ready<Result<Response, Infallible>>,
        <Refusals as Service<Request<Carried<Response>>>>::Future,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.refusals.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Found>) -> Self::Future {
        let (parts, Carried(answer)) = request.into_parts();
        let mut served = false;
        let response = match self.kept.keys() {
            Some(keys) => crate::auth::check_now(keys, &parts.headers, || {
                served = true;
                self.kept.served(&answer);
                answer.answer()
            }),
            // `Front::find` finds no answer of a service without keys.
            None => ApiError::unauthorized("missing X-API-Key header").into_response(),
        };
        if served && untouched_by_compression(&parts.headers, &response) {
            return futures::future::Either::Left(ready(Ok(response)));
        }
        let carried = Request::from_parts(parts, Carried(response));
        futures::future::Either::Right(self.refusals.call(carried))
    }
}

/// Whether tower-http's compression would hand `response` to a client
/// that sent `request` on as it is, headers and body: it never
/// recompresses an answer that has a coding, and for a client that sends
/// no `Accept-Encoding` it only adds `Vary: accept-encoding` (when the
/// answer lacks it; kept pages carry it). Its own rules, in
/// `tower_http::compression::future`.
fn untouched_by_compression(request: &HeaderMap, response: &Response) -> bool {
    let headers = response.headers();
    headers.contains_key(header::CONTENT_ENCODING)
        || (!request.contains_key(header::ACCEPT_ENCODING)
            && headers
                .get_all(header::VARY)
                .iter()
                .any(|value| value.as_bytes().eq_ignore_ascii_case(b"accept-encoding")))
}

/// Answers the response a request carries: the check's refusal, handed
/// to tower-http's compression as a request so that the compression
/// reads the client's `Accept-Encoding` as it does behind the router.
#[derive(Clone)]
pub struct Carry;

impl Service<Request<Carried<Response>>> for Carry {
    type Response = Response;
    type Error = Infallible;
    type Future = Ready<Result<Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Carried<Response>>) -> Self::Future {
        ready(Ok(request.into_body().0))
    }
}

/// A request's body that carries a value through the stack in its place:
/// the kept answer found for it ([`Found`]), or the answer the check made
/// (to [`Carry`]). As a body it is empty, as the request's own was
/// (`Front::find` takes only requests without one).
pub struct Carried<T>(T);

impl<T> http_body::Body for Carried<T> {
    type Data = bytes::Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<bytes::Bytes>, Infallible>>> {
        Poll::Ready(None)
    }

    fn is_end_stream(&self) -> bool {
        true
    }
}

pin_project_lite::pin_project! {
    /// A kept answer on its way through the stack, logged when it comes
    /// out.
    pub struct FrontFuture<F> {
        #[pin]
        answer: F,
        logged: Option<Logged>,
    }
}

impl<F> FrontFuture<F> {
    pub fn new(answer: F, logged: Option<Logged>) -> Self {
        Self { answer, logged }
    }
}

impl<F> Future for FrontFuture<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(response) = std::task::ready!(this.answer.poll(cx));
        if let Some(logged) = this.logged.take() {
            logged.write(response.status());
        }
        Poll::Ready(Ok(response))
    }
}
