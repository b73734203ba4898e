//! Awards (e.g. most valuable player) with candidates and odds from several
//! platforms: `GET /awards/{id}` and `GET /list-awards`.

use super::{League, Odds, OffsetPagination, PlatformId, SportsMeta};
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Award {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub award_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "League"))]
    pub league: Option<League>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "AwardType"))]
    pub award_type: Option<AwardType>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub season: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markets: Option<Vec<AwardMarket>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<AwardMetadata>,
}

/// The market of one platform on an award.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct AwardMarket {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Candidate>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Candidate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<Odds>,
    /// The player's team `service_id`; alias `team_polyrouter_id`.
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
pub struct AwardMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eligibility: Option<String>,
}

/// Response of `GET /awards/{id}`: `{data, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct AwardResponse {
    pub data: Award,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<SportsMeta>,
}

/// `data` of list-awards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct AwardsPage {
    pub awards: Vec<Award>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<OffsetPagination>,
}

/// Response of `GET /list-awards` (shape chosen like list-futures):
/// `{data: {awards, pagination: OffsetPagination}, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ListAwardsResponse {
    pub data: AwardsPage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<SportsMeta>,
}

/// Response of `getAward`.
pub type GetAwardResponse = AwardResponse;
