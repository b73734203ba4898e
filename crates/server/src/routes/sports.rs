//! `GET /league-info`, `GET /list-games`, `GET /games/{game_id}`,
//! `GET /list-futures`, `GET /futures/{id}`, `GET /list-awards`,
//! `GET /awards/{id}`.

use super::paging::{Window, page_of, split_down, sports_meta};
use super::respond::{bytes_response, json, object, text, with_member};
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::sports::{AwardRow, FutureRow, LEAGUES, Sports};
use crate::data::time;
use crate::error::ApiError;
use crate::query::{Query, known, label, platform as one_platform, platforms};
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::capabilities::Capability;
use predmarket_core::game_id::GameId;
use predmarket_core::models::{
    Award, AwardResponse, AwardType, AwardsPage, Future, FutureResponse, FutureType, FuturesPage,
    GameStatus, GamesPage, LeagueInfoData, LeagueInfoResponse, ListAwardsResponse,
    ListFuturesResponse, ListGamesResponse, OddsFormat, OffsetPagination, PlatformError,
    RequestMeta, SportsMeta,
};
use predmarket_core::models::{League, PlatformId};
use predmarket_core::request::{
    GetAward, GetFuture, GetGame, GetLeagueInfo, ListAwards, ListFutures, ListGames, Operation,
    Request,
};
use std::collections::BTreeMap;

pub const DEFAULT_LIMIT: u32 = 25;

fn league_ids() -> [&'static str; 4] {
    LEAGUES.map(|l| l.id)
}

/// The index of the league a request names, if it is one of this server's.
fn league<T: AsRef<str>>(
    state: &SharedState,
    value: &Option<T>,
) -> Result<Option<usize>, ApiError> {
    let league = label(state, "league", value, &league_ids())?;
    Ok(league.and_then(Sports::league_index))
}

/// The sports platforms a request covers (one, or all), those that answer,
/// and the errors of those that do not.
type Coverage = (
    Vec<&'static str>,
    Vec<&'static str>,
    BTreeMap<String, PlatformError>,
);

fn sports_platforms(
    state: &SharedState,
    platform: &Option<PlatformId>,
) -> Result<Coverage, ApiError> {
    let platform = one_platform(state, platform, Capability::Sports)?;
    let queried: Vec<&'static str> = platforms(Capability::Sports)
        .into_iter()
        .filter(|s| platform.is_none_or(|p| p == *s))
        .collect();
    let (up, errors) = split_down(state, &queried);
    Ok((queried, up, errors))
}

fn odds_format(value: &Option<OddsFormat>) -> Result<Option<&OddsFormat>, ApiError> {
    known("odds_format", value, OddsFormat::KNOWN)?;
    Ok(value.as_ref())
}

pub async fn league_info(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<GetLeagueInfo>,
) -> Result<Response, ApiError> {
    let league = league(&state, &r.league)?;
    let include_teams = r.include_teams.unwrap_or(false);
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
            ..Default::default()
        }),
    }))
}

/// A `YYYY-MM-DD` parameter (its form checked by the request) as the
/// Unix seconds of that day.
fn day(name: &str, value: Option<&str>) -> Result<Option<i64>, ApiError> {
    value
        .map(|text| {
            time::parse_date(text)
                .ok_or_else(|| ApiError::invalid(name, "must be a date YYYY-MM-DD"))
        })
        .transpose()
}

pub async fn list_games(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<ListGames>,
) -> Result<Response, ApiError> {
    let league = league(&state, &Some(&r.league))?;
    let status = known("status", &r.status, GameStatus::KNOWN)?;
    let from = day("from", r.from.as_deref())?;
    let to = day("to", r.to.as_deref())?;
    let scope = Scope::new(Operation::ListGames.name())
        .with("league", league)
        .with("status", status)
        .with("from", from)
        .with("to", to);
    let window = Window::read(
        &state,
        &scope,
        r.limit,
        (r.cursor.as_deref(), r.offset),
        DEFAULT_LIMIT,
    )?;
    let (queried, _, errors) = sports_platforms(&state, &None)?;
    let (total, page) = window.take(state.data.sports.games.iter().filter(|game| {
        // The game's local (North American) day, as its id carries it.
        let local_day = (game.at - 8 * 3_600).div_euclid(86_400) * 86_400;
        Some(game.league) == league
            && status.is_none_or(|s| game.model.status.as_ref().is_some_and(|g| g.as_str() == s))
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
    Query(r): Query<GetGame>,
) -> Result<Response, ApiError> {
    let id = r.game_id;
    let parsed = GameId::parse(id.trim()).map_err(|e| {
        ApiError::invalid(
            "game_id",
            e.to_string()
                .trim_start_matches("invalid `game_id`: ")
                .to_owned(),
        )
    })?;
    let (queried, up, errors) = sports_platforms(&state, &r.platform)?;
    let sports = &state.data.sports;
    let game = sports
        .game(&parsed)
        .ok_or_else(|| ApiError::not_found("game", &id))?;
    // `{data: Game, meta}` with the game carrying its markets, as the
    // public service documents it (docs/spec/where-the-spec-is-silent.md).
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

fn offset_pagination(offset: usize, limit: u32, total: usize) -> OffsetPagination {
    let end = offset.saturating_add(limit as usize);
    OffsetPagination {
        total: Some(total as f64),
        limit: Some(f64::from(limit)),
        offset: Some(offset as f64),
        has_more: Some(end < total),
        next_offset: (end < total).then_some(end as f64),
    }
}

/// What differs between the two outrights, futures and awards: rows, their kind parameter,
/// the priced model and the answer envelopes. Listing, lookup, paging
/// and platform coverage are one code ([`list`], [`get`]).
pub trait Outright: Send + Sync + 'static {
    type Row: Sync;
    type Model;
    type ListResponse: serde::Serialize;
    type OneResponse: serde::Serialize;
    /// The resource's name in a 404.
    const NOUN: &'static str;
    /// The list's kind filter (`future_type`, `award_type`) and its values.
    const KIND_PARAM: &'static str;
    const KINDS: &'static [&'static str];
    type List: Request + Send;
    type Get: Request + Send;
    fn list_wanted(r: &Self::List) -> OutrightList<'_>;
    fn get_wanted(r: &Self::Get) -> OutrightItem<'_>;
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

/// What a list request of a [`Outright`] asks for, as its core request
/// declares it.
pub struct OutrightList<'a> {
    league: &'a League,
    kind: Option<&'a str>,
    season: Option<u32>,
    limit: Option<u32>,
    offset: Option<u64>,
    item: OutrightItem<'a>,
}

/// What a by-id request of a [`Outright`] asks for (and a list of each item).
pub struct OutrightItem<'a> {
    id: &'a str,
    platform: &'a Option<PlatformId>,
    odds_format: &'a Option<OddsFormat>,
}

pub struct Futures;
pub struct Awards;

/// The [`Outright`] of one resource: everything that differs is a name.
macro_rules! outright {
    ($outright:ident: $row:ident => $model:ident via $make:ident, rows $rows:ident,
     kind $kind_param:literal of $kinds:ident in $kind_field:ident, noun $noun:literal,
     list $list:ident { $page:ident.$items:ident }, one $one:ident,
     requests $list_request:ident, $get_request:ident) => {
        impl Outright for $outright {
            type Row = $row;
            type Model = $model;
            type ListResponse = $list;
            type OneResponse = $one;
            const NOUN: &'static str = $noun;
            const KIND_PARAM: &'static str = $kind_param;
            const KINDS: &'static [&'static str] = $kinds::KNOWN;
            type List = $list_request;
            type Get = $get_request;
            fn list_wanted(r: &$list_request) -> OutrightList<'_> {
                OutrightList {
                    league: &r.league,
                    kind: r.$kind_field.as_ref().map(|k| k.as_str()),
                    season: r.season,
                    limit: r.limit,
                    offset: r.offset,
                    item: OutrightItem {
                        id: "",
                        platform: &r.platform,
                        odds_format: &r.odds_format,
                    },
                }
            }
            fn get_wanted(r: &$get_request) -> OutrightItem<'_> {
                OutrightItem {
                    id: &r.id,
                    platform: &r.platform,
                    odds_format: &r.odds_format,
                }
            }
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
                    pagination: None,
                }
            }
        }
    };
}

outright!(Futures: FutureRow => Future via future_model, rows futures,
    kind "future_type" of FutureType in future_type, noun "future",
    list ListFuturesResponse { FuturesPage.futures }, one FutureResponse,
    requests ListFutures, GetFuture);
outright!(Awards: AwardRow => Award via award_model, rows awards,
    kind "award_type" of AwardType in award_type, noun "award",
    list ListAwardsResponse { AwardsPage.awards }, one AwardResponse,
    requests ListAwards, GetAward);

pub async fn list<O: Outright>(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<O::List>,
) -> Result<Response, ApiError> {
    let w = O::list_wanted(&r);
    let league = league(&state, &Some(w.league))?;
    let kind = known(O::KIND_PARAM, &w.kind, O::KINDS)?;
    let season = w.season.map(i64::from);
    let format = odds_format(w.item.odds_format)?;
    let limit = w.limit.unwrap_or(DEFAULT_LIMIT);
    // Beyond the list is an empty page, however far.
    let offset = usize::try_from(w.offset.unwrap_or(0)).unwrap_or(usize::MAX);
    let (queried, up, errors) = sports_platforms(&state, w.item.platform)?;
    let sports = &state.data.sports;
    let (total, page) = page_of(
        O::rows(sports).iter().filter(|row| {
            let (row_league, row_kind, row_season) = O::key(row);
            Some(row_league) == league
                && kind.is_none_or(|k| k == row_kind)
                && season.is_none_or(|s| s == row_season)
        }),
        offset,
        limit as usize,
    );
    let items = page
        .into_iter()
        .map(|row| O::model(sports, row, &up, format))
        .collect();
    Ok(json(&O::list_response(
        items,
        offset_pagination(offset, limit, total),
        sports_meta(&state, &started, &queried, errors),
    )))
}

pub async fn get<O: Outright>(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<O::Get>,
) -> Result<Response, ApiError> {
    let w = O::get_wanted(&r);
    let id = w.id;
    let format = odds_format(w.odds_format)?;
    let (queried, up, errors) = sports_platforms(&state, w.platform)?;
    let sports = &state.data.sports;
    let row = O::rows(sports)
        .iter()
        .find(|row| O::id(row) == id)
        .ok_or_else(|| ApiError::not_found(O::NOUN, id))?;
    Ok(json(&O::one_response(
        O::model(sports, row, &up, format),
        sports_meta(&state, &started, &queried, errors),
    )))
}
