//! `cargo xtask bench`: the JS library's decode benchmark — a 250-market
//! page into JS objects through the library versus `JSON.parse` and
//! `res.json()` on the same bytes, interleaved, in Node and in headless
//! Chromium (tests/bench/). Figures go to docs/benchmarks.md by hand.

use crate::build;
use crate::server::{self, Profile, Server};
use crate::util::{Result, cmd, exec, root};

const KEY: &str = "pm_bench_key";

pub fn run(args: &[String]) -> Result {
    if let Some(unknown) = args.first() {
        return Err(format!("unknown option `{unknown}` (bench takes none)"));
    }
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
