//! User profiles of platform_a and platform_b: `GET /profile/info` and
//! `GET /profile/trades` (shapes from `where-the-spec-is-silent.md`).

use super::SkippedItem;
use super::{ListMeta, Pagination, PlatformId, TradeSide};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub user_id: Option<String>,
    pub display_name: Option<String>,
    pub profile_image: Option<String>,
    pub description: Option<String>,
    #[model(timestamp)]
    pub joined_at: Option<String>,
    #[model(integer)]
    pub follower_count: Option<f64>,
    #[model(integer)]
    pub following_count: Option<f64>,
    #[model(integer)]
    pub profile_view_count: Option<f64>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// Trading metrics of a user (with `include_metrics=true`).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileMetrics {
    pub volume: Option<f64>,
    pub pnl: Option<f64>,
    #[model(integer)]
    pub num_markets_traded: Option<f64>,
    pub roi: Option<f64>,
    pub portfolio_value: Option<f64>,
    pub open_interest: Option<f64>,
}

/// `data` of profile info.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileInfo {
    pub profile: Option<Profile>,
    pub metrics: Option<ProfileMetrics>,
}

/// Response of `GET /profile/info`: `{data: {profile, metrics}, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileInfoResponse {
    /// The public service wraps profiles as `{success: true, data, meta}`.
    pub success: Option<bool>,
    pub data: ProfileInfo,
    pub meta: Option<ListMeta>,
}

/// One trade of a user.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileTrade {
    pub trade_id: String,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub market_id: Option<String>,
    pub ticker: Option<String>,
    pub title: Option<String>,
    #[model(ts = "TradeSide")]
    pub side: Option<TradeSide>,
    pub outcome: Option<String>,
    pub price: Option<f64>,
    pub size: Option<f64>,
    /// Unix seconds.
    #[model(integer)]
    #[model(timestamp)]
    pub timestamp: Option<f64>,
    pub transaction_hash: Option<String>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// `data` of profile trades.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileTradesPage {
    pub trades: Vec<ProfileTrade>,
    pub pagination: Option<Pagination>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(ProfileTradesPage {
    trades: ["trades"],
    pagination
});

/// Response of `GET /profile/trades`: `{data: {trades, pagination}, meta?}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileTradesResponse {
    /// The public service wraps profiles as `{success: true, data, meta}`.
    pub success: Option<bool>,
    pub data: ProfileTradesPage,
    pub meta: Option<ListMeta>,
}

impl<'de> Deserialize<'de> for ProfileTradesResponse {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut value = Value::deserialize(d)?;
        let top = value.as_object_mut();
        let (meta, success) = match top {
            Some(o) => (o.remove("meta"), o.remove("success")),
            None => (None, None),
        };
        Ok(Self {
            success: success.and_then(|s| s.as_bool()),
            data: ProfileTradesPage::deserialize(value).map_err(serde::de::Error::custom)?,
            meta: super::list::Body::part(meta),
        })
    }
}

impl super::Skipped for ProfileTradesResponse {
    fn skipped(&self) -> &[SkippedItem] {
        &self.data.skipped
    }
}

/// Response of `getProfileInfo`.
pub type GetProfileInfoResponse = ProfileInfoResponse;
/// Response of `listProfileTrades`.
pub type ListProfileTradesResponse = ProfileTradesResponse;
