//! A server process an attack starts from the built binary: killed on
//! drop, its stderr drained into lines for as long as it runs (so it never
//! blocks on a full pipe: the server tests' `collect_stderr`), and the
//! addresses it logs read from those lines.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A process, killed on drop, with the lines of its stderr.
pub struct Process {
    pub child: Child,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    /// Spawns `command` (its stdin and stdout closed, stderr read here);
    /// `what` names it in errors.
    pub fn spawn(command: &mut Command, what: &str) -> Result<Self, String> {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{what}: {e}"))?;
        if child.stderr.is_none() {
            return Err("no stderr".into());
        }
        let log = super::stderr_lines::collect_stderr(&mut child);
        Ok(Self { child, log })
    }

    /// The address in the first log line holding `marker`, waited for up
    /// to `ceiling`; an error if the process exits first.
    pub fn address_after(&mut self, marker: &str, ceiling: Duration) -> Result<SocketAddr, String> {
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
                return Err(format!("the process exited ({status}) before {marker:?}"));
            }
            if started.elapsed() > ceiling {
                return Err(format!("no log line with {marker:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// How many of its log lines so far hold `text`.
    pub fn lines_with(&self, text: &str) -> usize {
        self.log
            .lock()
            .map(|log| log.iter().filter(|l| l.contains(text)).count())
            .unwrap_or(0)
    }

    /// Its resident memory in MiB, from /proc.
    pub fn rss_mb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(kb / 1024)
    }
}
