//! Every encoding of an answer is the same JSON: identity, gzip and
//! brotli, from the local server and from a proxy's cache hit, once
//! decompressed. Fields that legitimately differ between two requests are
//! named in [`VARYING`] and left out of the comparison; everything else
//! must be equal.

#[path = "common/bodies.rs"]
mod bodies;
mod common;

use common::{KEY, TestServer};
use serde_json::Value;

/// Members whose values differ from one request to the next: how long
/// this request took (`meta.request_time`), a cursor (it carries the
/// second it was issued), and a platform's `last_check` (the time of the
/// request, to the second).
const VARYING: [&str; 3] = ["request_time", "next_cursor", "last_check"];

/// What a client sends in `Accept-Encoding`, and the `Content-Encoding` a
/// large answer then has.
const CODINGS: [(Option<&str>, Option<&str>); 4] = [
    (None, None),
    (Some("gzip"), Some("gzip")),
    (Some("br"), Some("br")),
    // What browsers send.
    (Some("gzip, deflate, br, zstd"), Some("br")),
];

/// Answers of several shapes: lists (first and later pages, large and
/// small), single resources, sports, the OpenAPI document.
async fn paths(base: &str) -> Vec<String> {
    let first = get(base, "/markets?limit=2", None).await.1;
    let page: Value = serde_json::from_slice(&first).unwrap();
    let market = page["markets"][0]["id"].as_str().unwrap().to_owned();
    let cursor = page["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    vec![
        "/markets?limit=25".to_owned(),
        "/markets?limit=250&sort=liquidity&order=asc".to_owned(),
        format!("/markets?limit=2&cursor={}", common::enc(&cursor)),
        "/markets?limit=40&query=will&include_raw=true".to_owned(),
        format!("/markets/{}", common::enc(&market)),
        format!("/markets/{}/orderbook", common::enc(&market)),
        "/events?limit=100".to_owned(),
        "/series?limit=10".to_owned(),
        "/platforms".to_owned(),
        "/openapi.json".to_owned(),
        // A list with nothing in it.
        "/markets?limit=5&query=zzqxzzqx".to_owned(),
    ]
}

/// An answer: its status, its bytes as sent, its `Content-Encoding`, and
/// its `Content-Length` when it has one.
type Got = (u16, Vec<u8>, Option<String>, Option<usize>);

async fn get(base: &str, path: &str, accept: Option<&str>) -> Got {
    let mut request = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .header("X-API-Key", KEY);
    if let Some(accept) = accept {
        request = request.header("accept-encoding", accept);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let encoding = response
        .headers()
        .get("content-encoding")
        .map(|v| v.to_str().unwrap().to_owned());
    let length = response
        .headers()
        .get("content-length")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    let bytes = response.bytes().await.unwrap().to_vec();
    (status, bytes, encoding, length)
}

/// Fetches every path in every coding (twice, so that the second is
/// served from what the first left kept) and compares.
async fn every_coding_is_the_same_json(base: &str) {
    for path in paths(base).await {
        let (status, identity, encoding, length) = get(base, &path, None).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(encoding, None, "{path}");
        assert_eq!(length, Some(identity.len()), "{path}");
        let mut expected = without_varying(serde_json::from_slice(&identity).unwrap());
        for round in 0..2 {
            for (accept, wanted) in CODINGS {
                let (status, bytes, encoding, length) = get(base, &path, accept).await;
                assert_eq!(status, 200, "{path} {accept:?}");
                if identity.len() > 8_000 {
                    assert_eq!(encoding.as_deref(), wanted, "{path} {accept:?}");
                    // Compressed from kept parts, sent in pieces: its
                    // length is still known, so it is not sent chunked.
                    assert_eq!(length, Some(bytes.len()), "{path} {accept:?}");
                }
                if identity.len() > 8_000 && encoding.is_some() {
                    // Compressed as well as in one piece, give or take the
                    // head and tail sent as stored blocks.
                    let whole = deflated_len(&identity);
                    assert!(
                        bytes.len() <= whole + whole / 4 + 512,
                        "{path} {accept:?}: {} B sent, {whole} B as one deflate stream",
                        bytes.len()
                    );
                }
                let json = bodies::decompress(&bytes, encoding.as_deref());
                let value: Value = serde_json::from_slice(&json)
                    .unwrap_or_else(|e| panic!("{path} {accept:?} round {round}: {e}"));
                let value = without_varying(value);
                if value != expected {
                    // An order book moves on its tick (`prices::ladder_at`,
                    // BOOK_TICK_SECS): one that crossed a tick since the
                    // identity answer is held against the identity answer
                    // of its own tick, fetched now. A wrong coding matches
                    // neither.
                    let (_, now, _, _) = get(base, &path, None).await;
                    expected = without_varying(serde_json::from_slice(&now).unwrap());
                }
                assert_eq!(value, expected, "{path} {accept:?} round {round}");
            }
        }
    }
}

/// Bytes of `identity` as one deflate stream at flate2's default level.
fn deflated_len(identity: &[u8]) -> usize {
    use std::io::Write;
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(identity).expect("deflate into memory");
    encoder.finish().expect("deflate into memory").len()
}

#[tokio::test]
async fn the_server_answers_the_same_json_in_every_coding() {
    let server = TestServer::unlimited().await;
    every_coding_is_the_same_json(&format!("http://{}", server.addr)).await;
}

#[tokio::test]
async fn a_proxy_hit_is_the_same_json_in_every_coding() {
    let upstream = TestServer::unlimited().await;
    let key_file = std::env::temp_dir().join(format!(
        "pm-encodings-upstream-key-{}-{}",
        std::process::id(),
        upstream.addr.port()
    ));
    std::fs::write(&key_file, KEY).unwrap();
    let mut config = common::unlimited();
    config.proxy.upstream = Some(format!("http://{}", upstream.addr));
    config.proxy.upstream_key_file = Some(key_file.clone());
    config.proxy.upstream_limit = 1_000_000;
    config.quiet = true;
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .unwrap_or_else(|e| panic!("proxy: {e}"));
    let _ = std::fs::remove_file(&key_file);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
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
    every_coding_is_the_same_json(&format!("http://{addr}")).await;
    task.abort();
}

/// `value` without the [`VARYING`] members, wherever they are.
fn without_varying(value: Value) -> Value {
    bodies::without(value, &VARYING)
}
