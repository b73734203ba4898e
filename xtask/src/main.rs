//! `cargo xtask`: install the tools, build, test and run the demo.
//!
//! One dependency, Zopfli (the npm package's inlined wasm, build/inline.rs), so
//! it still builds in seconds on a fresh machine.

mod bench;
mod build;
mod bundles;
mod demo;
mod doc_rules;
mod figures;
mod fn_length;
mod imports;
mod math_entry;
mod server;
mod setup;
mod size;
mod test;
mod tidy;
mod timing;
mod tool_source;
mod util;
mod watch_entry;
mod web_build;

use std::process::ExitCode;

const HELP: &str = "\
cargo xtask <command>

  setup             install what this machine lacks (idempotent)
  demo [--port N]   build everything and serve the demo on the local server
  test              run every test of the project (native, server, wasm in
                    Node and Chromium, the npm package, end to end)
  test --quick      the fast loop: fmt, tidy, native clippy, core and client tests
  test --only G,H   only the step groups named (see `test --list`)
  test --list       the step groups of a full run
  npm               build the npm package; prints its folder last
  web               build the demo into dist/
  tidy              docs name only what exists; every module has its doc
  size [--top N]    what a browser app ships: each documented one-line
                    app bundled from the packed package (gzip -9), the
                    wasm's bytes, and where its code goes by crate and
                    function
  bench             JS library: decode of a 250-market page vs JSON.parse
                    and res.json(), in Node and headless Chromium
  bench venues      predmarket/venues: findPairs over ~5,000 markets in
                    Node vs JSON.parse of the same markets
  bench demo        the demo's first load and a reload from the cache:
                    time to paint, in headless Chromium
  bench server [ROUNDS [SECONDS [CONNECTIONS]]]
                    the release server and a proxy's cache hit vs nginx
                    serving the same answer as a static file, under wrk,
                    without and with Accept-Encoding (needs nginx, wrk)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::run(),
        Some("demo") => demo::run(&args[1..]),
        Some("test") => test::run(&args[1..]),
        Some("npm") => build::npm().map(|dir| println!("{}", dir.display())),
        Some("web") => web_build::web().map(|dir| println!("{}", dir.display())),
        Some("bench") => bench::run(&args[1..]),
        Some("size") => size::run(&args[1..]),
        Some("tidy") => tidy::run(),
        Some("help" | "--help" | "-h") | None => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}
