use clap::Parser;

#[tokio::main]
async fn main() {
    let config = predmarket_server::config::Config::parse();
    if let Err(error) = predmarket_server::serve(config).await {
        eprintln!("predmarket-server: {error}");
        std::process::exit(1);
    }
}
