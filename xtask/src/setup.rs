//! `cargo xtask setup`: installs what a fresh machine lacks, checking first
//! so a second run takes a second. Versions are pinned to what the project
//! was measured with (docs/ci.md has the fresh-machine time of each step).
//!
//! The installs run in three lanes at once: the system packages and the
//! npm tools mostly wait on the network, the two compile lanes keep both
//! cores busy. Each install writes its output to a log file of its own
//! and a heartbeat says what is still running, so a first run that
//! compiles for ten minutes never looks hung.

use crate::build;
use crate::tool_source::{self, ToolCrate};
use crate::util::{Result, cmd, on_path, output, root, target_dir};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TRUNK_VERSION: &str = "0.21.14";
/// Splits the demo's wasm at its `#[wasm_split]` points (web/src/split.rs);
/// the version that matches Leptos 0.8's `wasm_split_helpers` 0.2.
const WASM_SPLIT_VERSION: &str = "0.2.4";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// npm packages whose install scripts run (they unpack the platform's
/// binary); every other package is installed with its scripts off.
const NPM_SCRIPTS_ALLOWED: [&str; 4] = ["bun", "deno", "esbuild", "workerd"];

/// The wasm-bindgen version in Cargo.lock: the CLI must match it exactly.
pub fn wasm_bindgen_version() -> Result<String> {
    let lock =
        fs::read_to_string(root().join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(version) = lines.next().and_then(|l| l.strip_prefix("version = \""))
        {
            return Ok(version.trim_end_matches('"').to_owned());
        }
    }
    Err("wasm-bindgen is not in Cargo.lock".into())
}

/// One thing to install: how to tell it is there, how to install it, and
/// what a first install costs on the project's 2-core machines (measured,
/// docs/ci.md), said before it starts.
struct Install {
    name: String,
    /// Seconds a first install takes on the project's 2-core machines.
    first_run_s: u64,
    present: Box<dyn Fn() -> bool + Send>,
    install: Box<dyn Fn(&Path) -> Result + Send>,
}

fn install(
    name: impl Into<String>,
    first_run_s: u64,
    present: impl Fn() -> bool + Send + 'static,
    install: impl Fn(&Path) -> Result + Send + 'static,
) -> Install {
    Install {
        name: name.into(),
        first_run_s,
        present: Box::new(present),
        install: Box::new(install),
    }
}

/// What is being installed now, for the heartbeat.
type Running = Arc<Mutex<Vec<(String, Instant)>>>;

/// Each `cargo install` builds in a folder of its own: with
/// `CARGO_TARGET_DIR` set (CI sets it) they would all share one and wait on
/// its lock, and a reinstall after a version bump reuses what it can.
fn tool_build_dir(tool: &str) -> PathBuf {
    target_dir().join("tool-build").join(tool)
}

fn log_dir() -> PathBuf {
    target_dir().join("setup-logs")
}

/// Runs `command` with its output in `log`; on failure the error holds
/// the log's last lines.
fn logged(command: &mut Command, log: &Path) -> Result {
    let file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let status = command
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .status()
        .map_err(|e| format!("could not start {:?}: {e}", command.get_program()))?;
    if status.success() {
        return Ok(());
    }
    let text = fs::read_to_string(log).unwrap_or_default();
    let tail: Vec<&str> = text.lines().rev().take(30).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    Err(format!(
        "{:?} failed ({status}); the end of {}:\n{}",
        command.get_program(),
        log.display(),
        tail.join("\n")
    ))
}

/// Runs one lane's installs in order; stops the lane at its first failure.
fn lane(installs: Vec<Install>, running: &Running) -> Result {
    for item in installs {
        if (item.present)() {
            eprintln!("setup: {}: present", item.name);
            continue;
        }
        let log = log_dir().join(format!(
            "{}.log",
            item.name
                .split_whitespace()
                .next()
                .unwrap_or("install")
                .replace('/', "-")
        ));
        eprintln!(
            "setup: {}: installing (first run: {}; log: {})",
            item.name,
            duration_words(item.first_run_s),
            log.display()
        );
        let started = Instant::now();
        if let Ok(mut list) = running.lock() {
            list.push((item.name.clone(), started));
        }
        let result = (item.install)(&log);
        if let Ok(mut list) = running.lock() {
            list.retain(|(name, _)| *name != item.name);
        }
        result.map_err(|e| format!("{}: {e}", item.name))?;
        eprintln!(
            "setup: {}: installed in {:.0} s",
            item.name,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

pub fn run_setup() -> Result {
    let started = Instant::now();
    fs::create_dir_all(log_dir()).map_err(|e| format!("{}: {e}", log_dir().display()))?;
    let wbg = wasm_bindgen_version()?;

    // Network-bound: the toolchains and Debian's packages (one apt at a
    // time), then npm's.
    let system = vec![
        install(
            "wasm32-unknown-unknown target",
            10,
            || {
                output(cmd("rustup").args(["target", "list", "--installed"]))
                    .is_some_and(|t| t.lines().any(|l| l == "wasm32-unknown-unknown"))
            },
            |log| {
                logged(
                    cmd("rustup").args(["target", "add", "wasm32-unknown-unknown"]),
                    log,
                )
            },
        ),
        install(
            "nightly toolchain for the wasm builds (pinned, with rust-src for build-std)",
            60,
            || {
                output(
                    cmd("rustup")
                        .args(["component", "list", "--installed", "--toolchain"])
                        .arg(build::NPM_TOOLCHAIN),
                )
                .is_some_and(|c| c.lines().any(|l| l.starts_with("rust-src")))
            },
            |log| {
                logged(
                    cmd("rustup")
                        .args(["toolchain", "install"])
                        .arg(build::NPM_TOOLCHAIN)
                        .args(["--profile", "minimal", "--component", "rust-src"]),
                    log,
                )
            },
        ),
        install(
            "chromium and chromedriver (Debian)",
            60,
            || on_path("chromium") && Path::new(CHROMEDRIVER).exists(),
            |log| apt(&["chromium", "chromium-driver"], log),
        ),
        // The proxy's Redis test (two replicas, one budget) starts its own
        // redis-server on a free loopback port; the service stays off.
        install(
            "redis-server (Debian)",
            10,
            || on_path("redis-server"),
            |log| apt(&["redis-server"], log),
        ),
        install(
            "npm tools (binaryen 132, playwright-core, typescript, the consumer tests' bundlers and runtimes, publint, attw)",
            60,
            npm_tools_present,
            |log| {
                let tests = root().join("tests");
                // Install scripts run only for the packages that unpack a
                // platform binary: a compromised dependency's script would
                // otherwise run with the developer's rights.
                logged(
                    cmd("npm")
                        .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
                        .current_dir(&tests),
                    log,
                )?;
                logged(
                    cmd("npm")
                        .arg("rebuild")
                        .args(NPM_SCRIPTS_ALLOWED)
                        .current_dir(&tests),
                    &log.with_extension("rebuild.log"),
                )
            },
        ),
    ];

    // CPU-bound: three `cargo install`s in two lanes, about even.
    let wbg_check = wbg.clone();
    let wbg_install = wbg.clone();
    let compile_a = vec![
        install(
            format!("wasm-bindgen-cli {wbg}"),
            240,
            move || {
                output(cmd("wasm-bindgen").arg("--version"))
                    .is_some_and(|v| v.ends_with(&wbg_check))
                    && on_path("wasm-bindgen-test-runner")
            },
            // No default features: they are TLS for downloading a
            // chromedriver, and the test runner here uses the system's.
            move |log| {
                install_from_source(
                    &wasm_bindgen_tool(&wbg_install),
                    &["--no-default-features"],
                    "wasm-bindgen-cli",
                    log,
                )
            },
        ),
        install(
            format!("wasm-split-cli {WASM_SPLIT_VERSION}"),
            120,
            || {
                output(cmd("cargo").args(["install", "--list"])).is_some_and(|list| {
                    list.lines().any(|line| {
                        line.starts_with(&format!("wasm_split_cli_support v{WASM_SPLIT_VERSION}"))
                            && line[format!("wasm_split_cli_support v{WASM_SPLIT_VERSION}").len()..]
                                .starts_with([':', ' '])
                    })
                }) && on_path("wasm-split-cli")
            },
            |log| {
                install_from_source(
                    &wasm_split_tool(),
                    &["--features", "build-binary"],
                    "wasm-split-cli",
                    log,
                )
            },
        ),
    ];
    let compile_b = vec![install(
        format!("trunk {TRUNK_VERSION}"),
        480,
        || output(cmd("trunk").arg("--version")).is_some_and(|v| v.ends_with(TRUNK_VERSION)),
        |log| {
            // No default features: they are the self-update check and TLS
            // for downloading tools, and Trunk here only builds with the
            // tools setup installs (Trunk.toml pins their versions).
            install_from_source(&trunk_tool(), &["--no-default-features"], "trunk", log)
        },
    )];

    announce(&[&system, &compile_a, &compile_b]);
    let running: Running = Arc::new(Mutex::new(Vec::new()));
    let done = AtomicBool::new(false);
    let results = std::thread::scope(|scope| {
        let lanes = [system, compile_a, compile_b].map(|installs| {
            let running = Arc::clone(&running);
            scope.spawn(move || lane(installs, &running))
        });
        scope.spawn(|| heartbeat(&running, &done));
        let results: Vec<Result> = lanes
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("setup lane panicked".into()))
            })
            .collect();
        done.store(true, Ordering::Relaxed);
        results
    });
    let failures: Vec<String> = results.into_iter().filter_map(|r| r.err()).collect();
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }

    // Debian's binaryen (wasm-opt 108) produces wasm that fails to load, and
    // Trunk picks up any wasm-opt on PATH; ours comes first, but say so.
    if output(cmd("dpkg").args(["-s", "binaryen"])).is_some() {
        eprintln!(
            "setup: warning: Debian's binaryen is installed; the project uses npm's binaryen@132 (first on PATH)"
        );
    }
    eprintln!("setup: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// "about 4 min", or "seconds" below a minute.
fn duration_words(seconds: u64) -> String {
    if seconds < 60 {
        "seconds".into()
    } else {
        format!("about {} min", seconds.div_ceil(60))
    }
}

/// Says up front what is missing and how long the lot should take: the
/// lanes run side by side, so the wait is the longest lane's.
fn announce(lanes: &[&Vec<Install>]) {
    let mut missing = Vec::new();
    let mut longest = 0;
    for lane in lanes {
        let mut lane_s = 0;
        for item in lane.iter().filter(|item| !(item.present)()) {
            missing.push(item.name.clone());
            lane_s += item.first_run_s;
        }
        longest = longest.max(lane_s);
    }
    if missing.is_empty() {
        eprintln!("setup: everything is installed");
    } else {
        eprintln!(
            "setup: {} to install, {} expected in all on 2 cores: {}",
            missing.len(),
            duration_words(longest),
            missing.join("; ")
        );
    }
}

/// Every minute, what is still installing and for how long.
fn heartbeat(running: &Running, done: &AtomicBool) {
    let mut last = Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(250));
        if last.elapsed() < Duration::from_secs(60) {
            continue;
        }
        last = Instant::now();
        if let Ok(list) = running.lock()
            && !list.is_empty()
        {
            let now: Vec<String> = list
                .iter()
                .map(|(name, since)| format!("{name} ({} min)", since.elapsed().as_secs() / 60))
                .collect();
            eprintln!("setup: still installing: {}", now.join(", "));
        }
    }
}

fn apt(packages: &[&str], log: &Path) -> Result {
    logged(cmd("apt-get").args(["update", "-qq"]), log)?;
    logged(
        cmd("apt-get")
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
        &log.with_extension("install.log"),
    )
}

fn npm_tools_present() -> bool {
    let tests = root().join("tests");
    [
        "wasm-opt", "esbuild", "vite", "webpack", "rollup", "bun", "deno", "workerd", "publint",
        "attw",
    ]
    .iter()
    .all(|tool| tests.join("node_modules/.bin").join(tool).exists())
        && tests.join("node_modules/playwright-core").exists()
        && installed_as_locked(&tests)
}

/// Whether `tests/node_modules` holds what `tests/package-lock.json` pins:
/// every package of the lock at its version (optional ones, the other
/// platforms' binaries, may be absent), read from npm's own record of the
/// tree (`node_modules/.package-lock.json`). By content, not by the files'
/// times: a fresh checkout's lock file is newer than any install, and a
/// worktree whose `node_modules` links to another checkout's would have
/// reinstalled into that one, emptying it meanwhile (session 23).
fn installed_as_locked(tests: &Path) -> bool {
    const SAME: &str = "const fs = require('fs');\
        const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8')).packages;\
        const [lock, tree] = [read('package-lock.json'), read('node_modules/.package-lock.json')];\
        const ok = Object.entries(lock).every(([path, p]) =>\
          path === '' || (tree[path] ? tree[path].version === p.version : p.optional === true));\
        process.exit(ok ? 0 : 1);";
    cmd("node")
        .args(["-e", SAME])
        .current_dir(tests)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// wasm-bindgen-cli at the version of Cargo.lock, with the lock file in
/// xtask/locks: the one the crate ships names a webpki-roots release the
/// registry does not serve, so ours is the same lock with that one crate a
/// patch release back (`cargo update -p webpki-roots --precise 1.0.10`).
pub fn wasm_bindgen_tool(version: &str) -> ToolCrate {
    ToolCrate {
        name: "wasm-bindgen-cli",
        version: version.to_owned(),
        lock: Some(root().join(format!("xtask/locks/wasm-bindgen-cli-{version}.lock"))),
    }
}

pub fn trunk_tool() -> ToolCrate {
    ToolCrate {
        name: "trunk",
        version: TRUNK_VERSION.to_owned(),
        lock: None,
    }
}

pub fn wasm_split_tool() -> ToolCrate {
    ToolCrate {
        name: "wasm_split_cli_support",
        version: WASM_SPLIT_VERSION.to_owned(),
        lock: None,
    }
}

/// Every tool setup compiles, for the `fresh-path` step.
pub fn compiled_tools() -> Result<Vec<ToolCrate>> {
    Ok(vec![
        wasm_bindgen_tool(&wasm_bindgen_version()?),
        trunk_tool(),
        wasm_split_tool(),
    ])
}

/// `cargo install --locked --path` of the tool's prepared source
/// (`tool_source::prepare`: its own workspace, our lock where we keep one).
fn install_from_source(tool: &ToolCrate, flags: &[&str], build_dir: &str, log: &Path) -> Result {
    if let Some(lock) = &tool.lock
        && !lock.exists()
    {
        return Err(format!(
            "{} is missing: make it for {} {} (see wasm_bindgen_tool)",
            lock.display(),
            tool.name,
            tool.version
        ));
    }
    let copy = tool_source::prepare(tool, &target_dir().join("tool-src"))?;
    logged(
        cmd("cargo")
            .args(["install", "--locked", "--path"])
            .arg(&copy)
            .args(flags)
            .arg("--target-dir")
            .arg(tool_build_dir(build_dir)),
        log,
    )
}

pub fn run() -> Result {
    run_setup()
}
