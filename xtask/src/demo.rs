//! `cargo xtask demo`: builds the library and the demo, then serves both
//! from the local server until Ctrl-C.

use crate::build;
use crate::server::{self, Profile, Server};
use crate::setup;
use crate::util::Result;

pub fn run(args: &[String]) -> Result {
    let mut port = String::from("8787");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--port" => port = rest.next().cloned().ok_or("--port needs a value")?,
            other => return Err(format!("unknown option `{other}` (demo takes --port N)")),
        }
    }
    setup::run_setup()?;
    let package = build::npm()?;
    let dist = build::web()?;
    server::build(Profile::Release)?;
    let addr = format!("127.0.0.1:{port}");
    let dist_arg = dist.to_string_lossy().into_owned();
    let server = Server::start(Profile::Release, &addr, &["--web", &dist_arg])?;
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
