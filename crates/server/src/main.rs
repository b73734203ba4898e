//! The `predmarket-server` binary: reads its settings and serves until a
//! shutdown signal.

use clap::Parser;

// See Cargo.toml; the in-process load bench (examples/load.rs) uses the same.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    let config = predmarket_server::config::Config::parse();
    predmarket_server::logs::init(config.log_format);
    if let Err(error) = predmarket_server::serve(config).await {
        eprintln!("predmarket-server: {error}");
        std::process::exit(1);
    }
    // Exit now rather than let the runtime wait for connections and
    // searches the shutdown deadline has given up on.
    std::process::exit(0);
}
