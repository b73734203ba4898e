//! predmarket-client: the async client of the predmarket service.
//!
//! Around every call: the core's checks before sending, the rate budget, a
//! timeout, cancellation, and retries with backoff on 429/5xx/network errors.
//! The I/O itself is one small [`Transport`]: `fetch` on wasm (browser,
//! worker, Node), reqwest natively.

mod cancel;
mod transport;

#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;

pub use cancel::CancelToken;
pub use predmarket_core as core;
pub use predmarket_core::{Error, ErrorCode};
pub use transport::{Body, Transport, TransportRequest, TransportResponse};

use futures::future::{Either, select};
use predmarket_core::rate::{DEFAULT_REQUESTS_PER_MINUTE, RateBudget};
use predmarket_core::request::{ListPlatforms, Request};
use predmarket_core::retry::RetryPolicy;
use std::cell::RefCell;
use std::pin::pin;
use std::time::Duration;

/// The local reference server's address, the default of the demo and tests.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8787";

#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub base_url: String,
    pub api_key: String,
    /// Per attempt. `None`: no timeout.
    pub timeout: Option<Duration>,
    pub max_retries: u32,
    pub rate_limit_per_minute: u32,
    /// Seed of the retry jitter (tests pin it).
    pub jitter_seed: u64,
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
        }
    }
}

/// Per-call options.
#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    pub cancel: Option<CancelToken>,
}

pub struct Client<T: Transport> {
    config: ClientConfig,
    transport: T,
    budget: RefCell<RateBudget>,
    retry: RefCell<RetryPolicy>,
}

impl<T: Transport> Client<T> {
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
        Ok(Self {
            config,
            transport,
            budget,
            retry,
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Sends a checked request and returns the body of its 2xx answer.
    pub async fn send_raw<R: Request>(
        &self,
        request: &R,
        options: &CallOptions,
    ) -> Result<T::Body, Error> {
        let http = request.to_http()?;
        let url = http.url(&self.config.base_url);
        let mut attempt = 0;
        loop {
            self.wait_for_budget(options).await?;
            let error = match self.attempt(&url, options).await {
                Ok(body) => return Ok(body),
                Err(error) => error,
            };
            if let Error::RateLimited(_) = &error {
                let now = self.transport.now_ms();
                self.budget
                    .borrow_mut()
                    .on_rate_limited(now, error.retry_after_ms());
            }
            let delay = self.retry.borrow_mut().next_delay_ms(attempt, &error);
            match delay {
                Some(ms) => {
                    self.sleep_or_cancel(Duration::from_millis(ms), options)
                        .await?
                }
                None => return Err(error),
            }
            attempt += 1;
        }
    }

    /// Sends a checked request and decodes its answer into typed models.
    pub async fn send<R: Request>(
        &self,
        request: &R,
        options: &CallOptions,
    ) -> Result<R::Response, Error> {
        let body = self.send_raw(request, options).await?.to_text();
        serde_json::from_str(&body).map_err(|e| Error::decode(Some(200), e, &body))
    }

    /// `GET /platforms`.
    pub async fn list_platforms(
        &self,
    ) -> Result<predmarket_core::models::PlatformsResponse, Error> {
        self.send(&ListPlatforms, &CallOptions::default()).await
    }

    async fn wait_for_budget(&self, options: &CallOptions) -> Result<(), Error> {
        loop {
            let now = self.transport.now_ms();
            let wait = self.budget.borrow_mut().try_acquire(now);
            match wait {
                Ok(()) => return Ok(()),
                Err(ms) => {
                    self.sleep_or_cancel(Duration::from_millis(ms.ceil() as u64), options)
                        .await?
                }
            }
        }
    }

    async fn sleep_or_cancel(
        &self,
        duration: Duration,
        options: &CallOptions,
    ) -> Result<(), Error> {
        let sleep = pin!(self.transport.sleep(duration));
        match &options.cancel {
            None => {
                sleep.await;
                Ok(())
            }
            Some(token) => match select(sleep, pin!(token.cancelled())).await {
                Either::Left(_) => Ok(()),
                Either::Right(_) => Err(Error::Aborted),
            },
        }
    }

    /// One attempt, raced against the timeout and the cancellation.
    async fn attempt(&self, url: &str, options: &CallOptions) -> Result<T::Body, Error> {
        if options
            .cancel
            .as_ref()
            .is_some_and(CancelToken::is_cancelled)
        {
            return Err(Error::Aborted);
        }
        let request = TransportRequest {
            url,
            api_key: &self.config.api_key,
        };
        let send = pin!(self.transport.get(request));
        let timeout = pin!(async {
            match self.config.timeout {
                Some(t) => self.transport.sleep(t).await,
                None => futures::future::pending().await,
            }
        });
        let cancelled = pin!(async {
            match &options.cancel {
                Some(token) => token.cancelled().await,
                None => futures::future::pending().await,
            }
        });
        let response = match select(send, select(timeout, cancelled)).await {
            Either::Left((response, _)) => response?,
            Either::Right((Either::Left(_), _)) => {
                let after_ms = self.config.timeout.map_or(0, |t| t.as_millis() as u64);
                return Err(Error::Timeout { after_ms });
            }
            Either::Right((Either::Right(_), _)) => return Err(Error::Aborted),
        };
        let now = self.transport.now_ms();
        self.budget.borrow_mut().observe(now, &response.rate_limit);
        if (200..300).contains(&response.status) {
            Ok(response.body)
        } else {
            Err(Error::from_response(
                response.status,
                &response.body.to_text(),
                response.rate_limit.retry_after_ms(),
            ))
        }
    }
}
