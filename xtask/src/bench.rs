//! `cargo xtask bench`: the JS library's decode benchmark — a 250-market
//! page into JS objects through the library versus `JSON.parse` and
//! `res.json()` on the same bytes, interleaved, in Node and in headless
//! Chromium (tests/bench/run.mjs). `cargo xtask bench demo`: how fast the
//! demo paints, its first load and a reload from the device's cache
//! (tests/bench/demo.mjs), the durations the end-to-end tests print but do
//! not assert. `cargo xtask bench venues`: `findPairs` of
//! `predmarket/venues` over the server's markets (tests/bench/venues.mjs),
//! whose figures it writes into `docs/figures.md` (the ones the docs
//! quote); the runs' tables, with their machine, go to docs/benchmarks.md.
//! `cargo xtask bench server [ROUNDS [SECONDS [CONNECTIONS]]]`: the release
//! server and a proxy's cache hit against nginx serving the same answer as
//! a static file, under wrk (crates/server/bench/static_compare.sh).

use crate::server::{self, Profile, Server};
use crate::util::{Result, cmd, exec, root, target_dir};
use crate::{build, figures, web_build};

const KEY: &str = "pm_bench_key";

pub fn run(args: &[String]) -> Result {
    match args.first().map(String::as_str) {
        None => decode(),
        Some("venues") => venues(),
        Some("server") => exec(
            cmd("bash")
                .arg(root().join("crates/server/bench/static_compare.sh"))
                .args(&args[1..]),
        ),
        Some("demo") => match args.get(1) {
            None => demo(),
            Some(unknown) => Err(format!(
                "unknown option `{unknown}` (bench demo takes none)"
            )),
        },
        Some(unknown) => Err(format!(
            "unknown option `{unknown}` (bench takes none, `venues`, `demo` or `server`)"
        )),
    }
}

fn decode() -> Result {
    let package = build::npm()?;
    server::build(Profile::Debug)?;
    // The server only serves the page once; its speed is not measured.
    let key = format!("{KEY}:unlimited");
    let server = Server::start(Profile::Debug, "127.0.0.1:0", &["--api-key", &key, "-q"])?;
    exec(
        cmd("node")
            .arg(root().join("tests/bench/run.mjs"))
            .env("PREDMARKET_URL", &server.url)
            .env("PREDMARKET_KEY", KEY)
            .env("PREDMARKET_PACKAGE", &package),
    )
}

/// `findPairs` of `predmarket/venues` over the server's ~5,000 markets
/// (scale 1) against `JSON.parse` of the same JSON (tests/bench/venues.mjs).
fn venues() -> Result {
    let package = build::npm()?;
    server::build(Profile::Debug)?;
    let key = format!("{KEY}:unlimited");
    let server = Server::start(Profile::Debug, "127.0.0.1:0", &["--api-key", &key, "-q"])?;
    let written = target_dir().join("bench-venues-figures.tsv");
    exec(
        cmd("node")
            .arg(root().join("tests/bench/venues.mjs"))
            .env("PREDMARKET_URL", &server.url)
            .env("PREDMARKET_KEY", KEY)
            .env("PREDMARKET_PACKAGE", &package)
            .env("PREDMARKET_FIGURES", &written),
    )?;
    let text =
        std::fs::read_to_string(&written).map_err(|e| format!("{}: {e}", written.display()))?;
    let mut measured = Vec::new();
    for line in text.lines() {
        let (id, value) = line
            .split_once('\t')
            .ok_or(format!("{}: not `id<TAB>value`: {line}", written.display()))?;
        let id = VENUES_FIGURES
            .into_iter()
            .find(|known| *known == id)
            .ok_or(format!(
                "tests/bench/venues.mjs wrote an unknown figure `{id}`"
            ))?;
        measured.push(figures::Figure {
            id,
            value: value.to_owned(),
        });
    }
    figures::record(&measured, "cargo xtask bench venues")
}

/// The figures tests/bench/venues.mjs measures.
const VENUES_FIGURES: [&str; 2] = ["venues-find-pairs", "venues-markets"];

fn demo() -> Result {
    let dist = web_build::web()?;
    // The demo's own build (`cargo xtask demo`), with room for the demo
    // key: every run starts with an empty profile and asks again.
    server::build(Profile::Release)?;
    let dist = dist.to_string_lossy().into_owned();
    let server = Server::start(
        Profile::Release,
        "127.0.0.1:0",
        &["--web", &dist, "--rate-limit", "100000", "-q"],
    )?;
    exec(
        cmd("node")
            .arg(root().join("tests/bench/demo.mjs"))
            .env("PREDMARKET_DEMO_URL", format!("{}/app/", server.url)),
    )
}
