//! One archived answer as a row: who it is about, when, and the values a
//! query needs parsed out of it (a book's levels per outcome and side; the
//! numbers of anything else by JSON path), beside the answer whole. What
//! could identify a reader (a cursor) never enters a row.

use super::continuity::Placed;
use predmarket_core::change::WatchKind;
use predmarket_core::models::Orderbook;
use serde_json::Value;

/// Numbers kept per row by path (a game's odds, a market's prices); an
/// answer with more keeps the first ones met.
pub const MAX_VALUES: usize = 256;

/// Keys whose values are pagination positions: tied to whoever paged, so
/// never written.
const CURSOR_KEYS: [&str; 2] = ["next_cursor", "cursor"];

/// One price level of a book.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// `yes` or `no`.
    pub outcome: &'static str,
    /// `bids` or `asks`.
    pub side: &'static str,
    pub price: f64,
    pub size: f64,
}

/// One row of the archive.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub kind: WatchKind,
    pub id: String,
    pub platform: Option<String>,
    /// The service's own timestamp for the data (a book's `timestamp`,
    /// else the answer's `data_freshness`).
    pub as_of: Option<String>,
    /// Unix ms when the answer arrived.
    pub received_ms: i64,
    /// How old the data was when it arrived (a cached answer's age).
    pub age_ms: i64,
    pub wanted_ms: Option<i64>,
    pub place: Placed,
    pub levels: Vec<Level>,
    /// The yes book's mid price (best bid and best ask), when it has both.
    pub mid: Option<f64>,
    pub values: Vec<(String, f64)>,
    /// The answer as JSON text, cursors removed.
    pub answer: String,
}

/// What an answer says, parsed: the columns that come from the body.
pub struct Parsed {
    pub platform: Option<String>,
    pub as_of: Option<String>,
    pub levels: Vec<Level>,
    pub mid: Option<f64>,
    pub values: Vec<(String, f64)>,
    pub answer: String,
}

/// Reads the columns a query needs out of `body` (an answer of `kind`).
pub fn parse(kind: WatchKind, mut body: Value) -> Parsed {
    scrub(&mut body);
    let payload = kind.payload_pointer();
    let text = |pointer: &str| {
        body.pointer(pointer)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let platform = text(&format!("{payload}/platform"));
    let as_of = kind.as_of(&body);
    let (levels, mid, values) = match kind {
        WatchKind::Orderbook => {
            let book = body
                .pointer(payload)
                .and_then(|d| serde_json::from_value::<Orderbook>(d.clone()).ok());
            let (levels, mid) = book.map_or((Vec::new(), None), |b| book_levels(&b));
            (levels, mid, Vec::new())
        }
        _ => {
            let mut values = Vec::new();
            if let Some(resource) = body.pointer(payload) {
                numbers(resource, &mut String::from(payload), &mut values);
            }
            (Vec::new(), None, values)
        }
    };
    Parsed {
        platform,
        as_of,
        levels,
        mid,
        values,
        answer: body.to_string(),
    }
}

/// Every level of both outcomes' books, and the yes book's mid.
fn book_levels(book: &Orderbook) -> (Vec<Level>, Option<f64>) {
    let mut levels = Vec::new();
    for (outcome, side) in [("yes", &book.yes), ("no", &book.no)] {
        let Some(side) = side else { continue };
        for (name, list) in [("bids", &side.bids), ("asks", &side.asks)] {
            levels.extend(list.iter().map(|l| Level {
                outcome,
                side: name,
                price: l.price,
                size: l.size,
            }));
        }
    }
    let mid = book.yes.as_ref().and_then(|yes| {
        let bid = yes.bids.iter().map(|l| l.price).reduce(f64::max)?;
        let ask = yes.asks.iter().map(|l| l.price).reduce(f64::min)?;
        Some((bid + ask) / 2.0)
    });
    (levels, mid)
}

/// The finite numbers under `value`, by JSON pointer, at most `MAX_VALUES`.
fn numbers(value: &Value, path: &mut String, out: &mut Vec<(String, f64)>) {
    if out.len() >= MAX_VALUES {
        return;
    }
    let len = path.len();
    match value {
        Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|x| x.is_finite()) {
                out.push((path.clone(), x));
            }
        }
        Value::Object(map) => {
            for (key, child) in map {
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                numbers(child, path, out);
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push('/');
                path.push_str(&i.to_string());
                numbers(child, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Removes every cursor, at any depth.
fn scrub(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for key in CURSOR_KEYS {
                map.remove(key);
            }
            map.values_mut().for_each(scrub);
        }
        Value::Array(items) => items.iter_mut().for_each(scrub),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_book_gives_its_levels_and_mid_and_no_cursor_is_kept() {
        let body = json!({
            "data": {
                "market_id": "m1", "platform": "platform_a", "timestamp": "2026-11-27T10:00:00Z",
                "yes": {"bids": [{"price": 0.4, "size": 10.0}, {"price": 0.42, "size": 5.0}],
                        "asks": [{"price": 0.47, "size": 3.0}]},
                "no": {"bids": [{"price": 0.53, "size": 1.0}], "asks": []}
            },
            "meta": {"next_cursor": "secret-position"}
        });
        let parsed = parse(WatchKind::Orderbook, body);
        assert_eq!(parsed.platform.as_deref(), Some("platform_a"));
        assert_eq!(parsed.as_of.as_deref(), Some("2026-11-27T10:00:00Z"));
        assert_eq!(parsed.levels.len(), 4);
        assert_eq!(
            parsed.levels[3],
            Level {
                outcome: "no",
                side: "bids",
                price: 0.53,
                size: 1.0
            }
        );
        assert_eq!(parsed.mid, Some((0.42 + 0.47) / 2.0));
        assert!(parsed.values.is_empty());
        assert!(
            !parsed.answer.contains("secret-position"),
            "{}",
            parsed.answer
        );
    }

    #[test]
    fn a_market_answer_gives_its_platform_and_prices_from_its_list_of_one() {
        let body = json!({
            "markets": [{"id": "m1", "platform": "platform_b",
                         "current_prices": {"yes": {"price": 0.61}, "no": {"price": 0.39}}}],
            "pagination": {"next_cursor": "secret-position"},
            "meta": {"data_freshness": "2026-11-27T10:00:05Z"}
        });
        let parsed = parse(WatchKind::Market, body);
        assert_eq!(parsed.platform.as_deref(), Some("platform_b"));
        assert_eq!(parsed.as_of.as_deref(), Some("2026-11-27T10:00:05Z"));
        assert_eq!(
            parsed.values,
            vec![
                ("/markets/0/current_prices/no/price".to_owned(), 0.39),
                ("/markets/0/current_prices/yes/price".to_owned(), 0.61)
            ]
        );
        assert!(!parsed.answer.contains("secret-position"));
    }

    #[test]
    fn anything_else_gives_its_numbers_by_path_up_to_the_cap() {
        let body = json!({"data": {"odds": [{"price": 1.5}, {"price": "n/a"}], "a/b": 2}});
        let parsed = parse(WatchKind::Game, body);
        assert_eq!(
            parsed.values,
            vec![
                ("/data/a~1b".to_owned(), 2.0),
                ("/data/odds/0/price".to_owned(), 1.5)
            ]
        );
        let many = json!({"data": (0..1000).collect::<Vec<_>>()});
        assert_eq!(parse(WatchKind::Future, many).values.len(), MAX_VALUES);
    }
}
