//! The upstream key in proxy mode, over real loopback HTTP: it never
//! reaches a visitor or the log, an empty one is refused at start, and the
//! upstream refusing it is no visitor's error. The upstream is the counting
//! local server of `common/counted_upstream.rs`.

use counted_upstream::{CEILING, UPSTREAM_KEY, VISITOR, get, proxy, proxy_config, upstream};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

mod common;
#[path = "common/counted_upstream.rs"]
mod counted_upstream;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstream_key_never_reaches_a_visitor_or_the_log() {
    let upstream = upstream(100, |c| c.fault_5xx = 0.3).await;
    let binary = env!("CARGO_BIN_EXE_predmarket-server");
    let mut child = std::process::Command::new(binary)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--api-key",
            VISITOR,
            "--upstream",
            &format!("http://{}", upstream.addr),
            "--log-format",
            "json",
        ])
        .env_clear()
        .env("PREDMARKET_UPSTREAM_KEY", UPSTREAM_KEY)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("server binary");
    let stderr = child.stderr.take().unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let reader_log = log.clone();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let addr = rest.split([',', ' ']).next().unwrap_or("").to_owned();
                let _ = addr_tx.send(addr);
            }
            let mut log = reader_log.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    let addr: SocketAddr = addr_rx
        .recv_timeout(CEILING)
        .expect("the proxy starts")
        .parse()
        .unwrap();
    let client = reqwest::Client::new();
    let mut seen = String::new();
    for path in [
        "/platforms",
        "/markets?limit=2",
        "/markets?limit=3&api_key=leak-probe",
        "/markets/nope",
        "/markets?limit=0",
        "/openapi.json",
        "/metrics",
        "/nope",
    ] {
        for key in [Some(VISITOR), None, Some("wrong")] {
            let mut request = client.get(format!("http://{addr}{path}"));
            if let Some(key) = key {
                request = request.header("X-API-Key", key);
            }
            let response = request.send().await.unwrap();
            seen.push_str(&format!("{:?}", response.headers()));
            seen.push_str(&response.text().await.unwrap());
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    let log = log.lock().unwrap().clone();
    // Structured: every line one JSON event; the upstream requests with
    // their fields.
    let events: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert!(
        events
            .iter()
            .all(|e| e["timestamp"].is_string() && e["level"].is_string())
    );
    let upstream_events: Vec<&Value> = events
        .iter()
        .filter(|e| e["message"] == "proxy upstream")
        .collect();
    assert!(!upstream_events.is_empty(), "the proxy logs: {log}");
    assert!(
        upstream_events
            .iter()
            .all(|e| e["op"].is_string() && e["status"].is_string() && e["target"].is_string()),
        "{log}"
    );
    assert!(!log.contains(UPSTREAM_KEY), "key in the log: {log}");
    assert!(!seen.contains(UPSTREAM_KEY), "key in an answer");
    assert!(
        !log.contains("leak-probe"),
        "a key in the query string is logged: {log}"
    );
    // The visitor key in a query string is not forwarded upstream.
    assert!(upstream.log.lock().unwrap().count() > 0);
}

#[test]
fn an_empty_upstream_key_is_refused_at_start() {
    let binary = env!("CARGO_BIN_EXE_predmarket-server");
    let output = std::process::Command::new(binary)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--api-key",
            VISITOR,
            "--upstream",
            "http://127.0.0.1:9",
        ])
        .env_clear()
        .env("PREDMARKET_UPSTREAM_KEY", "  ")
        .output()
        .expect("server binary");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("PREDMARKET_UPSTREAM_KEY"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_upstream_key_is_no_visitor_error() {
    let upstream = upstream(100, |_| {}).await;
    let mut config = proxy_config(upstream.addr);
    let wrong = std::env::temp_dir().join(format!("pm-wrong-key-{}", std::process::id()));
    std::fs::write(&wrong, "not-the-upstream-key\n").unwrap();
    config.proxy.upstream_key_file = Some(wrong);
    let proxy = proxy(config).await;
    let (status, _, body, _) = get(
        &reqwest::Client::new(),
        proxy.addr,
        "/platforms",
        Some(VISITOR),
    )
    .await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["details"]["reason"], "upstream_key_rejected");
    assert!(!body.to_string().contains("not-the-upstream-key"));
}
