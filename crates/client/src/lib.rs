//! predmarket-client: the async client of the predmarket service.
//!
//! Around every call:
//! - the core's checks before sending (`Request::to_http`);
//! - an optional TTL cache of successful answers (off by default);
//! - coalescing: identical GETs in flight at the same time are sent once
//!   and every caller gets the answer;
//! - the rate budget (100 requests per minute unless configured, lowered
//!   to what the service reports), so a well-behaved program never sees a
//!   429: calls wait for a slot instead;
//! - a timeout per attempt, and retries with backoff and jitter on
//!   429/5xx/network errors and timeouts, honouring `Retry-After`;
//! - cancellation through a [`CancelToken`] in [`CallOptions`].
//!
//! One typed method per operation (`list_markets`, `get_orderbook`, …),
//! [`Client::send`] for any request with per-call options, and a
//! [`Paginator`] for every list operation (both paging models).
//!
//! The I/O itself is one small [`Transport`]: `fetch` on wasm (browser,
//! worker, Node), reqwest natively.

mod cache;
mod cancel;
mod ops;
mod paginate;
mod transport;

#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;

pub use cancel::CancelToken;
pub use paginate::{Page, Paginator};
pub use predmarket_core as core;
pub use predmarket_core::{Error, ErrorCode};
pub use transport::{Body, Transport, TransportRequest, TransportResponse};

use cache::Cache;
use futures::FutureExt;
use futures::future::{Either, LocalBoxFuture, Shared, WeakShared, select};
use predmarket_core::rate::{DEFAULT_REQUESTS_PER_MINUTE, RateBudget};
use predmarket_core::request::{HttpRequest, Paged, Request};
use predmarket_core::retry::RetryPolicy;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::pin::pin;
use std::rc::Rc;
use std::time::Duration;

/// The local reference server's address, the default of the demo and tests.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8787";

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
    /// Seed of the retry jitter (tests pin it).
    pub jitter_seed: u64,
    /// How long a successful answer is reused for the same URL. `None`
    /// (the default): every call asks the service.
    pub cache_ttl: Option<Duration>,
    /// Most answers the cache holds (oldest dropped first).
    pub cache_max_entries: usize,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            api_key: api_key.into(),
            timeout: Some(Duration::from_secs(30)),
            max_retries: 3,
            rate_limit_per_minute: DEFAULT_REQUESTS_PER_MINUTE,
            jitter_seed: 0x5eed,
            cache_ttl: None,
            cache_max_entries: DEFAULT_CACHE_MAX_ENTRIES,
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
            .finish()
    }
}

/// Per-call options.
#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    pub cancel: Option<CancelToken>,
}

impl CallOptions {
    /// Options that cancel the call when `token` is cancelled.
    pub fn with_cancel(token: CancelToken) -> Self {
        Self {
            cancel: Some(token),
        }
    }
}

type Fetch<B> = LocalBoxFuture<'static, Result<B, Error>>;
type SharedBody<B> = Shared<Fetch<B>>;

struct Inner<T: Transport> {
    config: ClientConfig,
    transport: T,
    budget: RefCell<RateBudget>,
    retry: RefCell<RetryPolicy>,
    /// URL → the request answering it now. Weak, so that when every caller
    /// of a request has given up the request itself is dropped (aborted).
    in_flight: RefCell<HashMap<String, WeakShared<Fetch<T::Body>>>>,
    cache: RefCell<Cache<T::Body>>,
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
        if config.rate_limit_per_minute == 0 {
            return Err(Error::invalid("rateLimitPerMinute", "must be at least 1"));
        }
        let budget = RefCell::new(RateBudget::new(config.rate_limit_per_minute));
        let retry = RefCell::new(RetryPolicy::new(config.max_retries, config.jitter_seed));
        let ttl_ms = config.cache_ttl.map_or(0.0, |t| t.as_secs_f64() * 1000.0);
        let cache = RefCell::new(Cache::new(ttl_ms, config.cache_max_entries));
        Ok(Self {
            inner: Rc::new(Inner {
                config,
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
            .filter(|w| w.upgrade().is_some())
            .count()
    }

    /// Requests the rate budget allows right now.
    pub fn rate_budget_remaining(&self) -> u32 {
        let now = self.inner.transport.now_ms();
        self.inner.budget.borrow_mut().remaining(now)
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
        self.get_url(http.url(&self.inner.config.base_url), options)
            .await
    }

    /// Sends a checked request and decodes its answer into typed models.
    pub async fn send<R: Request>(
        &self,
        request: &R,
        options: &CallOptions,
    ) -> Result<R::Response, Error> {
        let body = self.send_raw(request, options).await?.into_text();
        serde_json::from_str(&body).map_err(|e| Error::decode(Some(200), e, &body))
    }

    /// A pager over every item of a list operation, from where `request`
    /// starts (see [`Paginator`]).
    pub fn paginate<R: Paged + 'static>(&self, request: R) -> Paginator<T, R> {
        Paginator::new(self.clone(), request)
    }

    async fn get_url(&self, url: String, options: &CallOptions) -> Result<T::Body, Error> {
        if options
            .cancel
            .as_ref()
            .is_some_and(CancelToken::is_cancelled)
        {
            return Err(Error::Aborted);
        }
        let now = self.inner.transport.now_ms();
        if let Some(body) = self.inner.cache.borrow_mut().get(&url, now) {
            return Ok(body);
        }
        let shared = Inner::join_or_start(&self.inner, url);
        match &options.cancel {
            None => shared.await,
            // Giving up drops only this caller's share: the request goes on
            // for the other callers, and is dropped with the last one.
            Some(token) => match select(shared, pin!(token.cancelled())).await {
                Either::Left((result, _)) => result,
                Either::Right(_) => Err(Error::Aborted),
            },
        }
    }
}

impl<T: Transport + 'static> Inner<T> {
    fn join_or_start(this: &Rc<Self>, url: String) -> SharedBody<T::Body> {
        let mut in_flight = this.in_flight.borrow_mut();
        if let Some(shared) = in_flight.get(&url).and_then(WeakShared::upgrade) {
            return shared;
        }
        in_flight.retain(|_, weak| weak.upgrade().is_some());
        let inner = this.clone();
        let key = url.clone();
        let request: Fetch<T::Body> = async move {
            let result = inner.fetch(&key).await;
            // Before the answer reaches any caller: a call from now on
            // starts afresh (or hits the cache), never this finished request.
            inner.in_flight.borrow_mut().remove(&key);
            if let Ok(body) = &result {
                let now = inner.transport.now_ms();
                inner.cache.borrow_mut().insert(key, now, body.clone());
            }
            result
        }
        .boxed_local();
        let shared = request.shared();
        if let Some(weak) = shared.downgrade() {
            in_flight.insert(url, weak);
        }
        shared
    }

    /// One request to its end: budget, attempts, retries.
    async fn fetch(&self, url: &str) -> Result<T::Body, Error> {
        let mut attempt = 0;
        loop {
            self.wait_for_budget().await;
            let error = match self.attempt(url).await {
                Ok(body) => return Ok(body),
                Err(error) => error,
            };
            if let Error::RateLimited(_) = &error {
                let now = self.transport.now_ms();
                let wait = error.retry_after_ms().map(|ms| ms.min(MAX_WAIT_MS));
                self.budget.borrow_mut().on_rate_limited(now, wait);
            }
            let delay = self.retry.borrow_mut().next_delay_ms(attempt, &error);
            match delay {
                Some(ms) if ms <= MAX_WAIT_MS => {
                    self.transport.sleep(Duration::from_millis(ms)).await;
                }
                _ => return Err(error),
            }
            attempt += 1;
        }
    }

    async fn wait_for_budget(&self) {
        loop {
            let now = self.transport.now_ms();
            let wait = self.budget.borrow_mut().try_acquire(now);
            match wait {
                Ok(()) => return,
                // In slices: the budget is asked again after each, and a
                // huge reset time from a header cannot overflow a timer.
                Err(ms) => {
                    let ms = (ms.ceil() as u64).clamp(1, MAX_WAIT_MS);
                    self.transport.sleep(Duration::from_millis(ms)).await;
                }
            }
        }
    }

    /// One attempt, raced against the timeout.
    async fn attempt(&self, url: &str) -> Result<T::Body, Error> {
        let request = TransportRequest {
            url,
            api_key: &self.config.api_key,
        };
        let send = pin!(self.transport.get(request));
        let response = match self.config.timeout {
            None => send.await?,
            Some(limit) => match select(send, pin!(self.transport.sleep(limit))).await {
                Either::Left((response, _)) => response?,
                Either::Right(_) => {
                    return Err(Error::Timeout {
                        after_ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                    });
                }
            },
        };
        let now = self.transport.now_ms();
        self.budget.borrow_mut().observe(now, &response.rate_limit);
        if (200..300).contains(&response.status) {
            Ok(response.body)
        } else {
            Err(response
                .body
                .into_error(response.status, response.rate_limit.retry_after_ms()))
        }
    }
}
