//! The order book of a market: `GET /markets/{id}/orderbook`. The math on
//! it lives in `crate::orderbook`.

use super::{PlatformId, RequestMeta};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One price level.
#[model]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PriceLevel {
    pub price: f64,
    pub size: f64,
}

impl PriceLevel {
    pub fn new(price: f64, size: f64) -> Self {
        Self { price, size }
    }
}

/// The bids and asks of one outcome (`yes` or `no`). Absent lists decode as
/// empty: an empty side is a normal state of a book.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OrderbookSide {
    #[serde(default)]
    pub bids: Vec<PriceLevel>,
    #[serde(default)]
    pub asks: Vec<PriceLevel>,
    pub depth: Option<f64>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OrderbookMetadata {
    pub min_order_size: Option<f64>,
    pub tick_size: Option<f64>,
    pub neg_risk: Option<bool>,
    /// Raw platform data, when `include_raw=true`.
    #[serde(rename = "_raw")]
    #[model(ts = "unknown")]
    pub raw: Option<Value>,
}

/// Field `data` of the orderbook response.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Orderbook {
    pub market_id: Option<String>,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    /// ISO 8601.
    #[model(timestamp)]
    pub timestamp: Option<String>,
    pub yes: Option<OrderbookSide>,
    pub no: Option<OrderbookSide>,
    pub metadata: Option<OrderbookMetadata>,
}

/// Response of `GET /markets/{id}/orderbook`: `{data, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrderbookResponse {
    pub data: Orderbook,
    pub meta: Option<RequestMeta>,
}

/// Response of `getOrderbook`.
pub type GetOrderbookResponse = OrderbookResponse;
