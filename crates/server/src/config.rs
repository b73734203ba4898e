//! The command line (and environment) of the server.

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;

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

Data:
  --scale 1 gives about 5 000 markets, --scale 20 about 100 000 (each market
  and its orderbook, trades and price history are derived from --seed).
  --hostile fills titles, descriptions and names with HTML, <script>,
  right-to-left marks, emoji and very long strings.

Example:
  predmarket-server --addr 127.0.0.1:8787 --api-key dev --api-key ci:1000 --seed 7";

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

    /// Allowed CORS origins (repeatable). Default: any origin.
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
        }
    }

    /// Every accepted key with its limit (`None`: unlimited): the flags, then
    /// the key file; the demo key when there is none.
    pub fn key_specs(&self) -> Result<Vec<KeySpec>, String> {
        let mut specs = Vec::new();
        for raw in &self.api_key {
            if let Some(spec) = KeySpec::parse(raw, self.rate_limit)? {
                specs.push(spec);
            }
        }
        if let Some(path) = &self.api_key_file {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --api-key-file {}: {e}", path.display()))?;
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with('#') {
                    continue;
                }
                if let Some(spec) = KeySpec::parse(line, self.rate_limit)? {
                    specs.push(spec);
                }
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
        if let Some(date) = &self.anchor_date {
            crate::data::time::parse_date(date)
                .ok_or_else(|| format!("--anchor-date: expected YYYY-MM-DD, got {date:?}"))?;
        }
        self.key_specs().map(|_| ())
    }
}

/// One accepted key and its budget.
#[derive(Clone, PartialEq, Eq)]
pub struct KeySpec {
    pub key: String,
    /// Requests per minute; `None` is unlimited.
    pub per_minute: Option<u32>,
}

// Keys must never reach a log, so Debug hides them.
impl std::fmt::Debug for KeySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeySpec")
            .field("key", &"[redacted]")
            .field("per_minute", &self.per_minute)
            .finish()
    }
}

impl KeySpec {
    /// `KEY`, `KEY:N` or `KEY:unlimited`; `Ok(None)` for a blank entry.
    pub fn parse(raw: &str, default_per_minute: u32) -> Result<Option<Self>, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Ok(None);
        }
        let (key, per_minute) = match raw.rsplit_once(':') {
            None => (raw, Some(default_per_minute)),
            Some((key, limit)) => {
                let limit = limit.trim();
                let per_minute = if limit.eq_ignore_ascii_case("unlimited") {
                    None
                } else {
                    match limit.parse::<u32>() {
                        Ok(n) if n > 0 => Some(n),
                        // The key itself is never echoed, only its position.
                        _ => {
                            return Err("an API key entry has an invalid limit after ':' \
                                 (expected a positive number or `unlimited`)"
                                .into());
                        }
                    }
                };
                (key.trim(), per_minute)
            }
        };
        if key.is_empty() {
            return Err("an API key entry has an empty key".into());
        }
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("an API key may only hold visible ASCII characters".into());
        }
        Ok(Some(Self {
            key: key.to_owned(),
            per_minute,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_syntax() {
        let spec = |s| KeySpec::parse(s, 100).unwrap().unwrap();
        assert_eq!(spec("abc").per_minute, Some(100));
        assert_eq!(spec("abc:5").per_minute, Some(5));
        assert_eq!(spec("abc:5").key, "abc");
        assert_eq!(spec("a:b:unlimited").per_minute, None);
        assert_eq!(spec("a:b:unlimited").key, "a:b");
        assert!(KeySpec::parse("abc:0", 100).is_err());
        assert!(KeySpec::parse("a:b", 100).is_err());
        assert!(KeySpec::parse(":5", 100).is_err());
        assert_eq!(KeySpec::parse("  ", 100), Ok(None));
        let err = KeySpec::parse("secret:x", 100).unwrap_err();
        assert!(!err.contains("secret"));
        assert!(!format!("{:?}", spec("secret")).contains("secret"));
    }

    #[test]
    fn demo_key_without_keys() {
        let mut config = Config::for_tests("k");
        config.api_key.clear();
        assert_eq!(config.api_keys(), [predmarket_core::DEMO_API_KEY]);
    }
}
