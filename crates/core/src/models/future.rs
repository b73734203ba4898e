//! Futures (season-long outcomes such as a championship) with odds from
//! several platforms: `GET /futures/{id}` and `GET /list-futures`.

use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

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

outright! {
    /// Field `data` of the future response. Ids look like
    /// `<league>_<name>_<season>`.
    Future {
        future_name,
        future_type: FutureType as "FutureType",
        metadata: FutureMetadata,
        category: FutureCategory as "FutureCategory",
    }
    /// The market of one platform on a future.
    FutureMarket { outcomes: FutureOutcome }
    /// One outcome of a future (e.g. a team winning the championship) at
    /// one platform.
    quote { outcome_name, team_key: true }
    /// Response of `GET /futures/{id}`: `{data, meta}`.
    FutureResponse,
    /// `data` of list-futures.
    FuturesPage { futures: "futures" },
    /// Response of `GET /list-futures`. The spec does not show it; chosen to
    /// match list-games (`{data: {<items>, pagination}, meta}`) with the offset
    /// pagination `where-the-spec-is-silent.md` gives:
    /// `{data: {futures, pagination: {total, limit, offset, has_more, next_offset}}, meta}`.
    ListFuturesResponse,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FutureMetadata {
    #[model(timestamp)]
    pub deadline: Option<String>,
    pub description: Option<String>,
    pub eligible_teams: Option<Vec<String>>,
    /// Every other key, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}

/// Response of `getFuture`.
pub type GetFutureResponse = FutureResponse;
