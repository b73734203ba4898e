//! `cargo xtask demo`: builds the library and the demo, then serves both
//! from the local server until Ctrl-C.

use crate::server::{self, Profile, Server};
use crate::setup;
use crate::util::Result;
use crate::{build, web_build};
use std::time::Instant;

pub fn run(args: &[String]) -> Result {
    let mut port = String::from("8787");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--port" => port = rest.next().cloned().ok_or("--port needs a value")?,
            other => return Err(format!("unknown option `{other}` (demo takes --port N)")),
        }
    }
    let started = Instant::now();
    eprintln!(
        "demo: 1/4 tools (a fresh machine compiles Trunk, wasm-bindgen and wasm-split: about 10 min; later runs: a second)"
    );
    setup::run_setup()?;
    eprintln!("demo: 2/4 the npm package");
    let package = build::npm()?;
    eprintln!("demo: 3/4 the demo");
    let dist = web_build::web()?;
    // The debug build `cargo xtask test` makes too, so the demo after the
    // tests starts at once; on local data it is fast enough to browse.
    eprintln!("demo: 4/4 the server (first build about 3 min, then seconds)");
    server::build(Profile::Debug)?;
    let addr = format!("127.0.0.1:{port}");
    let dist_arg = dist.to_string_lossy().into_owned();
    let server = Server::start(Profile::Debug, &addr, &["--web", &dist_arg])?;
    eprintln!("demo: ready in {:.0} s", started.elapsed().as_secs_f64());
    println!();
    println!("  predmarket demo:   {}/app/", server.url);
    println!("  API base URL:      {}", server.url);
    println!("  demo API key:      pm_demo_key  (public; guards only local data)");
    println!("  npm package:       {}", package.display());
    println!("  Ctrl-C stops it.");
    println!();
    // Ctrl-C reaches the server too (same process group): it shuts down
    // gracefully and `wait` returns.
    server.wait()
}
