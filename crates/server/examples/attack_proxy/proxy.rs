//! A proxy process started from the built binary, killed on drop, its
//! stderr drained into lines and its addresses read from them.

use super::*;
use crate::paths::raw_get;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A proxy process, killed on drop, with the lines of its stderr.
pub(crate) struct Proxy {
    pub(crate) child: Child,
    pub(crate) log: Arc<Mutex<Vec<String>>>,
    pub(crate) addr: SocketAddr,
    pub(crate) metrics: SocketAddr,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Proxy {
    pub(crate) fn start(
        attack: &Args,
        upstream: SocketAddr,
        args: &[&str],
    ) -> Result<Self, String> {
        let binary = &attack.server;
        let mut child = Command::new(binary)
            .args(["--addr", "127.0.0.1:0", "--log-format", "json"])
            .args(["--metrics-addr", "127.0.0.1:0"])
            .args(["--upstream", &format!("http://{upstream}{BASE}")])
            .args(["--write-timeout", &attack.write_timeout.to_string()])
            .args(args)
            .env_clear()
            .env("PREDMARKET_UPSTREAM_KEY", UPSTREAM_KEY)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{binary}: {e}"))?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        // Drains stderr for as long as the proxy runs, so it never blocks
        // on a full pipe.
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if let Ok(mut lines) = lines.lock() {
                    lines.push(line);
                }
            }
        });
        let mut proxy = Self {
            child,
            log,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            metrics: SocketAddr::from(([127, 0, 0, 1], 0)),
        };
        proxy.addr = proxy.address_after("proxy listening on http://")?;
        proxy.metrics = proxy.address_after("metrics on http://")?;
        Ok(proxy)
    }

    /// The address in the first log line holding `marker`, waited for.
    pub(crate) fn address_after(&mut self, marker: &str) -> Result<SocketAddr, String> {
        let started = Instant::now();
        loop {
            let found = self.log.lock().ok().and_then(|log| {
                log.iter()
                    .find_map(|line| line.split(marker).nth(1).map(str::to_owned))
            });
            if let Some(rest) = found {
                let text = rest.split(['/', ',', ' ', '"']).next().unwrap_or("");
                return text.parse().map_err(|e| format!("{text}: {e}"));
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("the proxy exited ({status}) before {marker:?}"));
            }
            if started.elapsed() > CEILING {
                return Err(format!("no log line with {marker:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub(crate) fn lines_with(&self, text: &str) -> usize {
        self.log
            .lock()
            .map(|log| log.iter().filter(|l| l.contains(text)).count())
            .unwrap_or(0)
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
