//! What the attack saw, printed, and the rules it checks.

use super::*;
use std::sync::atomic::Ordering;

pub(crate) fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

pub(crate) fn print_report(
    args: &Args,
    report: &Observed,
    sigterm_secs: Option<(f64, u64)>,
) -> usize {
    println!(
        "attack: {:.0} s, {} worst-case search tasks, {} slowloris sockets, {} idle sockets \
         (server timeouts: header read {} s, idle {} s)",
        args.seconds,
        args.heavy,
        args.slowloris,
        args.idle,
        args.header_read_timeout,
        args.idle_timeout
    );
    if let Ok(good) = report.good.lock() {
        for (path, micros) in good.iter() {
            let mut sorted = micros.clone();
            sorted.sort_unstable();
            println!(
                "good client {path}: {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                sorted.len(),
                percentile(&sorted, 0.5),
                percentile(&sorted, 0.99),
                percentile(&sorted, 1.0)
            );
        }
    }
    let flood = report.flood_answered.load(Ordering::Relaxed);
    println!(
        "keyless and unknown-key floods of /markets?limit=25 ({} tasks): {flood} answers, {:.0} a second",
        args.keyless,
        flood as f64 / args.seconds.max(f64::MIN_POSITIVE)
    );
    if let Ok(heavy) = report.heavy_ok.lock() {
        let mut sorted = heavy.clone();
        sorted.sort_unstable();
        println!(
            "worst-case searches answered: {}, p50 {:.2} ms, p99 {:.2} ms, worst {:.2} ms",
            sorted.len(),
            percentile(&sorted, 0.5),
            percentile(&sorted, 0.99),
            percentile(&sorted, 1.0)
        );
    }
    for (name, closed, open) in [
        ("slowloris", &report.slow_closed, &report.slow_open_at_end),
        ("idle", &report.idle_closed, &report.idle_open_at_end),
    ] {
        if let Ok(closed) = closed.lock() {
            let max = closed.iter().copied().fold(0.0, f64::max);
            let mean = closed.iter().sum::<f64>() / closed.len().max(1) as f64;
            println!(
                "{name} sockets closed by the server: {}, open for mean {mean:.2} s, max {max:.2} s; \
                 still open at the end: {}",
                closed.len(),
                open.load(Ordering::Relaxed)
            );
        }
    }
    if let Some((secs, open)) = sigterm_secs {
        println!("SIGTERM to exit, with {open} slow and idle sockets open: {secs:.2} s");
    }
    report.seen.print_end()
}
