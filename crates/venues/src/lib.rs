//! `predmarket/venues`' matcher: the core's cross-platform equivalence as
//! plain JS functions, in a wasm of its own so the main entry's size does
//! not grow for users who never compare markets. The fee models and the
//! pricing of `netArbitrage` are another wasm's (crates/venues-fees),
//! loaded on their first call: an app that only matches ships none of it.
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
use predmarket_core::models::{Market, MarketType, Outcome, PlatformId};
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

/// `netArbitrage`'s first half: the classification of the two markets,
/// and what the fee wasm's pricing reads of it, by the classification's
/// own rules: whether a gap may be priced at all
/// (`Classification::allows_gap`: `same` or `inverted` with no veto) and
/// whether it is firm (`Classification::is_firm`).
pub fn classify_for_gap_json(a: &str, b: &str) -> Result<String, String> {
    let a = read_market("a", a)?;
    let b = read_market("b", b)?;
    let classification = equivalence::classify(&a, &b);
    write(&ForGap {
        allows_gap: classification.allows_gap(),
        firm: classification.is_firm(),
        classification: &classification,
    })
}

/// [`classify_for_gap_json`]'s answer, written straight to text.
#[derive(serde::Serialize)]
struct ForGap<'a> {
    classification: &'a equivalence::Classification,
    allows_gap: bool,
    firm: bool,
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

#[wasm_bindgen(js_name = "__classifyForGap")]
pub fn classify_for_gap(a: &str, b: &str) -> Result<String, JsValue> {
    js(classify_for_gap_json(a, b))
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
    fn a_gap_is_allowed_for_same_or_inverted_without_a_veto() {
        let market = |id: &str, platform: &str, source: &str| {
            json!({"id": id, "platform": platform, "title": "Bitcoin above $95,000 on March 3?",
                "trading_end_at": "2026-03-03T00:00:00Z", "resolution_source": source})
            .to_string()
        };
        let for_gap = |a: &str, b: &str| -> Value {
            serde_json::from_str(&classify_for_gap_json(a, b).unwrap()).unwrap()
        };
        let out = for_gap(
            &market("a", "platform_a", "X"),
            &market("b", "platform_e", "X"),
        );
        assert_eq!(out["classification"]["relation"], "same");
        assert_eq!(
            (&out["allows_gap"], &out["firm"]),
            (&json!(true), &json!(true))
        );
        // Another settlement source: a veto, and no gap however the books
        // stand.
        let out = for_gap(
            &market("a", "platform_a", "X"),
            &market("b", "platform_e", "Y"),
        );
        assert_eq!(out["classification"]["relation"], "different");
        assert_eq!(
            out["classification"]["vetoes"],
            json!(["settlement_source_differs"])
        );
        assert_eq!(out["allows_gap"], false);
    }
}
