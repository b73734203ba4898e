//! Futures (season-long outcomes such as a championship) with odds from
//! several platforms: `GET /futures/{id}` and `GET /list-futures`.

use super::{League, Odds, OffsetPagination, PlatformId, SportsMeta};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `future.future_type`; the spec shows `championship`.
    FutureType, FUTURE_TYPE_TS {
        Championship = "championship",
        Division = "division",
        Conference = "conference",
    }
);

open_enum!(
    /// `future.category`; the spec shows `team`.
    FutureCategory, FUTURE_CATEGORY_TS {
        Team = "team",
        Player = "player",
    }
);

/// Field `data` of the future response. Ids look like
/// `<league>_<name>_<season>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Future {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub future_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "League"))]
    pub league: Option<League>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "FutureType"))]
    pub future_type: Option<FutureType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "FutureCategory"))]
    pub category: Option<FutureCategory>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub season: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markets: Option<Vec<FutureMarket>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<FutureMetadata>,
}

/// The market of one platform on a future.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FutureMarket {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<FutureOutcome>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FutureOutcome {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<Odds>,
    /// The team's `service_id`; the public service spells it
    /// `team_polyrouter_id`, accepted as an alias.
    #[serde(
        default,
        alias = "team_polyrouter_id",
        skip_serializing_if = "Option::is_none"
    )]
    pub team_service_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_24h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_trade_price: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub metadata: Option<BTreeMap<String, Value>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FutureMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eligible_teams: Option<Vec<String>>,
}

/// Response of `GET /futures/{id}`: `{data, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FutureResponse {
    pub data: Future,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<SportsMeta>,
}

/// `data` of list-futures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FuturesPage {
    pub futures: Vec<Future>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<OffsetPagination>,
}

/// Response of `GET /list-futures`. The spec does not show it; chosen to
/// match list-games (`{data: {<items>, pagination}, meta}`) with the offset
/// pagination `where-the-spec-is-silent.md` gives:
/// `{data: {futures, pagination: {total, limit, offset, has_more, next_offset}}, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ListFuturesResponse {
    pub data: FuturesPage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<SportsMeta>,
}

/// Response of `getFuture`.
pub type GetFutureResponse = FutureResponse;
