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

/// A bar that is one price (the spec's bid or ask).
impl From<f64> for PriceBar {
    fn from(close: f64) -> Self {
        Self {
            close: Some(close),
            ..Self::default()
        }
    }
}

/// The best bid and ask of a point. The spec sends each as a price; the
/// public service as an OHLC object. Both read into a [`PriceBar`] (a price
/// is its `close`), so a chart can draw the range where there is one.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BidAsk {
    /// A price (number or numeric string) or an OHLC object. Written back
    /// as a plain number when only `close` is known (the spec's shape).
    #[serde(deserialize_with = "price_or_bar", serialize_with = "bar_or_price")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    #[model(ts = "Numeric | PriceBar")]
    pub bid: Option<PriceBar>,
    /// As `bid`.
    #[serde(deserialize_with = "price_or_bar", serialize_with = "bar_or_price")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    #[model(ts = "Numeric | PriceBar")]
    pub ask: Option<PriceBar>,
}

impl BidAsk {
    /// The bid's close (its price).
    pub fn bid_close(&self) -> Option<f64> {
        self.bid.as_ref().and_then(|b| b.close)
    }

    /// The ask's close (its price).
    pub fn ask_close(&self) -> Option<f64> {
        self.ask.as_ref().and_then(|b| b.close)
    }
}

/// A bid or ask: a number, a numeric string, or an OHLC object (whose
/// close may be spelled `price` or `last`); anything else reads as absent.
fn price_or_bar<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<PriceBar>, D::Error> {
    fn number(value: &serde_json::Value) -> Option<f64> {
        match value {
            serde_json::Value::Number(n) => n.as_f64(),
            serde_json::Value::String(s) => s.trim().parse().ok().filter(|n: &f64| n.is_finite()),
            _ => None,
        }
    }
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(match &value {
        serde_json::Value::Object(o) => {
            let close = ["close", "price", "last"]
                .iter()
                .find_map(|k| o.get(*k).and_then(number));
            let bar = PriceBar {
                close,
                open: o.get("open").and_then(number),
                high: o.get("high").and_then(number),
                low: o.get("low").and_then(number),
            };
            (bar != PriceBar::default()).then_some(bar)
        }
        other => number(other).map(PriceBar::from),
    })
}

/// The spec's plain number for a bar that is only a price, else the object.
fn bar_or_price<S: serde::Serializer>(
    bar: &Option<PriceBar>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match bar {
        Some(PriceBar {
            close: Some(close),
            open: None,
            high: None,
            low: None,
        }) => serializer.serialize_f64(*close),
        Some(bar) => bar.serialize(serializer),
        None => serializer.serialize_none(),
    }
}

/// One point of a price history.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PricePoint {
    /// Unix seconds.
    #[model(integer)]
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
    #[model(integer)]
    #[model(timestamp)]
    pub start: Option<f64>,
    #[model(integer)]
    #[model(timestamp)]
    pub end: Option<f64>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PriceHistoryMeta {
    #[model(integer)]
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
