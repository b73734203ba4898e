//! `cargo xtask test`: every test of the project, each runner's summary
//! printed, going on after a failure and failing at the end if any did.

use crate::build;
use crate::server::{self, Profile, Server};
use crate::setup;
use crate::util::{Result, cmd, root, exec};
use std::time::Instant;

/// The key the test servers accept.
const TEST_KEY: &str = "pm_test_key";

struct Outcome {
    name: &'static str,
    result: Result,
    seconds: f64,
}

fn step(outcomes: &mut Vec<Outcome>, name: &'static str, f: impl FnOnce() -> Result) {
    eprintln!("\n=== {name} ===");
    let started = Instant::now();
    let result = f();
    if let Err(e) = &result {
        eprintln!("=== {name}: FAILED: {e}");
    }
    outcomes.push(Outcome { name, result, seconds: started.elapsed().as_secs_f64() });
}

/// The wasm-bindgen test runner's Chromium options (headless, no network
/// beyond loopback) live in crates/wasm/webdriver.json.
fn wasm_tests(test: &str, server_url: &str, browser: bool) -> Result {
    let mut command = cmd("cargo");
    command
        .args(["test", "-p", "predmarket-wasm", "--target", "wasm32-unknown-unknown", "--test", test])
        .env("PREDMARKET_TEST_URL", server_url)
        .env("PREDMARKET_TEST_KEY", TEST_KEY)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "180");
    if browser {
        command
            .env("CHROMEDRIVER", "/usr/bin/chromedriver")
            .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", root().join("crates/wasm/webdriver.json"));
    }
    exec(&mut command)
}

fn node_tests(dir: &str, env: &[(&str, &str)]) -> Result {
    let mut command = cmd("node");
    command.args(["--test", "--test-reporter=spec"]).current_dir(root().join("tests").join(dir));
    for (k, v) in env {
        command.env(k, v);
    }
    exec(&mut command)
}

pub fn run(args: &[String]) -> Result {
    if let Some(unknown) = args.first() {
        return Err(format!("unknown option `{unknown}` (test takes none)"));
    }
    let started = Instant::now();
    setup::run_setup()?;
    let mut outcomes = Vec::new();

    step(&mut outcomes, "native: cargo test (core, client, server over loopback, xtask)", || {
        exec(cmd("cargo").args(["test", "--workspace", "--exclude", "predmarket-web", "--no-fail-fast"]))
    });

    step(&mut outcomes, "build: predmarket-server", || server::build(Profile::Debug));
    let api = Server::start(Profile::Debug, "127.0.0.1:0", &["--api-key", TEST_KEY]);
    match &api {
        Ok(api) => {
            let url = api.url.clone();
            step(&mut outcomes, "wasm in Node (wasm-bindgen-test)", || wasm_tests("node", &url, false));
            step(&mut outcomes, "wasm in headless Chromium, cross-origin (wasm-bindgen-test)", || {
                wasm_tests("browser", &url, true)
            });
            step(&mut outcomes, "npm package imported as a user would (node --test)", || {
                let package = build::npm()?;
                let package = package.to_string_lossy().into_owned();
                node_tests("node", &[("PREDMARKET_PACKAGE", &package), ("PREDMARKET_URL", &url), ("PREDMARKET_KEY", TEST_KEY)])
            });
        }
        Err(e) => outcomes.push(Outcome { name: "start predmarket-server", result: Err(e.clone()), seconds: 0.0 }),
    }
    drop(api);

    step(&mut outcomes, "demo end to end in Chromium (Playwright, node --test)", || {
        let dist = build::web()?;
        let dist = dist.to_string_lossy().into_owned();
        // The suite makes a few hundred calls in a couple of minutes: a
        // 429 would be a console error, so the demo key gets room.
        let demo = Server::start(Profile::Debug, "127.0.0.1:0", &["--web", &dist, "--rate-limit", "100000"])?;
        let hostile = Server::start(
            Profile::Debug,
            "127.0.0.1:0",
            &["--web", &dist, "--rate-limit", "100000", "--hostile", "--fail-platform", "platform_g"],
        )?;
        let fault = Server::start(Profile::Debug, "127.0.0.1:0", &["--fault-429", "1", "--quiet"])?;
        let artifacts = root().join("tests/artifacts");
        let artifacts = artifacts.to_string_lossy().into_owned();
        node_tests(
            "e2e",
            &[
                ("PREDMARKET_DEMO_URL", &format!("{}/app/", demo.url)),
                ("PREDMARKET_HOSTILE_URL", &format!("{}/app/", hostile.url)),
                ("PREDMARKET_FAULT_URL", &fault.url),
                ("PREDMARKET_ARTIFACTS", &artifacts),
            ],
        )
    });

    eprintln!("\n=== summary ({:.0} s) ===", started.elapsed().as_secs_f64());
    let mut failed = 0;
    for outcome in &outcomes {
        let verdict = if outcome.result.is_ok() { "ok  " } else { "FAIL" };
        eprintln!("{verdict} {:>6.1} s  {}", outcome.seconds, outcome.name);
        failed += usize::from(outcome.result.is_err());
    }
    let passed = outcomes.len() - failed;
    println!("xtask: {passed} passed, {failed} failed");
    if failed == 0 { Ok(()) } else { Err(format!("{failed} of {} steps failed", outcomes.len())) }
}
