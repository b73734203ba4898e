//! User profiles of platform_a and platform_b: `GET /profile/info` and
//! `GET /profile/trades` (shapes from `where-the-spec-is-silent.md`).

use super::{ListMeta, Pagination, TradeSide};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Profile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined_at: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub follower_count: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub following_count: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub profile_view_count: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub metadata: Option<BTreeMap<String, Value>>,
}

/// Trading metrics of a user (with `include_metrics=true`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ProfileMetrics {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pnl: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub num_markets_traded: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roi: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portfolio_value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_interest: Option<f64>,
}

/// `data` of profile info.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ProfileInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<ProfileMetrics>,
}

/// Response of `GET /profile/info`: `{data: {profile, metrics}, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ProfileInfoResponse {
    pub data: ProfileInfo,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ListMeta>,
}

/// One trade of a user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ProfileTrade {
    pub trade_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ticker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "TradeSide"))]
    pub side: Option<TradeSide>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<f64>,
    /// Unix seconds.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub timestamp: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub metadata: Option<BTreeMap<String, Value>>,
}

/// `data` of profile trades.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ProfileTradesPage {
    pub trades: Vec<ProfileTrade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
}

/// Response of `GET /profile/trades`: `{data: {trades, pagination}, meta?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ProfileTradesResponse {
    pub data: ProfileTradesPage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ListMeta>,
}

/// Response of `getProfileInfo`.
pub type GetProfileInfoResponse = ProfileInfoResponse;
/// Response of `listProfileTrades`.
pub type ListProfileTradesResponse = ProfileTradesResponse;
