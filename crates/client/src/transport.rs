//! The one seam between the client and the outside world.

use predmarket_core::Error;
use predmarket_core::rate::RateLimitHeaders;
use std::future::Future;
use std::time::Duration;

/// What the client hands a transport: always a GET, one hop (a transport
/// never follows redirects itself: the client does, so that the key is not
/// sent to another origin).
#[derive(Debug, Clone, Copy)]
pub struct TransportRequest<'a> {
    pub url: &'a str,
    /// Sent as the `X-API-Key` header, never in the URL. The client sends
    /// requests to the configured origin only (it refuses a redirect to
    /// another), so it always sets it; `None` sends no key.
    pub api_key: Option<&'a str>,
    /// Read no more of the body than this: past it the transport stops
    /// reading and fails with `Error::ResponseTooLarge`.
    pub max_body_bytes: u64,
    /// Further headers (the client's, then the call's). The transport sets
    /// `X-API-Key` after them: they cannot replace it.
    pub headers: &'a [(String, String)],
}

/// An HTTP answer, whatever its status.
#[derive(Debug, Clone)]
pub struct TransportResponse<B> {
    pub status: u16,
    pub rate_limit: RateLimitHeaders,
    /// `Location` of a 3xx answer.
    pub location: Option<String>,
    /// Every header of the answer, names lower-case (raw response access).
    pub headers: Vec<(String, String)>,
    pub body: B,
}

impl<B> TransportResponse<B> {
    /// A header's value, by lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A response body as the transport holds it. The fetch transport keeps the
/// JS string so the JS library can hand it to `JSON.parse` without copying
/// it into wasm memory (see docs/benchmarks.md).
///
/// `Clone` because one body may answer several callers: coalesced
/// identical requests and cache hits. Cloning must be cheap or at least
/// no worse than a copy (a `JsString` clone is a reference).
pub trait Body: Clone {
    fn to_text(&self) -> String;

    /// The text, without a copy when the body already is a `String`.
    fn into_text(self) -> String {
        self.to_text()
    }

    /// Whether the body is JSON: an answer that is not is neither cached
    /// nor stored (its callers fail to decode it, and asking again is the
    /// only way to a good one).
    fn is_json(&self) -> bool {
        serde_json::from_str::<serde::de::IgnoredAny>(&self.to_text()).is_ok()
    }

    /// The error of a non-2xx answer with this body (see
    /// `Error::from_response`). The fetch transport reads it with the JS
    /// engine's `JSON.parse`, which keeps serde_json's decoder, and its
    /// tables, out of the JS library's wasm.
    fn into_error(self, status: u16, retry_after_ms: Option<u64>) -> Error {
        Error::from_response(status, &self.to_text(), retry_after_ms)
    }
}

impl Body for String {
    fn to_text(&self) -> String {
        self.clone()
    }

    fn into_text(self) -> String {
        self
    }
}

/// Sends GET requests and tells the time. Futures are not `Send`: wasm
/// futures cannot be.
#[allow(async_fn_in_trait)]
pub trait Transport {
    type Body: Body;

    /// Sends one request. Dropping the future must cancel the request.
    /// Network failures are `Error::Network`; any HTTP status is `Ok`.
    async fn get(
        &self,
        request: TransportRequest<'_>,
    ) -> Result<TransportResponse<Self::Body>, Error>;

    /// Milliseconds on a monotonic clock.
    fn now_ms(&self) -> f64;

    /// A seed for the retry jitter, different in every client: processes
    /// that failed together must not retry in step.
    fn random_seed(&self) -> u64;

    fn sleep(&self, duration: Duration) -> impl Future<Output = ()>;
}
