//! `GET /list-games` and `GET /games/{game_id}`.

use super::checks::{self, LIST_MAX_LIMIT};
use super::{Operation, Request, render_path, wire};
use crate::error::Error;
use crate::models::{Game, GameResponse, GameStatus, League, ListGamesResponse, PlatformId};
use serde::{Deserialize, Serialize};

/// `GET /list-games`. The spec names only `league` (required); `status`,
/// the date range `from`/`to` (inclusive, `YYYY-MM-DD`, on the scheduled
/// date), `limit` (capped at 25, the pagination guide's range) and `cursor`
/// are this project's choice.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListGamesParams")
)]
pub struct ListGames {
    /// One league id.
    pub league: League,
    /// One status.
    pub status: Option<GameStatus>,
    /// First scheduled day, `YYYY-MM-DD`, inclusive.
    pub from: Option<String>,
    /// Last scheduled day, `YYYY-MM-DD`, inclusive.
    pub to: Option<String>,
    /// Page size; capped at 25.
    #[serde(default, deserialize_with = "wire::whole")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// `next_offset` of the previous page, where a service pages this list
    /// by offset (the public service's older pages); `cursor` wins when
    /// both are sent.
    #[serde(default, deserialize_with = "wire::whole")]
    pub offset: Option<u64>,
}

impl ListGames {
    pub fn new(league: League) -> Self {
        Self {
            league,
            ..Self::default()
        }
    }
}

impl Request for ListGames {
    const OP: Operation = Operation::ListGames;
    type Response = ListGamesResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::required_value("league", r.league.as_str())?;
        checks::one_value("status", &r.status)?;
        checks::text(&mut r.from);
        checks::text(&mut r.to);
        let from = checks::date("from", r.from.as_deref())?;
        let to = checks::date("to", r.to.as_deref())?;
        if let (Some(from), Some(to)) = (from, to)
            && from > to
        {
            return Err(Error::invalid("to", "must not be before `from`"));
        }
        checks::limit(&mut r.limit, LIST_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        Ok(r)
    }
}

paged!(cursor ListGames => Game, |r| r.data.games, r.data.pagination.as_ref());

/// `GET /games/{game_id}`: the game and every platform's markets on it.
/// The id is sent as given (any non-blank string): the public service's
/// ids come in more forms than `{Away}v{Home}{YYYYMMDD}@{LEAGUE}`.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetGameParams")
)]
pub struct GetGame {
    /// `{Away}v{Home}{YYYYMMDD}@{LEAGUE}`, or without the `@{LEAGUE}` suffix (path).
    pub game_id: String,
    /// Only this platform's markets.
    pub platform: Option<PlatformId>,
}

impl GetGame {
    pub fn new(game_id: impl Into<String>) -> Self {
        Self {
            game_id: game_id.into(),
            platform: None,
        }
    }
}

impl Request for GetGame {
    const OP: Operation = Operation::GetGame;
    const PATH_PARAMS: &'static [&'static str] = &["game_id"];
    type Response = GameResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::path_id("game_id", &self.game_id)?;
        checks::one_value("platform", &self.platform)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        render_path(Self::PATH, &[("game_id", &self.game_id)])
    }
}
