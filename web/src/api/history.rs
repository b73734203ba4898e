//! A watched resource's recorded rows, from the server's `GET /history`
//! (an extension served only where the server records or replays; see
//! docs/record.md). Whether the server serves it is read from its
//! `/openapi.json` (`x-history`) once per service: asking a server that
//! does not would be a 404, which the browser logs as an error.

use super::session::client;
use super::settings::Settings;
use predmarket_client::Body;
use predmarket_client::core::HttpRequest;
use predmarket_client::core::change::WatchKind;
pub use predmarket_client::core::history::{self, Continuity};
use predmarket_client::{CallOptions, CancelToken, Error};
use serde_json::Value;
use std::cell::RefCell;

/// Rows one request asks for: the server's most, an hour of a book at
/// its usual cadence of 5 s.
pub const ROWS: usize = history::MAX_LIMIT;

/// One recorded answer.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    pub received_ms: f64,
    pub continuity: Continuity,
    /// The answer whole, as the server got it (untrusted: read, never
    /// rendered as markup).
    pub answer: Value,
}

/// The rows of a window, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub rows: Vec<HistoryRow>,
    /// The window holds more rows than one answer: these are its oldest.
    pub more: bool,
}

/// Reads an answer of `GET /history` (tolerant: a row without its time
/// is skipped, an unknown continuity is a break).
pub fn parse_history(text: &str) -> Result<Recorded, Error> {
    let page: Value = serde_json::from_str(text).map_err(|e| Error::decode(Some(200), e, text))?;
    let rows = page
        .get("data")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|row| {
            Some(HistoryRow {
                received_ms: row
                    .get("received_ms")
                    .and_then(Value::as_f64)
                    .filter(|ms| ms.is_finite())?,
                // An unknown word is read as a break, never as
                // "continues": carrying state across it would be a guess.
                continuity: Continuity::parse(
                    row.get("continuity").and_then(Value::as_str).unwrap_or(""),
                    // A length written with a fraction is read to the ms.
                    row.get("gap_ms")
                        .and_then(Value::as_f64)
                        .map(|ms| ms as i64),
                )
                .unwrap_or(Continuity::Resync),
                answer: row.get("answer").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    let more = page
        .pointer("/meta/next_from")
        .is_some_and(|next| !next.is_null());
    Ok(Recorded { rows, more })
}

thread_local! {
    /// Whether the service of these settings serves `/history`, once known.
    static SERVED: RefCell<Option<(Settings, bool)>> = const { RefCell::new(None) };
}

/// Whether the current service serves `GET /history`: its OpenAPI
/// document names it (`x-history`). Asked once per service.
async fn served(cancel: &CancelToken) -> Result<bool, Error> {
    let settings = Settings::load();
    if let Some(known) = SERVED.with(|s| {
        s.borrow()
            .as_ref()
            .filter(|(of, _)| *of == settings)
            .map(|(_, known)| *known)
    }) {
        return Ok(known);
    }
    let body = client()?
        .send_http(
            &HttpRequest::new("/openapi.json"),
            &CallOptions::with_cancel(cancel.clone()),
        )
        .await?
        .into_text();
    let document: Value =
        serde_json::from_str(&body).map_err(|e| Error::decode(Some(200), e, &body))?;
    let known = document.get("x-history").is_some();
    SERVED.with(|s| *s.borrow_mut() = Some((settings, known)));
    Ok(known)
}

/// The last hour of `kind` `id` as the server recorded it (its oldest
/// `ROWS` when it holds more), or `None` where the server keeps no history.
pub async fn recorded(
    kind: WatchKind,
    id: &str,
    cancel: &CancelToken,
) -> Result<Option<Recorded>, Error> {
    if !served(cancel).await? {
        return Ok(None);
    }
    let request = HttpRequest::new(history::PATH)
        .param("resource", Some(kind.resource(id)))
        .param("limit", Some(ROWS));
    let body = client()?
        .send_http(&request, &CallOptions::with_cancel(cancel.clone()))
        .await?
        .into_text();
    parse_history(&body).map(Some)
}
