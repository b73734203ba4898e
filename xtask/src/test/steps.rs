//! The steps of `cargo xtask test`, in the order of a full run: what each
//! group runs and with which servers and keys.

use super::package_checks::{Files, node_tests, package_lint, types_check};
use super::rust_checks::{REQUIRE_REDIS, SPEC_SUITES, clippy, doc_check, fmt_check};
use super::servers::{LibServers, attack, e2e, server_bin, wasm_tests, web_tests};
use super::{NODE_KEY, Step, TEST_KEY, TWELVE_KEY, without_limit};
use crate::server::{Profile, Server};
use crate::setup;
use crate::util::{cmd, exec, on_path, root};
use crate::{build, web_build};

/// Every step, in the order of a full run. Later steps reuse what earlier
/// ones built (the server, the npm package, the demo), so `--only` of a
/// late group builds what it needs itself.
pub(super) const STEPS: &[Step] = &[
    Step {
        group: "fmt",
        name: "cargo fmt --check",
        quick: true,
        run: |_| fmt_check(),
    },
    Step {
        group: "tidy",
        name: "tidy: module docs, the paths and symbols the docs name exist where they say, no hand-typed sizes, docs' code runs or says why not, no timing assertions, no citations outside the repository",
        quick: true,
        run: |_| crate::tidy::run(),
    },
    Step {
        // CI keeps its tools and build folder between runs, so its setup
        // compiles nothing: this step runs what a fresh machine's setup
        // does before compiling, in the clone's default target folder.
        group: "fresh-path",
        name: "fresh path: each compiled tool's source fetched and prepared inside the clone, resolving with its lock",
        quick: false,
        run: |_| crate::tool_source::check_fresh_path(&setup::compiled_tools()?),
    },
    Step {
        group: "clippy",
        name: "cargo clippy -D warnings (native; wasm32 for the wasm crates)",
        quick: false,
        run: |_| clippy(true),
    },
    Step {
        group: "clippy-native",
        name: "cargo clippy -D warnings (native crates)",
        quick: true,
        run: |_| clippy(false),
    },
    Step {
        group: "doc",
        name: "cargo doc, warnings denied",
        quick: false,
        run: |_| doc_check(),
    },
    Step {
        group: "core",
        name: "native: core and client tests (sans-IO core, client on a fake transport and loopback)",
        quick: true,
        run: |_| {
            exec(cmd("cargo").args([
                "test",
                "-p",
                "predmarket-core",
                "-p",
                "predmarket-client",
                "--no-fail-fast",
            ]))
        },
    },
    Step {
        group: "native",
        name: "native: cargo test of the server (and its proxy mode over loopback with a real redis-server) and xtask",
        quick: false,
        run: |_| {
            // Without it the server's build marks its Redis tests ignored
            // (crates/server/build.rs): here that is a failure.
            if !on_path("redis-server") {
                return Err(
                    "redis-server is not installed, so the Redis tests would be ignored: \
                     `cargo xtask setup` installs it"
                        .into(),
                );
            }
            exec(
                cmd("cargo")
                    .args([
                        "test",
                        "--workspace",
                        "--exclude",
                        "predmarket-web",
                        "--exclude",
                        "predmarket-core",
                        "--exclude",
                        "predmarket-client",
                        "--no-fail-fast",
                    ])
                    // `setup` installs redis-server: here its tests fail
                    // rather than skip when it is missing.
                    .env(REQUIRE_REDIS, "1"),
            )
        },
    },
    Step {
        group: "proxy-spec",
        name: "native: the server's spec suites again, through a proxy (--upstream) in front of it",
        quick: false,
        run: |_| {
            let mut command = cmd("cargo");
            command.args(["test", "-p", "predmarket-server", "--no-fail-fast"]);
            for suite in SPEC_SUITES {
                command.args(["--test", suite]);
            }
            exec(command.env("PREDMARKET_TEST_THROUGH_PROXY", "1"))
        },
    },
    Step {
        group: "server",
        name: "build: predmarket-server",
        quick: false,
        run: |run| run.api().map(drop),
    },
    Step {
        group: "wasm-node",
        name: "wasm in Node (wasm-bindgen-test)",
        quick: false,
        run: |run| {
            run.api()?;
            wasm_tests("node", &LibServers::start(false), false)
        },
    },
    Step {
        // The browser run meets renamed ids: the same suite passing against
        // both namings shows it takes ids from the server.
        group: "wasm-browser",
        name: "wasm in headless Chromium, cross-origin, server with renamed ids (wasm-bindgen-test)",
        quick: false,
        run: |run| {
            run.api()?;
            wasm_tests("browser", &LibServers::start(true), true)
        },
    },
    Step {
        group: "web-components",
        name: "demo components in headless Chromium (wasm-bindgen-test)",
        quick: false,
        run: |run| {
            let url = run.api()?;
            web_tests(&url)
        },
    },
    Step {
        group: "npm",
        name: "npm package imported as a user would (node --test)",
        quick: false,
        run: |run| {
            let url = run.api()?;
            let package = build::npm()?.to_string_lossy().into_owned();
            node_tests(
                "node",
                &[
                    ("PREDMARKET_PACKAGE", &package),
                    ("PREDMARKET_URL", &url),
                    ("PREDMARKET_KEY", without_limit(NODE_KEY)),
                    ("PREDMARKET_TWELVE_KEY", without_limit(TWELVE_KEY)),
                    // stream.test.mjs starts a proxy-mode server of its own.
                    ("PREDMARKET_SERVER_BIN", &server_bin()),
                ],
                None,
                Files::ThreeAtOnce,
            )
        },
    },
    Step {
        group: "types",
        name: "TypeScript declarations of the package (tsc --noEmit)",
        quick: false,
        run: |_| types_check(),
    },
    Step {
        // Proof that nothing depends on the spec's labels: the same package
        // suite against a server whose every platform and league id is
        // renamed (the suite reads ids from /platforms and /league-info).
        group: "npm-renamed",
        name: "npm package against a server with renamed ids (node --test)",
        quick: false,
        run: |run| {
            run.build_server()?;
            let package = build::npm()?.to_string_lossy().into_owned();
            let server = Server::start(
                Profile::Debug,
                "127.0.0.1:0",
                &[
                    "--api-key",
                    TEST_KEY,
                    "--api-key",
                    NODE_KEY,
                    "--api-key",
                    TWELVE_KEY,
                    "--rename-ids",
                    "--stream-interval-scale",
                    "0.1",
                    "-q",
                ],
            )?;
            node_tests(
                "node",
                &[
                    ("PREDMARKET_PACKAGE", &package),
                    ("PREDMARKET_URL", &server.url),
                    ("PREDMARKET_KEY", without_limit(NODE_KEY)),
                    ("PREDMARKET_TWELVE_KEY", without_limit(TWELVE_KEY)),
                    ("PREDMARKET_SERVER_BIN", &server_bin()),
                    ("PREDMARKET_RENAMED_IDS", "1"),
                ],
                None,
                Files::ThreeAtOnce,
            )
        },
    },
    Step {
        group: "lint",
        name: "npm package lint (size, publint, @arethetypeswrong/cli)",
        quick: false,
        run: |_| package_lint(),
    },
    Step {
        group: "consumers",
        name: "npm package in every runtime and bundler (tests/consumers, node --test)",
        quick: false,
        run: |run| {
            run.build_server()?;
            let package = build::npm()?.to_string_lossy().into_owned();
            // Its own server and an unlimited key: ~15 apps share it within
            // a minute, and the service's 100 a minute is not under test.
            let key = "pm_consumers";
            let server = Server::start(
                Profile::Debug,
                "127.0.0.1:0",
                &["--api-key", &format!("{key}:unlimited"), "-q"],
            )?;
            node_tests(
                "consumers",
                &[
                    ("PREDMARKET_PACKAGE", &package),
                    ("PREDMARKET_URL", &server.url),
                    ("PREDMARKET_KEY", key),
                ],
                None,
                Files::OneAtATime,
            )
        },
    },
    Step {
        group: "schemathesis",
        name: "server against its own OpenAPI document (schemathesis, no 5xx)",
        quick: false,
        run: |run| {
            run.build_server()?;
            // An unlimited key: schemathesis sends thousands of requests.
            let key = "pm_schemathesis";
            let server = Server::start(
                Profile::Debug,
                "127.0.0.1:0",
                &["--api-key", &format!("{key}:unlimited"), "-q"],
            )?;
            exec(
                cmd("bash")
                    .arg("crates/server/schemathesis.sh")
                    .arg(&server.url)
                    .arg(key),
            )
        },
    },
    Step {
        group: "archive",
        name: "the recorder's archive read with DuckDB and pyarrow (PyPI venv), the queries of docs/record.md run, parts written to moto's S3 server",
        quick: false,
        run: |_| exec(cmd("bash").arg("crates/server/archive_query.sh")),
    },
    Step {
        group: "attack",
        name: "server and proxy under attack (worst-case searches, slowloris, idle sockets, odd requests; \
               traversal, breaker abuse, slow readers, public-mode starvation, Redis stopped; \
               /stream: starvation, open churn, cross-site opens, breaker, log forging, memory, poisoning, the recorder's quota, Redis connections, forged and slow Redis, an event over Redis' cap, behind a trusted balancer; loopback)",
        quick: false,
        run: |_| attack(),
    },
    Step {
        group: "e2e",
        name: "demo end to end in Chromium (Playwright, node --test)",
        quick: false,
        run: |run| {
            run.build_server()?;
            e2e()
        },
    },
    Step {
        group: "e2e-renamed",
        name: "demo end to end against a server with renamed ids (Playwright, the tests that use ids)",
        quick: false,
        run: |run| {
            run.build_server()?;
            let dist = web_build::web()?.to_string_lossy().into_owned();
            let demo = Server::start(
                Profile::Debug,
                "127.0.0.1:0",
                &[
                    "--web",
                    &dist,
                    "--rate-limit",
                    "100000",
                    "--rename-ids",
                    "-q",
                ],
            )?;
            let artifacts = root().join("tests/artifacts/renamed");
            let artifacts = artifacts.to_string_lossy().into_owned();
            node_tests(
                "e2e",
                &[
                    ("PREDMARKET_DEMO_URL", &format!("{}/app/", demo.url)),
                    ("PREDMARKET_ARTIFACTS", &artifacts),
                ],
                // Every test that uses a platform or league id, to keep the
                // second run short.
                Some("filters|a market|sports|theme"),
                Files::OneAtATime,
            )
        },
    },
];
