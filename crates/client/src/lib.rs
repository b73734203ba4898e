//! predmarket-client: the async client of the predmarket service.
//!
//! Around every call:
//! - the core's checks before sending (`Request::to_http`);
//! - an optional TTL cache of successful answers that decoded (off by
//!   default);
//! - coalescing: identical GETs in flight at the same time are sent once
//!   and every caller gets the answer;
//! - the rate budget (100 requests per minute unless configured, lowered
//!   to what the service reports), so a well-behaved program never sees a
//!   429: calls wait for a slot instead;
//! - a timeout per attempt, and retries with backoff and jitter on
//!   408/429/5xx/network errors and timeouts (never another 4xx),
//!   honouring `Retry-After`;
//! - redirects followed on the service's origin only; one to another origin
//!   fails (`Error::Redirected`) with nothing sent there;
//! - cancellation through a [`CancelToken`] in [`CallOptions`].
//!
//! One typed method per operation (`list_markets`, `get_orderbook`, …),
//! [`Client::send`] for any request with per-call options, and a
//! [`Paginator`] for every list operation (both paging models).
//!
//! The I/O itself is one small [`Transport`]: `fetch` on wasm (browser,
//! worker, Node), reqwest natively.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod cache;
mod cancel;
mod ops;
mod paginate;
mod redirect;
mod shared;
mod transport;

#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(target_arch = "wasm32")]
pub mod live;
pub mod live_read;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;

pub use cancel::CancelToken;
pub use paginate::{Page, Paginator};
pub use predmarket_core as core;
pub use predmarket_core::{Error, ErrorCode};
pub use shared::{SharedBudget, Store, Stored};
pub use transport::{Body, Transport, TransportRequest, TransportResponse};

use cache::Cache;
use futures::FutureExt;
use futures::future::{Either, LocalBoxFuture, Shared, WeakShared, select};
use predmarket_core::Pager;
use predmarket_core::rate::{DEFAULT_REQUESTS_PER_MINUTE, RateBudget};
use predmarket_core::request::{HttpRequest, Paged, Request};
use predmarket_core::retry::RetryPolicy;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::pin::pin;
use std::rc::Rc;
use std::time::Duration;

/// The local reference server's address, the default of the demo and tests.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8787";

/// Default cap of an answer's body: a page of 250 markets with their raw
/// platform data is a few megabytes.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;

/// Redirects followed for one attempt (each to the service's own origin:
/// one to another origin is refused, see `Error::Redirected`).
pub const MAX_REDIRECTS: usize = 5;

/// Default size bound of the cache, when it is on.
pub const DEFAULT_CACHE_MAX_ENTRIES: usize = 256;

/// The longest single wait the client accepts from the service. A
/// `Retry-After` beyond it is not waited out: the call fails with the 429
/// (its `retry_after_ms` tells the caller), rather than hanging for hours
/// on a header that came over the network.
pub const MAX_WAIT_MS: u64 = 5 * 60 * 1000;

#[derive(Clone)]
pub struct ClientConfig {
    pub base_url: String,
    /// Sent as the `X-API-Key` header; never in a URL, and redacted from
    /// this type's `Debug`.
    pub api_key: String,
    /// Per attempt. `None`: no timeout.
    pub timeout: Option<Duration>,
    pub max_retries: u32,
    pub rate_limit_per_minute: u32,
    /// Seed of the retry jitter. `None` (the default): a random seed per
    /// client, so processes that failed together do not retry in step;
    /// tests pin one.
    pub jitter_seed: Option<u64>,
    /// The largest answer body read; a larger one fails with
    /// `Error::ResponseTooLarge` without being read further.
    pub max_body_bytes: u64,
    /// How long a successful answer is reused for the same URL. `None`
    /// (the default): every call asks the service.
    pub cache_ttl: Option<Duration>,
    /// Most answers the cache holds (oldest dropped first).
    pub cache_max_entries: usize,
    /// Headers sent with every request. `X-API-Key` is refused here: the
    /// key is `api_key`, and no header can replace it by accident.
    pub headers: Vec<(String, String)>,
    /// Told of every request, answer, retry and wait (observability).
    pub observer: Option<Observer>,
    /// A budget shared with the other clients of this key (the tabs of an
    /// origin), asked before every request on top of this client's own.
    /// `None`: this client's budget alone.
    pub shared_budget: Option<Rc<dyn SharedBudget>>,
    /// Where successful answers are kept across reloads (see
    /// [`Client::stored`]). `None`: nothing is kept beyond the client.
    pub store: Option<Rc<dyn Store>>,
}

/// A function told of the client's [`Event`]s.
pub type Observer = Rc<dyn Fn(&Event<'_>)>;

/// What the client is doing, for hooks and logs. URLs never hold the key
/// (it is a header).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event<'a> {
    pub kind: EventKind,
    /// Always `GET` today.
    pub method: &'static str,
    pub url: &'a str,
    /// 0 for the first attempt of a request, 1 for its first retry, ….
    pub attempt: u32,
    /// `Response`: the HTTP status; `Retry`: the status retried, if any.
    pub status: Option<u16>,
    /// `Response`: since the attempt started; `Retry`: since the call
    /// started.
    pub elapsed_ms: Option<f64>,
    /// `Retry`, `Wait`: how long the client waits.
    pub wait_ms: Option<f64>,
    /// `Retry`, `Wait`: why.
    pub reason: Option<WaitReason>,
    /// `Retry`: the error retried.
    pub error: Option<ErrorCode>,
    /// `Response`: the service's request id (`X-Request-Id`), if it sent one.
    pub request_id: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Request,
    Response,
    Retry,
    Wait,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Request => "request",
            Self::Response => "response",
            Self::Retry => "retry",
            Self::Wait => "wait",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitReason {
    /// The client-side rate budget (requests per minute) is spent.
    Budget,
    /// The service said how long (`Retry-After`, or a spent window's reset).
    RetryAfter,
    /// Exponential backoff with jitter before a retry.
    Backoff,
}

impl WaitReason {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Budget => "budget",
            Self::RetryAfter => "retry-after",
            Self::Backoff => "backoff",
        }
    }
}

impl<'a> Event<'a> {
    fn new(kind: EventKind, url: &'a str, attempt: u32) -> Self {
        Self {
            kind,
            method: "GET",
            url,
            attempt,
            status: None,
            elapsed_ms: None,
            wait_ms: None,
            reason: None,
            error: None,
            request_id: None,
        }
    }
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            api_key: api_key.into(),
            timeout: Some(Duration::from_secs(30)),
            max_retries: 3,
            rate_limit_per_minute: DEFAULT_REQUESTS_PER_MINUTE,
            jitter_seed: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            headers: Vec::new(),
            observer: None,
            cache_ttl: None,
            cache_max_entries: DEFAULT_CACHE_MAX_ENTRIES,
            shared_budget: None,
            store: None,
        }
    }
}

impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &"<redacted>")
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("rate_limit_per_minute", &self.rate_limit_per_minute)
            .field("cache_ttl", &self.cache_ttl)
            .field("cache_max_entries", &self.cache_max_entries)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("headers", &self.headers)
            .field("observer", &self.observer.is_some())
            .field("shared_budget", &self.shared_budget.is_some())
            .field("store", &self.store.is_some())
            .finish()
    }
}

/// Per-call options.
#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    pub cancel: Option<CancelToken>,
    /// Bounds the call's whole life: waits for the rate budget, every
    /// attempt and every backoff (the client's `timeout` bounds each
    /// attempt). Fails with `Error::Timeout`.
    pub timeout: Option<Duration>,
    /// This call's retries instead of the client's.
    pub max_retries: Option<u32>,
    /// Headers of this call, over the client's (never `X-API-Key`).
    pub headers: Vec<(String, String)>,
}

impl CallOptions {
    /// Options that cancel the call when `token` is cancelled.
    pub fn with_cancel(token: CancelToken) -> Self {
        Self {
            cancel: Some(token),
            ..Self::default()
        }
    }

    /// A call of its own: not shared with identical calls in flight, nor
    /// answered from or stored in the cache, since what it sends or how it
    /// retries differs from theirs.
    fn is_private(&self) -> bool {
        self.max_retries.is_some() || !self.headers.is_empty()
    }
}

/// Checks headers given by the caller: names and values HTTP accepts, and
/// never the API key's header.
pub fn check_headers(headers: &[(String, String)], parameter: &str) -> Result<(), Error> {
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("x-api-key") {
            return Err(Error::invalid(
                parameter,
                "must not set X-API-Key: the key is the apiKey option",
            ));
        }
        let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(token) {
            return Err(Error::invalid(
                parameter,
                format!("`{name}` is not a header name"),
            ));
        }
        if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(Error::invalid(
                parameter,
                format!("the value of `{name}` has a line break"),
            ));
        }
    }
    Ok(())
}

/// A 2xx answer: the body and what raw response access shows.
#[derive(Debug, Clone)]
pub struct Answer<B> {
    pub body: B,
    pub status: u16,
    /// Names lower-case.
    pub headers: Rc<[(String, String)]>,
}

impl<B> Answer<B> {
    /// `X-Request-Id`, when the service sent one.
    pub fn request_id(&self) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == "x-request-id")
            .map(|(_, v)| v.as_str())
    }
}

type Fetch<B> = LocalBoxFuture<'static, Result<Answer<B>, Error>>;
type SharedBody<B> = Shared<Fetch<B>>;

/// Whether the answer of one shared request is in the cache and the store
/// already: its callers all decode it, the first that succeeds keeps it.
type Kept = Rc<Cell<bool>>;

/// A request in flight: its shared answer, held weakly, and whether that
/// answer has been kept.
type InFlight<B> = (WeakShared<Fetch<B>>, Kept);

/// A fresh answer from the service that may be kept (cached, stored) once
/// its body has decoded: never before, so that an answer which does not
/// decode is asked for again rather than served from the cache.
struct Keep {
    url: String,
    kept: Kept,
}

struct Inner<T: Transport> {
    config: ClientConfig,
    /// The origin of `config.base_url`, the only one requests go to.
    origin: String,
    transport: T,
    budget: RefCell<RateBudget>,
    retry: RefCell<RetryPolicy>,
    /// URL → the request answering it now. Weak, so that when every caller
    /// of a request has given up the request itself is dropped (aborted).
    in_flight: RefCell<HashMap<String, InFlight<T::Body>>>,
    cache: RefCell<Cache<Answer<T::Body>>>,
}

/// The client. Cheap to clone: clones share the rate budget, the cache and
/// the requests in flight.
pub struct Client<T: Transport> {
    inner: Rc<Inner<T>>,
}

impl<T: Transport> Clone for Client<T> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<T: Transport + 'static> Client<T> {
    pub fn with_transport(config: ClientConfig, transport: T) -> Result<Self, Error> {
        if config.api_key.trim().is_empty() {
            return Err(Error::invalid("apiKey", "must not be empty"));
        }
        if !(config.base_url.starts_with("http://") || config.base_url.starts_with("https://")) {
            return Err(Error::invalid(
                "baseUrl",
                "must start with http:// or https://",
            ));
        }
        let origin = redirect::parse(&config.base_url)
            .ok_or_else(|| Error::invalid("baseUrl", "is not a valid http(s) URL"))?
            .origin;
        if config.rate_limit_per_minute == 0 {
            return Err(Error::invalid("rateLimitPerMinute", "must be at least 1"));
        }
        check_headers(&config.headers, "headers")?;
        let budget = RefCell::new(RateBudget::new(config.rate_limit_per_minute));
        let seed = config
            .jitter_seed
            .unwrap_or_else(|| transport.random_seed());
        let retry = RefCell::new(RetryPolicy::new(config.max_retries, seed));
        let ttl_ms = config.cache_ttl.map_or(0.0, |t| t.as_secs_f64() * 1000.0);
        let cache = RefCell::new(Cache::new(ttl_ms, config.cache_max_entries));
        Ok(Self {
            inner: Rc::new(Inner {
                config,
                origin,
                transport,
                budget,
                retry,
                in_flight: RefCell::new(HashMap::new()),
                cache,
            }),
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    pub fn transport(&self) -> &T {
        &self.inner.transport
    }

    /// Forgets every cached answer.
    pub fn clear_cache(&self) {
        self.inner.cache.borrow_mut().clear();
    }

    /// Answers held by the cache now.
    pub fn cached(&self) -> usize {
        self.inner.cache.borrow().len()
    }

    /// Distinct requests running now (identical calls count once).
    pub fn in_flight(&self) -> usize {
        self.inner
            .in_flight
            .borrow()
            .values()
            .filter(|(w, _)| w.upgrade().is_some())
            .count()
    }

    /// Requests the rate budget allows right now.
    pub fn rate_budget_remaining(&self) -> u32 {
        let now = self.inner.transport.now_ms();
        let mut budget = self.inner.budget.borrow_mut();
        let own = budget.remaining(now);
        match &self.inner.config.shared_budget {
            Some(shared) => own.min(shared.remaining(budget.limit())),
            None => own,
        }
    }

    /// Takes one request's slot of the rate budget, waiting for it as a
    /// call would, for a request the client does not send itself: the
    /// opening of a stream (`live`), which the service counts as one.
    pub async fn acquire_budget(&self, url: &str) {
        self.inner.wait_for_budget(url, 0).await;
    }

    /// Whether an answer to `request` is in the in-memory cache, fresh.
    pub fn is_cached<R: Request>(&self, request: &R) -> bool {
        let Ok(http) = request.to_http() else {
            return false;
        };
        let url = http.url(&self.inner.config.base_url);
        let now = self.inner.transport.now_ms();
        self.inner.cache.borrow_mut().get(&url, now).is_some()
    }

    /// What the persistent store (`ClientConfig::store`) holds for
    /// `request`, decoded, with its age in milliseconds: the answer to
    /// paint at once while a fresh one is asked for (stale while
    /// revalidate). `None` without a store, or when it holds nothing
    /// readable for it.
    pub async fn stored<R: Request>(&self, request: &R) -> Option<(R::Response, f64)> {
        let store = self.inner.config.store.clone()?;
        let url = request.to_http().ok()?.url(&self.inner.config.base_url);
        let stored = store.get(&url).await?;
        let age = (store.now_ms() - stored.stored_at_ms).max(0.0);
        // A stored answer that no longer decodes (an older version's) is
        // a miss, not an error: the service answers instead.
        let response = serde_json::from_str(&stored.text).ok()?;
        Some((response, age))
    }

    /// Forgets what the persistent store holds (and the in-memory cache).
    pub async fn clear_store(&self) {
        self.clear_cache();
        if let Some(store) = self.inner.config.store.clone() {
            store.clear().await;
        }
    }

    /// Sends a checked request and returns the body of its 2xx answer.
    pub async fn send_raw<R: Request>(
        &self,
        request: &R,
        options: &CallOptions,
    ) -> Result<T::Body, Error> {
        self.send_http(&request.to_http()?, options).await
    }

    /// [`Client::send_raw`] of a request already checked and rendered.
    /// Not generic, so a caller with many request types (the JS library)
    /// compiles the machinery once rather than once per type.
    pub async fn send_http(
        &self,
        http: &HttpRequest,
        options: &CallOptions,
    ) -> Result<T::Body, Error> {
        Ok(self.send_http_answer(http, options).await?.body)
    }

    /// [`Client::send_http`] with the answer's status and headers. A fresh
    /// answer is cached and stored only when its body is JSON
    /// ([`Body::is_json`]); the caller decodes it.
    pub async fn send_http_answer(
        &self,
        http: &HttpRequest,
        options: &CallOptions,
    ) -> Result<Answer<T::Body>, Error> {
        let (answer, keep) = self.answer(http, options).await?;
        if let Some(keep) = keep
            && answer.body.is_json()
        {
            self.inner.keep(keep, &answer);
        }
        Ok(answer)
    }

    /// The answer of a call, and, when it is fresh from the service and
    /// the cache or the store would take it, what keeping it needs.
    async fn answer(
        &self,
        http: &HttpRequest,
        options: &CallOptions,
    ) -> Result<(Answer<T::Body>, Option<Keep>), Error> {
        let call = pin!(self.get_url(http.url(&self.inner.config.base_url), options));
        let (answer, keep) = match options.timeout {
            None => call.await,
            Some(limit) => match select(call, pin!(self.inner.transport.sleep(limit))).await {
                Either::Left((result, _)) => result,
                Either::Right(_) => Err(Error::Timeout {
                    after_ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                }),
            },
        }?;
        Ok((answer, keep.filter(|_| self.inner.keeps_answers())))
    }

    /// Sends a checked request and decodes its answer into typed models.
    /// Only an answer that decodes is cached or stored.
    pub async fn send<R: Request>(
        &self,
        request: &R,
        options: &CallOptions,
    ) -> Result<R::Response, Error> {
        let (answer, keep) = self.answer(&request.to_http()?, options).await?;
        let decode = |body: &str| -> Result<R::Response, Error> {
            serde_json::from_str(body).map_err(|e| Error::decode(Some(200), e, body))
        };
        match keep {
            None => decode(&answer.body.into_text()),
            Some(keep) => {
                let response = decode(&answer.body.to_text())?;
                self.inner.keep(keep, &answer);
                Ok(response)
            }
        }
    }

    /// A pager over every item of a list operation, from where `request`
    /// starts (see [`Paginator`]).
    pub fn paginate<R: Paged + 'static>(&self, request: R) -> Paginator<T, R> {
        Paginator::new(self.clone(), request)
    }

    /// A pager that goes on from a session kept from an earlier one
    /// ([`Paginator::into_pager`]).
    pub fn paginate_from<R: Paged + 'static>(&self, pager: Pager<R>) -> Paginator<T, R> {
        Paginator::resume(self.clone(), pager)
    }

    async fn get_url(
        &self,
        url: String,
        options: &CallOptions,
    ) -> Result<(Answer<T::Body>, Option<Keep>), Error> {
        if options
            .cancel
            .as_ref()
            .is_some_and(CancelToken::is_cancelled)
        {
            return Err(Error::Aborted);
        }
        check_headers(&options.headers, "headers")?;
        let (shared, keep) = if options.is_private() {
            let inner = self.inner.clone();
            let (max_retries, headers) = (options.max_retries, options.headers.clone());
            let own: Fetch<T::Body> =
                async move { inner.fetch(&url, max_retries, &headers).await }.boxed_local();
            (own.shared(), None)
        } else {
            let now = self.inner.transport.now_ms();
            if let Some(answer) = self.inner.cache.borrow_mut().get(&url, now) {
                return Ok((answer, None));
            }
            let (shared, kept) = Inner::join_or_start(&self.inner, url.clone());
            (shared, Some(Keep { url, kept }))
        };
        let answer = match &options.cancel {
            None => shared.await,
            // Giving up drops only this caller's share: the request goes on
            // for the other callers, and is dropped with the last one.
            Some(token) => match select(shared, pin!(token.cancelled())).await {
                Either::Left((result, _)) => result,
                Either::Right(_) => Err(Error::Aborted),
            },
        }?;
        Ok((answer, keep))
    }
}

impl<T: Transport + 'static> Inner<T> {
    fn join_or_start(this: &Rc<Self>, url: String) -> (SharedBody<T::Body>, Kept) {
        let mut in_flight = this.in_flight.borrow_mut();
        if let Some((weak, kept)) = in_flight.get(&url)
            && let Some(shared) = weak.upgrade()
        {
            return (shared, kept.clone());
        }
        in_flight.retain(|_, (weak, _)| weak.upgrade().is_some());
        let inner = this.clone();
        let key = url.clone();
        let request: Fetch<T::Body> = async move {
            let result = inner.fetch(&key, None, &[]).await;
            // Before the answer reaches any caller: a call from now on
            // starts afresh (or hits the cache once a caller has decoded
            // and kept the answer), never this finished request.
            inner.in_flight.borrow_mut().remove(&key);
            result
        }
        .boxed_local();
        let shared = request.shared();
        let kept = Kept::default();
        if let Some(weak) = shared.downgrade() {
            in_flight.insert(url, (weak, kept.clone()));
        }
        (shared, kept)
    }

    /// Whether fresh answers are kept at all (a cache or a store).
    fn keeps_answers(&self) -> bool {
        self.cache.borrow().is_enabled() || self.config.store.is_some()
    }

    /// Caches and stores an answer whose body has decoded, once per
    /// request however many callers shared it.
    fn keep(&self, keep: Keep, answer: &Answer<T::Body>) {
        if keep.kept.replace(true) {
            return;
        }
        if let Some(store) = &self.config.store {
            store.put(&keep.url, &answer.body.to_text());
        }
        let now = self.transport.now_ms();
        self.cache
            .borrow_mut()
            .insert(keep.url, now, answer.clone());
    }

    fn emit(&self, event: &Event<'_>) {
        if let Some(observer) = &self.config.observer {
            observer(event);
        }
    }

    /// One request to its end: budget, attempts, retries.
    async fn fetch(
        &self,
        url: &str,
        max_retries: Option<u32>,
        call_headers: &[(String, String)],
    ) -> Result<Answer<T::Body>, Error> {
        let headers: Vec<(String, String)> = if call_headers.is_empty() {
            self.config.headers.clone()
        } else {
            // The call's headers replace the client's of the same name.
            let mut all: Vec<(String, String)> = self
                .config
                .headers
                .iter()
                .filter(|(n, _)| !call_headers.iter().any(|(c, _)| c.eq_ignore_ascii_case(n)))
                .cloned()
                .collect();
            all.extend(call_headers.iter().cloned());
            all
        };
        let max_retries = max_retries.unwrap_or(self.config.max_retries);
        let started = self.transport.now_ms();
        let mut attempt = 0;
        loop {
            self.wait_for_budget(url, attempt).await;
            let error = match self.attempt(url, attempt, &headers).await {
                Ok(answer) => return Ok(answer),
                Err(error) => error,
            };
            if let Error::RateLimited(_) = &error {
                let now = self.transport.now_ms();
                let wait = error.retry_after_ms().map(|ms| ms.min(MAX_WAIT_MS));
                self.budget.borrow_mut().on_rate_limited(now, wait);
                if let Some(shared) = &self.config.shared_budget {
                    // The other tabs hold off too: the key is spent for all.
                    let blocked = self.budget.borrow_mut().reset_secs(now) as f64 * 1000.0;
                    shared.block_for(blocked);
                }
            }
            let delay = self
                .retry
                .borrow_mut()
                .delay_ms(attempt, max_retries, &error);
            match delay {
                Some(ms) if ms <= MAX_WAIT_MS => {
                    let mut event = Event::new(EventKind::Retry, url, attempt + 1);
                    event.wait_ms = Some(ms as f64);
                    event.elapsed_ms = Some(self.transport.now_ms() - started);
                    event.error = Some(error.code());
                    event.status = error.status();
                    event.reason = Some(if error.retry_after_ms().is_some() {
                        WaitReason::RetryAfter
                    } else {
                        WaitReason::Backoff
                    });
                    self.emit(&event);
                    self.transport.sleep(Duration::from_millis(ms)).await;
                }
                _ => return Err(error),
            }
            attempt += 1;
        }
    }

    async fn wait_for_budget(&self, url: &str, attempt: u32) {
        loop {
            let now = self.transport.now_ms();
            let wait = match &self.config.shared_budget {
                None => self.budget.borrow_mut().try_acquire(now),
                Some(shared) => {
                    // The shared ledger counts this client's requests with
                    // the other tabs'; the own budget still keeps what the
                    // service reported (a lower limit, a reset, a 429).
                    let (own_wait, limit) = {
                        let mut budget = self.budget.borrow_mut();
                        let wait = budget.reset_secs(now) as f64 * 1000.0;
                        let wait = if budget.remaining(now) == 0 {
                            wait.max(1.0)
                        } else {
                            0.0
                        };
                        (wait, budget.limit())
                    };
                    if own_wait > 0.0 {
                        Err(own_wait)
                    } else {
                        match shared.acquire(limit).await {
                            Ok(()) => {
                                let now = self.transport.now_ms();
                                let _ = self.budget.borrow_mut().try_acquire(now);
                                Ok(())
                            }
                            Err(ms) => Err(ms),
                        }
                    }
                }
            };
            match wait {
                Ok(()) => return,
                // In slices: the budget is asked again after each, and a
                // huge reset time from a header cannot overflow a timer.
                Err(ms) => {
                    let ms = (ms.ceil() as u64).clamp(1, MAX_WAIT_MS);
                    let mut event = Event::new(EventKind::Wait, url, attempt);
                    event.wait_ms = Some(ms as f64);
                    event.reason = Some(WaitReason::Budget);
                    self.emit(&event);
                    self.transport.sleep(Duration::from_millis(ms)).await;
                }
            }
        }
    }

    /// One attempt, raced against the timeout.
    async fn attempt(
        &self,
        url: &str,
        attempt: u32,
        headers: &[(String, String)],
    ) -> Result<Answer<T::Body>, Error> {
        let hops = pin!(self.follow(url, attempt, headers));
        let response = match self.config.timeout {
            None => hops.await?,
            Some(limit) => match select(hops, pin!(self.transport.sleep(limit))).await {
                Either::Left((response, _)) => response?,
                Either::Right(_) => {
                    return Err(Error::Timeout {
                        after_ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                    });
                }
            },
        };
        if (200..300).contains(&response.status) {
            Ok(Answer {
                body: response.body,
                status: response.status,
                headers: response.headers.into(),
            })
        } else {
            Err(response
                .body
                .into_error(response.status, response.rate_limit.retry_after_ms()))
        }
    }

    /// Sends the request, following redirects by hand: those on the
    /// service's origin only. A redirect elsewhere fails with
    /// `Error::Redirected`, unsent: the request carries the key and the
    /// caller's headers, and the origin is judged by the transport's own
    /// URL parser ([`redirect`]).
    async fn follow(
        &self,
        url: &str,
        attempt: u32,
        headers: &[(String, String)],
    ) -> Result<TransportResponse<T::Body>, Error> {
        if redirect::parse(url).is_none_or(|target| target.origin != self.origin) {
            return Err(Error::invalid(
                "baseUrl",
                "the request's URL is not on the base URL's origin",
            ));
        }
        let mut url = url.to_owned();
        for _ in 0..=MAX_REDIRECTS {
            let request = TransportRequest {
                url: &url,
                api_key: Some(self.config.api_key.as_str()),
                max_body_bytes: self.config.max_body_bytes,
                headers,
            };
            self.emit(&Event::new(EventKind::Request, &url, attempt));
            let sent_at = self.transport.now_ms();
            let response = self.transport.get(request).await?;
            let mut event = Event::new(EventKind::Response, &url, attempt);
            event.status = Some(response.status);
            event.elapsed_ms = Some(self.transport.now_ms() - sent_at);
            event.request_id = response.header("x-request-id");
            self.emit(&event);
            let now = self.transport.now_ms();
            self.budget.borrow_mut().observe(now, &response.rate_limit);
            let (Some(location), 300..=399) = (&response.location, response.status) else {
                return Ok(response);
            };
            let shown = || redirect::shown(location, &self.config.api_key);
            let target = redirect::resolve(&url, location).ok_or_else(|| Error::Network {
                message: format!(
                    "redirect to an unusable location: {}",
                    predmarket_core::error::Quoted(&shown())
                ),
            })?;
            if target.origin != self.origin {
                return Err(Error::Redirected {
                    status: response.status,
                    location: shown(),
                });
            }
            url = target.href;
        }
        Err(Error::Network {
            message: format!("more than {MAX_REDIRECTS} redirects"),
        })
    }
}
