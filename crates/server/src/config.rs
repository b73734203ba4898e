//! The command line (and environment) of the server.

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Clone, Parser)]
#[command(
    name = "predmarket-server",
    version,
    about = "The predmarket service of service.md on local, generated data."
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "PREDMARKET_ADDR", default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,

    /// An accepted API key (repeatable). Also PREDMARKET_API_KEYS, comma-separated.
    /// Without any, the public demo key `pm_demo_key` is accepted.
    #[arg(
        long = "api-key",
        env = "PREDMARKET_API_KEYS",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub api_key: Vec<String>,

    /// Requests per minute allowed for each key.
    #[arg(long, env = "PREDMARKET_RATE_LIMIT", default_value_t = 100)]
    pub rate_limit: u32,

    /// Seed of the generated data: the same seed gives the same data.
    #[arg(long, env = "PREDMARKET_SEED", default_value_t = 42)]
    pub seed: u64,

    /// Directory of the built demo, served under /app/.
    #[arg(long, env = "PREDMARKET_WEB")]
    pub web: Option<PathBuf>,

    /// Allowed CORS origins (repeatable). Default: any origin.
    #[arg(long = "cors-origin", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
}

impl Config {
    /// A configuration for tests: an ephemeral loopback port, one key.
    pub fn for_tests(api_key: &str) -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            api_key: vec![api_key.to_owned()],
            rate_limit: 100,
            seed: 42,
            web: None,
            cors_origins: Vec::new(),
        }
    }

    pub fn api_keys(&self) -> Vec<String> {
        let keys: Vec<String> = self
            .api_key
            .iter()
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .collect();
        if keys.is_empty() {
            vec![predmarket_core::DEMO_API_KEY.to_owned()]
        } else {
            keys
        }
    }
}
