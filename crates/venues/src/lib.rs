//! `predmarket/venues`: the core's cross-platform equivalence, fee models
//! and net arbitrage as plain JS functions, in a wasm of their own so the
//! main entry's size does not grow for users who never compare markets.
//!
//! Everything crosses as JSON text: the entry (`js/venues.js`) keeps only
//! the fields the comparison reads of each market before it stringifies
//! them, and parses the answer. The functions here are the `__` exports
//! the entry wraps; the plain-Rust halves (`*_json`) are what the native
//! tests call.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use predmarket_core::equivalence::{self, PairOptions, Relation};
use predmarket_core::fees::{self, FeeModel, Venue};
use predmarket_core::models::{Market, MarketType, Orderbook, Outcome, PlatformId};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

/// The fields of a market the comparison reads. Not the core's `Market`:
/// its derived decoder (every field, the flattened rest) would be most of
/// this wasm.
#[derive(Deserialize)]
struct MarketIn {
    id: String,
    platform: Option<String>,
    title: Option<String>,
    market_type: Option<String>,
    /// Each outcome's id and name: their count (more than two: not
    /// binary) and which one is YES. Pairs, not objects: a struct's
    /// decoder costs this wasm more.
    outcomes: Option<Vec<(String, Option<String>)>>,
    /// The keys of the market's prices: one keyed `Yes` says which side
    /// is YES.
    price_keys: Option<Vec<String>>,
    event_name: Option<String>,
    trading_end_at: Option<String>,
    resolution_date: Option<String>,
    resolution_source: Option<String>,
    resolution_criteria: Option<String>,
    fee_rate: Option<f64>,
    trading_fee: Option<f64>,
}

impl From<MarketIn> for Market {
    fn from(m: MarketIn) -> Self {
        let mut out = Market::new(m.id);
        out.platform = m.platform.map(PlatformId::from);
        out.title = m.title;
        out.market_type = m.market_type.map(MarketType::from);
        out.outcomes = m.outcomes.map(|o| {
            o.into_iter()
                .map(|(id, name)| Outcome { id, name })
                .collect()
        });
        out.current_prices = m.price_keys.map(|keys| {
            keys.into_iter()
                .map(|k| (k, serde_json::Value::Null))
                .collect()
        });
        out.event_name = m.event_name;
        out.trading_end_at = m.trading_end_at;
        out.resolution_date = m.resolution_date;
        out.resolution_source = m.resolution_source;
        out.resolution_criteria = m.resolution_criteria;
        out.fee_rate = m.fee_rate;
        out.trading_fee = m.trading_fee;
        out
    }
}

fn read_market(what: &str, json: &str) -> Result<Market, String> {
    read::<MarketIn>(what, json).map(Market::from)
}

fn read<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| format!("{what}: {e}"))
}

fn write<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// `classifyPair(a, b)`: the classification of two markets.
pub fn classify_pair_json(a: &str, b: &str) -> Result<String, String> {
    let a = read_market("a", a)?;
    let b = read_market("b", b)?;
    write(&equivalence::classify(&a, &b))
}

/// The relations in the order of the bits of `findPairs`'s `relations`
/// mask (the entry turns the names into bits: no strings to read here).
const RELATION_BITS: [Relation; 6] = [
    Relation::Same,
    Relation::Inverted,
    Relation::Subset,
    Relation::Superset,
    Relation::Different,
    Relation::Unsure,
];

/// `findPairs(markets, options)`: the pairs found, by index, without
/// their reasons. `relations`: a mask of `RELATION_BITS`, 0 for every
/// relation `include_different` lets through.
pub fn find_pairs_json(
    markets: &str,
    include_different: bool,
    same_platform: bool,
    relations: u32,
) -> Result<String, String> {
    let markets: Vec<Market> = read::<Vec<MarketIn>>("markets", markets)?
        .into_iter()
        .map(Market::from)
        .collect();
    // Reasons are left to `classifyPair`, one pair at a time: formatted
    // for thousands of pairs they would be most of the time and the answer.
    let options = PairOptions {
        include_different,
        same_platform,
        without_reasons: true,
        relations: (relations != 0).then(|| {
            RELATION_BITS
                .iter()
                .enumerate()
                .filter(|(bit, _)| relations & (1 << bit) != 0)
                .map(|(_, r)| *r)
                .collect()
        }),
    };
    write(&equivalence::find_pairs(&markets, &options))
}

/// `feeModel(market, override?)`.
pub fn fee_model_json(market: &str, overriding: &str) -> Result<String, String> {
    let market = read_market("market", market)?;
    let overriding: Option<FeeModel> = read("fee", overriding)?;
    write(&fees::fee_model(&market, overriding))
}

/// One side of `netArbitrage`.
#[derive(Deserialize)]
struct Side {
    market: MarketIn,
    orderbook: Orderbook,
    fee: Option<FeeModel>,
}

/// `netArbitrage(a, b, { size, now })`: the classification of the two
/// markets and the better way of holding both sides, net of fees; no gap
/// (`null`) unless the two are `same` or `inverted` with no veto, since a
/// gap between two questions is a bet, not an arbitrage.
pub fn net_arbitrage_json(
    a: &str,
    b: &str,
    size: f64,
    now_ms: Option<f64>,
) -> Result<String, String> {
    let a: Side = read("a", a)?;
    let b: Side = read("b", b)?;
    let (am, bm) = (Market::from(a.market), Market::from(b.market));
    let classification = equivalence::classify(&am, &bm);
    let gap = classification
        .allows_gap()
        .then(|| {
            fees::net_gap(
                Venue {
                    market: &am,
                    orderbook: &a.orderbook,
                    fee: a.fee,
                },
                Venue {
                    market: &bm,
                    orderbook: &b.orderbook,
                    fee: b.fee,
                },
                &classification,
                size,
                now_ms.filter(|n| n.is_finite()).map(|n| n as i64),
            )
        })
        .flatten();
    write(&Arbitrage {
        classification: &classification,
        gap,
    })
}

/// `netArbitrage`'s answer, written straight to text: a `json!` tree
/// would bring serde_json's `Value` (its map, its serializer and a second
/// serializer of every classification type) into this wasm for one
/// object.
#[derive(serde::Serialize)]
struct Arbitrage<'a> {
    classification: &'a equivalence::Classification,
    gap: Option<fees::NetGap>,
}

fn js(result: Result<String, String>) -> Result<String, JsValue> {
    result.map_err(|e| JsValue::from_str(&e))
}

#[wasm_bindgen(js_name = "__classifyPair")]
pub fn classify_pair(a: &str, b: &str) -> Result<String, JsValue> {
    js(classify_pair_json(a, b))
}

#[wasm_bindgen(js_name = "__findPairs")]
pub fn find_pairs(
    markets: &str,
    include_different: bool,
    same_platform: bool,
    relations: u32,
) -> Result<String, JsValue> {
    js(find_pairs_json(
        markets,
        include_different,
        same_platform,
        relations,
    ))
}

#[wasm_bindgen(js_name = "__feeModel")]
pub fn fee_model(market: &str, overriding: &str) -> Result<String, JsValue> {
    js(fee_model_json(market, overriding))
}

#[wasm_bindgen(js_name = "__netArbitrage")]
pub fn net_arbitrage(a: &str, b: &str, size: f64, now_ms: Option<f64>) -> Result<String, JsValue> {
    js(net_arbitrage_json(a, b, size, now_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn classifies_markets_as_the_service_sends_them() {
        // Extra fields, prices as objects and ids in any form are read.
        let a = json!({"id": "1", "platform": "platform_a", "title": "Bitcoin above $95,000 on March 3?",
            "trading_end_at": "2026-03-03T00:00:00Z", "current_prices": {"yes": {"price": 0.4}}, "raw_data": {}});
        let b = json!({"id": "x", "platform": "platform_c", "title": "Will BTC close at or below $95k on Mar 3, 2026?",
            "trading_end_at": "2026-03-03T00:00:00Z"});
        let out: Value =
            serde_json::from_str(&classify_pair_json(&a.to_string(), &b.to_string()).unwrap())
                .unwrap();
        assert_eq!(out["relation"], "inverted");
        assert_eq!(out["outcome_mapping"], "yes_no");
        assert!(
            out["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["field"] == "threshold")
        );
        assert!(classify_pair_json("{}", "[]").is_err());
    }

    #[test]
    fn outcomes_as_the_entry_passes_them_say_which_side_is_yes() {
        // `venues.js` passes each outcome as `[id, name]` and the prices'
        // keys as `price_keys`.
        let market = |id: &str, platform: &str, outcomes: Value| {
            json!({"id": id, "platform": platform,
            "title": "Bitcoin above $95,000 on March 3?", "trading_end_at": "2026-03-03T00:00:00Z",
            "outcomes": outcomes})
        };
        let relation = |a: &Value, b: &Value| -> Value {
            serde_json::from_str::<Value>(
                &classify_pair_json(&a.to_string(), &b.to_string()).unwrap(),
            )
            .unwrap()["relation"]
                .clone()
        };
        let yes_no = json!([["tok1", "Yes"], ["tok2", "No"]]);
        let a = market("a", "platform_a", yes_no.clone());
        assert_eq!(relation(&a, &market("c", "platform_c", yes_no)), "same");
        // Ids only, YES named by the prices' keys.
        let mut priced = market("c", "platform_c", json!([["0", null], ["1", null]]));
        priced["price_keys"] = json!(["Yes", "No"]);
        assert_eq!(relation(&a, &priced), "same");
        // Two teams: which one is YES is not said.
        let teams = market(
            "c",
            "platform_c",
            json!([["1", "Lakers"], ["2", "Celtics"]]),
        );
        assert_eq!(relation(&a, &teams), "unsure");
    }

    #[test]
    fn find_pairs_keeps_the_relations_of_the_mask() {
        let market = |id: &str, platform: &str, title: &str| json!({"id": id, "platform": platform, "title": title, "trading_end_at": "2026-03-03T00:00:00Z"});
        let markets = json!([
            market("a", "platform_a", "Bitcoin above $95,000 on March 3?"),
            market(
                "b",
                "platform_c",
                "Will BTC close at or below $95k on Mar 3, 2026?"
            ),
            market("c", "platform_d", "Bitcoin above $95,000 on March 3?"),
        ])
        .to_string();
        let relations = |mask| -> Vec<String> {
            let out: Value =
                serde_json::from_str(&find_pairs_json(&markets, false, false, mask).unwrap())
                    .unwrap();
            out.as_array()
                .unwrap()
                .iter()
                .map(|p| p["classification"]["relation"].as_str().unwrap().to_owned())
                .collect()
        };
        let all = relations(0);
        assert!(all.contains(&"same".to_owned()) && all.contains(&"inverted".to_owned()));
        assert!(relations(1).iter().all(|r| r == "same"));
        assert_eq!(
            relations(1).len(),
            all.iter().filter(|r| *r == "same").count()
        );
        assert_eq!(relations(0b11).len(), all.len());
        // A mask of no relation keeps nothing.
        assert!(relations(1 << 6).is_empty());
    }

    #[test]
    fn net_arbitrage_reads_books_and_fees() {
        let market = |id: &str, platform: &str| {
            json!({"id": id, "platform": platform, "title": "Bitcoin above $95,000 on March 3?",
                "trading_end_at": "2026-03-03T00:00:00Z", "resolution_source": "X"})
        };
        let book = |yes: f64, no: f64| {
            json!({"timestamp": "2026-03-01T12:00:00Z",
                "yes": {"bids": [], "asks": [{"price": yes, "size": 10}]},
                "no": {"bids": [], "asks": [{"price": no, "size": 10}]}})
        };
        let a = json!({"market": market("a", "platform_a"), "orderbook": book(0.40, 0.62)});
        let b = json!({"market": market("b", "platform_e"), "orderbook": book(0.58, 0.55)});
        let now = 1_772_366_405_000.0; // 2026-03-01T12:00:05Z
        let out: Value = serde_json::from_str(
            &net_arbitrage_json(&a.to_string(), &b.to_string(), 10.0, Some(now)).unwrap(),
        )
        .unwrap();
        // YES on a at 0.40 and NO on b at 0.55, no fees on either platform:
        // 10 × (1 − 0.95) = 0.50.
        assert_eq!(out["classification"]["relation"], "same");
        assert!((out["gap"]["net_profit"].as_f64().unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(out["gap"]["legs"][0]["quote_age_ms"], 5000);
        assert_eq!(out["gap"]["conditional"], false);
        // Another settlement source: a veto, and no gap however the books
        // stand.
        let mut other = b.clone();
        other["market"]["resolution_source"] = json!("Y");
        let out: Value = serde_json::from_str(
            &net_arbitrage_json(&a.to_string(), &other.to_string(), 10.0, Some(now)).unwrap(),
        )
        .unwrap();
        assert_eq!(out["classification"]["relation"], "different");
        assert_eq!(
            out["classification"]["vetoes"],
            json!(["settlement_source_differs"])
        );
        assert_eq!(out["gap"], Value::Null);
    }
}
