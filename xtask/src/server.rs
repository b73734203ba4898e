//! Starting `predmarket-server` for tests and the demo, and stopping it
//! whatever happens (the guard kills it on drop, also on failure).

use crate::util::{Result, cmd, exec, target_dir};
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub struct Server {
    child: Child,
    pub url: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Debug,
    Release,
}

/// Builds the server binary.
pub fn build(profile: Profile) -> Result {
    let mut command = cmd("cargo");
    command.args(["build", "-p", "predmarket-server"]);
    if profile == Profile::Release {
        command.arg("--release");
    }
    exec(&mut command)
}

impl Server {
    /// Starts the built server with `args` on `addr` and waits until it
    /// listens. Its log lines go to our stderr.
    pub fn start(profile: Profile, addr: &str, args: &[&str]) -> Result<Server> {
        let dir = if profile == Profile::Release {
            "release"
        } else {
            "debug"
        };
        let binary = target_dir().join(dir).join("predmarket-server");
        let mut child = cmd(&binary.to_string_lossy())
            .args(["--addr", addr])
            .args(args)
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", binary.display()))?;
        let stderr = child.stderr.take().ok_or("no stderr of the server")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr)
                .lines()
                .map_while(std::result::Result::ok)
            {
                if !sent && let Some(url) = line.split("listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_owned());
                    sent = true;
                }
                eprintln!("  [server] {line}");
            }
        });
        let mut server = Server {
            child,
            url: String::new(),
        };
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => {
                server.url = url;
                Ok(server)
            }
            Err(_) => Err("the server did not start listening within 60 s".into()),
        }
    }

    /// Waits for the server to exit (the demo, until Ctrl-C).
    pub fn wait(mut self) -> Result {
        let status = self.child.wait().map_err(|e| e.to_string())?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("the server exited with {status}"))
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
