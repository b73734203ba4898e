//! The order book of a market: `GET /markets/{id}/orderbook`. The math on
//! it lives in `crate::orderbook`.

use super::{PlatformId, RequestMeta};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One price level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct OrderbookSide {
    #[serde(default)]
    pub bids: Vec<PriceLevel>,
    #[serde(default)]
    pub asks: Vec<PriceLevel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct OrderbookMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_order_size: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tick_size: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neg_risk: Option<bool>,
    /// Raw platform data, when `include_raw=true`.
    #[serde(rename = "_raw", default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "unknown"))]
    pub raw: Option<Value>,
}

/// Field `data` of the orderbook response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Orderbook {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    /// ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yes: Option<OrderbookSide>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no: Option<OrderbookSide>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<OrderbookMetadata>,
}

/// Response of `GET /markets/{id}/orderbook`: `{data, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct OrderbookResponse {
    pub data: Orderbook,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
}

/// Response of `getOrderbook`.
pub type GetOrderbookResponse = OrderbookResponse;
