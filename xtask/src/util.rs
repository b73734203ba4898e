//! Running commands visibly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// Where cargo puts its output (honours CARGO_TARGET_DIR).
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root().join(dir)
            }
        }
        None => root().join("target"),
    }
}

/// PATH with the project's tools first: npm's binaryen (never Debian's
/// wasm-opt) and cargo-installed binaries.
pub fn tool_path() -> String {
    let mut parts = vec![root().join("tests/node_modules/.bin")];
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        parts.push(PathBuf::from(home).join("bin"));
    } else if let Some(home) = std::env::var_os("HOME") {
        parts.push(PathBuf::from(home).join(".cargo/bin"));
    }
    let mut path: Vec<String> = parts.iter().map(|p| p.display().to_string()).collect();
    if let Some(existing) = std::env::var_os("PATH") {
        path.push(existing.to_string_lossy().into_owned());
    }
    path.join(":")
}

pub fn cmd(program: &str) -> Command {
    let mut command = Command::new(program);
    command.current_dir(root()).env("PATH", tool_path());
    command
}

fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// Runs `command`, printing it and how long it took; an error when it fails.
pub fn exec(command: &mut Command) -> Result {
    let text = describe(command);
    eprintln!("$ {text}");
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("could not start `{text}`: {e}"))?;
    eprintln!("  ({:.1} s)", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{text}` failed ({status})"))
    }
}

/// The trimmed stdout of `command`, or `None` when it cannot run or fails.
pub fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

pub fn on_path(program: &str) -> bool {
    output(cmd("sh").args(["-c", &format!("command -v {program}")])).is_some_and(|p| !p.is_empty())
}
