//! The attacked proxy: a process started from the built binary
//! (`attack_common::process`) in front of the fake upstream, and its
//! `/metrics`.

use super::*;
use crate::attack_common::process::Process;
use crate::paths::raw_get;
use std::net::SocketAddr;
use std::process::Command;

/// A proxy process with its two addresses (the answers', the metrics').
pub(crate) struct Proxy {
    pub(crate) process: Process,
    pub(crate) addr: SocketAddr,
    pub(crate) metrics: SocketAddr,
}

impl Proxy {
    pub(crate) fn start(
        attack: &Args,
        upstream: SocketAddr,
        args: &[&str],
    ) -> Result<Self, String> {
        let binary = &attack.server;
        let mut process = Process::spawn(
            Command::new(binary)
                .args(["--addr", "127.0.0.1:0", "--log-format", "json"])
                .args(["--metrics-addr", "127.0.0.1:0"])
                .args(["--upstream", &format!("http://{upstream}{BASE}")])
                .args(["--write-timeout", &attack.write_timeout.to_string()])
                .args(args)
                .env_clear()
                .env("PREDMARKET_UPSTREAM_KEY", UPSTREAM_KEY),
            binary,
        )?;
        let addr = process.address_after("proxy listening on http://", CEILING)?;
        let metrics = process.address_after("metrics on http://", CEILING)?;
        Ok(Self {
            process,
            addr,
            metrics,
        })
    }

    pub(crate) fn lines_with(&self, text: &str) -> usize {
        self.process.lines_with(text)
    }

    /// A value of its `/metrics` (`name` with its labels, if any).
    pub(crate) async fn metric(&self, name: &str) -> Result<f64, String> {
        let (status, _, text) = raw_get(self.metrics, "/metrics", None, None).await?;
        if status != 200 {
            return Err(format!("/metrics: {status}"));
        }
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("no {name} in /metrics"))
    }
}
