//! Futures (season-long outcomes such as a championship) with odds from
//! several platforms: `GET /futures/{id}` and `GET /list-futures`.

use super::SkippedItem;
use super::{League, Odds, OffsetPagination, PlatformId, SportsMeta};
use predmarket_model_derive::model;
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
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Future {
    pub id: String,
    pub future_name: Option<String>,
    #[model(ts = "League")]
    pub league: Option<League>,
    #[model(ts = "FutureType")]
    pub future_type: Option<FutureType>,
    #[model(ts = "FutureCategory")]
    pub category: Option<FutureCategory>,
    #[serde(serialize_with = "super::wire::int")]
    pub season: Option<f64>,
    pub markets: Option<Vec<FutureMarket>>,
    pub metadata: Option<FutureMetadata>,
}

/// The market of one platform on a future.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FutureMarket {
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub market_id: Option<String>,
    pub outcomes: Option<Vec<FutureOutcome>>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FutureOutcome {
    pub outcome_name: Option<String>,
    pub odds: Option<Odds>,
    /// The team's `service_id`; the public service spells it
    /// `team_polyrouter_id`, accepted as an alias.
    #[model(also = "team_polyrouter_id")]
    pub team_service_id: Option<String>,
    pub volume_24h: Option<f64>,
    pub last_trade_price: Option<f64>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FutureMetadata {
    #[model(timestamp)]
    pub deadline: Option<String>,
    pub description: Option<String>,
    pub eligible_teams: Option<Vec<String>>,
}

/// Response of `GET /futures/{id}`: `{data, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FutureResponse {
    pub data: Future,
    pub meta: Option<SportsMeta>,
}

/// `data` of list-futures.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FuturesPage {
    pub futures: Vec<Future>,
    pub pagination: Option<OffsetPagination>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(FuturesPage {
    futures: ["futures"],
    pagination
});

/// Response of `GET /list-futures`. The spec does not show it; chosen to
/// match list-games (`{data: {<items>, pagination}, meta}`) with the offset
/// pagination `where-the-spec-is-silent.md` gives:
/// `{data: {futures, pagination: {total, limit, offset, has_more, next_offset}}, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListFuturesResponse {
    pub data: FuturesPage,
    pub meta: Option<SportsMeta>,
}

page_envelope!(ListFuturesResponse => FuturesPage);

/// Response of `getFuture`.
pub type GetFutureResponse = FutureResponse;
