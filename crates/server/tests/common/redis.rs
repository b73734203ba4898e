//! A real `redis-server` on a free loopback port, killed on drop, for the
//! proxy's Redis tests and the attack example (included by `#[path]`).
//!
//! Without `redis-server` the tests that need it are ignored, with their
//! reason, in the test runner's own report (`cfg(redis_missing)`, set by
//! the crate's build.rs unless `CI` is set); `cargo xtask test` refuses to
//! run the server's tests without it. When they run, a missing server
//! with `CI` or `PREDMARKET_REQUIRE_REDIS` set (`cargo xtask test` sets
//! the latter) is a failure; otherwise `start` returns `None`, for the
//! examples (attack, fan-out), which say SKIPPED loudly on stderr.

#![allow(dead_code)] // each includer uses a different part

use std::time::{Duration, Instant};

/// Set (to anything) to make a missing `redis-server` a failure.
pub const REQUIRE: &str = "PREDMARKET_REQUIRE_REDIS";

pub struct Redis {
    child: std::process::Child,
    pub port: u16,
    pub url: String,
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Redis {
    /// The server's process id (its memory and CPU, for benches).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `signal` (`-STOP`, `-CONT`, `-KILL`) to the server.
    pub fn signal(&self, signal: &str) -> Result<(), String> {
        let status = std::process::Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .map_err(|e| format!("kill: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("kill {signal}: {status}"))
        }
    }
}

/// Whether a missing `redis-server` must fail the run.
pub fn required() -> bool {
    ["CI", REQUIRE]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0"))
}

/// Starts `redis-server` with `extra` arguments. `Ok(None)`: it is not
/// installed and not required (`what` names what goes untested); `Err`:
/// it is required and missing, or it did not start.
pub fn start(what: &str, extra: &[&str]) -> Result<Option<Redis>, String> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("a free port: {e}"))?
        .port();
    start_on(what, port, extra)
}

/// `start` on `port` (a server started again where one was killed).
pub fn start_on(what: &str, port: u16, extra: &[&str]) -> Result<Option<Redis>, String> {
    let child = match std::process::Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(error) if required() => {
            return Err(format!(
                "redis-server cannot be started ({error}), and {REQUIRE} or CI is set: \
                 {what} must be tested here; `cargo xtask setup` installs it"
            ));
        }
        Err(_) => {
            eprintln!(
                "\n!!!!! SKIPPED: redis-server is not installed, so {what} is NOT tested; \
                 `cargo xtask setup` installs it !!!!!\n"
            );
            return Ok(None);
        }
    };
    let redis = Redis {
        child,
        port,
        url: format!("redis://127.0.0.1:{port}/"),
    };
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > Duration::from_secs(60) {
            return Err("redis-server did not listen within 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(Some(redis))
}
