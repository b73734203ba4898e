//! Markets: `GET /markets` and `GET /markets/{id}`.

use super::{ListMeta, Pagination, PlatformId};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `market.status`; the spec shows `open`.
    MarketStatus, MARKET_STATUS_TS {
        Open = "open",
        Closed = "closed",
        Resolved = "resolved",
        Settled = "settled",
        Suspended = "suspended",
        Paused = "paused",
        Cancelled = "cancelled",
    }
);

open_enum!(
    /// `market.market_type`; the spec shows `binary`.
    MarketType, MARKET_TYPE_TS {
        Binary = "binary",
        Categorical = "categorical",
        Scalar = "scalar",
    }
);

/// One outcome of a market.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Outcome {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A market.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Market {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    /// The identifier at the platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "MarketStatus"))]
    pub status: Option<MarketStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "MarketType"))]
    pub market_type: Option<MarketType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<Outcome>>,
    /// Keys not shown by the spec; values are a price or an object holding
    /// one (see [`Market::current_price`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub current_prices: Option<BTreeMap<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_synced_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subcategory: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_24h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_7d: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_total: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liquidity: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liquidity_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_interest: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub unique_traders: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee_rate: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trading_fee: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawal_fee: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trading_start_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trading_end_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_criteria: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub price_24h_changes: Option<BTreeMap<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub price_7d_changes: Option<BTreeMap<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub last_trades: Option<BTreeMap<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<MarketMetadata>,
}

impl Market {
    /// A market with only its id, for building data and tests.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            platform: None,
            platform_id: None,
            title: None,
            status: None,
            market_type: None,
            outcomes: None,
            current_prices: None,
            last_synced_at: None,
            event_id: None,
            event_name: None,
            event_slug: None,
            series_id: None,
            slug: None,
            market_slug: None,
            description: None,
            category: None,
            subcategory: None,
            tags: None,
            volume_24h: None,
            volume_7d: None,
            volume_total: None,
            liquidity: None,
            liquidity_score: None,
            open_interest: None,
            unique_traders: None,
            fee_rate: None,
            trading_fee: None,
            withdrawal_fee: None,
            source_url: None,
            image_url: None,
            created_at: None,
            trading_start_at: None,
            trading_end_at: None,
            resolution_date: None,
            resolved_at: None,
            resolution_criteria: None,
            resolution_source: None,
            price_24h_changes: None,
            price_7d_changes: None,
            last_trades: None,
            metadata: None,
        }
    }

    /// The current price of an outcome key (e.g. `"yes"`), case-insensitive.
    /// The spec does not show the value shape, so both a bare number and an
    /// object with `price` (or `mid`/`last`) are read.
    pub fn current_price(&self, outcome: &str) -> Option<f64> {
        let prices = self.current_prices.as_ref()?;
        let value = prices.get(outcome).or_else(|| {
            prices
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(outcome))
                .map(|(_, v)| v)
        })?;
        price_of(value)
    }
}

fn price_of(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        Value::Object(o) => ["price", "mid", "last", "last_price"]
            .iter()
            .find_map(|k| o.get(*k).and_then(price_of)),
        _ => None,
    }
}

/// `market.metadata`. Named fields are those of the spec; with
/// `include_raw=true` the platform's raw data lands here too and is kept in
/// `extra`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MarketMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amm_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub competitive: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_bid: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_ask: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::wire::string_list"
    )]
    pub clob_token_ids: Option<Vec<String>>,
    /// Every other key (raw platform data when `include_raw=true`).
    #[serde(flatten)]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub extra: BTreeMap<String, Value>,
}

/// Response of `GET /markets` and `GET /markets/{id}`:
/// `{pagination, markets, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct MarketsResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    pub markets: Vec<Market>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ListMeta>,
}

/// Response of `listMarkets`.
pub type ListMarketsResponse = MarketsResponse;
/// Response of `getMarket` (the same envelope, one market).
pub type GetMarketResponse = MarketsResponse;
