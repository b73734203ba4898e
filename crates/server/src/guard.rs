//! Bounded work per request: a request timeout, shedding above a
//! number of requests in progress (counted until the answer is written), per-key caps, and searches run on the
//! blocking pool behind semaphores so they never hold an async worker.
//!
//! Every refusal is a JSON error body: 503 `PLATFORM_UNAVAILABLE` with
//! `Retry-After` when shedding (the code the public service uses for a 503,
//! `docs/spec/public-service-facts.md`; `details.reason` says
//! `overloaded`), 504 `TIMEOUT` when an operation runs out of time.

use crate::error::ApiError;
use axum::BoxError;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use predmarket_core::ErrorCode;
use serde_json::json;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Seconds a shed client is asked to wait.
pub const RETRY_AFTER_SECS: u64 = 1;

/// The searches of one API key: how many may run at once, so that one key's
/// searches leave blocking-pool permits to the others.
#[derive(Clone)]
pub struct KeyLane {
    pub searches: Arc<Semaphore>,
}

/// Searches running at once on the whole server: one per core, so that
/// searches cannot take every core from the async workers for long.
pub fn search_permits() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Searches of one key running at once: half the server's, at least one.
pub fn key_search_permits() -> usize {
    (search_permits() / 2).max(1)
}

/// The 503 of a shed request.
pub fn shed(message: &str) -> Response {
    let mut response = ApiError::new(ErrorCode::PlatformUnavailable, message)
        .with_details(json!({
            "reason": "overloaded",
            "retry_after": RETRY_AFTER_SECS,
        }))
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
    response
}

/// The answer for an error of the timeout layer.
pub async fn overloaded(error: BoxError) -> Response {
    if error.is::<tower::timeout::error::Elapsed>() {
        ApiError::new(ErrorCode::Timeout, "the operation took too long")
            .with_details(json!({ "reason": "request_timeout" }))
            .into_response()
    } else {
        // The stack has no other error; kept generic rather than echoing it.
        ApiError::internal("internal error").into_response()
    }
}

/// Largest piece of an answer handed to hyper at once. hyper buffers
/// little ahead of the socket (`listen::BUFFER_BYTES`) but takes a whole
/// frame, however large: a body of one 16 MiB frame would be "done", and
/// its slot freed, long before its bytes left. A page of markets (55 KB)
/// is one piece, so it leaves in one write.
const FRAME_BYTES: usize = 64 * 1024;

/// `--max-in-flight`: a request above it is answered 503 with Retry-After
/// at once (no queue). The slot is held by the answer's body until its last
/// piece is handed to the connection (or the connection is gone), not only
/// until the handler returns: a client reading a large answer slowly holds
/// a slot the whole time, and the write timeout (`listen`) bounds that time.
///
/// A layer of its own rather than a `from_fn` middleware, which boxes the
/// inner service and the request's future on every request
/// (docs/benchmarks.md, "Answers at the speed of a static file server"). One semaphore for every route (axum
/// clones a layer per route).
#[derive(Clone)]
pub struct InFlightLayer {
    slots: Arc<Semaphore>,
}

impl InFlightLayer {
    pub fn new(max_in_flight: usize) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(max_in_flight)),
        }
    }
}

impl<S> tower::Layer<S> for InFlightLayer {
    type Service = InFlight<S>;

    fn layer(&self, inner: S) -> InFlight<S> {
        InFlight {
            inner,
            slots: self.slots.clone(),
        }
    }
}

/// The service of [`InFlightLayer`].
#[derive(Clone)]
pub struct InFlight<S> {
    inner: S,
    slots: Arc<Semaphore>,
}

impl<S, B> tower::Service<axum::http::Request<B>> for InFlight<S>
where
    S: tower::Service<axum::http::Request<B>, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = InFlightFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        match self.slots.clone().try_acquire_owned() {
            Ok(permit) => InFlightFuture::Running {
                answer: self.inner.call(request),
                permit: Some(permit),
            },
            Err(_) => InFlightFuture::Shed,
        }
    }
}

pin_project_lite::pin_project! {
    /// A request in its slot, or shed.
    #[project = InFlightState]
    pub enum InFlightFuture<F> {
        Running {
            #[pin]
            answer: F,
            permit: Option<OwnedSemaphorePermit>,
        },
        Shed,
    }
}

impl<F> Future for InFlightFuture<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            InFlightState::Shed => Poll::Ready(Ok(shed(
                "the server is at its limit of requests in progress; retry shortly",
            ))),
            InFlightState::Running { answer, permit } => {
                let Ok(response) = std::task::ready!(answer.poll(cx));
                Poll::Ready(Ok(match permit.take() {
                    Some(permit) => held(response, permit),
                    // Polled again after its answer: nothing left to hold.
                    None => response,
                }))
            }
        }
    }
}

/// `response` with its in-flight slot on its body.
fn held(response: Response, permit: OwnedSemaphorePermit) -> Response {
    let (parts, body) = response.into_parts();
    if parts.extensions.get::<LongLived>().is_some() {
        // A stream: bounded by caps of its own, not by this slot.
        drop(permit);
        return Response::from_parts(parts, body);
    }
    let held = HeldBody {
        inner: body,
        pending: Bytes::new(),
        _permit: permit,
    };
    Response::from_parts(parts, axum::body::Body::new(held))
}

/// Marks an answer that lasts as long as the client reads it (a stream of
/// events): it gives back its in-flight slot once its head is written.
#[derive(Debug, Clone, Copy)]
pub struct LongLived;

/// A body that holds an in-flight slot until it is dropped, handed to hyper
/// in pieces of at most `FRAME_BYTES` (slices, not copies).
struct HeldBody {
    inner: axum::body::Body,
    /// What is left of a large frame.
    pending: Bytes,
    _permit: OwnedSemaphorePermit,
}

impl http_body::Body for HeldBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if !this.pending.is_empty() {
            let n = this.pending.len().min(FRAME_BYTES);
            return Poll::Ready(Some(Ok(Frame::data(this.pending.split_to(n)))));
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                Ok(mut data) if data.len() > FRAME_BYTES => {
                    this.pending = data.split_off(FRAME_BYTES);
                    Poll::Ready(Some(Ok(Frame::data(data))))
                }
                Ok(data) => Poll::Ready(Some(Ok(Frame::data(data)))),
                Err(frame) => Poll::Ready(Some(Ok(frame))),
            },
            other => other,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.pending.is_empty() && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let inner = self.inner.size_hint();
        let pending = self.pending.len() as u64;
        let mut hint = SizeHint::new();
        hint.set_lower(inner.lower() + pending);
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper + pending);
        }
        hint
    }
}

/// Whether `request` is a search (`query` on a list that has one): the only
/// operations whose cost depends on a user's text.
fn is_search(request: &Request) -> bool {
    is_search_of(request.uri())
}

/// Whether a request of `uri` is a search: `is_search`'s rule, for the
/// front service of kept answers too (`routes::kept`).
pub fn is_search_of(uri: &axum::http::Uri) -> bool {
    matches!(uri.path(), "/markets" | "/events" | "/series")
        && uri.query().is_some_and(|q| {
            form_urlencoded::parse(q.as_bytes()).any(|(k, v)| k == "query" && !v.trim().is_empty())
        })
}

/// Runs searches on the blocking pool, at most `search_permits()` at once
/// and `key_search_permits()` per key, waiting in FIFO order (bounded by the
/// request timeout, which drops the wait). Everything else runs as before.
pub async fn offload(searches: &Arc<Semaphore>, request: Request, next: Next) -> Response {
    if !is_search(&request) {
        return next.run(request).await;
    }
    let lane = request.extensions().get::<KeyLane>().cloned();
    let key_permit = match lane {
        Some(lane) => match lane.searches.acquire_owned().await {
            Ok(p) => Some(p),
            Err(_) => return shed("searches are closed"),
        },
        None => None,
    };
    let Ok(permit) = searches.clone().acquire_owned().await else {
        return shed("searches are closed");
    };
    let runtime = tokio::runtime::Handle::current();
    let task = tokio::task::spawn_blocking(move || {
        // Held until the search is done, even when the client is gone and
        // the timeout dropped the wait, so the limit counts real work.
        let _permits = (key_permit, permit);
        runtime.block_on(next.run(request))
    });
    match task.await {
        Ok(response) => response,
        // Re-raised so CatchPanic answers it like any handler's panic.
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => ApiError::internal("internal error").into_response(),
    }
}
