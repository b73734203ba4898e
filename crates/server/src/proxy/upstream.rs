//! The one HTTP client that talks to the upstream service. The upstream key
//! lives here as a sensitive header value: it goes out only as `X-API-Key`
//! to the upstream origin, never in a URL, a log line or an error.

use bytes::{Bytes, BytesMut};
use predmarket_core::rate::RateLimitHeaders;
use predmarket_core::request::HttpRequest;
use reqwest::header::{HeaderMap, HeaderValue};
use std::path::Path;
use std::time::Duration;

/// Largest upstream body read; above it the answer counts as malformed
/// (the largest real answers, price histories, are a few MiB).
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The variable holding the upstream key when no key file is given.
pub const KEY_VARIABLE: &str = "PREDMARKET_UPSTREAM_KEY";

/// The upstream key. `Debug` hides it; it is only ever turned into a
/// sensitive header value.
#[derive(Clone)]
pub struct UpstreamKey(String);

impl std::fmt::Debug for UpstreamKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UpstreamKey([redacted])")
    }
}

impl UpstreamKey {
    /// A key for the proxy's unit tests, which never reach an upstream.
    #[cfg(test)]
    pub(super) fn for_tests() -> Self {
        Self("unit-test-key".into())
    }

    /// From `file` when given, else from `PREDMARKET_UPSTREAM_KEY`. Errors
    /// never quote the key.
    pub fn load(file: Option<&Path>) -> Result<Self, String> {
        let (raw, source) = match file {
            Some(path) => (
                std::fs::read_to_string(path).map_err(|e| {
                    format!("cannot read --upstream-key-file {}: {e}", path.display())
                })?,
                format!("--upstream-key-file {}", path.display()),
            ),
            None => (
                std::env::var(KEY_VARIABLE).unwrap_or_default(),
                KEY_VARIABLE.to_owned(),
            ),
        };
        // A key file may end with a newline, or hold comment lines.
        let key = raw
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        if key.is_empty() {
            return Err(format!(
                "proxy mode needs the upstream API key: {source} is empty or unset; \
                 give --upstream-key-file PATH or set {KEY_VARIABLE} (never a flag value)"
            ));
        }
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "the upstream API key from {source} holds characters other than visible ASCII"
            ));
        }
        Ok(Self(key.to_owned()))
    }

    /// The key's bytes, for scrubbing log lines.
    pub fn secret(&self) -> Vec<u8> {
        self.0.as_bytes().to_vec()
    }
}

/// What the upstream answered, before the proxy judges it.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub body: Bytes,
    pub rate: RateLimitHeaders,
}

/// Why no answer came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Timeout,
    /// Connection refused, reset, DNS, TLS.
    Unreachable,
    /// The body was larger than `MAX_BODY_BYTES`.
    TooLarge,
}

impl Fault {
    /// The label of `/metrics` and the log.
    pub fn label(self) -> &'static str {
        match self {
            Self::Timeout => "timeout",
            Self::Unreachable => "unreachable",
            Self::TooLarge => "too_large",
        }
    }
}

pub struct Upstream {
    client: reqwest::Client,
    /// Scheme, host and optional path prefix, without a trailing `/`.
    base: String,
    /// `base` parsed: every request's URL must keep its origin and path.
    base_url: reqwest::Url,
    key: HeaderValue,
}

/// A request the proxy may send: its URL, checked to stay under the base
/// path, and its path and query (the cache key). Only
/// [`Upstream::target`] makes one.
#[derive(Debug, Clone)]
pub struct Target {
    url: reqwest::Url,
    key: String,
}

impl Target {
    /// Path and query as rendered from the typed request, e.g.
    /// `/markets?limit=5`: the cache key.
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// Why a rendered request is not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Its URL does not parse.
    Unparsable,
    /// The URL parser would send it somewhere other than the operation's
    /// path under the base URL (a dot segment, a backslash read as `/`).
    OutsideBase,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Unparsable => "the request does not make a URL",
            Self::OutsideBase => "the request would leave the upstream's base path; not sent",
        })
    }
}

impl std::error::Error for Refused {}

impl Upstream {
    pub fn new(base: &str, key: &UpstreamKey, timeout: Duration) -> Result<Self, String> {
        let base = base.trim().trim_end_matches('/').to_owned();
        let parsed = reqwest::Url::parse(&base)
            .map_err(|e| format!("--upstream {base:?} is not a URL: {e}"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err("--upstream must be an http:// or https:// URL".into());
        }
        if !parsed.username().is_empty() || parsed.password().is_some() || parsed.query().is_some()
        {
            // The key has one place, the header; a URL with credentials or a
            // query could end up in logs.
            return Err(
                "--upstream must not carry credentials or a query; the key comes from \
                 --upstream-key-file or PREDMARKET_UPSTREAM_KEY"
                    .into(),
            );
        }
        let mut key = HeaderValue::from_str(&key.0)
            .map_err(|_| "the upstream API key is not a valid header value".to_owned())?;
        key.set_sensitive(true);
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(3)))
            // A redirect could carry the key to another origin.
            .redirect(reqwest::redirect::Policy::none())
            .pool_idle_timeout(Duration::from_secs(30))
            .user_agent(concat!("predmarket-proxy/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the upstream client: {e}"))?;
        Ok(Self {
            client,
            base,
            base_url: parsed,
            key,
        })
    }

    /// The URL of `http` under the base, refused unless the URL parser
    /// keeps it exactly at the base's path followed by the request's path
    /// (the ids in it are encoded segments, so nothing in them may step
    /// out; this is the check that they did not).
    pub fn target(&self, http: &HttpRequest) -> Result<Target, Refused> {
        let key = http.path_and_query();
        let url =
            reqwest::Url::parse(&format!("{}{key}", self.base)).map_err(|_| Refused::Unparsable)?;
        let base_path = self.base_url.path().trim_end_matches('/');
        let expected = format!("{base_path}{}", http.path);
        if url.origin() != self.base_url.origin()
            || url.path() != expected
            || !url.path().starts_with(&format!("{base_path}/"))
        {
            return Err(Refused::OutsideBase);
        }
        Ok(Target { url, key })
    }

    /// The base URL (no key in it), for namespacing shared cache keys.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// GETs `target` from the upstream.
    pub async fn get(&self, target: &Target) -> Result<Raw, Fault> {
        let url = target.url.clone();
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", self.key.clone());
        headers.insert("accept", HeaderValue::from_static("application/json"));
        let response = self
            .client
            .get(url)
            .headers(headers)
            .send()
            .await
            .map_err(classify)?;
        let status = response.status().as_u16();
        let rate = RateLimitHeaders::read(|name| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        });
        if response
            .content_length()
            .is_some_and(|n| n > MAX_BODY_BYTES as u64)
        {
            return Err(Fault::TooLarge);
        }
        let mut response = response;
        let mut body = BytesMut::new();
        while let Some(chunk) = response.chunk().await.map_err(classify)? {
            if body.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(Fault::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Raw {
            status,
            body: body.freeze(),
            rate,
        })
    }
}

fn classify(error: reqwest::Error) -> Fault {
    if error.is_timeout() {
        Fault::Timeout
    } else {
        Fault::Unreachable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstream(base: &str) -> Upstream {
        let key = UpstreamKey("k".into());
        Upstream::new(base, &key, Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn targets_stay_under_the_base_path() {
        for base in ["http://up.example", "http://up.example/v2/"] {
            let up = upstream(base);
            let prefix = base.trim_end_matches('/');
            let ok = up.target(&HttpRequest::new("/markets/a%2Fb").param("limit", Some(5)));
            assert_eq!(
                ok.map(|t| t.url.to_string()),
                Ok(format!("{prefix}/markets/a%2Fb?limit=5"))
            );
            // Paths no rendered request has, written raw: each would be
            // resolved by the URL parser to somewhere else, and is refused.
            for path in [
                "/markets/..",
                "/markets/../account/usage",
                "/markets/%2e%2e",
                "/markets/.%2e/x",
                "/markets/..\\..\\account",
                "/markets/./orderbook",
            ] {
                assert_eq!(
                    up.target(&HttpRequest::new(path))
                        .map(|t| t.url.to_string()),
                    Err(Refused::OutsideBase),
                    "{base} {path}"
                );
            }
        }
    }
}
