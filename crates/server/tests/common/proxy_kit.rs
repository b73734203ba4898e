//! A proxy (`proxy_mode::build`) served for a test on an ephemeral
//! loopback port, with its `/metrics` on another, and the upstream key
//! file it reads: what the proxy suites (proxy.rs, proxy_key.rs, proxy_ops.rs,
//! proxy_connections.rs, proxy_public.rs) start the same way.

#![allow(dead_code)] // each test binary uses a different part

use predmarket_server::config::Config;
use predmarket_server::front::Served;
use predmarket_server::proxy::ProxyState;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

pub struct Proxy {
    pub addr: SocketAddr,
    /// Where `/metrics` is served (`--metrics-addr`).
    pub metrics_addr: SocketAddr,
    pub state: Arc<ProxyState>,
    task: tokio::task::JoinHandle<()>,
    metrics_task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
        self.metrics_task.abort();
    }
}

/// Builds the proxy of `config` and serves it and its metrics until the
/// returned `Proxy` is dropped.
pub async fn start(config: &Config) -> Proxy {
    let built = predmarket_server::proxy_mode::build(config)
        .await
        .unwrap_or_else(|e| panic!("proxy: {e}"));
    let limits = config.connection_limits();
    let serve = |listener, served: Served| {
        tokio::spawn(async move {
            let _ =
                predmarket_server::listen::serve(listener, served, limits, std::future::pending())
                    .await;
        })
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let metrics_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics_addr = metrics_listener.local_addr().unwrap();
    Proxy {
        addr,
        metrics_addr,
        state: built.state,
        metrics_task: serve(metrics_listener, built.metrics.into()),
        // With its front service of fresh hits, as the binary serves it.
        task: serve(
            listener,
            Served {
                router: built.router,
                front: built.front,
            },
        ),
    }
}

/// Writes `text` to a key file named by `name` and this process, and
/// returns its path. Written aside and renamed: tests running at once
/// would otherwise read the file while another one has just truncated it.
pub fn key_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let aside = path.with_extension(
        format!("{:?}", std::thread::current().id())
            .replace(|c: char| !c.is_ascii_alphanumeric(), ""),
    );
    std::fs::write(&aside, text).unwrap();
    std::fs::rename(&aside, &path).unwrap();
    path
}
