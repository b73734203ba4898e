//! What an attack run saw, shared by the attack examples (`attack`,
//! `attack_proxy`, `attack_stream`): the answers counted by what was sent
//! and their status, the rules broken, figures printed at the end (never
//! checked); and the process around a run, whose exit code is what
//! `--check` asks for (CI's attack step reads it).
//!
//! Not an example itself: cargo finds examples as `examples/*.rs` and
//! `examples/*/main.rs`, and this folder has no `main.rs`; each attack
//! takes it with `#[path]`.

#![allow(dead_code, reason = "each attack uses the part of it it needs")]

pub mod process;
/// The server tests' stderr collector, shared rather than copied.
#[path = "../../tests/common/process.rs"]
pub mod stderr_lines;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Mutex;

/// Rules broken printed as they happen; past this many, only counted.
const PRINTED_VIOLATIONS: usize = 50;

/// What an attack saw.
#[derive(Default)]
pub struct Report {
    /// (what was sent, status) -> count
    statuses: Mutex<BTreeMap<(String, u16), u64>>,
    violations: Mutex<Vec<String>>,
    /// Printed at the end, never checked.
    figures: Mutex<Vec<String>>,
}

impl Report {
    pub fn count(&self, what: &str, status: u16) {
        if let Ok(mut s) = self.statuses.lock() {
            *s.entry((what.to_owned(), status)).or_default() += 1;
        }
    }

    pub fn violation(&self, message: String) {
        if let Ok(mut v) = self.violations.lock() {
            if v.len() < PRINTED_VIOLATIONS {
                eprintln!("VIOLATION: {message}");
            }
            v.push(message);
        }
    }

    pub fn rule(&self, holds: bool, message: impl FnOnce() -> String) {
        if !holds {
            self.violation(message());
        }
    }

    /// Counted; a 5xx other than shedding (503) breaks a rule wherever it
    /// shows.
    pub fn check_status(&self, what: &str, status: u16) {
        self.count(what, status);
        if status >= 500 && status != 503 {
            self.violation(format!("{what}: {status}"));
        }
    }

    pub fn figure(&self, text: String) {
        if let Ok(mut f) = self.figures.lock() {
            f.push(text);
        }
    }

    /// Prints the statuses, the figures and the number of rules broken,
    /// and returns that number (a poisoned lock counts as one broken).
    pub fn print_end(&self) -> usize {
        if let Ok(statuses) = self.statuses.lock() {
            for ((what, status), count) in statuses.iter() {
                println!("  {what}: {status} x {count}");
            }
        }
        if let Ok(figures) = self.figures.lock() {
            for figure in figures.iter() {
                println!("{figure}");
            }
        }
        let violations = self.violations.lock().map(|v| v.len()).unwrap_or(1);
        println!("rules broken: {violations}");
        violations
    }
}

/// Runs `run` (which returns the number of rules broken) on a fresh
/// multi-thread runtime and exits: 0, or 1 when `check` is asked and a
/// rule broke, 2 when the attack itself could not run. Sockets and tasks
/// still open are left to the exit.
pub fn run_and_exit(
    name: &str,
    check: bool,
    run: impl Future<Output = Result<usize, String>>,
) -> ! {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{name}: runtime: {e}");
            std::process::exit(2);
        }
    };
    match runtime.block_on(run) {
        Ok(broken) if check && broken > 0 => std::process::exit(1),
        Ok(_) => std::process::exit(0),
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::exit(2);
        }
    }
}
