#![allow(dead_code)] // each test binary uses a different part
//! Starts the real server on an ephemeral loopback port for a test.

use predmarket_server::config::Config;
use std::net::SocketAddr;

pub const KEY: &str = "test-key";

pub struct TestServer {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::with(Config::for_tests(KEY)).await
    }

    pub async fn with(config: Config) -> Self {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let app = predmarket_server::app(&config);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { addr, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        reqwest::Client::new()
            .get(self.url(path))
            .header("X-API-Key", KEY)
            .send()
            .await
            .expect("request")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
