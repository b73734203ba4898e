//! `cargo xtask setup`: installs what a fresh machine lacks, checking first
//! so a second run takes seconds. Versions are pinned to what the project
//! was measured with (see docs/ci.md and ../shared/toolchain.md).

use crate::build;
use crate::util::{Result, cmd, exec, on_path, output, root};
use std::time::Instant;

const TRUNK_VERSION: &str = "0.21.14";
/// Splits the demo's wasm at its `#[wasm_split]` points (web/src/split.rs);
/// the version that matches Leptos 0.8's `wasm_split_helpers` 0.2.
const WASM_SPLIT_VERSION: &str = "0.2.4";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The wasm-bindgen version in Cargo.lock: the CLI must match it exactly.
pub fn wasm_bindgen_version() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("Cargo.lock: {e}"))?;
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

fn step(name: &str, check: impl FnOnce() -> bool, install: impl FnOnce() -> Result) -> Result {
    let started = Instant::now();
    if check() {
        eprintln!("setup: {name}: present");
        return Ok(());
    }
    eprintln!("setup: {name}: installing");
    install()?;
    eprintln!(
        "setup: {name}: installed in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub fn run_setup() -> Result {
    let started = Instant::now();

    step(
        "wasm32-unknown-unknown target",
        || {
            output(cmd("rustup").args(["target", "list", "--installed"]))
                .is_some_and(|t| t.lines().any(|l| l == "wasm32-unknown-unknown"))
        },
        || exec(cmd("rustup").args(["target", "add", "wasm32-unknown-unknown"])),
    )?;

    step(
        "the npm package's toolchain (a pinned nightly with rust-src, for build-std)",
        || {
            output(
                cmd("rustup")
                    .args(["component", "list", "--installed", "--toolchain"])
                    .arg(build::NPM_TOOLCHAIN),
            )
            .is_some_and(|c| c.lines().any(|l| l.starts_with("rust-src")))
        },
        || {
            exec(
                cmd("rustup")
                    .args(["toolchain", "install"])
                    .arg(build::NPM_TOOLCHAIN)
                    .args(["--profile", "minimal", "--component", "rust-src"]),
            )
        },
    )?;

    step(
        "chromium and chromedriver (Debian)",
        || on_path("chromium") && std::path::Path::new(CHROMEDRIVER).exists(),
        || {
            exec(cmd("apt-get").args(["update", "-qq"]))?;
            exec(
                cmd("apt-get")
                    .args(["install", "-y", "-qq", "chromium", "chromium-driver"])
                    .env("DEBIAN_FRONTEND", "noninteractive"),
            )
        },
    )?;

    // The proxy's Redis test (two replicas, one budget) starts its own
    // redis-server on a free loopback port; the service stays off.
    step(
        "redis-server (Debian)",
        || on_path("redis-server"),
        || {
            exec(cmd("apt-get").args(["update", "-qq"]))?;
            exec(
                cmd("apt-get")
                    .args([
                        "install",
                        "-y",
                        "-qq",
                        "--no-install-recommends",
                        "redis-server",
                    ])
                    .env("DEBIAN_FRONTEND", "noninteractive"),
            )
        },
    )?;

    let wbg = wasm_bindgen_version()?;
    step(
        &format!("wasm-bindgen-cli {wbg}"),
        || output(cmd("wasm-bindgen").arg("--version")).is_some_and(|v| v.ends_with(&wbg)),
        // No --locked: its lockfile wants a crate version the registry lacks.
        || exec(cmd("cargo").args(["install", "wasm-bindgen-cli", "--version", &wbg])),
    )?;

    step(
        &format!("trunk {TRUNK_VERSION}"),
        || output(cmd("trunk").arg("--version")).is_some_and(|v| v.ends_with(TRUNK_VERSION)),
        || exec(cmd("cargo").args(["install", "trunk", "--version", TRUNK_VERSION, "--locked"])),
    )?;

    step(
        &format!("wasm-split-cli {WASM_SPLIT_VERSION}"),
        || {
            output(cmd("cargo").args(["install", "--list"])).is_some_and(|list| {
                list.contains(&format!("wasm_split_cli_support v{WASM_SPLIT_VERSION}:"))
            }) && on_path("wasm-split-cli")
        },
        || {
            exec(cmd("cargo").args([
                "install",
                "wasm_split_cli_support",
                "--version",
                WASM_SPLIT_VERSION,
                "--features",
                "build-binary",
                "--locked",
            ]))
        },
    )?;

    let tests = root().join("tests");
    step(
        "npm dev dependencies (binaryen 132, playwright-core, typescript; the consumer tests' vite, webpack, esbuild, rollup, bun, deno, workerd; publint, attw)",
        || {
            let stamp = tests.join("node_modules/.package-lock.json");
            let lock = tests.join("package-lock.json");
            let newer = |a: &std::path::Path, b: &std::path::Path| match (
                a.metadata().and_then(|m| m.modified()),
                b.metadata().and_then(|m| m.modified()),
            ) {
                (Ok(a), Ok(b)) => a >= b,
                _ => false,
            };
            [
                "wasm-opt", "esbuild", "vite", "webpack", "rollup", "bun", "deno", "workerd",
                "publint", "attw",
            ]
            .iter()
            .all(|tool| tests.join("node_modules/.bin").join(tool).exists())
                && tests.join("node_modules/playwright-core").exists()
                && newer(&stamp, &lock)
        },
        || {
            // `npm install`, not `npm ci`: npm 11 writes a lock without the
            // other platforms' optional packages of rollup, deno and workerd
            // and then refuses it in `npm ci` ("Missing: @rollup/rollup-darwin-x64
            // from lock file"). Every tool is pinned exactly in package.json
            // and the lock pins the rest, so the installed set is the same.
            exec(
                cmd("npm")
                    .args(["install", "--no-audit", "--no-fund"])
                    .current_dir(&tests),
            )
        },
    )?;

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

pub fn run() -> Result {
    run_setup()
}
