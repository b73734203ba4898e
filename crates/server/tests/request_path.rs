//! What a visitor gets on the request path, held against a recording of
//! main's full stack (docs/benchmarks.md, "Fifth round: the user-space
//! path": the request path was cut down, the answers must not change). The server binary and a proxy in
//! front of it (its cache hits) are sent the same requests: both
//! encodings, with and without an `Origin` (allowed and not), a bad key,
//! no key, a key over its limit, `HEAD`, a CORS preflight and a plain
//! `OPTIONS`, a query in another order, a small answer, an unknown path,
//! a `POST`. Status and headers are compared with
//! `tests/fixtures/request_path.json`, recorded from main's binary (before
//! the cut) with
//!
//! ```text
//! REQUEST_PATH_RECORD=1 PREDMARKET_SERVER_BIN=…/main-binary \
//!   cargo test -p predmarket-server --test request_path
//! ```
//!
//! The named exceptions, whose values vary from one request or run to the
//! next, are compared by presence only ([`BY_PRESENCE`]). Bodies are
//! compared within the run: every answer of a page, decompressed, is the
//! identity answer's JSON (less `meta.request_time` and the other members
//! of [`VARYING`]), a `HEAD` has none, an error's JSON is recorded.

#[path = "common/bodies.rs"]
mod bodies;
#[path = "common/process.rs"]
mod process_kit;

use process_kit::{Listening as Process, start_listening};
use serde_json::Value;
use std::collections::BTreeMap;

/// Headers whose values differ from one request or one run to the next:
/// the time (`date`), the seconds left in a rate window, a cache entry's
/// age, and lengths (a body carries its request's time).
const BY_PRESENCE: [&str; 5] = [
    "date",
    "x-ratelimit-reset",
    "retry-after",
    "age",
    "content-length",
];

/// Members of an answer's JSON that differ between two requests (as in
/// `tests/encodings.rs`), and an error's `timestamp`.
const VARYING: [&str; 4] = ["request_time", "next_cursor", "last_check", "timestamp"];

const ALLOWED_ORIGIN: &str = "https://app.example";
const PAGE: &str = "/markets?limit=25&sort=liquidity";
const PAGE_REORDERED: &str = "/markets?sort=liquidity&limit=25";

/// A request: its name in the recording, method, path, headers.
struct Case {
    name: &'static str,
    method: &'static str,
    path: &'static str,
    headers: &'static [(&'static str, &'static str)],
}

const GOOD: (&str, &str) = ("x-api-key", "good");
const BROWSER: (&str, &str) = ("accept-encoding", "gzip, br");

const CASES: &[Case] = &[
    Case {
        name: "page",
        method: "GET",
        path: PAGE,
        headers: &[GOOD],
    },
    Case {
        name: "page, gzip and br",
        method: "GET",
        path: PAGE,
        headers: &[GOOD, BROWSER],
    },
    Case {
        name: "page, gzip",
        method: "GET",
        path: PAGE,
        headers: &[GOOD, ("accept-encoding", "gzip")],
    },
    Case {
        name: "page, query in another order",
        method: "GET",
        path: PAGE_REORDERED,
        headers: &[GOOD, BROWSER],
    },
    Case {
        name: "page, allowed origin",
        method: "GET",
        path: PAGE,
        headers: &[GOOD, BROWSER, ("origin", ALLOWED_ORIGIN)],
    },
    Case {
        name: "page, other origin",
        method: "GET",
        path: PAGE,
        headers: &[GOOD, ("origin", "https://other.example")],
    },
    Case {
        name: "page, HEAD",
        method: "HEAD",
        path: PAGE,
        headers: &[GOOD],
    },
    Case {
        name: "page, HEAD, gzip and br",
        method: "HEAD",
        path: PAGE,
        headers: &[GOOD, BROWSER],
    },
    Case {
        name: "preflight",
        method: "OPTIONS",
        path: PAGE,
        headers: &[
            ("origin", ALLOWED_ORIGIN),
            ("access-control-request-method", "GET"),
            ("access-control-request-headers", "x-api-key"),
        ],
    },
    Case {
        name: "OPTIONS without origin",
        method: "OPTIONS",
        path: PAGE,
        headers: &[GOOD],
    },
    Case {
        name: "bad key",
        method: "GET",
        path: PAGE,
        headers: &[("x-api-key", "nope"), BROWSER, ("origin", ALLOWED_ORIGIN)],
    },
    Case {
        name: "no key",
        method: "GET",
        path: PAGE,
        headers: &[],
    },
    Case {
        name: "tight key, first",
        method: "GET",
        path: PAGE,
        headers: &[("x-api-key", "tight"), BROWSER],
    },
    Case {
        name: "tight key, over its limit",
        method: "GET",
        path: PAGE,
        headers: &[("x-api-key", "tight"), BROWSER, ("origin", ALLOWED_ORIGIN)],
    },
    Case {
        name: "small answer, gzip and br",
        method: "GET",
        path: "/platforms",
        headers: &[GOOD, BROWSER],
    },
    Case {
        name: "unknown path",
        method: "GET",
        path: "/nowhere",
        headers: &[GOOD, BROWSER],
    },
    Case {
        name: "POST",
        method: "POST",
        path: PAGE,
        headers: &[GOOD],
    },
];

/// What the recording holds of an answer.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Recorded {
    status: u16,
    /// Lower-case names; several values of one name joined by a newline;
    /// [`BY_PRESENCE`] values as `*`.
    headers: BTreeMap<String, String>,
    /// An error's JSON (less [`VARYING`]); pages are compared in the run.
    error: Option<Value>,
}

fn binary() -> String {
    std::env::var("PREDMARKET_SERVER_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_predmarket-server").to_owned())
}

/// Starts the binary with `args` and reads its address from its log.
fn start(args: &[&str]) -> Process {
    start_listening(&binary(), args)
}

fn server() -> Process {
    start(&[
        "--api-key",
        "good:unlimited,tight:1,upstream:unlimited",
        "--cors-origin",
        ALLOWED_ORIGIN,
        "--anchor-date",
        "2025-11-02",
        "--scale",
        "0.2",
    ])
}

fn proxy(upstream: &Process, key_file: &std::path::Path) -> Process {
    let upstream = format!("http://{}", upstream.addr);
    start(&[
        "--upstream",
        &upstream,
        "--upstream-key-file",
        key_file.to_str().expect("a UTF-8 temp path"),
        "--api-key",
        "good:unlimited,tight:1",
        "--cors-origin",
        ALLOWED_ORIGIN,
    ])
}

async fn send(addr: &str, case: &Case) -> reqwest::Response {
    let method = reqwest::Method::from_bytes(case.method.as_bytes()).expect("a method");
    let mut request = reqwest::Client::new().request(method, format!("http://{addr}{}", case.path));
    for (name, value) in case.headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("an answer")
}

/// Sends every case to `addr`; checks the bodies; returns the records.
async fn run(target: &str, addr: &str) -> BTreeMap<String, Recorded> {
    let identity = send(addr, &CASES[0]).await;
    assert_eq!(identity.status(), 200, "{target}: the page");
    let page = without_varying(
        serde_json::from_slice(&identity.bytes().await.expect("body")).expect("JSON"),
    );
    let mut records = BTreeMap::new();
    for case in CASES {
        let response = send(addr, case).await;
        let status = response.status().as_u16();
        let mut headers = BTreeMap::<String, String>::new();
        for (name, value) in response.headers() {
            let name = name.as_str().to_owned();
            let value = if BY_PRESENCE.contains(&name.as_str()) {
                "*".to_owned()
            } else {
                value.to_str().expect("an ASCII header").to_owned()
            };
            headers
                .entry(name)
                .and_modify(|v| {
                    v.push('\n');
                    v.push_str(&value);
                })
                .or_insert(value);
        }
        let encoding = response
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().expect("ASCII").to_owned());
        let bytes = response.bytes().await.expect("body");
        let what = format!("{target}: {}", case.name);
        // A `HEAD` says how its body would be coded and sends none.
        let body = if bytes.is_empty() {
            Vec::new()
        } else {
            bodies::decompress(&bytes, encoding.as_deref())
        };
        let mut error = None;
        if case.method == "HEAD" || case.method == "OPTIONS" {
            assert!(bytes.is_empty(), "{what}: a body of {} B", bytes.len());
        } else if status == 200 && case.path.starts_with("/markets") {
            let json: Value = serde_json::from_slice(&body).expect("JSON");
            assert_eq!(without_varying(json), page, "{what}");
        } else if status != 200 {
            error = Some(without_varying(
                serde_json::from_slice(&body).expect("an error's JSON"),
            ));
        }
        records.insert(
            what,
            Recorded {
                status,
                headers,
                error,
            },
        );
    }
    records
}

fn fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/request_path.json")
}

#[tokio::test]
async fn the_request_path_answers_as_main_did() {
    let upstream = server();
    let key_file = std::env::temp_dir().join(format!("pm-request-path-key-{}", std::process::id()));
    std::fs::write(&key_file, "upstream").expect("write the upstream key");
    let proxy = proxy(&upstream, &key_file);
    let mut records = run("server", &upstream.addr).await;
    // Every proxied case a hit: each page asked for once first (the
    // tight key's budget is the proxy's, spent by its two cases alone).
    for case in CASES.iter().filter(|c| c.method == "GET") {
        let warm = Case {
            headers: &[GOOD],
            ..*case
        };
        send(&proxy.addr, &warm).await;
    }
    records.extend(run("proxy hit", &proxy.addr).await);
    let _ = std::fs::remove_file(&key_file);

    if std::env::var_os("REQUEST_PATH_RECORD").is_some() {
        let text = serde_json::to_string_pretty(&records).expect("serialize");
        std::fs::create_dir_all(fixture().parent().expect("a folder")).expect("mkdir");
        std::fs::write(fixture(), text + "\n").expect("write the recording");
        return;
    }
    let recorded: BTreeMap<String, Recorded> =
        serde_json::from_str(&std::fs::read_to_string(fixture()).expect("the recording"))
            .expect("the recording's JSON");
    for (what, expected) in &recorded {
        assert_eq!(records.get(what), Some(expected), "{what}");
    }
    assert_eq!(
        records.keys().collect::<Vec<_>>(),
        recorded.keys().collect::<Vec<_>>()
    );
}

/// `value` without the [`VARYING`] members, wherever they are.
fn without_varying(value: Value) -> Value {
    bodies::without(value, &VARYING)
}
