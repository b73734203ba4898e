//! Trades of a market: `GET /trades`.

use super::SkippedItem;
use super::{Pagination, PlatformId, TradesMeta};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `trade.side`; the spec shows `buy`.
    TradeSide, TRADE_SIDE_TS {
        Buy = "buy",
        Sell = "sell",
    }
);

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trade {
    pub trade_id: String,
    pub market_id: Option<String>,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    #[model(ts = "TradeSide")]
    pub side: Option<TradeSide>,
    /// The price as sent. One platform sends it 100 times too small beside
    /// `yes_price` / `no_price`: show [`Trade::shown_price`].
    pub price: Option<f64>,
    /// The price of the yes side in 0..1 (`0.13` = 13¢), where the
    /// platform sends it.
    pub yes_price: Option<f64>,
    /// The price of the no side in 0..1.
    pub no_price: Option<f64>,
    pub size: Option<f64>,
    /// An integer; units not shown by the spec (the reference server sends
    /// Unix seconds).
    #[model(integer)]
    #[model(timestamp)]
    pub timestamp: Option<f64>,
    pub outcome: Option<String>,
    pub taker: Option<bool>,
    pub transaction_hash: Option<String>,
    pub user: Option<TradeUser>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl Trade {
    /// The price a trade row shows, in 0..1. The documented choice: the
    /// price of the side traded when the platform says it (`no_price` for a
    /// trade whose `outcome` is No, else `yes_price`), else
    /// `metadata.yes_price_dollars` (a string such as `"0.1300"`), else
    /// `price`. The platform that sends `yes_price` sends a `price` 100
    /// times smaller, so `price` comes last.
    pub fn shown_price(&self) -> Option<f64> {
        let no_side = self
            .outcome
            .as_deref()
            .is_some_and(|o| o.trim().eq_ignore_ascii_case("no"));
        let side = if no_side {
            self.no_price
        } else {
            self.yes_price
        };
        let dollars = || {
            self.metadata
                .as_ref()
                .and_then(|m| m.get("yes_price_dollars"))
                .and_then(|v| match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => crate::number::parse(s.trim()),
                    _ => None,
                })
                .filter(|_| !no_side)
        };
        side.filter(|p| p.is_finite())
            .or_else(dollars)
            .or(self.price)
            .filter(|p| p.is_finite())
    }
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TradeUser {
    pub name: Option<String>,
    pub pseudonym: Option<String>,
    pub profile_image: Option<String>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// Response of `GET /trades`: `{trades, pagination, meta}`, or the public
/// service's `{data: {trades, pagination, meta}, meta}` (the two `meta`
/// objects merged: the inner one says the market and platform, the outer
/// one the time taken).
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", tsify(rename = "TradesPage"))]
pub struct TradesResponse {
    pub trades: Vec<Trade>,
    pub pagination: Option<Pagination>,
    pub meta: Option<TradesMeta>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

// `{trades, pagination, meta}` or `{data: {trades, pagination, meta}, meta}`.
list_response!(TradesResponse {
    trades: ["trades"],
    pagination,
    meta
});

// The envelopes JS may receive (the spec's shape, declared from the
// struct above by tsify, or the public service's other documented one)
// are the union `TradesResponse` of crates/wasm/js/types/envelopes.d.ts.

/// Response of `listTrades`.
pub type ListTradesResponse = TradesResponse;
