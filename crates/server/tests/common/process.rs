//! The server binary as a process of its own, for the tests that kill one
//! (included by `#[path]`): its stderr (the log) kept line by line.

#![allow(dead_code)] // each includer uses a different part

use std::process::Child;
use std::sync::{Arc, Mutex};

/// Every line `child` writes to its piped stderr, as it comes, read by a
/// thread of its own (a full pipe would stall the server).
pub fn collect_stderr(child: &mut Child) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let Some(stderr) = child.stderr.take() else {
        return log;
    };
    let lines = log.clone();
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
    log
}
