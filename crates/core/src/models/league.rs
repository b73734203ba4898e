//! League information with its teams: `GET /league-info`.

use super::{League, RequestMeta};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

open_enum!(
    /// League-info `status`; the spec shows `operational`.
    LeagueStatus, LEAGUE_STATUS_TS {
        Operational = "operational",
        Degraded = "degraded",
        Offseason = "offseason",
        Unavailable = "unavailable",
    }
);

/// Field `data` of the league-info response (one league).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct LeagueInfo {
    /// The league label (`league_a` …).
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<Season>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoints: Option<LeagueEndpoints>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<LeagueCounts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "LeagueStatus"))]
    pub status: Option<LeagueStatus>,
    /// Present with `include_teams=true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<Team>>,
}

impl LeagueInfo {
    /// The id as a [`League`].
    pub fn league(&self) -> League {
        League::from(self.id.as_str())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Season {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub year: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
}

/// Which sports operations the league supports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct LeagueEndpoints {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awards: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub futures: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_games: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_awards: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_futures: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct LeagueCounts {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub teams: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub awards: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub futures: Option<f64>,
}

/// A team of a league.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Team {
    /// `<league>_<team_code>`. The public service spells it `polyrouter_id`,
    /// accepted as an alias.
    #[serde(alias = "polyrouter_id")]
    pub service_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conference: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// Platform label → the team's id there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, string>"))]
    pub platform_ids: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<TeamMetadata>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct TeamMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colors: Option<Vec<String>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub founded: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stadium: Option<String>,
}

/// `data` of league-info: one league when `league` was given; when it was
/// absent the service returns all leagues, which the spec does not shape,
/// so an array is accepted as well.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(untagged)]
// Not boxed: the value is built once per response, and a `Box` would make
// every constructor (server, tests) noisier for no measurable gain.
#[allow(clippy::large_enum_variant)]
pub enum LeagueInfoData {
    Many(Vec<LeagueInfo>),
    One(LeagueInfo),
}

impl LeagueInfoData {
    /// The leagues, whichever form was sent.
    pub fn leagues(&self) -> &[LeagueInfo] {
        match self {
            Self::Many(list) => list,
            Self::One(one) => std::slice::from_ref(one),
        }
    }
}

/// Response of `GET /league-info`: `{data, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct LeagueInfoResponse {
    pub data: LeagueInfoData,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
}

/// Response of `getLeagueInfo`.
pub type GetLeagueInfoResponse = LeagueInfoResponse;
