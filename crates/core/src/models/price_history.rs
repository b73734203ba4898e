//! Historical prices: `GET /price-history` (shape from
//! `where-the-spec-is-silent.md`; the service spells these keys in
//! camelCase).

use super::PlatformId;
use super::SkippedItem;
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

open_enum!(
    /// `interval` of price history.
    PriceInterval, PRICE_INTERVAL_TS {
        OneMinute = "1m",
        FiveMinutes = "5m",
        OneHour = "1h",
        FourHours = "4h",
        OneDay = "1d",
    }
);

impl PriceInterval {
    /// Length of one bar in seconds (`None` for an unknown interval).
    pub fn seconds(&self) -> Option<u64> {
        match self {
            Self::OneMinute => Some(60),
            Self::FiveMinutes => Some(300),
            Self::OneHour => Some(3_600),
            Self::FourHours => Some(14_400),
            Self::OneDay => Some(86_400),
            Self::Other(_) => None,
        }
    }
}

/// One bar. Only `close` is always meaningful; `open`, `high`, `low` are
/// sent when the platform has them.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PriceBar {
    pub close: Option<f64>,
    pub open: Option<f64>,
    pub high: Option<f64>,
    pub low: Option<f64>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BidAsk {
    /// A price, or (public service) an OHLC object: its `close` is read.
    #[serde(deserialize_with = "super::wire::price_or_close")]
    #[model(ts = "Numeric | PriceBar")]
    pub bid: Option<f64>,
    /// As `bid`.
    #[serde(deserialize_with = "super::wire::price_or_close")]
    #[model(ts = "Numeric | PriceBar")]
    pub ask: Option<f64>,
}

/// One point of a price history.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PricePoint {
    /// Unix seconds.
    #[serde(serialize_with = "super::wire::int")]
    #[model(timestamp)]
    pub timestamp: Option<f64>,
    pub price: Option<PriceBar>,
    pub volume: Option<f64>,
    #[serde(rename = "openInterest")]
    pub open_interest: Option<f64>,
    #[serde(rename = "bidAsk")]
    pub bid_ask: Option<BidAsk>,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    #[serde(rename = "marketId")]
    pub market_id: Option<String>,
    #[serde(rename = "outcomeId")]
    pub outcome_id: Option<String>,
}

/// `meta.time_range` of price history: Unix seconds. Strings that are not
/// numbers read as absent rather than failing the response.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeRange {
    #[serde(serialize_with = "super::wire::int")]
    #[model(timestamp)]
    pub start: Option<f64>,
    #[serde(serialize_with = "super::wire::int")]
    #[model(timestamp)]
    pub end: Option<f64>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PriceHistoryMeta {
    #[serde(serialize_with = "super::wire::int")]
    pub total_points: Option<f64>,
    #[model(ts = "PlatformId[]")]
    pub platforms: Option<Vec<PlatformId>>,
    pub time_range: Option<TimeRange>,
    #[model(ts = "PriceInterval")]
    pub interval: Option<PriceInterval>,
    pub request_time: Option<f64>,
    pub cache_hit: Option<bool>,
    #[model(timestamp)]
    pub data_freshness: Option<String>,
}

/// Response of `GET /price-history`: `{data: [PricePoint], meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PriceHistoryResponse {
    pub data: Vec<PricePoint>,
    pub meta: Option<PriceHistoryMeta>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(PriceHistoryResponse {
    data: ["data", "points"],
    meta
});

impl PriceHistoryResponse {
    /// The points of one market, in the order sent.
    pub fn points_of<'a>(&'a self, market_id: &'a str) -> impl Iterator<Item = &'a PricePoint> {
        self.data
            .iter()
            .filter(move |p| p.market_id.as_deref() == Some(market_id))
    }
}

/// Response of `getPriceHistory`.
pub type GetPriceHistoryResponse = PriceHistoryResponse;
