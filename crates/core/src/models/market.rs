//! Markets: `GET /markets` and `GET /markets/{id}`.

use super::PlatformId;
use predmarket_model_derive::model;
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
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub id: String,
    pub name: Option<String>,
}

/// A market.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Market {
    pub id: String,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    /// The identifier at the platform.
    pub platform_id: Option<String>,
    pub title: Option<String>,
    #[model(ts = "MarketStatus")]
    pub status: Option<MarketStatus>,
    #[model(ts = "MarketType")]
    pub market_type: Option<MarketType>,
    pub outcomes: Option<Vec<Outcome>>,
    /// Keys not shown by the spec; values are a price or an object holding
    /// one (see [`Market::current_price`]).
    #[model(ts = "Record<string, unknown>")]
    pub current_prices: Option<BTreeMap<String, Value>>,
    #[model(timestamp)]
    pub last_synced_at: Option<String>,
    pub event_id: Option<String>,
    pub event_name: Option<String>,
    pub event_slug: Option<String>,
    pub series_id: Option<String>,
    pub slug: Option<String>,
    pub market_slug: Option<String>,
    pub description: Option<String>,
    pub category: Option<String>,
    pub subcategory: Option<String>,
    pub tags: Option<Vec<String>>,
    pub volume_24h: Option<f64>,
    pub volume_7d: Option<f64>,
    pub volume_total: Option<f64>,
    pub liquidity: Option<f64>,
    pub liquidity_score: Option<f64>,
    pub open_interest: Option<f64>,
    #[model(integer)]
    pub unique_traders: Option<f64>,
    pub fee_rate: Option<f64>,
    pub trading_fee: Option<f64>,
    pub withdrawal_fee: Option<f64>,
    pub source_url: Option<String>,
    pub image_url: Option<String>,
    #[model(timestamp)]
    pub created_at: Option<String>,
    #[model(timestamp)]
    pub trading_start_at: Option<String>,
    #[model(timestamp)]
    pub trading_end_at: Option<String>,
    #[model(timestamp)]
    pub resolution_date: Option<String>,
    #[model(timestamp)]
    pub resolved_at: Option<String>,
    pub resolution_criteria: Option<String>,
    pub resolution_source: Option<String>,
    #[model(ts = "Record<string, unknown>")]
    pub price_24h_changes: Option<BTreeMap<String, Value>>,
    #[model(ts = "Record<string, unknown>")]
    pub price_7d_changes: Option<BTreeMap<String, Value>>,
    #[model(ts = "Record<string, unknown>")]
    pub last_trades: Option<BTreeMap<String, Value>>,
    pub metadata: Option<MarketMetadata>,
    /// Every other field (`raw_data`, `series_slug`, …), as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl Market {
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
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketMetadata {
    pub condition_id: Option<String>,
    pub amm_type: Option<String>,
    pub market_type: Option<String>,
    pub format_type: Option<String>,
    pub competitive: Option<f64>,
    pub score: Option<f64>,
    pub best_bid: Option<f64>,
    pub best_ask: Option<f64>,
    pub spread: Option<f64>,
    /// An array, or (as the platform itself sends it) a string holding one.
    #[serde(deserialize_with = "super::wire::string_list")]
    #[model(ts = "string[] | string")]
    pub clob_token_ids: Option<Vec<String>>,
    /// Every other key (raw platform data when `include_raw=true`).
    #[serde(flatten)]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

list_envelope! {
    /// Response of `GET /markets` and `GET /markets/{id}`:
    /// `{pagination, markets, meta}`.
    MarketsResponse { markets: Market ["markets"], meta: ListMeta }
}

/// Response of `listMarkets`.
pub type ListMarketsResponse = MarketsResponse;
/// Response of `getMarket` (the same envelope, one market).
pub type GetMarketResponse = MarketsResponse;
