//! The layer that compresses answers from kept parts (`encoding::encode`),
//! a tower layer of its own rather than a `from_fn` middleware, which
//! boxes the inner service and the request's future on every request
//! (docs/benchmarks.md, "Answers at the speed of a static file server").

use super::coding::Coding;
use super::{Answers, encode};
use axum::extract::Request;
use axum::response::Response;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// Compresses answers that carry an `encoding::Answer`, keeping their
/// middles in one cache (`Answers`) for every route.
#[derive(Clone)]
pub struct EncodeLayer {
    answers: Arc<Answers>,
}

impl EncodeLayer {
    pub fn new(answers: Arc<Answers>) -> Self {
        Self { answers }
    }
}

impl<S> tower::Layer<S> for EncodeLayer {
    type Service = Encode<S>;

    fn layer(&self, inner: S) -> Encode<S> {
        Encode {
            inner,
            answers: self.answers.clone(),
        }
    }
}

/// The service of [`EncodeLayer`].
#[derive(Clone)]
pub struct Encode<S> {
    inner: S,
    answers: Arc<Answers>,
}

impl<S> tower::Service<Request> for Encode<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = EncodeFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // Read before the request is handed on.
        let coding = Coding::accepted(request.headers());
        EncodeFuture {
            answer: self.inner.call(request),
            coding,
            answers: self.answers.clone(),
        }
    }
}

pin_project_lite::pin_project! {
    /// A request's answer, and how its client takes it.
    pub struct EncodeFuture<F> {
        #[pin]
        answer: F,
        coding: Coding,
        answers: Arc<Answers>,
    }
}

impl<F> Future for EncodeFuture<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(response) = std::task::ready!(this.answer.poll(cx));
        Poll::Ready(Ok(encode(this.answers, *this.coding, response)))
    }
}
