//! `GET /league-info`, `GET /list-games`, `GET /games/{game_id}`,
//! `GET /list-futures`, `GET /futures/{id}`, `GET /list-awards`,
//! `GET /awards/{id}`.

use super::paging::{Window, one_label, one_platform, page_of, split_down, sports_meta};
use super::{bytes_response, json, object, text, with_member};
use crate::SharedState;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::platforms::SPORTS;
use crate::data::sports::{AwardRow, FutureRow, LEAGUES, Sports};
use crate::data::time;
use crate::error::ApiError;
use crate::params::{Id, Params};
use axum::extract::State;
use axum::response::Response;
use predmarket_core::game_id::GameId;
use predmarket_core::models::{
    Award, AwardResponse, AwardType, AwardsPage, Future, FutureResponse, FutureType, FuturesPage,
    GameStatus, GamesPage, LeagueInfoData, LeagueInfoResponse, ListAwardsResponse,
    ListFuturesResponse, ListGamesResponse, OddsFormat, OffsetPagination, PlatformError,
    RequestMeta, SportsMeta,
};
use predmarket_core::request::LIST_MAX_LIMIT;
use std::collections::BTreeMap;

pub const DEFAULT_LIMIT: u32 = 25;

fn league_ids() -> [&'static str; 4] {
    LEAGUES.map(|l| l.id)
}

fn league(state: &SharedState, params: &Params, required: bool) -> Result<Option<usize>, ApiError> {
    let league = one_label(state, params, "league", &league_ids())?;
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
    let league = league(&state, &params, false)?;
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
    let league = league(&state, &params, true)?;
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
    let (total, page) = window.take(state.data.sports.games.iter().filter(|game| {
        // The game's local (North American) day, as its id carries it.
        let local_day = (game.at - 8 * 3_600).div_euclid(86_400) * 86_400;
        Some(game.league) == league
            && status
                .as_deref()
                .is_none_or(|s| game.model.status.as_ref().is_some_and(|g| g.as_str() == s))
            && from.is_none_or(|f| local_day >= f)
            && to.is_none_or(|t| local_day <= t)
    }));
    let games = page.into_iter().map(|game| game.model.clone()).collect();
    Ok(json(&ListGamesResponse {
        data: GamesPage {
            games,
            skipped: Vec::new(),
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
    // `{data: Game, meta}` with the game carrying its markets, as the
    // public service documents it (../shared/spec/where-the-spec-is-silent.md).
    let data = with_member(
        &text(&game.model),
        "markets",
        &text(&sports.game_markets(game, &up)),
    );
    let meta = sports_meta(&state, &started, &queried, errors);
    Ok(bytes_response(object(&[
        ("data", &data),
        ("meta", &text(&meta)),
    ])))
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

/// What differs between futures and awards: rows, their kind parameter,
/// the priced model and the answer envelopes. Listing, lookup, paging
/// and platform coverage are one code ([`list`], [`get`]).
pub trait Board: Send + Sync + 'static {
    type Row: Sync;
    type Model;
    type ListResponse: serde::Serialize;
    type OneResponse: serde::Serialize;
    /// The resource's name in a 404.
    const NOUN: &'static str;
    /// The list's kind filter (`future_type`, `award_type`) and its values.
    const KIND_PARAM: &'static str;
    const KINDS: &'static [&'static str];
    fn rows(sports: &Sports) -> &[Self::Row];
    fn id(row: &Self::Row) -> &str;
    /// (league index, kind, season)
    fn key(row: &Self::Row) -> (usize, &str, i64);
    fn model(
        sports: &Sports,
        row: &Self::Row,
        platforms: &[&str],
        format: Option<&OddsFormat>,
    ) -> Self::Model;
    fn list_response(
        items: Vec<Self::Model>,
        pagination: OffsetPagination,
        meta: SportsMeta,
    ) -> Self::ListResponse;
    fn one_response(item: Self::Model, meta: SportsMeta) -> Self::OneResponse;
}

pub struct Futures;
pub struct Awards;

/// The [`Board`] of one resource: everything that differs is a name.
macro_rules! board {
    ($board:ident: $row:ident => $model:ident via $make:ident, rows $rows:ident,
     kind $kind_param:literal of $kinds:ident in $kind_field:ident, noun $noun:literal,
     list $list:ident { $page:ident.$items:ident }, one $one:ident) => {
        impl Board for $board {
            type Row = $row;
            type Model = $model;
            type ListResponse = $list;
            type OneResponse = $one;
            const NOUN: &'static str = $noun;
            const KIND_PARAM: &'static str = $kind_param;
            const KINDS: &'static [&'static str] = $kinds::KNOWN;
            fn rows(sports: &Sports) -> &[$row] {
                &sports.$rows
            }
            fn id(row: &$row) -> &str {
                &row.model.id
            }
            fn key(row: &$row) -> (usize, &str, i64) {
                (row.league, row.$kind_field, row.season)
            }
            fn model(
                sports: &Sports,
                row: &$row,
                platforms: &[&str],
                format: Option<&OddsFormat>,
            ) -> $model {
                sports.$make(row, platforms, format)
            }
            fn list_response(
                $items: Vec<$model>,
                pagination: OffsetPagination,
                meta: SportsMeta,
            ) -> $list {
                $list {
                    data: $page {
                        $items,
                        pagination: Some(pagination),
                        skipped: Vec::new(),
                    },
                    meta: Some(meta),
                }
            }
            fn one_response(data: $model, meta: SportsMeta) -> $one {
                $one {
                    data,
                    meta: Some(meta),
                }
            }
        }
    };
}

board!(Futures: FutureRow => Future via future_model, rows futures,
    kind "future_type" of FutureType in future_type, noun "future",
    list ListFuturesResponse { FuturesPage.futures }, one FutureResponse);
board!(Awards: AwardRow => Award via award_model, rows awards,
    kind "award_type" of AwardType in award_type, noun "award",
    list ListAwardsResponse { AwardsPage.awards }, one AwardResponse);

pub async fn list<B: Board>(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let league = league(&state, &params, true)?;
    let kind = params.one_of(B::KIND_PARAM, B::KINDS)?;
    let season = params.integer("season", 1900, 2200)?;
    let format = odds_format(&params)?;
    let (offset, limit) = offset_window(&params)?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let (total, page) = page_of(
        B::rows(sports).iter().filter(|row| {
            let (row_league, row_kind, row_season) = B::key(row);
            Some(row_league) == league
                && kind.as_deref().is_none_or(|k| k == row_kind)
                && season.is_none_or(|s| s == row_season)
        }),
        offset,
        limit as usize,
    );
    let items = page
        .into_iter()
        .map(|row| B::model(sports, row, &up, format.as_ref()))
        .collect();
    Ok(json(&B::list_response(
        items,
        offset_pagination(offset, limit, total),
        sports_meta(&state, &started, &queried, errors),
    )))
}

pub async fn get<B: Board>(
    State(state): State<SharedState>,
    started: Started,
    Id(id): Id,
    params: Params,
) -> Result<Response, ApiError> {
    let format = odds_format(&params)?;
    let (queried, up, errors) = sports_platforms(&state, &params)?;
    let sports = &state.data.sports;
    let row = B::rows(sports)
        .iter()
        .find(|row| B::id(row) == id)
        .ok_or_else(|| ApiError::not_found(B::NOUN, &id))?;
    Ok(json(&B::one_response(
        B::model(sports, row, &up, format.as_ref()),
        sports_meta(&state, &started, &queried, errors),
    )))
}
