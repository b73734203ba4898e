//! The `meta` objects of the responses.

use super::PlatformId;
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// `meta` of markets, events and series responses (and of the profile
/// operations, which send a subset).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListMeta {
    /// Units not shown by the spec; the reference server sends milliseconds.
    pub request_time: Option<f64>,
    pub cache_hit: Option<bool>,
    #[model(timestamp)]
    pub data_freshness: Option<String>,
    /// Sent by the series list response.
    #[model(ts = "PlatformId[]")]
    pub platforms_queried: Option<Vec<PlatformId>>,
    /// Platform id → what went wrong there (`{code, message}`); the rest
    /// of the list is still served.
    #[model(ts = "Record<string, PlatformError>")]
    pub platform_errors: Option<BTreeMap<String, PlatformError>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// `meta` that carries the time taken (orderbook, league-info; league
/// info on the public service also says how fresh its data is).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestMeta {
    pub request_time: Option<f64>,
    #[model(timestamp)]
    pub data_freshness: Option<String>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// `meta` of the trades response.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TradesMeta {
    pub request_time: Option<f64>,
    pub market_id: Option<String>,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    /// ISO 8601.
    #[model(timestamp)]
    pub data_freshness: Option<String>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// The failure of one platform inside an otherwise served answer (a
/// game, an outright, or a list of markets, events or series).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlatformError {
    pub code: Option<String>,
    pub message: Option<String>,
}

/// `meta` of games, game, futures, future, awards and award responses.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SportsMeta {
    #[model(ts = "PlatformId[]")]
    pub platforms_queried: Option<Vec<PlatformId>>,
    pub request_time: Option<f64>,
    #[model(timestamp)]
    pub data_freshness: Option<String>,
    /// Platform label → what went wrong there. The rest of the response is
    /// still served.
    #[model(ts = "Record<string, PlatformError>")]
    pub platform_errors: Option<BTreeMap<String, PlatformError>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl SportsMeta {
    /// Whether some platform failed (the data is then partial).
    pub fn is_partial(&self) -> bool {
        self.platform_errors.as_ref().is_some_and(|e| !e.is_empty())
    }
}
