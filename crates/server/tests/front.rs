//! The front service for kept answers (`front`) against the router: a
//! proxy's fresh hits and the local server's pages of markets answered by
//! the front service and the same requests forced through the router
//! (`--router-only`) give the same status, headers and body, whoever asks (identity, `gzip`, `gzip, br`; an
//! allowed, another and no `Origin`; a bad key, no key, a key over its
//! limit; the query in another order). And the front service does take
//! those requests (a `GET` of a fresh entry, in a coding it keeps) and
//! leaves the others to the router (`HEAD`, a coding only the compression
//! layer makes, an operation with path parameters, a miss, a bad query).

#[path = "common/bodies.rs"]
mod bodies;
#[path = "common/process.rs"]
mod process_kit;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;

use axum::body::Body;
use axum::http::Request;
use predmarket_server::config::Config;
use process_kit::{Listening as Process, start_listening};
use std::collections::BTreeMap;
use tower::ServiceExt;

const ALLOWED_ORIGIN: &str = "https://app.example";
const PAGE: &str = "/markets?limit=25&sort=liquidity";

/// Headers whose values differ from one request to the next, and the
/// length (each proxy stored its own upstream answer, whose time differs).
const BY_PRESENCE: [&str; 5] = [
    "date",
    "age",
    "x-ratelimit-reset",
    "retry-after",
    "content-length",
];

/// Members of an answer's JSON that differ between two upstream answers
/// (as in `tests/request_path.rs`), and an error's `timestamp`.
const VARYING: [&str; 4] = ["request_time", "next_cursor", "last_check", "timestamp"];

/// A request: its name, path and headers (all `GET`).
type Case = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const GOOD: (&str, &str) = ("x-api-key", "good");

const CASES: &[Case] = &[
    ("identity", PAGE, &[GOOD]),
    ("gzip", PAGE, &[GOOD, ("accept-encoding", "gzip")]),
    ("gzip, br", PAGE, &[GOOD, ("accept-encoding", "gzip, br")]),
    (
        "allowed origin",
        PAGE,
        &[
            GOOD,
            ("origin", ALLOWED_ORIGIN),
            ("accept-encoding", "gzip, br"),
        ],
    ),
    (
        "other origin",
        PAGE,
        &[GOOD, ("origin", "https://evil.example")],
    ),
    (
        "query in another order",
        "/markets?sort=liquidity&limit=25",
        &[GOOD],
    ),
    ("bad key", PAGE, &[("x-api-key", "nope")]),
    ("no key", PAGE, &[("origin", ALLOWED_ORIGIN)]),
    // `tight:1`: the first within its budget, the second over it.
    ("tight key", PAGE, &[("x-api-key", "tight")]),
    ("tight key again", PAGE, &[("x-api-key", "tight")]),
];

fn start(args: &[&str]) -> Process {
    start_listening(env!("CARGO_BIN_EXE_predmarket-server"), args)
}

fn upstream() -> Process {
    start(&[
        "--api-key",
        "upstream:unlimited",
        "--anchor-date",
        "2025-11-02",
        "--scale",
        "0.2",
    ])
}

fn proxy(upstream: &Process, key_file: &std::path::Path, extra: &[&str]) -> Process {
    let upstream = format!("http://{}", upstream.addr);
    let mut args = vec![
        "--upstream",
        &upstream,
        "--upstream-key-file",
        key_file.to_str().expect("a UTF-8 temp path"),
        "--api-key",
        "good:unlimited,tight:1",
        "--cors-origin",
        ALLOWED_ORIGIN,
    ];
    args.extend_from_slice(extra);
    start(&args)
}

/// What a visitor can tell of one answer: status, headers (those of
/// `BY_PRESENCE` by presence only) and its JSON, decompressed, less the
/// members of `VARYING`.
#[derive(Debug, PartialEq)]
struct Seen {
    status: u16,
    headers: BTreeMap<String, Vec<String>>,
    json: serde_json::Value,
}

async fn see(addr: &str, path: &str, headers: &[(&str, &str)]) -> Seen {
    // No decompression by the client: the bytes as sent.
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("a client");
    let mut request = client.get(format!("http://{addr}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("an answer");
    let mut seen = BTreeMap::<String, Vec<String>>::new();
    for (name, value) in response.headers() {
        let value = if BY_PRESENCE.contains(&name.as_str()) {
            "(present)".to_owned()
        } else {
            value.to_str().expect("an ASCII header").to_owned()
        };
        seen.entry(name.as_str().to_owned())
            .or_default()
            .push(value);
    }
    let status = response.status().as_u16();
    let encoding = response
        .headers()
        .get("content-encoding")
        .map(|value| value.to_str().expect("ASCII").to_owned());
    let bytes = response.bytes().await.expect("a body");
    let body = bodies::decompress(&bytes, encoding.as_deref());
    let json = serde_json::from_slice(&body).expect("a JSON answer");
    Seen {
        status,
        headers: seen,
        json: bodies::without(json, &VARYING),
    }
}

#[tokio::test]
async fn a_kept_answer_is_the_routers_answer() {
    let upstream = upstream();
    let key_file = proxy_kit::key_file("front", "upstream\n");
    let front = proxy(&upstream, &key_file, &[]);
    let router = proxy(&upstream, &key_file, &["--router-only"]);
    // Each proxy stores the page (a miss), so every case below is a hit.
    for proxy in [&front, &router] {
        let warm = see(&proxy.addr, PAGE, &[GOOD]).await;
        assert_eq!(warm.status, 200, "{warm:?}");
    }
    for (name, path, headers) in CASES {
        let by_front = see(&front.addr, path, headers).await;
        let by_router = see(&router.addr, path, headers).await;
        assert_eq!(by_front.status, by_router.status, "{name}: status");
        assert_eq!(by_front.headers, by_router.headers, "{name}: headers");
        assert!(by_front.json == by_router.json, "{name}: bodies differ");
    }
    let hit = see(&front.addr, PAGE, &[GOOD]).await;
    assert_eq!(hit.headers.get("x-cache"), Some(&vec!["HIT".to_owned()]));
}

/// The local server: a page of markets answered by the front service and
/// by the router (`--router-only`) alike.
#[tokio::test]
async fn a_page_of_markets_is_the_routers_page() {
    let server = |extra: &[&str]| {
        let mut args = vec![
            "--api-key",
            "good:unlimited,tight:1",
            "--cors-origin",
            ALLOWED_ORIGIN,
            "--anchor-date",
            "2025-11-02",
            "--scale",
            "0.2",
        ];
        args.extend_from_slice(extra);
        start(&args)
    };
    let front = server(&[]);
    let router = server(&["--router-only"]);
    for (name, path, headers) in CASES {
        let by_front = see(&front.addr, path, headers).await;
        let by_router = see(&router.addr, path, headers).await;
        assert_eq!(by_front.status, by_router.status, "{name}: status");
        assert_eq!(by_front.headers, by_router.headers, "{name}: headers");
        assert!(by_front.json == by_router.json, "{name}: bodies differ");
    }
}

/// A request the front leaves to the router: path, headers, method.
type Left = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

fn get(path: &str, headers: &[(&str, &str)], method: &str) -> Request<Body> {
    let mut request = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).expect("a request")
}

#[tokio::test]
async fn the_front_takes_fresh_hits_and_leaves_the_rest() {
    let upstream = upstream();
    let mut config = Config::for_tests("good:unlimited");
    config.proxy.upstream = Some(format!("http://{}", upstream.addr));
    config.proxy.upstream_key_file = Some(proxy_kit::key_file("front-take", "upstream\n"));
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .expect("a proxy");
    let front = built.front.clone().expect("a proxy with keys has a front");
    // Not stored yet: a miss is the router's.
    assert!(front.find(&get(PAGE, &[GOOD], "GET")).is_none(), "a miss");
    let stored = built
        .router
        .clone()
        .oneshot(get(PAGE, &[GOOD], "GET"))
        .await
        .expect("an answer");
    assert_eq!(stored.status(), 200);
    for headers in [
        &[GOOD][..],
        &[GOOD, ("accept-encoding", "gzip")],
        &[GOOD, ("accept-encoding", "gzip, br")],
    ] {
        assert!(
            front.find(&get(PAGE, headers, "GET")).is_some(),
            "{headers:?}"
        );
    }
    assert!(
        front
            .find(&get("/markets?sort=liquidity&limit=25", &[GOOD], "GET"))
            .is_some(),
        "the same canonical request"
    );
    let left: [Left; 7] = [
        // No answer is looked up for a key the front does not know.
        (PAGE, &[("x-api-key", "someone else's")], "GET"),
        (PAGE, &[], "GET"),
        (PAGE, &[GOOD], "HEAD"),
        (PAGE, &[GOOD, ("accept-encoding", "deflate")], "GET"),
        ("/markets/m-1", &[GOOD], "GET"),
        ("/markets?limit=24&sort=liquidity", &[GOOD], "GET"),
        ("/markets?limit=x", &[GOOD], "GET"),
    ];
    for (path, headers, method) in left {
        assert!(
            front.find(&get(path, headers, method)).is_none(),
            "{method} {path} {headers:?}"
        );
    }
    let mut config = config.clone();
    config.router_only = true;
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .expect("a proxy");
    assert!(built.front.is_none(), "--router-only");
}

#[tokio::test]
async fn the_front_takes_pages_of_markets_and_leaves_the_rest() {
    let config = Config::for_tests("good:unlimited");
    let data = std::sync::Arc::new(predmarket_server::data::Dataset::generate(
        &config.data_options(),
    ));
    let served = predmarket_server::served(&config, data.clone(), None);
    let front = served.front.expect("the server has a front");
    for headers in [&[GOOD][..], &[GOOD, ("accept-encoding", "gzip, br")]] {
        assert!(
            front.find(&get(PAGE, headers, "GET")).is_some(),
            "{headers:?}"
        );
    }
    let left: [Left; 7] = [
        // No page is made for a key the front does not know.
        (PAGE, &[("x-api-key", "someone else's")], "GET"),
        (PAGE, &[], "GET"),
        (PAGE, &[GOOD], "HEAD"),
        (PAGE, &[GOOD, ("accept-encoding", "deflate")], "GET"),
        ("/markets?query=bitcoin", &[GOOD], "GET"),
        ("/markets?limit=x", &[GOOD], "GET"),
        ("/events", &[GOOD], "GET"),
    ];
    for (path, headers, method) in left {
        assert!(
            front.find(&get(path, headers, method)).is_none(),
            "{method} {path} {headers:?}"
        );
    }
    let mut config = config.clone();
    config.router_only = true;
    assert!(
        predmarket_server::served(&config, data, None)
            .front
            .is_none()
    );
}

/// A kept answer is made only once the key's check let its request
/// through: a key over its budget gets its 429 and no page is made
/// (`front::KeptAnswer::Later` is not run).
#[tokio::test]
async fn a_key_over_its_budget_is_refused_before_any_page_is_made() {
    use predmarket_server::front::KeptAnswer;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let config = Config::for_tests("tight:1");
    let data = Arc::new(predmarket_server::data::Dataset::generate(
        &config.data_options(),
    ));
    let served = predmarket_server::served(&config, data, None);
    let front = served.front.expect("the server has a front");
    let tight = [("x-api-key", "tight")];
    // What the front finds for a page not kept yet: made when served.
    assert!(matches!(
        front.find(&get(PAGE, &tight, "GET")),
        Some(KeptAnswer::Later(_))
    ));
    let made = Arc::new(AtomicUsize::new(0));
    let later = || {
        let made = made.clone();
        KeptAnswer::Later(Box::new(move || {
            made.fetch_add(1, Ordering::SeqCst);
            axum::response::Response::new(Body::empty())
        }))
    };
    let mut stack = front.stack();
    for (status, pages) in [(200, 1), (429, 1), (429, 1)] {
        let request = get(PAGE, &tight, "GET");
        let (found, _) = front.taken(request, later(), std::time::Instant::now());
        let ready = ServiceExt::ready(&mut stack).await.expect("ready");
        let answer = tower::Service::call(ready, found).await.expect("an answer");
        assert_eq!(answer.status(), status);
        assert_eq!(made.load(Ordering::SeqCst), pages, "pages made");
    }
}
