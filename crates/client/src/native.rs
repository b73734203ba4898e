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
        // Redirects are the client's to follow (it drops the key on a hop
        // to another origin); reqwest's own policy would resend it.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Self {
            http,
            started: Instant::now(),
        }
    }
}

fn network(error: reqwest::Error) -> Error {
    // reqwest's message names the URL, never the key (a header).
    Error::Network {
        message: error.without_url().to_string(),
    }
}

impl Transport for NativeTransport {
    type Body = String;

    async fn get(&self, request: TransportRequest<'_>) -> Result<TransportResponse<String>, Error> {
        let mut builder = self.http.get(request.url);
        for (name, value) in request.headers {
            builder = builder.header(name, value);
        }
        if let Some(key) = request.api_key {
            builder = builder.header("X-API-Key", key);
        }
        let mut response = builder.send().await.map_err(network)?;
        let status = response.status().as_u16();
        let headers = response.headers();
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let rate_limit = RateLimitHeaders::read(header);
        let location = header("location");
        let all_headers = headers
            .iter()
            .filter_map(|(n, v)| Some((n.as_str().to_owned(), v.to_str().ok()?.to_owned())))
            .collect();
        let too_large = Error::ResponseTooLarge {
            status,
            limit_bytes: request.max_body_bytes,
        };
        if response
            .content_length()
            .is_some_and(|n| n > request.max_body_bytes)
        {
            return Err(too_large);
        }
        // Chunk by chunk: a body without Content-Length (or lying about it)
        // is not read past the cap.
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(network)? {
            if (bytes.len() + chunk.len()) as u64 > request.max_body_bytes {
                return Err(too_large);
            }
            bytes.extend_from_slice(&chunk);
        }
        // Tolerant, like `Response::text`: invalid UTF-8 becomes U+FFFD.
        let body = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Ok(TransportResponse {
            status,
            rate_limit,
            location,
            headers: all_headers,
            body,
        })
    }

    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn random_seed(&self) -> u64 {
        // std's hasher keys are random per process (and per RandomState):
        // enough entropy for jitter without a dependency.
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(self.started.elapsed().as_nanos());
        hasher.finish()
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
