//! `GET /list-games` and `GET /games/{game_id}`.

use super::checks::{self, LIST_MAX_LIMIT};
use super::series::{cursor_of, next_cursor, position_of_cursor};
use super::{HttpRequest, PagePosition, Paged, Request, path_segment};
use crate::error::Error;
use crate::game_id::GameId;
use crate::models::{Game, GameResponse, GameStatus, League, ListGamesResponse};

/// `GET /list-games`. The spec names only `league` (required); `status`,
/// the date range `from`/`to` (inclusive, `YYYY-MM-DD`, on the scheduled
/// date), `limit` (capped at 25, the pagination guide's range) and `cursor`
/// are this project's choice.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListGames {
    /// Required.
    pub league: Option<League>,
    /// Sent as given, known value or not.
    pub status: Option<GameStatus>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub limit: Option<u32>,
    pub cursor: Option<String>,
}

impl ListGames {
    pub fn new(league: League) -> Self {
        Self {
            league: Some(league),
            ..Self::default()
        }
    }
}

impl Request for ListGames {
    const OPERATION: &'static str = "listGames";
    type Response = ListGamesResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        let league = checks::required_league(self.league.as_ref())?;
        let from_text = checks::text(self.from.as_deref());
        let to_text = checks::text(self.to.as_deref());
        let from = checks::date("from", from_text)?;
        let to = checks::date("to", to_text)?;
        if let (Some(from), Some(to)) = (from, to)
            && from > to
        {
            return Err(Error::invalid("to", "must not be before `from`"));
        }
        let status = match &self.status {
            Some(s) if s.as_str().trim().is_empty() => {
                return Err(Error::invalid("status", "must not be empty"));
            }
            other => other.as_ref().map(GameStatus::as_str),
        };
        Ok(HttpRequest::new("/list-games")
            .param("league", Some(league))
            .param("status", status)
            .param("from", from_text)
            .param("to", to_text)
            .param("limit", checks::limit(self.limit, LIST_MAX_LIMIT)?)
            .param("cursor", checks::cursor(self.cursor.as_deref())))
    }
}

impl Paged for ListGames {
    type Item = Game;
    fn position(&self) -> Option<PagePosition> {
        position_of_cursor(self.cursor.as_deref())
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.cursor = cursor_of(position);
    }
    fn next_position(response: &ListGamesResponse) -> Option<PagePosition> {
        next_cursor(response.data.pagination.as_ref())
    }
    fn items(response: &ListGamesResponse) -> &[Game] {
        &response.data.games
    }
    fn into_items(response: ListGamesResponse) -> Vec<Game> {
        response.data.games
    }
}

/// `GET /games/{game_id}`: the game and every platform's markets on it.
/// The id is checked against the game id format (with or without the
/// league suffix) before sending.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetGame {
    pub game_id: String,
}

impl GetGame {
    pub fn new(game_id: impl Into<String>) -> Self {
        Self {
            game_id: game_id.into(),
        }
    }
}

impl Request for GetGame {
    const OPERATION: &'static str = "getGame";
    type Response = GameResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        let segment = path_segment("game_id", &self.game_id)?;
        GameId::parse(&self.game_id)?;
        Ok(HttpRequest::new(format!("/games/{segment}")))
    }
}
