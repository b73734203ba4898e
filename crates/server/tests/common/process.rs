//! The server binary as a process of its own, for the tests that kill one
//! or compare its answers (included by `#[path]`): started on an ephemeral
//! port with its address read from its log, or its stderr (the log) kept
//! line by line.

#![allow(dead_code)] // each includer uses a different part

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

/// A server or proxy process, killed when dropped.
pub struct Listening {
    pub child: Child,
    /// Where it listens, as its log says (`127.0.0.1:PORT`).
    pub addr: String,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `binary` on an ephemeral loopback port, quiet, with `args`, and
/// reads its address from its log; the rest of the log is drained.
pub fn start_listening(binary: &str, args: &[&str]) -> Listening {
    let mut child = Command::new(binary)
        .args(["--addr", "127.0.0.1:0", "--quiet"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the server binary");
    let stderr = child.stderr.take().expect("piped stderr");
    let mut lines = std::io::BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server logs its address")
            .expect("read the log");
        if let Some((_, rest)) = line.split_once("listening on http://") {
            // The address, without what may follow it (a colour code).
            break rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
                .collect::<String>();
        }
    };
    // A full pipe would stall the server.
    std::thread::spawn(move || lines.for_each(drop));
    Listening { child, addr }
}

/// Every line `child` writes to its piped stderr, as it comes, read by a
/// thread of its own (a full pipe would stall the server).
pub fn collect_stderr(child: &mut Child) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let Some(stderr) = child.stderr.take() else {
        return log;
    };
    let lines = log.clone();
    std::thread::spawn(move || {
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
