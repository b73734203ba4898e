//! League information with its teams: `GET /league-info`.

use super::{League, RequestMeta};
use predmarket_model_derive::model;
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
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeagueInfo {
    /// The league label (`league_a` …).
    pub id: String,
    pub name: Option<String>,
    pub abbreviation: Option<String>,
    pub sport: Option<String>,
    pub season: Option<Season>,
    pub endpoints: Option<LeagueEndpoints>,
    pub counts: Option<LeagueCounts>,
    #[model(ts = "LeagueStatus")]
    pub status: Option<LeagueStatus>,
    /// Present with `include_teams=true`.
    pub teams: Option<Vec<Team>>,
}

impl LeagueInfo {
    /// The id as a [`League`].
    pub fn league(&self) -> League {
        League::from(self.id.as_str())
    }
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Season {
    #[model(integer)]
    pub year: Option<f64>,
    #[model(timestamp)]
    pub start_date: Option<String>,
    #[model(timestamp)]
    pub end_date: Option<String>,
}

/// Which sports operations the league supports.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LeagueEndpoints {
    pub awards: Option<bool>,
    pub futures: Option<bool>,
    pub games: Option<bool>,
    pub list_games: Option<bool>,
    pub list_awards: Option<bool>,
    pub list_futures: Option<bool>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LeagueCounts {
    #[model(integer)]
    pub teams: Option<f64>,
    #[model(integer)]
    pub awards: Option<f64>,
    #[model(integer)]
    pub futures: Option<f64>,
}

/// A team of a league.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Team {
    /// `<league>_<team_code>`. The public service spells it `polyrouter_id`,
    /// accepted as an alias.
    #[model(also = "polyrouter_id")]
    pub service_id: String,
    pub name: Option<String>,
    pub abbreviation: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub conference: Option<String>,
    pub division: Option<String>,
    /// Platform label → the team's id there.
    #[model(ts = "Record<string, string>")]
    pub platform_ids: Option<BTreeMap<String, String>>,
    pub metadata: Option<TeamMetadata>,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TeamMetadata {
    pub logo_url: Option<String>,
    pub colors: Option<Vec<String>>,
    #[model(integer)]
    pub founded: Option<f64>,
    /// The venue; some leagues send it as `arena`.
    #[model(also = "arena")]
    pub stadium: Option<String>,
}

/// `data` of league-info: one league when `league` was given; when it was
/// absent the service returns all leagues, which the spec does not shape,
/// so an array is accepted as well.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", tsify(rename = "LeagueInfoEnvelope"))]
pub struct LeagueInfoResponse {
    pub data: LeagueInfoData,
    pub meta: Option<RequestMeta>,
}

// The envelopes JS may receive (the spec's shape, declared from the
// struct above by tsify, or the public service's other documented one)
// are the union `LeagueInfoResponse` of crates/wasm/js/types/envelopes.d.ts.

/// `{data: LeagueInfo | LeagueInfo[], meta}`, or (older pages) `{leagues:
/// [...], meta}`. A league of a list that cannot be read is left out.
impl<'de> Deserialize<'de> for LeagueInfoResponse {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut value = serde_json::Value::deserialize(d)?;
        let body = value
            .as_object_mut()
            .ok_or_else(|| D::Error::custom("expected an object"))?;
        let meta = super::list::Body::part(body.remove("meta"));
        let data = match body.remove("data").or_else(|| body.remove("leagues")) {
            Some(list @ serde_json::Value::Array(_)) => LeagueInfoData::Many(
                super::list::decode_items(Some(list))
                    .map_err(D::Error::custom)?
                    .0,
            ),
            Some(one @ serde_json::Value::Object(_)) => {
                LeagueInfoData::One(LeagueInfo::deserialize(one).map_err(D::Error::custom)?)
            }
            _ => return Err(D::Error::custom("no `data` or `leagues` in the body")),
        };
        Ok(Self { data, meta })
    }
}

/// Response of `getLeagueInfo`.
pub type GetLeagueInfoResponse = LeagueInfoResponse;
