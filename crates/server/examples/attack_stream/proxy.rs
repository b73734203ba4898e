//! The attacked proxy (a process of its own) and the clients that open
//! its streams from chosen loopback addresses.

use crate::*;

/// A proxy process, killed on drop, with the lines of its stderr.
pub(crate) struct Proxy {
    pub(crate) child: Child,
    pub(crate) log: Arc<Mutex<Vec<String>>>,
    pub(crate) addr: SocketAddr,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Proxy {
    pub(crate) fn start(server: &str, upstream: SocketAddr, args: &[&str]) -> Result<Self, String> {
        let mut child = Command::new(server)
            .args(["--addr", "127.0.0.1:0", "--public-proxy"])
            .args(["--upstream", &format!("http://{upstream}/v2")])
            .args(["--upstream-limit", &LIMIT.to_string()])
            // Books poll every second.
            .args(["--stream-interval-scale", "0.2"])
            .args(args)
            .env_clear()
            .env("PREDMARKET_UPSTREAM_KEY", "attack-stream-upstream-key")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{server}: {e}"))?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        // Drained for as long as the proxy runs, so it never blocks on a
        // full pipe.
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if let Ok(mut lines) = lines.lock() {
                    lines.push(line);
                }
            }
        });
        let started = Instant::now();
        let marker = "listening on http://";
        let addr = loop {
            let found = log.lock().ok().and_then(|log| {
                log.iter()
                    .find_map(|line| line.split(marker).nth(1).map(str::to_owned))
            });
            if let Some(rest) = found {
                let text = rest.split(['/', ',', ' ', '"']).next().unwrap_or("");
                break text.parse().map_err(|e| format!("{text}: {e}"))?;
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("the proxy exited ({status}) before it listened"));
            }
            if started.elapsed() > CEILING {
                return Err("the proxy never listened".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Ok(Self { child, log, addr })
    }

    pub(crate) fn rss_mb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(kb / 1024)
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
