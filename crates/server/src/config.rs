//! The command line (and environment) of the server.

use crate::auth::KeySpec;
use crate::data::time;
use crate::listen::ConnectionLimits;
use crate::{faults, layers};
use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

const AFTER_HELP: &str = "\
API keys:
  --api-key KEY            accept KEY, with the default --rate-limit
  --api-key KEY:N          accept KEY with its own limit of N requests per minute
  --api-key KEY:unlimited  accept KEY without a limit (load tests)
  A key containing ':' must carry an explicit limit (the last ':' separates it).
  --api-key-file PATH reads the same syntax, one key per line; blank lines and
  lines starting with '#' are skipped. Keys never appear in logs or errors.

Fault injection (for client tests and demos):
  --fail-platform platform_c   that platform is down: it shows in
                               meta.platform_errors of multi-platform answers,
                               and querying it alone gives 503 PLATFORM_UNAVAILABLE
  --latency-ms 200             every operation answers 200 ms later
  --fault-5xx 0.1              10 % of answers are 500/503 JSON errors
  --fault-429 0.1              10 % of answers are 429 with Retry-After: 1
  --fault-malformed 0.05       5 % of answers are 200 with truncated JSON or HTML
  Faults never touch /openapi.json or the demo under /app/.

Hostile traffic (see docs/benchmarks.md, Hostile traffic):
  --header-read-timeout 10    seconds a client has to send a request's headers
                              (also how long an idle keep-alive connection stays open)
  --idle-timeout 30           seconds without a byte either way before a connection is closed
  --write-timeout 60          seconds one answer may take to write, however slowly it is read
  --request-timeout 10        seconds an operation may take; then 504 TIMEOUT
  --max-connections 4096      open connections; further ones are closed on accept
  --max-connections-per-address 256
                              open connections from one client address (raise it
                              behind a load balancer, where all come from one)
  --max-in-flight 512         requests in progress; further ones get 503 + Retry-After
  --max-in-flight-per-key 64  requests in progress per API key; then 503 + Retry-After
  --shutdown-grace 5          seconds open requests get to finish on SIGTERM
  Request heads (request line and headers) above 16 KiB get 431.

Data:
  --scale 1 gives about 5 000 markets, --scale 20 about 100 000 (each market
  and its orderbook, trades and price history are derived from --seed).
  --hostile fills titles, descriptions and names with HTML, <script>,
  right-to-left marks, emoji and very long strings.

Proxy mode (see docs/proxy.md):
  --upstream https://HOST       serve the 19 operations from that service, cached,
                                instead of local data
  --upstream-key-file PATH      the upstream's API key (or PREDMARKET_UPSTREAM_KEY);
                                never a flag value, never logged
  --upstream-limit 100          the upstream's requests per minute (lowered by its
                                X-RateLimit-Limit when it sends one)
  --public-proxy                visitors need no key (the demo on the same origin);
                                per client address: --visitor-requests 240 and
                                --visitor-misses 30 a minute, --visitor-in-flight 8;
                                CORS same-origin unless --cors-origin lists origins
  --trusted-proxy 10.0.0.0/8    a load balancer whose X-Forwarded-For is believed
  --redis redis://127.0.0.1/    replicas share one upstream budget, one cache and
                                one poller per streamed resource (--stream-lease 4:
                                seconds before another replica takes over its polls)
  --redis-fallback-share 0.5    share of the limit one replica spends while Redis is down
  --redis-max-entry-kb 256      larger answers are cached per replica, not in Redis
  --metrics-addr 9100           GET /metrics (Prometheus text) on 127.0.0.1:9100 only;
                                never on --addr, and off without this flag

Example:
  predmarket-server --addr 127.0.0.1:8787 --api-key dev --api-key ci:1000 --seed 7";

const KEYS_VARIABLE: &str = "PREDMARKET_API_KEYS";

const EMPTY_KEY_LIST: &str = "--api-key / PREDMARKET_API_KEYS is set but holds no API key; \
     refusing to start, since without keys the public demo key would be accepted \
     (unset it to run with the demo key)";

#[derive(Debug, Clone, Parser)]
#[command(
    name = "predmarket-server",
    version,
    about = "The predmarket service of service.md on local, generated data.",
    after_help = AFTER_HELP
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "PREDMARKET_ADDR", default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,

    /// An accepted API key, `KEY` or `KEY:REQUESTS_PER_MINUTE` or
    /// `KEY:unlimited` (repeatable). Also PREDMARKET_API_KEYS, comma-separated.
    /// Without any key (here or in --api-key-file), the public demo key
    /// `pm_demo_key` is accepted.
    #[arg(
        long = "api-key",
        env = "PREDMARKET_API_KEYS",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub api_key: Vec<String>,

    /// A file of accepted API keys, one per line, same syntax as --api-key.
    #[arg(long = "api-key-file", env = "PREDMARKET_API_KEY_FILE")]
    pub api_key_file: Option<PathBuf>,

    /// Requests per minute allowed for each key without its own limit.
    #[arg(long, env = "PREDMARKET_RATE_LIMIT", default_value_t = 100)]
    pub rate_limit: u32,

    /// Seed of the generated data: the same seed gives the same data.
    #[arg(long, env = "PREDMARKET_SEED", default_value_t = 42)]
    pub seed: u64,

    /// Size of the generated data: 1 is about 5 000 markets, 20 about 100 000.
    #[arg(long, env = "PREDMARKET_SCALE", default_value_t = 1.0)]
    pub scale: f64,

    /// Generate hostile text (HTML, `<script>`, RTL marks, emoji, very long strings).
    #[arg(long, env = "PREDMARKET_HOSTILE")]
    pub hostile: bool,

    /// Rename every platform and league id (and display name) to names
    /// unrelated to the spec's labels (platform_a → kestrel, league_a →
    /// ridge, …), to prove that clients take ids from /platforms and
    /// /league-info. --fail-platform takes either spelling.
    #[arg(long = "rename-ids", env = "PREDMARKET_RENAME_IDS")]
    pub rename_ids: bool,

    /// Day (YYYY-MM-DD, UTC) the generated data is anchored to; default: today.
    /// Pin it for byte-identical data across days.
    #[arg(long = "anchor-date", env = "PREDMARKET_ANCHOR_DATE")]
    pub anchor_date: Option<String>,

    /// Seconds a pagination cursor stays valid.
    #[arg(long = "cursor-ttl", default_value_t = 900)]
    pub cursor_ttl_secs: u64,

    /// Directory of the built demo, served under /app/.
    #[arg(long, env = "PREDMARKET_WEB")]
    pub web: Option<PathBuf>,

    /// Allowed CORS origins (repeatable). Default: any origin; with
    /// --public-proxy, none (same-origin only).
    #[arg(long = "cors-origin", value_delimiter = ',')]
    pub cors_origins: Vec<String>,

    /// A platform that fails (repeatable, e.g. platform_c).
    #[arg(long = "fail-platform", value_delimiter = ',')]
    pub fail_platforms: Vec<String>,

    /// Latency added to every operation, in milliseconds.
    #[arg(long = "latency-ms", default_value_t = 0)]
    pub latency_ms: u64,

    /// Share (0 to 1) of operations answered with a 500/503 JSON error.
    #[arg(long = "fault-5xx", default_value_t = 0.0)]
    pub fault_5xx: f64,

    /// Share (0 to 1) of operations answered with a 429.
    #[arg(long = "fault-429", default_value_t = 0.0)]
    pub fault_429: f64,

    /// Share (0 to 1) of operations answered 200 with a malformed body (truncated JSON or HTML).
    #[arg(long = "fault-malformed", default_value_t = 0.0)]
    pub fault_malformed: f64,

    /// No request log on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    /// Every request through the router, none through the front service
    /// of kept answers (`front`): for the test that holds the two paths
    /// to the same answers (`tests/front.rs`).
    #[arg(long, hide = true)]
    pub router_only: bool,

    /// How log lines on stderr are written: `text`, or `json` (one object
    /// per line).
    #[arg(
        long = "log-format",
        value_enum,
        default_value_t,
        env = "PREDMARKET_LOG_FORMAT"
    )]
    pub log_format: crate::logs::LogFormat,

    /// Seconds a client has to send the headers of a request, and so also how
    /// long an idle keep-alive connection waits for its next request.
    #[arg(long = "header-read-timeout", default_value_t = 10.0)]
    pub header_read_timeout_secs: f64,

    /// Seconds without a byte in either direction before a connection is
    /// closed (a client that stops reading its answer, a stalled body).
    #[arg(long = "idle-timeout", default_value_t = 30.0)]
    pub idle_timeout_secs: f64,

    /// Seconds one answer may take to write, from its first byte to its
    /// last; then the connection is closed. The idle timeout alone is reset
    /// by every byte, so a client reading slowly could hold a large answer
    /// (and its slot of --max-in-flight) for hours.
    #[arg(long = "write-timeout", default_value_t = 60.0)]
    pub write_timeout_secs: f64,

    /// Seconds an operation may take; then it is answered 504 `TIMEOUT`.
    #[arg(long = "request-timeout", default_value_t = 10.0)]
    pub request_timeout_secs: f64,

    /// Open connections at most; a connection above it is closed on accept.
    #[arg(long = "max-connections", default_value_t = 4096)]
    pub max_connections: usize,

    /// Open connections from one client address at most; a connection above
    /// it is closed on accept. Behind a load balancer every connection comes
    /// from its address: raise it there.
    #[arg(long = "max-connections-per-address", default_value_t = 256)]
    pub max_connections_per_address: usize,

    /// Requests in progress at most; above it a request is answered 503 with
    /// Retry-After at once instead of waiting in a queue.
    #[arg(long = "max-in-flight", default_value_t = 512)]
    pub max_in_flight: usize,

    /// Requests in progress per API key at most (then 503 with Retry-After),
    /// so that one key cannot take every slot.
    #[arg(long = "max-in-flight-per-key", default_value_t = 64)]
    pub max_in_flight_per_key: usize,

    /// Seconds requests in progress get to finish on SIGTERM / Ctrl-C before
    /// the server exits anyway.
    #[arg(long = "shutdown-grace", default_value_t = 5.0)]
    pub shutdown_grace_secs: f64,

    /// Proxy mode (`--upstream`).
    #[command(flatten)]
    pub proxy: crate::proxy::settings::ProxyArgs,

    /// `GET /stream` (both modes).
    #[command(flatten)]
    pub stream: StreamArgs,

    /// The recorder (`--record DIR`, both modes).
    #[command(flatten)]
    pub record: crate::record::settings::RecordArgs,

    /// Replay (`--replay DIR`): an archive served instead of data.
    #[command(flatten)]
    pub replay: crate::record::settings::ReplayArgs,
}

/// The flags of `GET /stream` (`stream::Settings`).
#[derive(Debug, Clone, clap::Args)]
pub struct StreamArgs {
    /// Streams open at once in all; further ones get 503.
    #[arg(long = "stream-max", default_value_t = 10_000)]
    pub max_streams: usize,
    /// Streams open at once of one visitor (its key, or its client address
    /// as --public-proxy counts it: through --trusted-proxy, IPv6 by /64);
    /// further ones get 429.
    #[arg(long = "stream-max-per-address", default_value_t = 16)]
    pub max_streams_per_address: usize,
    /// Resources one visitor may have watched at once, counting those
    /// still polled in their grace period after it left; further ones get
    /// 429.
    #[arg(long = "stream-max-topics-per-visitor", default_value_t = 64)]
    pub max_topics_per_visitor: usize,
    /// Resources one stream may watch.
    #[arg(long = "stream-max-resources", default_value_t = predmarket_core::live::MAX_RESOURCES)]
    pub max_resources_per_stream: usize,
    /// Resources watched at once in all (one poller each).
    #[arg(long = "stream-max-topics", default_value_t = 1_000)]
    pub max_topics: usize,
    /// Events kept per resource for clients that reconnect with
    /// Last-Event-ID; a client further behind is dropped.
    #[arg(long = "stream-replay", default_value_t = 64)]
    pub replay: usize,
    /// Seconds between heartbeats on a quiet stream.
    #[arg(long = "stream-heartbeat", default_value_t = predmarket_core::live::HEARTBEAT_MS as f64 / 1000.0)]
    pub heartbeat_secs: f64,
    /// Seconds a resource is still polled after its last viewer left.
    #[arg(long = "stream-grace", default_value_t = 30.0)]
    pub grace_secs: f64,
    /// Multiplies how often each kind is polled (books every 5 s, markets
    /// 10 s, games 15 s, futures and awards 30 s); below 1 polls faster.
    #[arg(long = "stream-interval-scale", default_value_t = 1.0)]
    pub interval_scale: f64,
    /// Proxy mode: the share of the upstream budget the pollers may use
    /// together; the rest is kept for visitors' own requests.
    #[arg(long = "stream-budget-share", default_value_t = 0.5)]
    pub budget_share: f64,
    /// With --redis: seconds a replica's lease on a resource lasts unless
    /// renewed (at a third of it); how soon another replica takes over the
    /// polls of one that died.
    #[arg(long = "stream-lease", default_value_t = 4.0)]
    pub lease_secs: f64,
}

impl Default for StreamArgs {
    fn default() -> Self {
        let d = crate::stream::Settings::default();
        Self {
            max_streams: d.max_streams,
            max_streams_per_address: d.max_streams_per_address,
            max_topics_per_visitor: d.max_topics_per_visitor,
            max_resources_per_stream: d.max_resources_per_stream,
            max_topics: d.max_topics,
            replay: d.replay,
            heartbeat_secs: d.heartbeat.as_secs_f64(),
            grace_secs: d.grace.as_secs_f64(),
            interval_scale: d.interval_scale,
            budget_share: d.budget_share,
            lease_secs: d.lease.as_secs_f64(),
        }
    }
}

impl Config {
    /// A configuration for tests: an ephemeral loopback port, one key, a
    /// small data set, no request log.
    pub fn for_tests(api_key: &str) -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            api_key: vec![api_key.to_owned()],
            api_key_file: None,
            rate_limit: 100,
            seed: 42,
            scale: 1.0,
            hostile: false,
            rename_ids: false,
            anchor_date: None,
            cursor_ttl_secs: 900,
            web: None,
            cors_origins: Vec::new(),
            fail_platforms: Vec::new(),
            latency_ms: 0,
            fault_5xx: 0.0,
            fault_429: 0.0,
            fault_malformed: 0.0,
            quiet: true,
            router_only: false,
            log_format: crate::logs::LogFormat::Text,
            header_read_timeout_secs: 10.0,
            idle_timeout_secs: 30.0,
            write_timeout_secs: 60.0,
            request_timeout_secs: 10.0,
            max_connections: 4096,
            max_connections_per_address: 256,
            max_in_flight: 512,
            max_in_flight_per_key: 64,
            shutdown_grace_secs: 5.0,
            proxy: crate::proxy::settings::ProxyArgs::default(),
            stream: StreamArgs::default(),
            record: crate::record::settings::RecordArgs::default(),
            replay: crate::record::settings::ReplayArgs::default(),
        }
    }

    /// The streams' caps and pace.
    pub fn stream(&self) -> crate::stream::Settings {
        let a = &self.stream;
        let secs = |s: f64, min: f64| {
            Duration::from_secs_f64(if s.is_finite() {
                s.clamp(min, 3600.0)
            } else {
                min
            })
        };
        crate::stream::Settings {
            max_streams: a.max_streams,
            max_streams_per_address: a.max_streams_per_address,
            max_topics_per_visitor: a.max_topics_per_visitor,
            max_resources_per_stream: a.max_resources_per_stream.max(1),
            max_topics: a.max_topics,
            replay: a.replay.clamp(1, 10_000),
            heartbeat: secs(a.heartbeat_secs, 0.1),
            grace: secs(a.grace_secs, 0.0),
            interval_scale: if a.interval_scale.is_finite() && a.interval_scale > 0.0 {
                a.interval_scale.min(100.0)
            } else {
                1.0
            },
            budget_share: a.budget_share,
            lease: secs(a.lease_secs, 0.3),
        }
    }

    /// What the generated data depends on. A scale out of range falls
    /// back to 1 (`validate` refuses it before serving).
    pub fn data_options(&self) -> crate::data::Options {
        let today = time::now_unix().div_euclid(86_400) * 86_400;
        crate::data::Options {
            seed: self.seed,
            scale: if self.scale.is_finite() && self.scale > 0.0 {
                self.scale.min(100.0)
            } else {
                1.0
            },
            hostile: self.hostile,
            names: crate::data::names::Names::new(self.rename_ids),
            as_of: self
                .anchor_date
                .as_deref()
                .and_then(time::parse_date)
                .unwrap_or(today),
        }
    }

    /// The injected faults.
    pub fn faults(&self) -> faults::Settings {
        faults::Settings {
            fail_platforms: self.fail_platforms.clone(),
            latency: Duration::from_millis(self.latency_ms),
            share_5xx: self.fault_5xx,
            share_429: self.fault_429,
            share_malformed: self.fault_malformed,
            seed: self.seed,
        }
    }

    /// The layers every answer passes.
    pub fn layers(&self) -> layers::Settings {
        let origins = if self.cors_origins.is_empty() && self.proxy.public_proxy {
            // A public proxy spends its operator's quota: same-origin only
            // (the demo it serves) unless --cors-origin lists others.
            layers::Origins::None
        } else if self.cors_origins.is_empty() {
            layers::Origins::Any
        } else {
            layers::Origins::List(self.cors_origins.clone())
        };
        layers::Settings {
            request_timeout: Duration::from_secs_f64(self.request_timeout_secs),
            max_in_flight: self.max_in_flight,
            origins,
        }
    }

    /// The limits of every connection.
    pub fn connection_limits(&self) -> ConnectionLimits {
        ConnectionLimits {
            header_read_timeout: Duration::from_secs_f64(self.header_read_timeout_secs),
            idle_timeout: Duration::from_secs_f64(self.idle_timeout_secs),
            write_timeout: Duration::from_secs_f64(self.write_timeout_secs),
            max_connections: self.max_connections,
            max_connections_per_address: self.max_connections_per_address,
            shutdown_grace: Duration::from_secs_f64(self.shutdown_grace_secs),
        }
    }

    /// Every accepted key with its limit (`None`: unlimited): the flags, then
    /// the key file; the demo key when there is none.
    ///
    /// A source that is given but holds no key (an empty or comment-only
    /// key file, `--api-key ""`) is an error rather than "no keys": falling
    /// back to the public demo key there would open a private server.
    pub fn key_specs(&self) -> Result<Vec<KeySpec>, String> {
        let mut specs = Vec::new();
        for raw in &self.api_key {
            if let Some(spec) = KeySpec::parse(raw, self.rate_limit)? {
                specs.push(spec);
            }
        }
        if !self.api_key.is_empty() && specs.is_empty() {
            return Err(EMPTY_KEY_LIST.into());
        }
        if let Some(path) = &self.api_key_file {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --api-key-file {}: {e}", path.display()))?;
            let before = specs.len();
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with('#') {
                    continue;
                }
                if let Some(spec) = KeySpec::parse(line, self.rate_limit)? {
                    specs.push(spec);
                }
            }
            if specs.len() == before {
                return Err(format!(
                    "--api-key-file {} holds no API key (only blank or comment lines); \
                     refusing to start, since without keys the public demo key would be accepted",
                    path.display()
                ));
            }
        }
        if specs.is_empty() {
            specs.push(KeySpec {
                key: predmarket_core::DEMO_API_KEY.to_owned(),
                per_minute: Some(self.rate_limit),
            });
        }
        Ok(specs)
    }

    /// Whether the public demo key is accepted (no key configured).
    pub fn demo_key_active(&self) -> bool {
        self.key_specs()
            .is_ok_and(|specs| specs.iter().any(|s| s.key == predmarket_core::DEMO_API_KEY))
    }

    /// The accepted keys, without their limits.
    pub fn api_keys(&self) -> Vec<String> {
        self.key_specs()
            .unwrap_or_default()
            .into_iter()
            .map(|s| s.key)
            .collect()
    }

    /// Checks what clap cannot: shares within 0..=1, a sane scale, known
    /// platforms, a parseable anchor date and key list.
    pub fn validate(&self) -> Result<(), String> {
        for (flag, share) in [
            ("--fault-5xx", self.fault_5xx),
            ("--fault-429", self.fault_429),
            ("--fault-malformed", self.fault_malformed),
        ] {
            if !(0.0..=1.0).contains(&share) {
                return Err(format!("{flag} must be between 0 and 1"));
            }
        }
        if !(self.scale.is_finite() && self.scale > 0.0 && self.scale <= 100.0) {
            return Err("--scale must be above 0 and at most 100".into());
        }
        for platform in &self.fail_platforms {
            if !crate::data::platforms::is_platform(platform) {
                return Err(format!(
                    "--fail-platform: unknown platform {platform:?} (platform_a to platform_h)"
                ));
            }
        }
        // clap drops an empty variable, so the environment is read here too.
        if self.api_key.is_empty()
            && let Some(value) = std::env::var_os(KEYS_VARIABLE)
            && value
                .to_string_lossy()
                .split(',')
                .all(|k| k.trim().is_empty())
        {
            return Err(EMPTY_KEY_LIST.into());
        }
        for (flag, secs) in [
            ("--header-read-timeout", self.header_read_timeout_secs),
            ("--idle-timeout", self.idle_timeout_secs),
            ("--write-timeout", self.write_timeout_secs),
            ("--request-timeout", self.request_timeout_secs),
            ("--shutdown-grace", self.shutdown_grace_secs),
        ] {
            if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
                return Err(format!("{flag} must be above 0 and at most 86400 seconds"));
            }
        }
        for (flag, n) in [
            ("--max-connections", self.max_connections),
            (
                "--max-connections-per-address",
                self.max_connections_per_address,
            ),
            ("--max-in-flight", self.max_in_flight),
            ("--max-in-flight-per-key", self.max_in_flight_per_key),
        ] {
            if n == 0 || n > 1_000_000 {
                return Err(format!("{flag} must be between 1 and 1000000"));
            }
        }
        let st = &self.stream;
        for (flag, n) in [
            ("--stream-max", st.max_streams),
            ("--stream-max-per-address", st.max_streams_per_address),
            ("--stream-max-resources", st.max_resources_per_stream),
            ("--stream-max-topics", st.max_topics),
            ("--stream-max-topics-per-visitor", st.max_topics_per_visitor),
            ("--stream-replay", st.replay),
        ] {
            if n == 0 || n > 1_000_000 {
                return Err(format!("{flag} must be between 1 and 1000000"));
            }
        }
        for (flag, value, low, high) in [
            ("--stream-heartbeat", st.heartbeat_secs, 0.1, 3600.0),
            ("--stream-grace", st.grace_secs, 0.0, 3600.0),
            ("--stream-interval-scale", st.interval_scale, 0.001, 100.0),
            ("--stream-lease", st.lease_secs, 0.3, 3600.0),
        ] {
            if !(value.is_finite() && value >= low && value <= high) {
                return Err(format!("{flag} must be between {low} and {high}"));
            }
        }
        if !(st.budget_share > 0.0 && st.budget_share <= 1.0) {
            return Err("--stream-budget-share must be above 0 and at most 1".into());
        }
        if let Some(date) = &self.anchor_date {
            crate::data::time::parse_date(date)
                .ok_or_else(|| format!("--anchor-date: expected YYYY-MM-DD, got {date:?}"))?;
        }
        self.key_specs().map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_key_without_keys() {
        let mut config = Config::for_tests("k");
        config.api_key.clear();
        assert_eq!(config.api_keys(), [predmarket_core::DEMO_API_KEY]);
        assert!(config.demo_key_active());
    }

    #[test]
    fn given_but_empty_key_sources_are_refused() {
        let mut config = Config::for_tests("k");
        config.api_key = vec![String::new(), " ".into()];
        let err = config.key_specs().unwrap_err();
        assert!(err.contains("holds no API key"), "{err}");

        let dir = std::env::temp_dir().join(format!("pm-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("empty-keys");
        std::fs::write(&file, "# only a comment\n\n   \n").unwrap();
        config.api_key.clear();
        config.api_key_file = Some(file.clone());
        let err = config.key_specs().unwrap_err();
        assert!(
            err.contains("holds no API key") && err.contains("demo key"),
            "{err}"
        );
        assert!(config.validate().is_err());

        std::fs::write(&file, "# a key\nreal-key:5\n").unwrap();
        assert_eq!(config.api_keys(), ["real-key"]);
        assert!(!config.demo_key_active());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
