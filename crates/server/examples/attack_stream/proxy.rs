//! The attacked proxy (a process of its own) and the clients that open
//! its streams from chosen loopback addresses.

use crate::*;
use attack_common::process::Process;

/// A proxy process and the address it answers on.
pub(crate) struct Proxy {
    pub(crate) process: Process,
    pub(crate) addr: SocketAddr,
}

impl Proxy {
    pub(crate) fn start(server: &str, upstream: SocketAddr, args: &[&str]) -> Result<Self, String> {
        let mut process = Process::spawn(
            Command::new(server)
                .args(["--addr", "127.0.0.1:0", "--public-proxy"])
                .args(["--upstream", &format!("http://{upstream}/v2")])
                .args(["--upstream-limit", &LIMIT.to_string()])
                // Books poll every second.
                .args(["--stream-interval-scale", "0.2"])
                .args(args)
                .env_clear()
                .env("PREDMARKET_UPSTREAM_KEY", "attack-stream-upstream-key"),
            server,
        )?;
        let addr = process.address_after("listening on http://", CEILING)?;
        Ok(Self { process, addr })
    }

    pub(crate) fn rss_mb(&self) -> Option<u64> {
        self.process.rss_mb()
    }
}

/// A client whose connections come from `source`.
pub(crate) fn from(source: &str) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .local_address(ip(source))
        .build()
        .map_err(|e| e.to_string())
}

/// `/stream?watch=…` of `resources`.
pub(crate) fn stream_url(proxy: SocketAddr, resources: &[String]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for r in resources {
        query.append_pair(live::WATCH_PARAM, r);
    }
    format!("http://{proxy}{}?{}", live::PATH, query.finish())
}

/// Opens a stream: the response, or why not.
pub(crate) async fn open(
    client: &reqwest::Client,
    proxy: SocketAddr,
    resources: &[String],
    headers: &[(&str, &str)],
) -> Result<reqwest::Response, String> {
    let mut request = client.get(stream_url(proxy, resources));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    tokio::time::timeout(CEILING, request.send())
        .await
        .map_err(|_| "no answer to an open within the ceiling".to_owned())?
        .map_err(|e| e.to_string())
}

/// Reads a stream to its end (or until dropped), counting bytes.
pub(crate) fn read_all(mut response: reqwest::Response) -> tokio::task::JoinHandle<u64> {
    tokio::spawn(async move {
        let mut bytes = 0;
        while let Ok(Some(chunk)) = response.chunk().await {
            bytes += chunk.len() as u64;
        }
        bytes
    })
}
