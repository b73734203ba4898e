//! The server under attack when started here: on a free loopback port,
//! and stopped by SIGTERM at the end with its exit timed.

use super::*;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) async fn start(binary: &str, args: &Args) -> Result<(Child, SocketAddr), String> {
    // Every socket of this attack comes from 127.0.0.1: the per-address
    // cap would refuse most of them at once (which is its job, tested on
    // its own in tests/proxy_connections.rs); here it is raised above what the
    // attack opens, so the timeouts and the shedding are what is tested.
    let per_address = (args.slowloris + args.idle + args.heavy + 256).to_string();
    let mut child = Command::new(binary)
        .args([
            "--max-connections-per-address",
            &per_address,
            "--addr",
            "127.0.0.1:0",
            "-q",
            "--api-key",
            &format!("{GOOD_KEY}:unlimited"),
            "--api-key",
            &format!("{ATTACKER_KEY}:unlimited"),
            "--header-read-timeout",
            &args.header_read_timeout.to_string(),
            "--idle-timeout",
            &args.idle_timeout.to_string(),
            "--scale",
            &args.scale.to_string(),
        ])
        .env_remove("PREDMARKET_API_KEYS")
        .env_remove("PREDMARKET_API_KEY_FILE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{binary}: {e}"))?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    // A thread reads the server's stderr (and keeps draining it so the
    // server never blocks on a full pipe).
    let (found, listening) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut found = Some(found);
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            // A log line: time and level come first.
            if let Some(rest) = line.split("predmarket-server listening on http://").nth(1)
                && let Some(found) = found.take()
            {
                let _ = found.send(rest.trim().parse::<SocketAddr>().ok());
            }
        }
    });
    let addr = tokio::task::spawn_blocking(move || {
        listening
            .recv_timeout(Duration::from_secs(120))
            .ok()
            .flatten()
    })
    .await
    .ok()
    .flatten()
    .ok_or("the server did not start")?;
    Ok((child, addr))
}

pub(crate) async fn sigterm(child: &mut Child, report: &Observed, exit_within: Duration) -> f64 {
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    if !killed.is_ok_and(|s| s.success()) {
        report.seen.violation("could not send SIGTERM".into());
    }
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                if !status.success() {
                    report
                        .seen
                        .violation(format!("server exited with {status} on SIGTERM"));
                }
                break;
            }
            Ok(None) if sent.elapsed() > exit_within => {
                report.seen.violation(format!(
                    "server still running {} s after SIGTERM",
                    exit_within.as_secs_f64()
                ));
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            Ok(None) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => {
                report.seen.violation(format!("wait: {e}"));
                break;
            }
        }
    }
    sent.elapsed().as_secs_f64()
}
