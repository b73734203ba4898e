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
//! Markets, order books and fee models cross as JSON text (this wasm is
//! not on the hot path of matching thousands of markets); the answers
//! go back as JSON text, which the entry parses.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use predmarket_core::equivalence::Relation;
use predmarket_core::fees::{self, FeeModel, GapBasis, Venue};
use predmarket_core::models::{Market, Orderbook, PlatformId};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

/// The fields of a market that its fee model and a leg read.
#[derive(Deserialize)]
struct MarketIn {
    id: String,
    platform: Option<String>,
    fee_rate: Option<f64>,
    trading_fee: Option<f64>,
}

impl From<MarketIn> for Market {
    fn from(m: MarketIn) -> Self {
        let mut out = Market::new(m.id);
        out.platform = m.platform.map(PlatformId::from);
        out.fee_rate = m.fee_rate;
        out.trading_fee = m.trading_fee;
        out
    }
}

fn read<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| format!("{what}: {e}"))
}

fn write<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// `feeModel(market, override?)`.
pub fn fee_model_json(market: &str, overriding: &str) -> Result<String, String> {
    let market = Market::from(read::<MarketIn>("market", market)?);
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

/// The relations a gap is priced for (the matcher's wasm asks only when
/// `Classification::allows_gap` holds), found by the names the core
/// writes them with.
const GAP_RELATIONS: [Relation; 2] = [Relation::Same, Relation::Inverted];

/// `netArbitrage`'s pricing: the better way of holding both sides of the
/// question across `a` and `b` for `size` contracts, net of fees, as
/// `relation` (`same` or `inverted`) and `firm` say the two relate
/// (`null` when neither way can be filled).
pub fn net_gap_json(
    a: &str,
    b: &str,
    relation: &str,
    firm: bool,
    size: f64,
    now_ms: Option<f64>,
) -> Result<String, String> {
    let relation = GAP_RELATIONS
        .into_iter()
        .find(|r| r.as_str() == relation)
        .ok_or_else(|| format!("a gap is priced for a same or inverted pair, not `{relation}`"))?;
    let a: Side = read("a", a)?;
    let b: Side = read("b", b)?;
    let (am, bm) = (Market::from(a.market), Market::from(b.market));
    let gap = fees::net_gap(
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
pub fn fee_model(market: &str, overriding: &str) -> Result<String, JsValue> {
    js(fee_model_json(market, overriding))
}

#[wasm_bindgen(js_name = "__netGap")]
pub fn net_gap(
    a: &str,
    b: &str,
    relation: &str,
    firm: bool,
    size: f64,
    now_ms: Option<f64>,
) -> Result<String, JsValue> {
    js(net_gap_json(a, b, relation, firm, size, now_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn side(id: &str, platform: &str, yes: f64, no: f64) -> String {
        json!({"market": {"id": id, "platform": platform},
            "orderbook": {"timestamp": "2026-03-01T12:00:00Z",
                "yes": {"bids": [], "asks": [{"price": yes, "size": 10}]},
                "no": {"bids": [], "asks": [{"price": no, "size": 10}]}}})
        .to_string()
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
    fn no_gap_for_another_relation_nor_a_malformed_side() {
        let a = side("a", "platform_a", 0.40, 0.62);
        assert!(net_gap_json(&a, &a, "subset", true, 10.0, None).is_err());
        assert!(net_gap_json(&a, "[]", "same", true, 10.0, None).is_err());
        // Nothing to buy: no gap.
        let empty = json!({"market": {"id": "e"}, "orderbook": {}}).to_string();
        assert_eq!(
            net_gap_json(&a, &empty, "same", true, 10.0, None).unwrap(),
            "null"
        );
    }

    #[test]
    fn fee_models_from_the_override_the_market_or_the_platform() {
        let model = |market: Value, overriding: Value| -> Value {
            serde_json::from_str(
                &fee_model_json(&market.to_string(), &overriding.to_string()).unwrap(),
            )
            .unwrap()
        };
        assert_eq!(
            model(json!({"id": "x", "platform": "platform_b"}), Value::Null),
            json!({"kind": "probability_weighted", "rate": 0.07, "source": "default"})
        );
        assert_eq!(
            model(
                json!({"id": "x", "platform": "platform_c", "fee_rate": 0.015}),
                Value::Null
            )["source"],
            "market"
        );
        assert_eq!(
            model(json!({"id": "x"}), json!({"kind": "notional", "rate": 0.1}))["source"],
            "override"
        );
        assert!(fee_model_json("{}", "null").is_err());
    }
}
