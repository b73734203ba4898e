//! The `meta` objects of the responses.

use super::PlatformId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `meta` of markets, events and series responses (and of the profile
/// operations, which send a subset).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ListMeta {
    /// Units not shown by the spec; the reference server sends milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_hit: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_freshness: Option<String>,
    /// Sent by the series list response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId[]"))]
    pub platforms_queried: Option<Vec<PlatformId>>,
    /// Platform id → what went wrong there (`{code, message}`); the rest
    /// of the list is still served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, PlatformError>"))]
    pub platform_errors: Option<BTreeMap<String, PlatformError>>,
}

/// `meta` that carries only the time taken (orderbook, league-info).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct RequestMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
}

/// `meta` of the trades response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct TradesMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    /// ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_freshness: Option<String>,
}

/// The failure of one platform inside an otherwise served sports response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlatformError {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `meta` of games, game, futures, future, awards and award responses.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct SportsMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId[]"))]
    pub platforms_queried: Option<Vec<PlatformId>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_freshness: Option<String>,
    /// Platform label → what went wrong there. The rest of the response is
    /// still served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, PlatformError>"))]
    pub platform_errors: Option<BTreeMap<String, PlatformError>>,
}

impl SportsMeta {
    /// Whether some platform failed (the data is then partial).
    pub fn is_partial(&self) -> bool {
        self.platform_errors.as_ref().is_some_and(|e| !e.is_empty())
    }
}
