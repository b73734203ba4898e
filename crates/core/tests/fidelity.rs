//! Value fidelity: every real-shaped fixture of tests/fixtures/public
//! (bodies written from the public service's documented facts) is decoded
//! with the core's response type for its operation, written back, and
//! every value it held is looked for in what was written. A value that
//! does not survive (a field the models drop, a body read into the wrong
//! place) fails the test, so a later change cannot silently lose data.
//!
//! Values are compared as the models normalize them: a numeric string and
//! the number it holds are the same value (`"0.1300"` = `0.13`), as are
//! two forms of one time (ISO text, Unix seconds), and a string holding a
//! JSON array is the same as that array. Paths are compared with the
//! envelope's `data` left out (the envelope may move a page in or out of
//! it; a `data` key deeper down stays in the path) and with the
//! documented renames of each body applied (e.g. events sent under
//! `markets`, one award sent as two objects).

use predmarket_core::models::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/public")
}

fn text(name: &str) -> String {
    let path = dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Decodes `body` as `T` and writes it back; also says how many list
/// items were skipped.
fn trip<T: DeserializeOwned + Serialize>(body: &str) -> Result<Value, String> {
    let decoded: T = serde_json::from_str(body).map_err(|e| e.to_string())?;
    serde_json::to_value(&decoded).map_err(|e| e.to_string())
}

type Trip = fn(&str) -> Result<Value, String>;

/// One fixture: the response type of its operation and the path renames
/// its envelope implies (first matching prefix wins).
struct Case {
    file: &'static str,
    trip: Trip,
    renames: &'static [(&'static str, &'static str)],
}

const fn case(file: &'static str, trip: Trip) -> Case {
    Case {
        file,
        trip,
        renames: &[],
    }
}

/// The second spellings a model reads into its spec field (`#[model(also
/// = ..)]`): (sent, written) of a path's last key.
const ALIASES: &[(&str, &str)] = &[
    ("teams[*].polyrouter_id", "service_id"),
    ("metadata.arena", "stadium"),
];

/// `path` with a documented alias of its last key replaced.
fn unalias(path: String) -> String {
    for (sent, written) in ALIASES {
        let (parent, key) = sent.rsplit_once('.').unwrap_or(("", sent));
        let Some(head) = path.strip_suffix(key).and_then(|h| h.strip_suffix('.')) else {
            continue;
        };
        let parent_key = parent.trim_end_matches("[*]");
        let matches = match head.rsplit_once(parent_key) {
            Some((_, rest)) => rest.is_empty() || (rest.starts_with('[') && rest.ends_with(']')),
            None => false,
        };
        if matches {
            return format!("{head}.{written}");
        }
    }
    path
}

/// Every success body of the folder. A fixture added without a line here
/// fails `every_fixture_is_covered`.
fn cases() -> Vec<Case> {
    vec![
        case("list_markets.json", trip::<MarketsResponse>),
        case("list_markets_offset.json", trip::<MarketsResponse>),
        case("get_orderbook.json", trip::<OrderbookResponse>),
        case("list_trades_wrapped.json", trip::<TradesResponse>),
        case("list_trades_yes_price.json", trip::<TradesResponse>),
        case("list_futures.json", trip::<ListFuturesResponse>),
        case("list_futures_older.json", trip::<ListFuturesResponse>),
        case(
            "list_futures_platform_markets.json",
            trip::<ListFuturesResponse>,
        ),
        case(
            "list_awards_nested_pagination.json",
            trip::<ListAwardsResponse>,
        ),
        case("list_awards_older.json", trip::<ListAwardsResponse>),
        case(
            "list_awards_platform_markets.json",
            trip::<ListAwardsResponse>,
        ),
        Case {
            renames: &[("leagues[", "[")],
            ..case("league_info.json", trip::<LeagueInfoResponse>)
        },
        Case {
            renames: &[("leagues[", "[")],
            ..case("league_info_freshness.json", trip::<LeagueInfoResponse>)
        },
        case("list_games_top_level.json", trip::<ListGamesResponse>),
        case("list_games_older.json", trip::<ListGamesResponse>),
        case("get_game.json", trip::<GameResponse>),
        case("get_game_2_0_0.json", trip::<GameResponse>),
        Case {
            // Two objects of one game: one game, the markets of both.
            renames: &[
                ("games[1].markets[0]", "markets[1]"),
                ("games[0].", ""),
                ("games[1].", ""),
            ],
            ..case("get_game_older.json", trip::<GameResponse>)
        },
        Case {
            renames: &[
                ("futures[1].markets[0]", "markets[1]"),
                ("futures[0].", ""),
                ("futures[1].", ""),
            ],
            ..case("get_future_older.json", trip::<FutureResponse>)
        },
        Case {
            // The second object's metadata describes its own platform's
            // market; the first object's is the award's.
            renames: &[
                ("awards[1].markets[0]", "markets[1]"),
                ("awards[1].metadata", "-"),
                ("awards[1].season", "-"),
                ("awards[0].", ""),
                ("awards[1].", ""),
            ],
            ..case("get_award_older.json", trip::<AwardResponse>)
        },
        case("price_history.json", trip::<PriceHistoryResponse>),
        case("profile_info.json", trip::<ProfileInfoResponse>),
        case("profile_info_kalshi.json", trip::<ProfileInfoResponse>),
        case("profile_trades.json", trip::<ProfileTradesResponse>),
        case(
            "profile_trades_platform.json",
            trip::<ProfileTradesResponse>,
        ),
        Case {
            renames: &[("markets[", "events[")],
            ..case("list_events_markets_key.json", trip::<EventsResponse>)
        },
        case("list_events_offset.json", trip::<EventsResponse>),
        case("list_series_nested_markets.json", trip::<SeriesResponse>),
        case("list_platforms.json", trip::<PlatformsResponse>),
        case("list_platforms_older.json", trip::<PlatformsResponse>),
    ]
}

/// Bodies the fidelity check does not apply to, with why.
const NOT_CHECKED: &[(&str, &str)] = &[
    ("error_platform_unavailable.json", "an error body"),
    ("error_validation_array.json", "an error body"),
    ("error_validation_map.json", "an error body"),
    (
        "list_markets_one_bad_item.json",
        "unreadable items on purpose: they are reported, not kept",
    ),
];

/// Every leaf of `value` with its path (the top-level `data` left out);
/// nulls and empty containers carry no value.
fn leaves(value: &Value, path: String, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                // Only the envelope's own `data`: one dropped deeper down
                // would let a value move between two objects unseen.
                let p = if k == "data" && path.is_empty() {
                    path.clone()
                } else if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                leaves(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{path}[{i}]"), out);
            }
        }
        leaf => out.push((path, leaf.clone())),
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let t = s.trim();
            t.strip_prefix('+').unwrap_or(t).parse::<f64>().ok()
        }
        _ => None,
    }
}

/// The same value as the models normalize values.
fn same(a: &Value, b: &Value) -> bool {
    if a == b {
        return true;
    }
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs());
    }
    let time = |v: &Value| predmarket_core::time::value_ms(v);
    matches!((time(a), time(b)), (Some(x), Some(y)) if x == y)
}

/// The input's values that are not in the output, as `path = value`.
fn lost(input: &Value, output: &Value, renames: &[(&str, &str)]) -> Vec<String> {
    let mut sent = Vec::new();
    leaves(input, String::new(), &mut sent);
    let mut written = Vec::new();
    leaves(output, String::new(), &mut written);
    let mut at: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (p, v) in written {
        at.entry(p).or_default().push(v);
    }
    let found = |path: &str, value: &Value| {
        at.get(path)
            .is_some_and(|vs| vs.iter().any(|w| same(value, w)))
    };
    let mut out = Vec::new();
    for (path, value) in sent {
        let path = renames
            .iter()
            .find_map(|(from, to)| path.strip_prefix(from).map(|rest| format!("{to}{rest}")))
            .unwrap_or(path);
        let path = unalias(path);
        if path.starts_with('-') {
            continue;
        }
        if found(&path, &value) {
            continue;
        }
        // A JSON array sent as text (`clobTokenIds`): the array's values.
        if let Value::String(s) = &value
            && let Ok(Value::Array(items)) = serde_json::from_str::<Value>(s)
            && items
                .iter()
                .enumerate()
                .all(|(i, item)| found(&format!("{path}[{i}]"), item))
        {
            continue;
        }
        out.push(format!("{path} = {value}"));
    }
    out
}

#[test]
fn every_fixture_is_covered() {
    let cases = cases();
    let mut missing = Vec::new();
    let entries = std::fs::read_dir(dir()).expect("the fixtures folder");
    for entry in entries {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy().into_owned();
        if !name.ends_with(".json") {
            continue;
        }
        let known =
            cases.iter().any(|c| c.file == name) || NOT_CHECKED.iter().any(|(n, _)| *n == name);
        if !known {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "fixtures without a fidelity case: {missing:?}"
    );
}

#[test]
fn every_value_of_every_fixture_survives_decoding_and_writing_back() {
    let mut failures = Vec::new();
    for case in cases() {
        let body = text(case.file);
        let input: Value = serde_json::from_str(&body).expect("fixtures are JSON");
        match (case.trip)(&body) {
            Ok(output) => {
                let lost = lost(&input, &output, case.renames);
                if !lost.is_empty() {
                    failures.push(format!("{}: lost\n    {}", case.file, lost.join("\n    ")));
                }
            }
            Err(e) => failures.push(format!("{}: does not decode: {e}", case.file)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The check itself: a value dropped, changed or moved is reported.
#[test]
fn a_dropped_changed_or_moved_value_is_reported() {
    let input = serde_json::json!({
        "data": {"trades": [{"trade_id": "t", "yes_price": 0.13, "metadata": {"yes_price_dollars": "0.1300"}}]},
        "meta": {"request_time": 5}
    });
    let whole = serde_json::json!({
        "trades": [{"trade_id": "t", "yes_price": "0.13", "metadata": {"yes_price_dollars": 0.13}}],
        "meta": {"request_time": 5.0}
    });
    assert!(lost(&input, &whole, &[]).is_empty());
    let dropped = serde_json::json!({"trades": [{"trade_id": "t"}], "meta": {"request_time": 5}});
    assert_eq!(
        lost(&input, &dropped, &[]),
        [
            "trades[0].metadata.yes_price_dollars = \"0.1300\"",
            "trades[0].yes_price = 0.13"
        ]
    );
    let changed = serde_json::json!({
        "trades": [{"trade_id": "t", "yes_price": 0.0013, "metadata": {"yes_price_dollars": "0.1300"}}],
        "meta": {"request_time": 5}
    });
    assert_eq!(lost(&input, &changed, &[]), ["trades[0].yes_price = 0.13"]);
    let moved = serde_json::json!({
        "trades": [{"trade_id": "t"}, {"yes_price": 0.13, "metadata": {"yes_price_dollars": "0.1300"}}],
        "meta": {"request_time": 5}
    });
    assert_eq!(lost(&input, &moved, &[]).len(), 2);
    // The inner and outer `meta` of a trades page are one `meta` written
    // back: a key both say differently keeps one value, the other is lost.
    let both = serde_json::json!({
        "data": {"trades": [], "meta": {"market_id": "m", "platform": "kalshi"}},
        "meta": {"request_time": 5, "platform": "polymarket"}
    });
    let merged = serde_json::json!({
        "trades": [], "meta": {"market_id": "m", "platform": "polymarket", "request_time": 5}
    });
    assert_eq!(lost(&both, &merged, &[]), ["meta.platform = \"kalshi\""]);
    // A `data` key below the top is part of the path: a value moved out
    // of it is reported.
    let nested = serde_json::json!({"trades": [{"metadata": {"data": {"x": 1}}}]});
    let flattened = serde_json::json!({"trades": [{"metadata": {"x": 1}}]});
    assert_eq!(
        lost(&nested, &flattened, &[]),
        ["trades[0].metadata.data.x = 1"]
    );
}
