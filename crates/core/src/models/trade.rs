//! Trades of a market: `GET /trades`.

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
    #[serde(serialize_with = "super::wire::int")]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TradesResponse {
    pub trades: Vec<Trade>,
    pub pagination: Option<Pagination>,
    pub meta: Option<TradesMeta>,
}

/// Response of `listTrades`.
pub type ListTradesResponse = TradesResponse;
