//! The `predmarket-server` binary: reads its settings and serves until a
//! shutdown signal.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use clap::Parser;

// See Cargo.toml; the in-process load bench (examples/load.rs) uses the same.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let config = predmarket_server::config::Config::parse();
    predmarket_server::logs::init(config.log_format);
    // The first of the server's runtimes, which also runs what works in
    // the background; `serve` starts one more per core
    // (predmarket_server::runtimes).
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("predmarket-server: no runtime: {error}");
            std::process::exit(1);
        }
    };
    if let Err(error) = runtime.block_on(predmarket_server::serve(config)) {
        eprintln!("predmarket-server: {error}");
        std::process::exit(1);
    }
    // Exit now rather than let the runtime wait for connections and
    // searches the shutdown deadline has given up on.
    std::process::exit(0);
}
