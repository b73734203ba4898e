//! Running commands visibly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root (xtask lives one level below it). `cargo run` sets
/// `CARGO_MANIFEST_DIR` at run time too; that one is preferred because a
/// build directory shared with another clone (CI's) can hold an xtask
/// binary compiled there, whose compile-time path names the other clone.
pub fn root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
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

/// Runs `command` silently; on failure the error holds its stderr.
pub fn exec_quiet(command: &mut Command) -> Result {
    let text = describe(command);
    let out = command
        .output()
        .map_err(|e| format!("could not start `{text}`: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{text}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
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

/// FNV-1a, 64 bits: content names of the demo's files and the build
/// stamps (no cryptographic need, and xtask has no dependencies).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_more(0xcbf2_9ce4_8422_2325, bytes)
}

fn fnv1a64_more(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// A hash of every file under `inputs` (paths relative to the workspace
/// root; folders are walked, skipping build output and dependencies): the
/// names and contents, so an edit, a new file or a removed one changes it.
pub fn inputs_hash(inputs: &[&str]) -> Result<u64> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') || matches!(name, "target" | "node_modules" | "dist") {
                continue;
            }
            if path.is_dir() {
                walk(&path, files)?;
            } else {
                files.push(path);
            }
        }
        Ok(())
    }
    let root = root();
    let mut files = Vec::new();
    for input in inputs {
        let path = root.join(input);
        if path.is_dir() {
            walk(&path, &mut files)?;
        } else {
            files.push(path);
        }
    }
    files.sort();
    let mut hash = fnv1a64(b"");
    for file in files {
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = file.strip_prefix(&root).unwrap_or(&file).to_string_lossy();
        hash = fnv1a64_more(hash, name.as_bytes());
        hash = fnv1a64_more(hash, &[0]);
        hash = fnv1a64_more(hash, &bytes);
        hash = fnv1a64_more(hash, &(bytes.len() as u64).to_le_bytes());
    }
    Ok(hash)
}

/// Whether `output` was built from inputs that hash to `hash` (its stamp
/// file says so and the output is still there).
pub fn built_from(output: &Path, stamp: &Path, hash: u64) -> bool {
    output.exists()
        && std::fs::read_to_string(stamp).is_ok_and(|s| s.trim() == format!("{hash:016x}"))
}

/// Records that `stamp`'s output was built from inputs hashing to `hash`.
pub fn stamp(stamp: &Path, hash: u64) -> Result {
    std::fs::write(stamp, format!("{hash:016x}\n")).map_err(|e| format!("{}: {e}", stamp.display()))
}
