//! `GET /league-info`, `GET /list-games`, `GET /games/{game_id}`,
//! `GET /list-futures`, `GET /futures/{id}`, `GET /list-awards`,
//! `GET /awards/{id}`.

use super::json;
use super::paging::{Window, one_platform, split_down, sports_meta};
use crate::SharedState;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::platforms::SPORTS;
use crate::data::sports::{LEAGUES, Sports};
use crate::data::time;
use crate::error::ApiError;
use crate::params::{Id, Params};
use axum::extract::State;
use axum::response::Response;
use predmarket_core::game_id::GameId;
use predmarket_core::models::{
    AwardResponse, AwardType, AwardsPage, FutureResponse, FutureType, FuturesPage, GameDetail,
    GameResponse, GameStatus, GamesPage, LeagueInfoData, LeagueInfoResponse, ListAwardsResponse,
    ListFuturesResponse, ListGamesResponse, OddsFormat, OffsetPagination, PlatformError,
    RequestMeta,
};
use predmarket_core::request::LIST_MAX_LIMIT;
use std::collections::BTreeMap;

pub const DEFAULT_LIMIT: u32 = 25;

fn league_ids() -> [&'static str; 4] {
    LEAGUES.map(|l| l.id)
}

fn league(params: &Params, required: bool) -> Result<Option<usize>, ApiError> {
    let league = params.one_of("league", &league_ids())?;
    if required && league.is_none() {
        return Err(ApiError::invalid("league", "is required"));
    }
    Ok(league.as_deref().and_then(Sports::league_index))
}

/// The sports platforms a request covers (one, or all), those that answer,
/// and the errors of those that do not.
type Coverage = (
    Vec<&'static str>,
    Vec<&'static str>,
    BTreeMap<String, PlatformError>,
);

fn sports_platforms(state: &SharedState, params: &Params) -> Result<Coverage, ApiError> {
    let platform = one_platform(state, params, &SPORTS)?;
    let queried: Vec<&'static str> = match platform {
        Some(p) => SPORTS.iter().copied().filter(|s| *s == p).collect(),
        None => SPORTS.to_vec(),
    };
    let (up, errors) = split_down(state, &queried);
    Ok((queried, up, errors))
}

fn odds_format(params: &Params) -> Result<Option<OddsFormat>, ApiError> {
    Ok(params
        .one_of("odds_format", OddsFormat::KNOWN)?
        .map(OddsFormat::from))
}

pub async fn league_info(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let league = league(&params, false)?;
    let include_teams = params.flag("include_teams")?.unwrap_or(false);
    let sports = &state.data.sports;
    let data = match league {
        Some(l) => LeagueInfoData::One(sports.league_info(l, include_teams)),
        None => LeagueInfoData::Many(
            (0..LEAGUES.len())
                .map(|l| sports.league_info(l, include_teams))
                .collect(),
        ),
    };
    Ok(json(&LeagueInfoResponse {
        data,
        meta: Some(RequestMeta {
            request_time: Some(started.elapsed_ms()),
        }),
    }))
}

/// A `YYYY-MM-DD` parameter as the Unix seconds of that day.
fn day(params: &Params, name: &str) -> Result<Option<i64>, ApiError> {
    match params.typed(name)? {
        None => Ok(None),
        Some(text) => time::parse_date(&text)
            .map(Some)
            .ok_or_else(|| ApiError::invalid(name, "must be a date YYYY-MM-DD")),
    }
}

pub async fn list_games(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let league = league(&params, true)?;
    let status = params.one_of("status", GameStatus::KNOWN)?;
    let from = day(&params, "from")?;
    let to = day(&params, "to")?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(ApiError::invalid("from", "must not be after `to`"));
    }
    let scope = Scope::new("listGames")
        .with("league", league)
        .with("status", status.as_deref())
        .with("from", from)
        .with("to", to);
    let window = Window::read(&state, &params, &scope, DEFAULT_LIMIT, LIST_MAX_LIMIT)?;
    let (queried, _, errors) = sports_platforms(&state, &Params::default())?;
    let mut total = 0usize;
    let mut games = Vec::new();
    for game in &state.data.sports.games {
        // The game's local (North American) day, as its id carries it.
        let local_day = (game.at - 8 * 3_600).div_euclid(86_400) * 86_400;
        let keep = Some(game.league) == league
            && status
                .as_deref()
                .is_none_or(|s| game.model.status.as_ref().is_some_and(|g| g.as_str() == s))
            && from.is_none_or(|f| local_day >= f)
            && to.is_none_or(|t| local_day <= t);
        if keep {
            if total >= window.offset && games.len() < window.limit.applied as usize {
                games.push(game.model.clone());
            }
            total += 1;
        }
    }
    Ok(json(&ListGamesResponse {
        data: GamesPage {
            games,
            pagination: Some(window.pagination(&state, &scope, total)),
        },
        meta: Some(sports_meta(&state, &started, &queried, errors)),
    }))
}

pub async fn game(
    State(state): State<SharedState>,
    started: Started,
    Id(id): Id,
    params: Params,
) -> Result<Response, ApiError> {
    let parsed = GameId::parse(id.trim()).map_err(|e| {
        ApiError::invalid(
            "game_id",
            e.to_string()
                .trim_start_matches("invalid `game_id`: ")
                .to_owned(),
        )
    })?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let game = sports
        .game(&parsed)
        .ok_or_else(|| ApiError::not_found("game", &id))?;
    Ok(json(&GameResponse {
        data: GameDetail {
            game: game.model.clone(),
            markets: sports.game_markets(game, &up),
        },
        meta: Some(sports_meta(&state, &started, &queried, errors)),
    }))
}

/// `limit` and `offset` of the offset-paged lists.
fn offset_window(params: &Params) -> Result<(usize, u32), ApiError> {
    let limit = params.limit(DEFAULT_LIMIT, LIST_MAX_LIMIT)?.applied;
    let offset = params
        .integer("offset", 0, i64::from(u32::MAX))?
        .unwrap_or(0) as usize;
    Ok((offset, limit))
}

fn offset_pagination(offset: usize, limit: u32, total: usize) -> OffsetPagination {
    let end = offset + limit as usize;
    OffsetPagination {
        total: Some(total as f64),
        limit: Some(f64::from(limit)),
        offset: Some(offset as f64),
        has_more: Some(end < total),
        next_offset: (end < total).then_some(end as f64),
    }
}

pub async fn list_futures(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let league = league(&params, true)?;
    let future_type = params.one_of("future_type", FutureType::KNOWN)?;
    let season = params.integer("season", 1900, 2200)?;
    let format = odds_format(&params)?;
    let (offset, limit) = offset_window(&params)?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let matching: Vec<_> = sports
        .futures
        .iter()
        .filter(|f| {
            Some(f.league) == league
                && future_type.as_deref().is_none_or(|t| t == f.future_type)
                && season.is_none_or(|s| s == f.season)
        })
        .collect();
    let futures = matching
        .iter()
        .skip(offset)
        .take(limit as usize)
        .map(|row| sports.future_model(row, &up, format.as_ref()))
        .collect();
    Ok(json(&ListFuturesResponse {
        data: FuturesPage {
            futures,
            pagination: Some(offset_pagination(offset, limit, matching.len())),
        },
        meta: Some(sports_meta(&state, &started, &queried, errors)),
    }))
}

pub async fn future(
    State(state): State<SharedState>,
    started: Started,
    Id(id): Id,
    params: Params,
) -> Result<Response, ApiError> {
    let format = odds_format(&params)?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let row = sports
        .futures
        .iter()
        .find(|f| f.model.id == id)
        .ok_or_else(|| ApiError::not_found("future", &id))?;
    Ok(json(&FutureResponse {
        data: sports.future_model(row, &up, format.as_ref()),
        meta: Some(sports_meta(&state, &started, &queried, errors)),
    }))
}

pub async fn list_awards(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let league = league(&params, true)?;
    let award_type = params.one_of("award_type", AwardType::KNOWN)?;
    let season = params.integer("season", 1900, 2200)?;
    let format = odds_format(&params)?;
    let (offset, limit) = offset_window(&params)?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let matching: Vec<_> = sports
        .awards
        .iter()
        .filter(|a| {
            Some(a.league) == league
                && award_type.as_deref().is_none_or(|t| t == a.award_type)
                && season.is_none_or(|s| s == a.season)
        })
        .collect();
    let awards = matching
        .iter()
        .skip(offset)
        .take(limit as usize)
        .map(|row| sports.award_model(row, &up, format.as_ref()))
        .collect();
    Ok(json(&ListAwardsResponse {
        data: AwardsPage {
            awards,
            pagination: Some(offset_pagination(offset, limit, matching.len())),
        },
        meta: Some(sports_meta(&state, &started, &queried, errors)),
    }))
}

pub async fn award(
    State(state): State<SharedState>,
    started: Started,
    Id(id): Id,
    params: Params,
) -> Result<Response, ApiError> {
    let format = odds_format(&params)?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let row = sports
        .awards
        .iter()
        .find(|a| a.model.id == id)
        .ok_or_else(|| ApiError::not_found("award", &id))?;
    Ok(json(&AwardResponse {
        data: sports.award_model(row, &up, format.as_ref()),
        meta: Some(sports_meta(&state, &started, &queried, errors)),
    }))
}
