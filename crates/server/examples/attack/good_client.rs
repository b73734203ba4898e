//! The well-behaved client: its own key, two list requests back to back on
//! one keep-alive connection, measuring its own latency throughout.

use super::*;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The well-behaved client: never refused, never failed.
pub(crate) async fn good_client(addr: SocketAddr, report: Arc<Observed>, stop: Arc<AtomicBool>) {
    let paths: [&'static str; 2] = ["/platforms", "/markets?limit=25"];
    let requests: Vec<Vec<u8>> = paths.iter().map(|p| get(addr, p, GOOD_KEY)).collect();
    let mut connection = KeepAlive::new(addr, Duration::from_millis(50)).with_nodelay();
    let mut i = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let which = i % 2;
        i += 1;
        let started = Instant::now();
        let s = match connection.stream().await {
            Ok(s) => s,
            Err(e) => {
                report
                    .seen
                    .violation(format!("good client: connect refused: {e}"));
                continue;
            }
        };
        match exchange(s, &requests[which]).await {
            Ok((status, _)) => {
                let micros = started.elapsed().as_micros() as u64;
                report.seen.count("good", status);
                if status != 200 {
                    report
                        .seen
                        .violation(format!("good client: {} -> {status}", paths[which]));
                }
                if let Ok(mut good) = report.good.lock() {
                    good.entry(paths[which]).or_default().push(micros);
                }
            }
            Err(e) => {
                if !stop.load(Ordering::Relaxed) {
                    report
                        .seen
                        .violation(format!("good client: {}: {e}", paths[which]));
                }
                connection.close();
            }
        }
        // A steady client, not a flood: about 100 requests a second.
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
