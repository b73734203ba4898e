//! The unit tests' verdicts, written down for the identity check of a
//! change that must leave every verdict as it is (size, speed): with
//! `VERDICTS_DUMP` naming a file, every classification the tests make is
//! appended to it as one line (the test's name, both titles, whether
//! reasons were asked, the classification as JSON). Sorted, the file is
//! the same whatever order the tests ran in; the labelled sets are dumped
//! by `crates/core/examples/verdicts_dump.rs`.
//!
//! `VERDICTS_DUMP=/tmp/unit.txt cargo test -p predmarket-core --lib equivalence`

use super::Classification;
use crate::models::Market;
use std::io::Write as _;
use std::sync::Mutex;

static FILE: Mutex<()> = Mutex::new(());

/// Appends one classification (a test-only hook of `engine::run`).
pub(crate) fn record(a: &Market, b: &Market, detailed: bool, c: &Classification) {
    let Some(path) = std::env::var_os("VERDICTS_DUMP") else {
        return;
    };
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    let json = serde_json::to_string(c).unwrap_or_else(|e| e.to_string());
    let line = format!("{test}\t{:?}\t{:?}\t{detailed}\t{json}\n", a.title, b.title);
    let _held = FILE.lock();
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    assert!(written.is_ok(), "VERDICTS_DUMP {path:?}: {written:?}");
}
