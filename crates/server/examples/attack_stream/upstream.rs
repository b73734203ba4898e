//! The fake upstream the attacked proxies stand in front of: books that
//! move, stand still, fail, are big, or do not exist yet.

use crate::*;

/// The fake upstream: every request's time and target.
#[derive(Default)]
pub(crate) struct Upstream {
    pub(crate) seen: Mutex<Vec<(Instant, String)>>,
    pub(crate) started: Option<Instant>,
    /// Whether tomorrow's book (`good-tomorrow*`) exists yet: until then
    /// the upstream refuses it with its typed 404.
    pub(crate) tomorrow_exists: std::sync::atomic::AtomicBool,
    /// Answers of huge books so far: each one's levels differ from the
    /// one before (`huge_book`).
    pub(crate) huge_answers: std::sync::atomic::AtomicU64,
}

impl Upstream {
    /// Distinct targets holding `part`.
    pub(crate) fn distinct(&self, part: &str) -> usize {
        let seen = self.seen.lock().map(|s| s.clone()).unwrap_or_default();
        let mut targets: Vec<&String> = seen
            .iter()
            .map(|(_, t)| t)
            .filter(|t| t.contains(part))
            .collect();
        targets.sort();
        targets.dedup();
        targets.len()
    }

    /// The most requests in any 60 s.
    pub(crate) fn busiest_minute(&self) -> usize {
        let at: Vec<Instant> = self
            .seen
            .lock()
            .map(|s| s.iter().map(|(at, _)| *at).collect())
            .unwrap_or_default();
        let mut most = 0;
        let mut start = 0;
        for end in 0..at.len() {
            while at[end].duration_since(at[start]) >= Duration::from_secs(60) {
                start += 1;
            }
            most = most.max(end + 1 - start);
        }
        most
    }
}

/// A book: `broken*` ids answer 502, `big*` ones carry `BIG` bytes,
/// `huge*` ones are `huge_book`s, changed on every answer, the good
/// viewer's (`good*`) moves every `CADENCE`, the rest stand still.
pub(crate) async fn answer(State(upstream): State<Arc<Upstream>>, uri: Uri) -> Response {
    let target = uri.to_string();
    if let Ok(mut seen) = upstream.seen.lock() {
        seen.push((Instant::now(), target.clone()));
    }
    let path = uri.path();
    let Some(id) = path
        .strip_prefix("/v2/markets/")
        .and_then(|rest| rest.strip_suffix("/orderbook"))
    else {
        let body = json!({ "error": { "code": "NOT_FOUND", "message": "no such path" } });
        return (StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    };
    if id.starts_with("good-tomorrow")
        && !upstream
            .tomorrow_exists
            .load(std::sync::atomic::Ordering::SeqCst)
    {
        let body = json!({ "error": { "code": "NOT_FOUND", "message": "no such market" } });
        return (StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    }
    if id.starts_with("broken") {
        return (StatusCode::BAD_GATEWAY, "<html>bad gateway</html>").into_response();
    }
    if id.starts_with("huge") {
        let answer = upstream
            .huge_answers
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        return huge_book(id, answer);
    }
    let tick = if id.starts_with("good") {
        upstream
            .started
            .map_or(0, |s| s.elapsed().as_secs() / CADENCE.as_secs().max(1))
    } else {
        0
    };
    let price = 0.01 * ((tick % 90) + 1) as f64;
    let mut book = json!({
        "market_id": id,
        "platform": "polymarket",
        "yes": { "bids": [{ "price": price, "size": 100 }], "asks": [{ "price": 0.99, "size": 100 }] },
        "no": { "bids": [], "asks": [] },
    });
    if id.starts_with("big")
        && let Some(object) = book.as_object_mut()
    {
        object.insert("filler".into(), Value::from("x".repeat(BIG)));
    }
    axum::Json(json!({ "data": book, "meta": {} })).into_response()
}

/// Levels of a huge book (about 30 bytes each in the answer) and its
/// filler: the answer (8.0 MB) under the 8 MiB a poll reads, the changes
/// of all its levels (about 69 bytes each, 10.4 MB) with it over the
/// 16 MiB an event may be in Redis. As few levels as that allows: a
/// debug build diffs and writes them on every poll.
const HUGE_LEVELS: usize = 150_000;
const HUGE_FILLER: usize = 3_500_000;

/// A book whose every level changes size from one answer to the next
/// (`answer`: how many came before; a size of its own per answer, so
/// even two polls with another answer between them differ; always three
/// digits, so the answer keeps its length), written as text: a `json!`
/// of a quarter of a million levels is slow in a debug build. Changed
/// per answer, not per `CADENCE`: a size taken from the clock's tick
/// (100 on even ticks, 200 on odd) was the same for two polls an even
/// number of ticks apart, which a loaded machine makes common (a poll
/// every interval after the last one ended, so 2 s plus the seconds a
/// debug build takes over the book: about 4 s, two ticks); such a poll
/// has no change, so nothing over the cap to refuse.
fn huge_book(id: &str, answer: u64) -> Response {
    use std::fmt::Write;
    let size = 100 + answer % 900;
    let mut bids = String::with_capacity(HUGE_LEVELS * 32);
    for level in 0..HUGE_LEVELS {
        let price = (level + 1) as f64 / 1_000_000.0;
        let comma = if level == 0 { "" } else { "," };
        let _ = write!(bids, r#"{comma}{{"price":{price},"size":{size}}}"#);
    }
    let body = format!(
        r#"{{"data":{{"market_id":{},"platform":"polymarket","filler":"{}","yes":{{"bids":[{bids}],"asks":[]}},"no":{{"bids":[],"asks":[]}}}},"meta":{{}}}}"#,
        Value::from(id),
        "x".repeat(HUGE_FILLER)
    );
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

pub(crate) async fn start_upstream() -> Result<(SocketAddr, Arc<Upstream>), String> {
    let upstream = Arc::new(Upstream {
        started: Some(Instant::now()),
        ..Upstream::default()
    });
    let app = axum::Router::new()
        .fallback(answer)
        .with_state(upstream.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("upstream: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((addr, upstream))
}
