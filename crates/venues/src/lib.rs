//! `predmarket/venues`' matcher: the core's cross-platform equivalence as
//! plain JS functions, in a wasm of its own so the main entry's size does
//! not grow for users who never compare markets. The fee models and the
//! pricing of `netArbitrage` are another wasm's (crates/venues-fees),
//! loaded on their first call: an app that only matches ships none of it.
//!
//! The markets cross as one string of their text fields and a
//! `Uint32Array` of lengths ([`markets_in`]), which the wasm splits
//! without a JSON parser; the answers go back as JSON text, which the
//! entry (`js/venues.js`) parses. The functions here are the `__` exports
//! the entry wraps; the plain-Rust halves (`*_text`) are what the native
//! tests call.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod answer;
pub mod markets_in;

use markets_in::read_markets;
use predmarket_core::equivalence::{self, PairOptions, Relation};
use predmarket_core::models::Market;
use wasm_bindgen::prelude::*;

/// The two markets of `classifyPair` and `netArbitrage`.
fn read_two(text: &str, shape: &[u32]) -> Result<[Market; 2], String> {
    read_markets(text, shape)
        .map_err(|e| e.to_string())?
        .try_into()
        .map_err(|_| "two markets expected".to_owned())
}

/// `classifyPair(a, b)`: the classification of two markets.
pub fn classify_pair_text(text: &str, shape: &[u32]) -> Result<String, String> {
    let [a, b] = read_two(text, shape)?;
    Ok(answer::classified(&equivalence::classify(&a, &b)))
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
pub fn find_pairs_text(
    text: &str,
    shape: &[u32],
    include_different: bool,
    same_platform: bool,
    relations: u32,
) -> Result<String, String> {
    let markets = read_markets(text, shape).map_err(|e| e.to_string())?;
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
    Ok(answer::pairs(&equivalence::find_pairs(&markets, &options)))
}

/// `netArbitrage`'s first half: the classification of the two markets,
/// and what the fee wasm's pricing reads of it, by the classification's
/// own rules: whether a gap may be priced at all
/// (`Classification::allows_gap`: `same` or `inverted` with no veto) and
/// whether it is firm (`Classification::is_firm`).
pub fn classify_for_gap_text(text: &str, shape: &[u32]) -> Result<String, String> {
    let [a, b] = read_two(text, shape)?;
    let classification = equivalence::classify(&a, &b);
    Ok(answer::for_gap(
        &classification,
        classification.allows_gap(),
        classification.is_firm(),
    ))
}

fn js(result: Result<String, String>) -> Result<String, JsValue> {
    result.map_err(|e| JsValue::from_str(&e))
}

#[wasm_bindgen(js_name = "__classifyPair")]
pub fn classify_pair(text: &str, shape: &[u32]) -> Result<String, JsValue> {
    js(classify_pair_text(text, shape))
}

#[wasm_bindgen(js_name = "__findPairs")]
pub fn find_pairs(
    text: &str,
    shape: &[u32],
    include_different: bool,
    same_platform: bool,
    relations: u32,
) -> Result<String, JsValue> {
    js(find_pairs_text(
        text,
        shape,
        include_different,
        same_platform,
        relations,
    ))
}

#[wasm_bindgen(js_name = "__classifyForGap")]
pub fn classify_for_gap(text: &str, shape: &[u32]) -> Result<String, JsValue> {
    js(classify_for_gap_text(text, shape))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markets_in::encode_json;
    use serde_json::{Value, json};

    #[test]
    fn classifies_markets_as_the_service_sends_them() {
        // Extra fields, prices as objects and ids in any form are read.
        let a = json!({"id": "1", "platform": "platform_a", "title": "Bitcoin above $95,000 on March 3?",
            "trading_end_at": "2026-03-03T00:00:00Z", "current_prices": {"yes": {"price": 0.4}}, "raw_data": {}});
        let b = json!({"id": "x", "platform": "platform_c", "title": "Will BTC close at or below $95k on Mar 3, 2026?",
            "trading_end_at": "2026-03-03T00:00:00Z"});
        let (text, shape) = encode_json(&[a, b]);
        let out: Value = serde_json::from_str(&classify_pair_text(&text, &shape).unwrap()).unwrap();
        assert_eq!(out["relation"], "inverted");
        assert_eq!(out["outcome_mapping"], "yes_no");
        assert!(
            out["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["field"] == "threshold")
        );
        // One market is not two.
        let (text, shape) = encode_json(&[json!({"id": "1"})]);
        assert!(classify_pair_text(&text, &shape).is_err());
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
            let (text, shape) = encode_json(&[a.clone(), b.clone()]);
            serde_json::from_str::<Value>(&classify_pair_text(&text, &shape).unwrap()).unwrap()
                ["relation"]
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
        let (text, shape) = encode_json(&[
            market("a", "platform_a", "Bitcoin above $95,000 on March 3?"),
            market(
                "b",
                "platform_c",
                "Will BTC close at or below $95k on Mar 3, 2026?",
            ),
            market("c", "platform_d", "Bitcoin above $95,000 on March 3?"),
        ]);
        let relations = |mask| -> Vec<String> {
            let out: Value =
                serde_json::from_str(&find_pairs_text(&text, &shape, false, false, mask).unwrap())
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
        };
        let for_gap = |a: Value, b: Value| -> Value {
            let (text, shape) = encode_json(&[a, b]);
            serde_json::from_str(&classify_for_gap_text(&text, &shape).unwrap()).unwrap()
        };
        let out = for_gap(
            market("a", "platform_a", "X"),
            market("b", "platform_e", "X"),
        );
        assert_eq!(out["classification"]["relation"], "same");
        assert_eq!(
            (&out["allows_gap"], &out["firm"]),
            (&json!(true), &json!(true))
        );
        // Another settlement source: a veto, and no gap however the books
        // stand.
        let out = for_gap(
            market("a", "platform_a", "X"),
            market("b", "platform_e", "Y"),
        );
        assert_eq!(out["classification"]["relation"], "different");
        assert_eq!(
            out["classification"]["vetoes"],
            json!(["settlement_source_differs"])
        );
        assert_eq!(out["allows_gap"], false);
    }
}
