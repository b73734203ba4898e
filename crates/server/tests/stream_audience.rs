//! `GET /stream` in public mode, where a topic belongs to its audience:
//! a visitor's quota of topics (grace topics included), the
//! cap of topics evicting those nobody watches, opens through the
//! visitors' buckets, cross-site opens refused, and the stream cap
//! counting visitors behind `--trusted-proxy`. Visitors are told apart by
//! their loopback source address (127.0.0.2, 127.0.0.3, ...).

mod common;

use predmarket_server::config::Config;
use serde_json::Value;
use std::net::{IpAddr, SocketAddr};

const UPSTREAM_KEY: &str = "stream-audience-upstream-key";

struct Task(tokio::task::JoinHandle<()>);

impl Drop for Task {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The local server as the upstream, with no limit on the proxy's key.
async fn upstream() -> (SocketAddr, Task) {
    let mut config = common::config();
    config.api_key = vec![format!("{UPSTREAM_KEY}:unlimited")];
    let app = predmarket_server::app_with_data(&config, common::default_data());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    (
        addr,
        Task(tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        })),
    )
}

/// A public proxy in front of `upstream`, changed by `tune`.
async fn public_proxy(upstream: SocketAddr, tune: impl FnOnce(&mut Config)) -> (SocketAddr, Task) {
    let mut config = common::config();
    config.api_key.clear();
    config.proxy.upstream = Some(format!("http://{upstream}"));
    config.proxy.public_proxy = true;
    config.proxy.upstream_limit = 6_000;
    config.proxy.visitor_requests = 6_000;
    config.proxy.visitor_misses = 6_000;
    config.stream.grace_secs = 600.0;
    tune(&mut config);
    let key_file = std::env::temp_dir().join(format!(
        "pm-stream-audience-key-{}-{}",
        std::process::id(),
        upstream.port()
    ));
    std::fs::write(&key_file, UPSTREAM_KEY).expect("key file");
    config.proxy.upstream_key_file = Some(key_file.clone());
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .unwrap_or_else(|e| panic!("proxy: {e}"));
    let _ = std::fs::remove_file(&key_file);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let limits = config.connection_limits();
    let task = tokio::spawn(async move {
        let _ = predmarket_server::listen::serve(
            listener,
            built.router,
            limits,
            std::future::pending(),
        )
        .await;
    });
    (addr, Task(task))
}

/// A visitor whose connections come from `source`.
fn visitor(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(source.parse::<IpAddr>().expect("address"))
        .build()
        .expect("client")
}

/// Opens a stream of `resources`: the response (kept open while held).
async fn open(
    client: &reqwest::Client,
    proxy: SocketAddr,
    resources: &[&str],
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for r in resources {
        query.append_pair("watch", r);
    }
    let mut request = client.get(format!("http://{proxy}/stream?{}", query.finish()));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("request")
}

/// A refused open's status and `details.reason`.
async fn refused(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("a JSON error");
    let reason = body["error"]["details"]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (status, reason)
}

#[tokio::test]
async fn a_visitor_holds_its_quota_and_the_cap_evicts_topics_nobody_watches() {
    let (up, _up) = upstream().await;
    let (proxy, _proxy) = public_proxy(up, |c| {
        c.stream.max_topics = 4;
        c.stream.max_topics_per_visitor = 2;
    })
    .await;
    let (a, b, c) = (
        visitor("127.0.0.2"),
        visitor("127.0.0.3"),
        visitor("127.0.0.4"),
    );
    let first = open(&a, proxy, &["market:a1", "market:a2"], &[]).await;
    assert_eq!(first.status(), 200);
    // A third topic of A's is over its quota.
    let over = open(&a, proxy, &["market:a3"], &[]).await;
    assert_eq!(refused(over).await, (429, "topics_per_visitor".into()));
    // Closed, its topics wait out their grace on A's quota still.
    drop(first);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let still = open(&a, proxy, &["market:a3"], &[]).await;
    assert_eq!(refused(still).await, (429, "topics_per_visitor".into()));
    // Watching what others watch costs no quota.
    let b_streams = open(&b, proxy, &["market:b1", "market:b2"], &[]).await;
    assert_eq!(b_streams.status(), 200);
    let shared = open(&a, proxy, &["market:b1"], &[]).await;
    assert_eq!(shared.status(), 200, "joining a watched topic");
    drop(shared);
    // The cap is full (a1, a2 in grace, b1, b2): C's topics evict the
    // ones nobody watches.
    let c_streams = open(&c, proxy, &["market:c1", "market:c2"], &[]).await;
    assert_eq!(c_streams.status(), 200, "viewerless topics made room");
    // Now every topic is watched: a newcomer's new resource waits.
    let d = visitor("127.0.0.5");
    let full = open(&d, proxy, &["market:d1"], &[]).await;
    assert_eq!(full.status(), 503);
    // But it can watch what is watched.
    let joined = open(&d, proxy, &["market:c1"], &[]).await;
    assert_eq!(joined.status(), 200);
    drop((b_streams, c_streams, joined));
}

#[tokio::test]
async fn opens_go_through_the_visitors_buckets_and_cross_site_ones_are_refused() {
    let (up, _up) = upstream().await;
    let (proxy, _proxy) = public_proxy(up, |c| {
        // A quarter of 4 a minute: one new topic at once.
        c.proxy.visitor_misses = 4;
    })
    .await;
    let a = visitor("127.0.0.2");
    let first = open(&a, proxy, &["market:x1"], &[]).await;
    assert_eq!(first.status(), 200);
    // A second new resource is a second miss: refused as a request is.
    let second = open(&a, proxy, &["market:x2"], &[]).await;
    assert_eq!(refused(second).await, (429, "visitor_misses".into()));
    // Joining a watched resource is no miss.
    let joined = open(&a, proxy, &["market:x1"], &[]).await;
    assert_eq!(joined.status(), 200);
    // Another visitor's bucket is its own.
    let b = visitor("127.0.0.3");
    assert_eq!(open(&b, proxy, &["market:x2"], &[]).await.status(), 200);
    // Another site's page may not open streams.
    let host = proxy.to_string();
    let own = format!("http://{host}");
    for (headers, reason) in [
        (vec![("sec-fetch-site", "cross-site")], "cross_site"),
        (
            vec![("origin", "https://evil.example")],
            "origin_not_allowed",
        ),
    ] {
        let response = open(&b, proxy, &["market:x1"], &headers).await;
        assert_eq!(refused(response).await, (403, reason.into()), "{headers:?}");
    }
    let same = open(&b, proxy, &["market:x1"], &[("origin", own.as_str())]).await;
    assert_eq!(same.status(), 200, "its own origin");
    drop((first, joined, same));
}

#[tokio::test]
async fn the_stream_cap_counts_visitors_behind_a_trusted_proxy() {
    let (up, _up) = upstream().await;
    let (proxy, _proxy) = public_proxy(up, |c| {
        c.stream.max_streams_per_address = 1;
        c.proxy.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let balancer = visitor("127.0.0.1");
    let forwarded = |client: &'static str| [("x-forwarded-for", client)];
    let one = open(&balancer, proxy, &["market:t1"], &forwarded("198.51.100.1")).await;
    assert_eq!(one.status(), 200);
    let again = open(&balancer, proxy, &["market:t1"], &forwarded("198.51.100.1")).await;
    assert_eq!(refused(again).await, (429, "streams_per_address".into()));
    // Another client behind the same balancer is another visitor.
    let other = open(&balancer, proxy, &["market:t1"], &forwarded("198.51.100.2")).await;
    assert_eq!(other.status(), 200);
    // IPv6 counts by /64.
    let v6 = open(&balancer, proxy, &["market:t1"], &forwarded("2001:db8::1")).await;
    assert_eq!(v6.status(), 200);
    let same_64 = open(&balancer, proxy, &["market:t1"], &forwarded("2001:db8::2")).await;
    assert_eq!(refused(same_64).await, (429, "streams_per_address".into()));
    drop((one, other, v6));
}
