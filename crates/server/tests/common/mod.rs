//! Starts the real server on an ephemeral loopback port for a test.

#![allow(dead_code)] // each test binary uses a different part

use predmarket_server::config::Config;
use predmarket_server::data::Dataset;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

pub const KEY: &str = "test-key";
/// Pinned so that generated data is the same on every day.
pub const ANCHOR: &str = "2025-11-02";

pub struct TestServer {
    pub addr: SocketAddr,
    pub data: Arc<Dataset>,
    task: tokio::task::JoinHandle<()>,
    /// The proxy in front, when the suite runs through one.
    proxy: Option<tokio::task::JoinHandle<()>>,
}

/// Set (to anything) to run every suite that uses `TestServer` through a
/// proxy (`--upstream`) in front of the server, with the proxy's default
/// cache lifetimes: the spec's rules must hold there as they do directly.
/// `cargo xtask test` runs the suites both ways.
pub const THROUGH_PROXY: &str = "PREDMARKET_TEST_THROUGH_PROXY";

/// Whether this run goes through a proxy (`THROUGH_PROXY`).
pub fn through_proxy() -> bool {
    std::env::var_os(THROUGH_PROXY).is_some()
}

/// The key the proxy uses upstream (never one a test sends).
const UPSTREAM_KEY: &str = "pm-proxy-upstream";

/// The default data set, generated once per test binary.
pub fn default_data() -> Arc<Dataset> {
    static DATA: OnceLock<Arc<Dataset>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(Dataset::generate(&config().data_options())))
        .clone()
}

/// The test configuration: one key with the default budget, pinned data.
pub fn config() -> Config {
    let mut config = Config::for_tests(KEY);
    config.anchor_date = Some(ANCHOR.to_owned());
    config
}

/// The test configuration with a key that has no budget, for tests that
/// send many requests.
pub fn unlimited() -> Config {
    let mut config = config();
    config.api_key = vec![format!("{KEY}:unlimited")];
    config
}

/// The server of `config` over `data` on `listener`, as the binary
/// serves it: its connection loop (`listen::serve`), the front service
/// of kept pages before the router, its connection limits.
fn serve(
    listener: tokio::net::TcpListener,
    config: &Config,
    data: Arc<Dataset>,
) -> tokio::task::JoinHandle<()> {
    let served = predmarket_server::served_with_data(config, data);
    let limits = config.connection_limits();
    tokio::spawn(async move {
        let _ = predmarket_server::listen::serve(listener, served, limits, std::future::pending())
            .await;
    })
}

impl TestServer {
    /// Default data, default budget (100 per minute).
    pub async fn start() -> Self {
        Self::with(config()).await
    }

    /// Default data, no budget.
    pub async fn unlimited() -> Self {
        Self::with(unlimited()).await
    }

    /// `config`'s keys, faults and flags over the default data (which
    /// must therefore not depend on `config`'s data options).
    pub async fn with(config: Config) -> Self {
        Self::with_data(config, default_data()).await
    }

    /// `config` with its own data.
    pub async fn generated(config: Config) -> Self {
        let data = Arc::new(Dataset::generate(&config.data_options()));
        Self::with_data(config, data).await
    }

    pub async fn with_data(config: Config, data: Arc<Dataset>) -> Self {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        if through_proxy() {
            return Self::behind_proxy(config, data, listener).await;
        }
        let task = serve(listener, &config, data.clone());
        Self {
            addr,
            data,
            task,
            proxy: None,
        }
    }

    /// The server on a port of its own, with one more (unlimited) key for
    /// the proxy, and the proxy on `listener` taking the test's keys with
    /// their limits, so that a test talks to the proxy as it would to the
    /// server.
    async fn behind_proxy(
        config: Config,
        data: Arc<Dataset>,
        listener: tokio::net::TcpListener,
    ) -> Self {
        let mut upstream = config.clone();
        upstream.addr = "127.0.0.1:0".parse().expect("loopback address");
        upstream.api_key.push(format!("{UPSTREAM_KEY}:unlimited"));
        let upstream_listener = tokio::net::TcpListener::bind(upstream.addr)
            .await
            .expect("bind loopback");
        let upstream_addr = upstream_listener.local_addr().expect("local addr");
        let task = serve(upstream_listener, &upstream, data.clone());

        let key_file = std::env::temp_dir().join(format!(
            "pm-test-upstream-key-{}-{}",
            std::process::id(),
            upstream_addr.port()
        ));
        std::fs::write(&key_file, UPSTREAM_KEY).expect("write the upstream key file");
        let mut proxied = config;
        proxied.proxy.upstream = Some(format!("http://{upstream_addr}"));
        proxied.proxy.upstream_key_file = Some(key_file.clone());
        // The server behind is the test's own, with an unlimited key for
        // the proxy: the budget under test is the visitor's, not the
        // upstream's.
        proxied.proxy.upstream_limit = 1_000_000;
        proxied.quiet = true;
        // A proxy refuses to start without visitor keys (the public demo
        // key is not accepted in front of a real upstream); a test of the
        // keyless server meets the proxy that lets anyone in.
        if proxied.demo_key_active() {
            proxied.proxy.public_proxy = true;
            // Every request of a suite comes from one address: the limits
            // under test are the server's, not the proxy's per address.
            proxied.proxy.visitor_requests = 1_000_000;
            proxied.proxy.visitor_misses = 1_000_000;
            proxied.proxy.visitor_in_flight = 1_000_000;
        }
        let built = predmarket_server::proxy_mode::build(&proxied)
            .await
            .unwrap_or_else(|e| panic!("proxy: {e}"));
        let _ = std::fs::remove_file(&key_file);
        let addr = listener.local_addr().expect("local addr");
        let limits = proxied.connection_limits();
        let proxy = tokio::spawn(async move {
            // With its front service of fresh hits, as the binary serves it.
            let served = predmarket_server::front::Served {
                router: built.router,
                front: built.front,
            };
            let _ =
                predmarket_server::listen::serve(listener, served, limits, std::future::pending())
                    .await;
        });
        Self {
            addr,
            data,
            task,
            proxy: Some(proxy),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        reqwest::Client::new()
            .get(self.url(path))
            .header("X-API-Key", KEY)
            .send()
            .await
            .expect("request")
    }

    /// Status and JSON body; fails the test when the body is not JSON.
    pub async fn json(&self, path: &str) -> (u16, Value) {
        let response = self.get(path).await;
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:.300}"));
        (status, body)
    }

    /// A 200's JSON body.
    pub async fn ok(&self, path: &str) -> Value {
        let (status, body) = self.json(path).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// An error's code, checking the status and the error body's shape.
    pub async fn error(&self, path: &str, status: u16) -> Value {
        let (got, body) = self.json(path).await;
        assert_eq!(got, status, "{path}: {body}");
        assert!(body["error"]["code"].is_string(), "{path}: {body}");
        assert!(body["error"]["message"].is_string(), "{path}: {body}");
        body
    }

    /// A 200 decoded into a core response type.
    pub async fn typed<T: serde::de::DeserializeOwned>(&self, path: &str) -> T {
        let body = self.ok(path).await;
        serde_json::from_value(body.clone())
            .unwrap_or_else(|e| panic!("{path}: does not decode ({e}): {body:.500}"))
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
        if let Some(proxy) = &self.proxy {
            proxy.abort();
        }
    }
}

/// Percent-encodes a query value.
pub fn enc(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
