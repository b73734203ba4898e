//! Awards (e.g. most valuable player) with candidates and odds from several
//! platforms: `GET /awards/{id}` and `GET /list-awards`.

use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

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

outright! {
    /// Field `data` of the award response.
    Award {
        award_name,
        award_type: AwardType as "AwardType",
        metadata: AwardMetadata,
    }
    /// The market of one platform on an award.
    AwardMarket { candidates: Candidate }
    /// One candidate for an award at one platform.
    quote {
        /// Candidates are matched across platforms by this name: the
        /// team does not identify a player.
        player_name,
        team_key: false
    }
    /// Response of `GET /awards/{id}`: `{data, meta}`.
    AwardResponse,
    /// `data` of list-awards.
    AwardsPage { awards: "awards" },
    /// Response of `GET /list-awards` (shape chosen like list-futures):
    /// `{data: {awards, pagination: OffsetPagination}, meta}`.
    ListAwardsResponse,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AwardMetadata {
    #[model(timestamp)]
    pub deadline: Option<String>,
    pub description: Option<String>,
    pub eligibility: Option<String>,
    /// The volume across its markets (public service).
    pub total_volume: Option<f64>,
    pub volume_24h: Option<f64>,
    /// Every other key, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}

/// Response of `getAward`.
pub type GetAwardResponse = AwardResponse;
