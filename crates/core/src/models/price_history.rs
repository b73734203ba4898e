//! Historical prices: `GET /price-history` (shape from
//! `where-the-spec-is-silent.md`; the service spells these keys in
//! camelCase).

use super::PlatformId;
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PriceBar {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct BidAsk {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<f64>,
}

/// One point of a price history.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PricePoint {
    /// Unix seconds.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub timestamp: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<PriceBar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<f64>,
    #[serde(
        rename = "openInterest",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub open_interest: Option<f64>,
    #[serde(rename = "bidAsk", default, skip_serializing_if = "Option::is_none")]
    pub bid_ask: Option<BidAsk>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    #[serde(rename = "marketId", default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(rename = "outcomeId", default, skip_serializing_if = "Option::is_none")]
    pub outcome_id: Option<String>,
}

/// `meta.time_range` of price history: Unix seconds. Strings that are not
/// numbers read as absent rather than failing the response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct TimeRange {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::wire::lenient_number",
        serialize_with = "super::wire::int"
    )]
    pub start: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::wire::lenient_number",
        serialize_with = "super::wire::int"
    )]
    pub end: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PriceHistoryMeta {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub total_points: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId[]"))]
    pub platforms: Option<Vec<PlatformId>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_range: Option<TimeRange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PriceInterval"))]
    pub interval: Option<PriceInterval>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_hit: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_freshness: Option<String>,
}

/// Response of `GET /price-history`: `{data: [PricePoint], meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PriceHistoryResponse {
    pub data: Vec<PricePoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<PriceHistoryMeta>,
}

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
