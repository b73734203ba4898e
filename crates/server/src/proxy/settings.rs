//! The command line of proxy mode (`--upstream` and the flags beside it),
//! flattened into `config::Config`. It names nothing of the server, so the
//! command line can hold it without importing the proxy.

use std::path::PathBuf;

/// The command line of proxy mode, flattened into `Config`.
#[derive(Debug, Clone, clap::Args)]
pub struct ProxyArgs {
    /// Serve the operations from this service (http:// or https:// base
    /// URL) through a cache, instead of local data. The key comes from
    /// --upstream-key-file or PREDMARKET_UPSTREAM_KEY.
    #[arg(long, env = "PREDMARKET_UPSTREAM")]
    pub upstream: Option<String>,

    /// File holding the upstream's API key (first line that is not blank or
    /// a `#` comment). Without it, PREDMARKET_UPSTREAM_KEY is read.
    #[arg(long = "upstream-key-file", env = "PREDMARKET_UPSTREAM_KEY_FILE")]
    pub upstream_key_file: Option<PathBuf>,

    /// The upstream's requests per minute for that key. The proxy never
    /// sends more in any minute (less when the upstream's X-RateLimit-Limit
    /// says less).
    #[arg(long = "upstream-limit", default_value_t = 100)]
    pub upstream_limit: u32,

    /// Seconds one upstream request may take.
    #[arg(long = "upstream-timeout", default_value_t = 4.0)]
    pub upstream_timeout_secs: f64,

    /// Seconds a visitor may wait for an upstream slot; a longer expected
    /// wait is answered 429 with Retry-After at once.
    #[arg(long = "upstream-max-wait", default_value_t = 5.0)]
    pub max_wait_secs: f64,

    /// Visitors need no API key (the demo served from the same origin).
    /// Without it, visitors use the --api-key keys with their limits.
    #[arg(long = "public-proxy")]
    pub public_proxy: bool,

    /// Redis URL: replicas share one upstream budget and one cache
    /// (`rediss://` for TLS, the password in the URL; docs/proxy.md).
    #[arg(long, env = "PREDMARKET_REDIS", hide_env_values = true)]
    pub redis: Option<String>,

    /// Share (above 0, at most 1) of --upstream-limit this replica spends on
    /// its own while Redis is down: 1 / the number of replicas keeps them
    /// together within one budget.
    #[arg(long = "redis-fallback-share", default_value_t = 0.5)]
    pub redis_fallback_share: f64,

    /// Largest answer shared through Redis, in KiB; larger ones are cached
    /// by each replica only.
    #[arg(long = "redis-max-entry-kb", default_value_t = 256)]
    pub redis_max_entry_kb: u64,

    /// Serve GET /metrics here only (a port alone means 127.0.0.1:PORT);
    /// without it there is no /metrics. Never on the visitors' address: it
    /// tells when the budget is low and the circuit open.
    #[arg(long = "metrics-addr", env = "PREDMARKET_METRICS_ADDR")]
    pub metrics_addr: Option<String>,

    /// Memory bound of the local cache, in MiB (keys and bodies).
    #[arg(long = "cache-mb", default_value_t = 64)]
    pub cache_mb: u64,

    /// Upstream failures that open the circuit, at least: over the last
    /// 30 s, with at least half of the upstream requests failing, and the
    /// timeouts and 5xx from two requests of two visitors (connect errors
    /// count alone).
    #[arg(long = "breaker-failures", default_value_t = 5)]
    pub breaker_failures: u32,

    /// Seconds the circuit stays open before one probe request.
    #[arg(long = "breaker-cooldown", default_value_t = 10.0)]
    pub breaker_cooldown_secs: f64,

    /// Factor on every cache lifetime of proxy::cache (0.5 halves them;
    /// tests use small factors to see entries age).
    #[arg(long = "cache-ttl-scale", default_value_t = 1.0)]
    pub cache_ttl_scale: f64,

    /// With --public-proxy: requests per minute from one client address
    /// (a quarter of them at once).
    #[arg(long = "visitor-requests", default_value_t = 240)]
    pub visitor_requests: u32,

    /// With --public-proxy: of those, requests per minute the cache cannot
    /// answer (they spend the upstream budget).
    #[arg(long = "visitor-misses", default_value_t = 30)]
    pub visitor_misses: u32,

    /// With --public-proxy: requests of one client address in progress at
    /// most.
    #[arg(long = "visitor-in-flight", default_value_t = 8)]
    pub visitor_in_flight: usize,

    /// With --public-proxy: a load balancer's address or network (CIDR,
    /// repeatable) whose X-Forwarded-For is believed; the client is then
    /// the rightmost untrusted address in it.
    #[arg(long = "trusted-proxy", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
}

impl Default for ProxyArgs {
    fn default() -> Self {
        Self {
            upstream: None,
            upstream_key_file: None,
            upstream_limit: 100,
            upstream_timeout_secs: 4.0,
            max_wait_secs: 5.0,
            public_proxy: false,
            redis: None,
            redis_fallback_share: 0.5,
            redis_max_entry_kb: 256,
            metrics_addr: None,
            cache_mb: 64,
            breaker_failures: 5,
            breaker_cooldown_secs: 10.0,
            cache_ttl_scale: 1.0,
            visitor_requests: 240,
            visitor_misses: 30,
            visitor_in_flight: 8,
            trusted_proxies: Vec::new(),
        }
    }
}

impl ProxyArgs {
    /// `--metrics-addr`: an address, or a port alone on loopback.
    pub fn metrics_addr(&self) -> Result<Option<std::net::SocketAddr>, String> {
        let Some(text) = self.metrics_addr.as_deref().map(str::trim) else {
            return Ok(None);
        };
        if let Ok(port) = text.parse::<u16>() {
            return Ok(Some(std::net::SocketAddr::from(([127, 0, 0, 1], port))));
        }
        text.parse()
            .map(Some)
            .map_err(|_| format!("--metrics-addr: expected HOST:PORT or a port, got {text:?}"))
    }
}
