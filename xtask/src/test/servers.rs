//! The steps that start servers of their own for what they drive: the wasm
//! tests (Node and Chromium), the demo's components, the attack examples
//! and the demo end to end.

use super::TEST_KEY;
use super::package_checks::{Files, node_tests};
use super::rust_checks::REQUIRE_REDIS;
use crate::server::{Profile, Server};
use crate::util::{Result, cmd, exec, root};
use crate::web_build;

/// The servers of the JS library's wasm tests (crates/wasm/tests): `main`
/// with 10 000 markets (`--scale 2`), a failing sports platform and keys
/// with low per-key limits, one set per runner since both runs share the
/// server within a minute; `flaky` adds latency and injected 429/5xx.
pub(super) struct LibServers {
    main: Server,
    flaky: Server,
}

impl LibServers {
    /// `renamed`: the servers rename every platform and league id
    /// (`--rename-ids`).
    pub(super) fn start(renamed: bool) -> Result<LibServers> {
        let unlimited = format!("{TEST_KEY}:unlimited");
        let rename: &[&str] = if renamed { &["--rename-ids"] } else { &[] };
        let mut args = vec![
            "--api-key",
            &unlimited,
            "--scale",
            "2",
            "--fail-platform",
            "platform_h",
            "-q",
        ];
        for key in [
            "pm_low_node:3",
            "pm_low_browser:3",
            "pm_tiny_node:1",
            "pm_tiny_browser:1",
            "pm_once_node:1",
            "pm_once_browser:1",
            "pm_pair_node:1",
            "pm_pair_browser:1",
        ] {
            args.extend(["--api-key", key]);
        }
        args.extend(rename);
        let main = Server::start(Profile::Debug, "127.0.0.1:0", &args)?;
        let mut flaky_args = vec![
            "--api-key",
            &unlimited,
            "--latency-ms",
            "200",
            "--fault-5xx",
            "0.3",
            "--fault-429",
            "0.2",
            "-q",
        ];
        flaky_args.extend(rename);
        let flaky = Server::start(Profile::Debug, "127.0.0.1:0", &flaky_args)?;
        Ok(LibServers { main, flaky })
    }
}

/// The wasm-bindgen test runner's Chromium options (headless, no network
/// beyond loopback) live in crates/wasm/webdriver.json.
pub(super) fn wasm_tests(test: &str, servers: &Result<LibServers>, browser: bool) -> Result {
    let servers = servers.as_ref().map_err(String::clone)?;
    let mut command = cmd("cargo");
    command
        .args([
            "test",
            "-p",
            "predmarket-wasm",
            "--target",
            "wasm32-unknown-unknown",
            "--test",
            test,
        ])
        .env("PREDMARKET_TEST_URL", &servers.main.url)
        .env("PREDMARKET_TEST_FLAKY_URL", &servers.flaky.url)
        .env("PREDMARKET_TEST_KEY", TEST_KEY)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "300");
    if browser {
        command.env("CHROMEDRIVER", "/usr/bin/chromedriver").env(
            "WASM_BINDGEN_TEST_WEBDRIVER_JSON",
            root().join("crates/wasm/webdriver.json"),
        );
    }
    exec(&mut command)
}

/// The demo's component tests (web/tests/), in headless Chromium with the
/// demo's own webdriver.json; the server-backed ones use the test server.
pub(super) fn web_tests(server_url: &str) -> Result {
    exec(
        cmd("cargo")
            .args([
                "test",
                "-p",
                "predmarket-web",
                "--target",
                "wasm32-unknown-unknown",
                "--no-fail-fast",
            ])
            .env("PREDMARKET_TEST_URL", server_url)
            .env("PREDMARKET_TEST_KEY", TEST_KEY)
            .env("WASM_BINDGEN_TEST_TIMEOUT", "180")
            .env("CHROMEDRIVER", "/usr/bin/chromedriver")
            .env(
                "WASM_BINDGEN_TEST_WEBDRIVER_JSON",
                root().join("web/webdriver.json"),
            ),
    )
}

/// The attack examples against the debug server. `attack`: no 5xx but
/// shedding, the good client never refused, sockets closed within the
/// timeouts, SIGTERM exit. `attack_proxy`: proxies started from the same
/// binary in front of a logging fake upstream (what the upstream saw, the
/// good visitors' misses served, the circuit, slow readers, public-mode
/// buckets and budget, Redis stopped). `attack_stream`: the ways one
/// client could spoil `/stream` for everyone, each beside a good viewer that must get its
/// snapshot and changes. Rules, never latency (release figures:
/// docs/benchmarks.md, "Hostile traffic").
pub(super) fn attack() -> Result {
    exec(cmd("cargo").args([
        "build",
        "-p",
        "predmarket-server",
        "--bin",
        "predmarket-server",
        "--example",
        "attack",
        "--example",
        "attack_proxy",
        "--example",
        "attack_stream",
    ]))?;
    let dir = crate::util::target_dir().join("debug");
    let server = dir.join("predmarket-server");
    exec(cmd(&dir.join("examples/attack").to_string_lossy()).args([
        "--server",
        &server.to_string_lossy(),
        "--seconds",
        "20",
        "--heavy",
        "8",
        "--slowloris",
        "200",
        "--idle",
        "300",
        "--header-read-timeout",
        "2",
        "--idle-timeout",
        "3",
        // Ceilings, not latency: a socket must close and the server must
        // exit, however busy the machine is (CI shares it).
        "--slack",
        "60",
        "--exit-within",
        "60",
        "--check",
    ]))?;
    exec(
        cmd(&dir.join("examples/attack_proxy").to_string_lossy())
            .args([
                "--server",
                &server.to_string_lossy(),
                "--seconds",
                "12",
                "--check",
            ])
            .env(REQUIRE_REDIS, "1"),
    )?;
    // Each way one client could spoil `/stream`, beside a good viewer
    // (its Redis scenarios on a real redis-server: required here).
    exec(
        cmd(&dir.join("examples/attack_stream").to_string_lossy())
            .args(["--server", &server.to_string_lossy(), "--check"])
            .env(REQUIRE_REDIS, "1"),
    )
}

/// The debug server's binary, for the tests that start servers of their own.
pub(super) fn server_bin() -> String {
    crate::util::target_dir()
        .join("debug/predmarket-server")
        .to_string_lossy()
        .into_owned()
}

/// The demo built by Trunk, served by the debug server (plus a
/// hostile-data server and an always-429 one), driven by Playwright.
pub(super) fn e2e() -> Result {
    let dist = web_build::web()?.to_string_lossy().into_owned();
    // The suite makes a few hundred calls in a couple of minutes: a 429
    // would be a console error, so the demo key gets room.
    let demo = Server::start(
        Profile::Debug,
        "127.0.0.1:0",
        &["--web", &dist, "--rate-limit", "100000"],
    )?;
    let hostile = Server::start(
        Profile::Debug,
        "127.0.0.1:0",
        &[
            "--web",
            &dist,
            "--rate-limit",
            "100000",
            "--hostile",
            "--fail-platform",
            "platform_g",
        ],
    )?;
    let fault = Server::start(
        Profile::Debug,
        "127.0.0.1:0",
        &["--fault-429", "1", "--quiet"],
    )?;
    let artifacts = root().join("tests/artifacts");
    let artifacts = artifacts.to_string_lossy().into_owned();
    // live.test.mjs starts its own server on the default limit (100 a
    // minute) and counts the 429s in its access log.
    let server_bin = server_bin();
    node_tests(
        "e2e",
        &[
            ("PREDMARKET_SERVER_BIN", &server_bin),
            ("PREDMARKET_DIST", &dist),
            ("PREDMARKET_DEMO_URL", &format!("{}/app/", demo.url)),
            ("PREDMARKET_HOSTILE_URL", &format!("{}/app/", hostile.url)),
            ("PREDMARKET_FAULT_URL", &fault.url),
            ("PREDMARKET_ARTIFACTS", &artifacts),
        ],
        None,
        Files::OneAtATime,
    )
}
