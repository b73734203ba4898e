//! `predmarket/venues`' fee half: `feeModel`, and the pricing of
//! `netArbitrage` once the two markets are classified. A wasm of its own
//! (no matcher), which the entry (crates/venues/js/fees.js) instantiates
//! on the first call of either, so an app that only calls `findPairs` or
//! `classifyPair` ships none of it.
//!
//! `netArbitrage` classifies the two markets in the matcher's wasm
//! (crates/venues) and hands this one what the pricing reads of the
//! classification ([`GapBasis`]: the relation and whether it is firm),
//! only when the classification allows a gap at all: one matcher in the
//! package and in an app that both finds pairs and prices them.
//!
//! Markets, order books and fee models cross as texts and numbers, not
//! JSON (side_in.rs): the wasm carries no JSON decoder and no float
//! parser. The answers go back as JSON text, which the entry parses.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod side_in;

pub use side_in::{SideIn, read_side};

use predmarket_core::equivalence::Relation;
use predmarket_core::fees::{self, GapBasis, Venue};
use wasm_bindgen::prelude::*;

fn write<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// `feeModel(market, override?)`: the market (no book) and the override
/// as one side.
pub fn fee_model_json(texts: &[String], numbers: &[f64]) -> Result<String, String> {
    let side = read_side("market", "override", texts, numbers)?;
    write(&fees::fee_model(&side.market, side.fee))
}

/// The relations a gap is priced for (the matcher's wasm asks only when
/// `Classification::allows_gap` holds), found by the names the core
/// writes them with.
const GAP_RELATIONS: [Relation; 2] = [Relation::Same, Relation::Inverted];

/// `netArbitrage`'s pricing: the better way of holding both sides of the
/// question across `a` and `b` for `size` contracts, net of fees, as
/// `relation` (`same` or `inverted`) and `firm` say the two relate
/// (`null` when neither way can be filled).
pub fn net_gap_json(
    a: &SideIn,
    b: &SideIn,
    relation: &str,
    firm: bool,
    size: f64,
    now_ms: Option<f64>,
) -> Result<String, String> {
    let relation = GAP_RELATIONS
        .into_iter()
        .find(|r| r.as_str() == relation)
        .ok_or_else(|| format!("a gap is priced for a same or inverted pair, not `{relation}`"))?;
    let gap = fees::net_gap(
        Venue {
            market: &a.market,
            orderbook: &a.orderbook,
            fee: a.fee,
        },
        Venue {
            market: &b.market,
            orderbook: &b.orderbook,
            fee: b.fee,
        },
        GapBasis { relation, firm },
        size,
        now_ms.filter(|n| n.is_finite()).map(|n| n as i64),
    );
    write(&gap)
}

fn js(result: Result<String, String>) -> Result<String, JsValue> {
    result.map_err(|e| JsValue::from_str(&e))
}

#[wasm_bindgen(js_name = "__feeModel")]
pub fn fee_model(texts: Vec<String>, numbers: &[f64]) -> Result<String, JsValue> {
    js(fee_model_json(&texts, numbers))
}

/// `netArbitrage`'s pricing: each side as its texts and numbers (see
/// side_in.rs).
#[wasm_bindgen(js_name = "__netGap")]
#[allow(clippy::too_many_arguments)] // two sides of two parts each, then the pricing's four
pub fn net_gap(
    a_texts: Vec<String>,
    a_numbers: &[f64],
    b_texts: Vec<String>,
    b_numbers: &[f64],
    relation: &str,
    firm: bool,
    size: f64,
    now_ms: Option<f64>,
) -> Result<String, JsValue> {
    let result = read_side("a", "a.fee", &a_texts, a_numbers).and_then(|a| {
        let b = read_side("b", "b.fee", &b_texts, b_numbers)?;
        net_gap_json(&a, &b, relation, firm, size, now_ms)
    });
    js(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A side as the entry writes it: the market's id, platform and
    /// `fee_rate`, the fee model's kind and rate, the book's timestamp and
    /// its yes and no asks (no bids).
    struct Given<'a> {
        id: &'a str,
        platform: Option<&'a str>,
        fee_rate: Option<f64>,
        fee: Option<(&'a str, f64)>,
        timestamp: Option<&'a str>,
        yes_asks: &'a [(f64, f64)],
        no_asks: &'a [(f64, f64)],
    }

    fn encode(g: &Given<'_>) -> (Vec<String>, Vec<f64>) {
        let present = u32::from(g.platform.is_some())
            | u32::from(g.timestamp.is_some()) << 1
            | u32::from(g.fee.is_some()) << 2;
        let texts = [
            g.id,
            g.platform.unwrap_or(""),
            g.timestamp.unwrap_or(""),
            g.fee.map_or("", |f| f.0),
            "",
        ]
        .map(str::to_owned)
        .to_vec();
        let mut numbers = vec![
            f64::from(present),
            g.fee_rate.unwrap_or(f64::NAN),
            f64::NAN,
            g.fee.map_or(0.0, |f| f.1),
        ];
        for levels in [&[][..], g.yes_asks, &[][..], g.no_asks] {
            numbers.push(levels.len() as f64);
            numbers.extend(levels.iter().flat_map(|&(p, s)| [p, s]));
        }
        (texts, numbers)
    }

    fn side(id: &str, platform: &str, yes: f64, no: f64) -> SideIn {
        let (texts, numbers) = encode(&Given {
            id,
            platform: Some(platform),
            fee_rate: None,
            fee: None,
            timestamp: Some("2026-03-01T12:00:00Z"),
            yes_asks: &[(yes, 10.0)],
            no_asks: &[(no, 10.0)],
        });
        read_side("a", "a.fee", &texts, &numbers).unwrap()
    }

    #[test]
    fn prices_a_gap_from_books_and_fees() {
        let now = 1_772_366_405_000.0; // 2026-03-01T12:00:05Z
        let (a, b) = (
            side("a", "platform_a", 0.40, 0.62),
            side("b", "platform_e", 0.58, 0.55),
        );
        let out: Value =
            serde_json::from_str(&net_gap_json(&a, &b, "same", true, 10.0, Some(now)).unwrap())
                .unwrap();
        // YES on a at 0.40 and NO on b at 0.55, no fees on either platform:
        // 10 × (1 − 0.95) = 0.50.
        assert!((out["net_profit"].as_f64().unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(out["legs"][0]["quote_age_ms"], 5000);
        assert_eq!(
            (&out["conditional"], &out["relation"]),
            (&json!(false), &json!("same"))
        );
        // Not firm (a field disagrees): the same legs, conditional.
        let out: Value =
            serde_json::from_str(&net_gap_json(&a, &b, "same", false, 10.0, None).unwrap())
                .unwrap();
        assert_eq!(out["conditional"], true);
        assert_eq!(out["legs"][0]["quote_age_ms"], Value::Null);
        // Inverted: YES on both (0.40 + 0.58) beats NO on both.
        let out: Value =
            serde_json::from_str(&net_gap_json(&a, &b, "inverted", true, 10.0, None).unwrap())
                .unwrap();
        assert_eq!(out["legs"][0]["outcome"], "yes");
        assert_eq!(out["legs"][1]["outcome"], "yes");
    }

    #[test]
    fn no_gap_for_another_relation_nor_from_an_empty_book() {
        let a = side("a", "platform_a", 0.40, 0.62);
        assert!(net_gap_json(&a, &a, "subset", true, 10.0, None).is_err());
        // Nothing to buy: no gap.
        let (texts, numbers) = encode(&Given {
            id: "e",
            platform: None,
            fee_rate: None,
            fee: None,
            timestamp: None,
            yes_asks: &[],
            no_asks: &[],
        });
        let empty = read_side("b", "b.fee", &texts, &numbers).unwrap();
        assert_eq!(
            net_gap_json(&a, &empty, "same", true, 10.0, None).unwrap(),
            "null"
        );
    }

    #[test]
    fn a_side_whose_parts_disagree_is_refused() {
        let (texts, numbers) = encode(&Given {
            id: "a",
            platform: None,
            fee_rate: None,
            fee: None,
            timestamp: None,
            yes_asks: &[(0.4, 1.0)],
            no_asks: &[],
        });
        assert!(read_side("a", "a.fee", &texts[..4], &numbers).is_err());
        assert!(read_side("a", "a.fee", &texts, &numbers[..numbers.len() - 1]).is_err());
        let mut longer = numbers.clone();
        longer.push(1.0);
        assert!(read_side("a", "a.fee", &texts, &longer).is_err());
        // A level count past the end, and counts no array holds (twice
        // usize::MAX would overflow).
        for count in [9.0, 1e300, f64::INFINITY] {
            let mut counted = numbers.clone();
            counted[5] = count;
            assert!(read_side("a", "a.fee", &texts, &counted).is_err());
        }
    }

    #[test]
    fn fee_models_from_the_override_the_market_or_the_platform() {
        let model = |given: Given<'_>| -> Value {
            let (texts, numbers) = encode(&given);
            serde_json::from_str(&fee_model_json(&texts, &numbers).unwrap()).unwrap()
        };
        let market = |platform, fee_rate, fee| Given {
            id: "x",
            platform,
            fee_rate,
            fee,
            timestamp: None,
            yes_asks: &[],
            no_asks: &[],
        };
        assert_eq!(
            model(market(Some("platform_b"), None, None)),
            json!({"kind": "probability_weighted", "rate": 0.07, "source": "default"})
        );
        assert_eq!(
            model(market(Some("platform_c"), Some(0.015), None))["source"],
            "market"
        );
        assert_eq!(
            model(market(None, None, Some(("notional", 0.1))))["source"],
            "override"
        );
        // The kind by the core's serde names, refused otherwise.
        let (texts, numbers) = encode(&market(None, None, Some(("flat", 0.1))));
        let refused = fee_model_json(&texts, &numbers).unwrap_err();
        assert!(refused.contains("unknown variant `flat`"), "{refused}");
    }
}
