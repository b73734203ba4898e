//! Awards (e.g. most valuable player) with candidates and odds from several
//! platforms: `GET /awards/{id}` and `GET /list-awards`.

use super::SkippedItem;
use super::{League, Odds, OffsetPagination, PlatformId, SportsMeta};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `award.award_type`; the spec shows `mvp`.
    AwardType, AWARD_TYPE_TS {
        Mvp = "mvp",
        RookieOfTheYear = "rookie_of_the_year",
        DefensivePlayerOfTheYear = "defensive_player_of_the_year",
        OffensivePlayerOfTheYear = "offensive_player_of_the_year",
        MostImprovedPlayer = "most_improved_player",
        ComebackPlayerOfTheYear = "comeback_player_of_the_year",
        CoachOfTheYear = "coach_of_the_year",
    }
);

/// Field `data` of the award response.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Award {
    pub id: String,
    pub award_name: Option<String>,
    #[model(ts = "League")]
    pub league: Option<League>,
    #[model(ts = "AwardType")]
    pub award_type: Option<AwardType>,
    #[serde(serialize_with = "super::wire::int")]
    pub season: Option<f64>,
    pub markets: Option<Vec<AwardMarket>>,
    pub metadata: Option<AwardMetadata>,
}

/// The market of one platform on an award.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AwardMarket {
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub market_id: Option<String>,
    pub candidates: Option<Vec<Candidate>>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub player_name: Option<String>,
    pub odds: Option<Odds>,
    /// The player's team `service_id`; alias `team_polyrouter_id`.
    #[model(also = "team_polyrouter_id")]
    pub team_service_id: Option<String>,
    pub volume_24h: Option<f64>,
    pub last_trade_price: Option<f64>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AwardMetadata {
    #[model(timestamp)]
    pub deadline: Option<String>,
    pub description: Option<String>,
    pub eligibility: Option<String>,
}

/// Response of `GET /awards/{id}`: `{data, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AwardResponse {
    pub data: Award,
    pub meta: Option<SportsMeta>,
}

/// `data` of list-awards.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AwardsPage {
    pub awards: Vec<Award>,
    pub pagination: Option<OffsetPagination>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(AwardsPage {
    awards: ["awards"],
    pagination
});

/// Response of `GET /list-awards` (shape chosen like list-futures):
/// `{data: {awards, pagination: OffsetPagination}, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListAwardsResponse {
    pub data: AwardsPage,
    pub meta: Option<SportsMeta>,
}

page_envelope!(ListAwardsResponse => AwardsPage);

/// Response of `getAward`.
pub type GetAwardResponse = AwardResponse;
