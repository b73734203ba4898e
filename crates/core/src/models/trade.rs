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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trade {
    pub trade_id: String,
    pub market_id: Option<String>,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    #[model(ts = "TradeSide")]
    pub side: Option<TradeSide>,
    pub price: Option<f64>,
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
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TradeUser {
    pub name: Option<String>,
    pub pseudonym: Option<String>,
    pub profile_image: Option<String>,
}

/// Response of `GET /trades`: `{trades, pagination, meta}`.
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

// The envelopes JS may receive (the library hands out the body as parsed):
// the spec's shape, declared from the struct above, or the public
// service's other documented one.
#[cfg(feature = "tsify")]
const _: () = {
    #[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
    const TS: &'static str =
        "export type TradesResponse = TradesPage | { data: TradesPage; meta?: TradesMeta | null };";
};

/// Response of `listTrades`.
pub type ListTradesResponse = TradesResponse;
