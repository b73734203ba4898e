//! `cargo xtask test`: every test of the project, each runner's summary
//! printed, going on after a failure and failing at the end if any did.

use crate::bundles;
use crate::server::{self, Profile, Server};
use crate::setup;
use crate::size;
use crate::util::{Result, cmd, exec, on_path, root};
use crate::{build, web_build};
use std::time::Instant;

/// The key the test servers accept.
const TEST_KEY: &str = "pm_test_key";
/// The node suites' key, unlimited: their files run side by side and spend
/// more than 100 a minute together, and a 429 there would test the suites'
/// sum, not their subject (the 429 path is tested with keys of its own:
/// `TWELVE_KEY`, the wasm tests' low keys, tests/node/hostile-server).
const NODE_KEY: &str = "pm_node_key:unlimited";
/// A key of 12 a minute that one node test spends alone: a client held to
/// that budget must never be answered 429.
const TWELVE_KEY: &str = "pm_twelve_key:12";

struct Outcome {
    name: &'static str,
    result: Result,
    seconds: f64,
}

/// One step of the run: `group` is the name `--only` takes; `quick`
/// steps make `--quick`, the loop to run before every commit.
struct Step {
    group: &'static str,
    name: &'static str,
    quick: bool,
    run: fn(&mut Run) -> Result,
}

/// Every step, in the order of a full run. Later steps reuse what earlier
/// ones built (the server, the npm package, the demo), so `--only` of a
/// late group builds what it needs itself.
const STEPS: &[Step] = &[
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

/// What the steps of one run share: the debug server, built once, and the
/// plain test server most steps talk to, started on first use.
#[derive(Default)]
struct Run {
    built: Option<Result>,
    api: Option<std::result::Result<Server, String>>,
}

impl Run {
    fn build_server(&mut self) -> Result {
        self.built
            .get_or_insert_with(|| server::build(Profile::Debug))
            .clone()
    }

    /// The URL of the plain test server (key [`TEST_KEY`]). Its stream
    /// pollers ask ten times as often as a real server's, so a watch
    /// through `/stream` sees a book's change (every 5 s) within one.
    fn api(&mut self) -> Result<String> {
        self.build_server()?;
        let api = self.api.get_or_insert_with(|| {
            Server::start(
                Profile::Debug,
                "127.0.0.1:0",
                &[
                    "--api-key",
                    TEST_KEY,
                    "--api-key",
                    NODE_KEY,
                    "--api-key",
                    TWELVE_KEY,
                    "--stream-interval-scale",
                    "0.1",
                ],
            )
        });
        api.as_ref().map(|s| s.url.clone()).map_err(String::clone)
    }
}

/// The servers of the JS library's wasm tests (crates/wasm/tests): `main`
/// with 10 000 markets (`--scale 2`), a failing sports platform and keys
/// with low per-key limits, one set per runner since both runs share the
/// server within a minute; `flaky` adds latency and injected 429/5xx.
struct LibServers {
    main: Server,
    flaky: Server,
}

impl LibServers {
    /// `renamed`: the servers rename every platform and league id
    /// (`--rename-ids`).
    fn start(renamed: bool) -> Result<LibServers> {
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
fn wasm_tests(test: &str, servers: &Result<LibServers>, browser: bool) -> Result {
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

/// `tsc --noEmit` on tests/types/usage.ts (and fixtures.ts: the
/// fixtures of tests/fixtures/public) against the built package,
/// resolved through its exports map as a bundler (web build) and as Node
/// (nodejs build) would.
fn types_check() -> Result {
    let package = build::npm()?;
    let types = root().join("tests/types");
    let modules = types.join("node_modules");
    std::fs::create_dir_all(&modules).map_err(|e| format!("{}: {e}", modules.display()))?;
    let link = modules.join("predmarket");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&package, &link).map_err(|e| format!("{}: {e}", link.display()))?;
    let tsc = root().join("tests/node_modules/.bin/tsc");
    // tsconfig.fixtures.json: the real-shaped fixtures against the types.
    for config in [
        "tsconfig.json",
        "tsconfig.node.json",
        "tsconfig.fixtures.json",
    ] {
        exec(
            cmd(&tsc.to_string_lossy())
                .args(["--noEmit", "-p", config])
                .current_dir(&types),
        )?;
    }
    js_types_check(&tsc, &types, &package)
}

/// The package's hand-written JS (crates/wasm/js/, `// @ts-check` with
/// JSDoc) checked by tsc against the glue's declarations as wasm-bindgen
/// wrote them: the entries, and through their imports every file they
/// load. The glue's declarations and the generated modules (`exports.js`,
/// and `wasm-inline.js` and `predmarket/math`'s modules by their
/// declarations) sit in a folder that `rootDirs` merges with
/// crates/wasm/js/, so the relative imports resolve as in the package.
fn js_types_check(
    tsc: &std::path::Path,
    types: &std::path::Path,
    package: &std::path::Path,
) -> Result {
    let generated = crate::util::target_dir().join("npm/js-types");
    let _ = std::fs::remove_dir_all(&generated);
    std::fs::create_dir_all(&generated).map_err(|e| format!("{}: {e}", generated.display()))?;
    let glue = build::glue_types_file();
    // `predmarket/math`'s modules (`math.js`, `math-edge.js`) are
    // generated wrappers: the entries see them through the package's
    // math.d.ts, whose model types come from the package's index.d.ts.
    let copies = [
        (glue, generated.join("predmarket.d.ts")),
        (package.join("exports.js"), generated.join("exports.js")),
        (package.join("math.d.ts"), generated.join("math.d.ts")),
        (package.join("math.d.ts"), generated.join("math-edge.d.ts")),
        (package.join("index.d.ts"), generated.join("index.d.ts")),
        // The watch streams' glue (watch.js reads it through
        // watch-load.js).
        (
            crate::watch_entry::glue_types_file(),
            generated.join("watch_glue.d.ts"),
        ),
    ];
    for (from, to) in copies {
        std::fs::copy(&from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    // `wasm-inline.js` bundles fflate's decoder, which is not ours to
    // check: the entries see it through its one export's declaration.
    let inline = generated.join("wasm-inline.d.ts");
    std::fs::write(&inline, "export function wasmBytes(): Uint8Array;\n")
        .map_err(|e| format!("{}: {e}", inline.display()))?;
    // `watch-load.js` is generated (xtask/src/watch_entry.rs): its two
    // exports' declarations.
    let load = generated.join("watch-load.d.ts");
    std::fs::write(
        &load,
        "export function load(): typeof import(\"./watch_glue.js\");\nexport function useModule(module: WebAssembly.Module): void;\n",
    )
    .map_err(|e| format!("{}: {e}", load.display()))?;
    // `rootDirs` is a tsconfig option only: this one extends the checked-in
    // tests/types/tsconfig.js.json with the two folders' absolute paths.
    let config = generated.join("tsconfig.json");
    let json = |path: &std::path::Path| format!("{:?}", path.display().to_string());
    std::fs::write(
        &config,
        format!(
            "{{ \"extends\": {}, \"compilerOptions\": {{ \"rootDirs\": [{}, {}] }} }}\n",
            json(&types.join("tsconfig.js.json")),
            json(&build::js_dir()),
            json(&generated),
        ),
    )
    .map_err(|e| format!("{}: {e}", config.display()))?;
    exec(cmd(&tsc.to_string_lossy()).arg("-p").arg(&config))
}

/// The demo's component tests (web/tests/), in headless Chromium with the
/// demo's own webdriver.json; the server-backed ones use the test server.
fn web_tests(server_url: &str) -> Result {
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

/// publint and @arethetypeswrong/cli on the built package: both must
/// report nothing (attw packs it itself).
fn package_lint() -> Result {
    let package = build::npm()?;
    // The size target, held: a deterministic figure, so a check and not
    // a benchmark (`cargo xtask size` says where the bytes go).
    let (_, gzip) = size::sizes(&package.join(build::WASM))?;
    eprintln!("predmarket_bg.wasm: {gzip} B gzip -9");
    if gzip > size::LIMIT_GZIP_BYTES {
        return Err(format!(
            "predmarket_bg.wasm is {gzip} B gzip, over the {} B limit: see `cargo xtask size`",
            size::LIMIT_GZIP_BYTES
        ));
    }
    let (_, venues) = size::sizes(&package.join(build::VENUES_WASM))?;
    eprintln!("{}: {venues} B gzip -9", build::VENUES_WASM);
    if venues > size::VENUES_LIMIT_GZIP_BYTES {
        return Err(format!(
            "{} is {venues} B gzip, over the {} B limit",
            build::VENUES_WASM,
            size::VENUES_LIMIT_GZIP_BYTES
        ));
    }
    // What an app ships, held to each app's limit.
    let bundles = bundles::measure(&package)?;
    for bundle in &bundles {
        eprintln!("the `{}` app: {} B gzip -9", bundle.app.id, bundle.gzip);
    }
    bundles::check(&bundles)?;
    let bin = root().join("tests/node_modules/.bin");
    exec(
        cmd(&bin.join("publint").to_string_lossy())
            .args(["run", "--strict"])
            .arg(&package),
    )?;
    // `predmarket/wasm` is the .wasm file itself (for edge set-ups that
    // want it), not a module with types: nothing for attw to check.
    exec(
        cmd(&bin.join("attw").to_string_lossy())
            // The folder first: `--exclude-entrypoints` takes every
            // argument after it.
            .arg(&package)
            .args([
                "--pack",
                "--format",
                "table-flipped",
                "--exclude-entrypoints",
                "./wasm",
            ]),
    )
}

/// `cargo fmt --check` over the workspace.
fn fmt_check() -> Result {
    exec(cmd("cargo").args(["fmt", "--all", "--check"]))
}

/// clippy with warnings as errors: natively for every crate but the demo
/// (a wasm-only app), then the two wasm crates for their own target, where
/// their `cfg(target_arch = "wasm32")` code lives. The workspace lints of
/// the root Cargo.toml apply to all.
fn clippy(wasm: bool) -> Result {
    exec(cmd("cargo").args([
        "clippy",
        "--workspace",
        "--exclude",
        "predmarket-web",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    if !wasm {
        return Ok(());
    }
    exec(cmd("cargo").args([
        "clippy",
        "-p",
        "predmarket-wasm",
        "-p",
        "predmarket-js-values",
        "-p",
        "predmarket-math",
        "-p",
        "predmarket-watch",
        "-p",
        "predmarket-venues",
        "-p",
        "predmarket-venues-fees",
        "-p",
        "predmarket-web",
        "--target",
        "wasm32-unknown-unknown",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))
}

/// `cargo doc` of the workspace's own crates with rustdoc warnings (broken
/// intra-doc links among them) as errors.
fn doc_check() -> Result {
    exec(
        cmd("cargo")
            .args([
                "doc",
                "--no-deps",
                "--workspace",
                "--exclude",
                "predmarket-web",
            ])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )
}

/// `node --test` in tests/`dir`; `only`: a regular expression of the test
/// names to run (all when `None`).
/// How many of a suite's test files `node --test` runs at once.
#[derive(Clone, Copy)]
enum Files {
    /// One at a time: the browser suites, whose files each drive a
    /// Chromium (two at once on two cores make their waits slow and flaky),
    /// and one-file suites.
    OneAtATime,
    /// Three at once: the package's files mostly wait on the server,
    /// streams and timers, not the CPU (docs/ci.md, "Measured"); the
    /// twelve-a-minute key is package.test.mjs's alone, the others' key is
    /// unlimited, and the stream and history files start servers of their
    /// own.
    ThreeAtOnce,
}

fn node_tests(dir: &str, env: &[(&str, &str)], only: Option<&str>, files: Files) -> Result {
    let mut command = cmd("node");
    let at_once = match files {
        Files::OneAtATime => 1,
        Files::ThreeAtOnce => 3,
    };
    command
        .args(["--test", "--test-reporter=spec"])
        .arg(format!("--test-concurrency={at_once}"))
        .current_dir(root().join("tests").join(dir));
    if let Some(pattern) = only {
        command.arg(format!("--test-name-pattern={pattern}"));
    }
    for (k, v) in env {
        command.env(k, v);
    }
    exec(&mut command)
}

/// The server's test suites that check the rules of service.md over HTTP
/// (not its hardening or its proxy mode): run a second time with a proxy in
/// front (`crates/server/tests/common`, `THROUGH_PROXY`).
const SPEC_SUITES: [&str; 9] = [
    "rules",
    "markets",
    "events",
    "trades",
    "sports",
    "platforms",
    "renamed",
    "client",
    "openapi",
];

/// Set for the tests and examples that need `redis-server`: missing, it
/// fails them instead of a SKIPPED line.
const REQUIRE_REDIS: &str = "PREDMARKET_REQUIRE_REDIS";

/// The attack examples against the debug server. `attack`: no 5xx but
/// shedding, the good client never refused, sockets closed within the
/// timeouts, SIGTERM exit. `attack_proxy`: proxies started from the same
/// binary in front of a logging fake upstream (what the upstream saw, the
/// good visitors' misses served, the circuit, slow readers, public-mode
/// buckets and budget, Redis stopped). `attack_stream`: the ways one
/// client could spoil `/stream` for everyone, each beside a good viewer that must get its
/// snapshot and changes. Rules, never latency (release figures:
/// docs/benchmarks.md, "Hostile traffic").
fn attack() -> Result {
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
fn server_bin() -> String {
    crate::util::target_dir()
        .join("debug/predmarket-server")
        .to_string_lossy()
        .into_owned()
}

/// The demo built by Trunk, served by the debug server (plus a
/// hostile-data server and an always-429 one), driven by Playwright.
fn e2e() -> Result {
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

const USAGE: &str = "cargo xtask test [--quick | --only GROUP[,GROUP…] | --list]";

pub fn run(args: &[String]) -> Result {
    let mut chosen: Option<Vec<String>> = None;
    let mut quick = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--list" => {
                for step in STEPS {
                    let mark = if step.quick { "quick" } else { "" };
                    println!("{:<15} {:<6} {}", step.group, mark, step.name);
                }
                return Ok(());
            }
            "--quick" => quick = true,
            "--only" => {
                let groups = rest
                    .next()
                    .ok_or(format!("--only needs a group: {USAGE}"))?;
                let groups: Vec<String> = groups.split(',').map(str::to_owned).collect();
                if let Some(unknown) = groups
                    .iter()
                    .find(|g| !STEPS.iter().any(|s| s.group == **g))
                {
                    return Err(format!(
                        "no step group `{unknown}` (`cargo xtask test --list` shows them)"
                    ));
                }
                chosen = Some(groups);
            }
            other => return Err(format!("unknown option `{other}`: {USAGE}")),
        }
    }
    let selected: Vec<&Step> = STEPS
        .iter()
        .filter(|step| match &chosen {
            Some(groups) => groups.iter().any(|g| g == step.group),
            // The whole run has the wasm32 clippy pass, which includes the
            // native one.
            None if quick => step.quick,
            None => step.group != "clippy-native",
        })
        .collect();

    let started = Instant::now();
    // The quick loop needs no browser, bundler or wasm tool.
    if !quick {
        setup::run_setup()?;
    }
    let mut outcomes = Vec::new();
    let mut run = Run::default();
    for step in selected {
        eprintln!("\n=== {} ===", step.name);
        let step_started = Instant::now();
        let result = (step.run)(&mut run);
        if let Err(e) = &result {
            eprintln!("=== {}: FAILED: {e}", step.name);
        }
        outcomes.push(Outcome {
            name: step.name,
            result,
            seconds: step_started.elapsed().as_secs_f64(),
        });
    }
    drop(run);

    eprintln!(
        "\n=== summary ({:.0} s) ===",
        started.elapsed().as_secs_f64()
    );
    let mut failed = 0;
    for outcome in &outcomes {
        let verdict = if outcome.result.is_ok() {
            "ok  "
        } else {
            "FAIL"
        };
        eprintln!("{verdict} {:>6.1} s  {}", outcome.seconds, outcome.name);
        failed += usize::from(outcome.result.is_err());
    }
    let passed = outcomes.len() - failed;
    println!("xtask: {passed} passed, {failed} failed");
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} of {} steps failed", outcomes.len()))
    }
}

/// A `--api-key` spec without its limit: the key a client sends.
fn without_limit(spec: &'static str) -> &'static str {
    spec.split(':').next().unwrap_or(spec)
}
