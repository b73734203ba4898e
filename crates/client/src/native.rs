//! The native transport (reqwest + tokio), for tests, benchmarks and tools.

use crate::transport::{Transport, TransportRequest, TransportResponse};
use predmarket_core::Error;
use predmarket_core::rate::RateLimitHeaders;
use std::future::Future;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct NativeTransport {
    http: reqwest::Client,
    started: Instant,
}

impl Default for NativeTransport {
    fn default() -> Self {
        Self::new()
    }
}

impl NativeTransport {
    pub fn new() -> Self {
        Self {
            http: reqwest::Client::new(),
            started: Instant::now(),
        }
    }
}

impl Transport for NativeTransport {
    type Body = String;

    async fn get(&self, request: TransportRequest<'_>) -> Result<TransportResponse<String>, Error> {
        let response = self
            .http
            .get(request.url)
            .header("X-API-Key", request.api_key)
            .send()
            .await
            // reqwest's message names the URL, never the key (a header).
            .map_err(|e| Error::Network {
                message: e.without_url().to_string(),
            })?;
        let status = response.status().as_u16();
        let headers = response.headers();
        let rate_limit = RateLimitHeaders::read(|name| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        });
        let body = response.text().await.map_err(|e| Error::Network {
            message: e.without_url().to_string(),
        })?;
        Ok(TransportResponse {
            status,
            rate_limit,
            body,
        })
    }

    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn sleep(&self, duration: Duration) -> impl Future<Output = ()> {
        tokio::time::sleep(duration)
    }
}

/// A client over reqwest.
pub type NativeClient = crate::Client<NativeTransport>;

impl NativeClient {
    pub fn new(config: crate::ClientConfig) -> Result<Self, Error> {
        Self::with_transport(config, NativeTransport::new())
    }
}
