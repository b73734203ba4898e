//! Sports: a tab per league with its games, teams, futures and awards.

use crate::api::{self, Directory, Inflight, Listing};
use crate::components::{
    FilterSelect, GamesTable, Loader, Outright, OutrightTable, PagedResults, StatusBadge,
    TeamsTable, TextFilter,
};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{AwardType, FutureType, GameStatus, League, LeagueInfo};
use predmarket_client::core::request::{GetLeagueInfo, ListAwards, ListFutures, ListGames, Paged};

const VIEWS: [(&str, &str); 4] = [
    ("games", "Games"),
    ("futures", "Futures"),
    ("awards", "Awards"),
    ("teams", "Teams"),
];
const GAME_STATUSES: [&str; 4] = ["not_started", "in_progress", "final", "postponed"];

fn view_of(url: &UrlState) -> String {
    url.get("view")
        .filter(|v| VIEWS.iter().any(|(k, _)| k == v))
        .unwrap_or_else(|| "games".into())
}

/// Sports: one tab per league the service lists (`/league-info`, the
/// first one by default) with its season and status, then its games
/// (`?status=&from=&to=`), futures or awards (`?type=&season=`) or teams
/// (`?league=&view=`).
#[component]
pub fn SportsPage() -> impl IntoView {
    let url = UrlState::new();
    let leagues = Directory::get()
        .unwrap_or_else(Directory::provide)
        .leagues();
    view! {
        <section class="page sports-page">
            <header class="page-head">
                <h1>"Sports"</h1>
                <p class="lede">"Games, futures and awards, with every platform's odds side by side."</p>
            </header>
            <Loader resource=leagues what="leagues" let:leagues>
                <Leagues leagues url />
            </Loader>
        </section>
    }
}

#[component]
fn Leagues(leagues: Vec<LeagueInfo>, url: UrlState) -> impl IntoView {
    let Some(first) = leagues.first().map(|l| l.id.clone()) else {
        return view! { <p class="empty">"The service lists no leagues."</p> }.into_any();
    };
    let known: Vec<String> = leagues.iter().map(|l| l.id.clone()).collect();
    // A league the service does not list (an old link) shows the first.
    let league = Memo::new(move |_| {
        url.get("league")
            .filter(|l| known.contains(l))
            .unwrap_or_else(|| first.clone())
    });
    let tab = Memo::new(move |_| view_of(&url));
    view! {
        <LeagueTabs leagues league tab />
        {move || {
            let league = league.get();
            match tab.get().as_str() {
                "futures" => untrack(|| outrights_tab::<ListFutures>(league, url)).into_any(),
                "awards" => untrack(|| outrights_tab::<ListAwards>(league, url)).into_any(),
                "teams" => view! { <TeamsTab league /> }.into_any(),
                _ => view! { <GamesTab league url /> }.into_any(),
            }
        }}
    }
    .into_any()
}

#[component]
fn LeagueTabs(leagues: Vec<LeagueInfo>, league: Memo<String>, tab: Memo<String>) -> impl IntoView {
    let links = leagues
        .iter()
        .map(|l| {
            let id = l.id.clone();
            let current = id.clone();
            let name = l
                .abbreviation
                .clone()
                .or_else(|| l.name.clone())
                .unwrap_or_else(|| l.id.clone());
            view! {
                <a
                    href=move || routes::sports(&id, &tab.get())
                    aria-current=move || (league.get() == current).then_some("page")
                    class="pill"
                    data-league=l.id.clone()
                >
                    <bdi>{name}</bdi>
                </a>
            }
        })
        .collect_view();
    let view_links = VIEWS
        .iter()
        .map(|(key, label)| {
            let key = *key;
            view! {
                <a href=move || routes::sports(&league.get(), key) aria-current=move || (tab.get() == key).then_some("page")>
                    {*label}
                </a>
            }
        })
        .collect_view();
    let leagues = StoredValue::new(leagues);
    view! {
        <nav class="pills" aria-label="Leagues">{links}</nav>
        {move || {
            let id = league.get();
            leagues.with_value(|all| all.iter().find(|l| l.id == id).cloned()).map(|info| view! { <LeagueHead info /> })
        }}
        <nav class="subnav" aria-label="League sections">{view_links}</nav>
    }
}

#[component]
fn LeagueHead(info: LeagueInfo) -> impl IntoView {
    let season = info.season.clone().unwrap_or_default();
    let counts = info.counts.clone().unwrap_or_default();
    view! {
        <div class="league-head card">
            <div>
                <h2><bdi>{info.name.clone().unwrap_or_else(|| info.id.clone())}</bdi></h2>
                <p class="muted">
                    {info.sport.clone().map(|s| format::words(&s))}
                    {season.year.map(|y| format!(" · {} season", y))}
                    {season.start_date.clone().map(|s| format!(" · {} to {}", format::date(Some(&s)), format::date(season.end_date.as_deref())))}
                </p>
            </div>
            <div class="stats compact">
                {info.status.as_ref().map(|s| view! { <div class="stat"><span class="k">"Status"</span><span class="v"><StatusBadge status=s.as_str().to_owned() /></span></div> })}
                <div class="stat"><span class="k">"Teams"</span><span class="v">{format::integer(counts.teams)}</span></div>
                <div class="stat"><span class="k">"Futures"</span><span class="v">{format::integer(counts.futures)}</span></div>
                <div class="stat"><span class="k">"Awards"</span><span class="v">{format::integer(counts.awards)}</span></div>
            </div>
        </div>
    }
}

#[component]
fn GamesTab(league: String, url: UrlState) -> impl IntoView {
    let filters = Memo::new(move |_| (url.get("status"), url.get("from"), url.get("to")));
    let inflight = Inflight::new();
    let games = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let (status, from, to) = filters.get();
            let request = ListGames {
                status: status.map(|s| GameStatus::from(s.as_str())),
                from,
                to,
                limit: Some(api::PAGE_SIZE),
                ..ListGames::new(League::from(league.as_str()))
            };
            let token = inflight.next();
            // A range the client refuses (`to` before `from`, not a date)
            // is an error on screen, not a request.
            async move { api::load_pages(request, 1, &token).await }
        }
    });
    let statuses = GAME_STATUSES
        .iter()
        .map(|s| (s.to_string(), format::words(s)))
        .collect::<Vec<_>>();
    view! {
        <div class="filters inline">
            <FilterSelect url key="status" id="game-status" label="Status" all="All games" options=statuses />
            <TextFilter url key="from" id="game-from" label="From" kind="date" />
            <TextFilter url key="to" id="game-to" label="To" kind="date" />
        </div>
        <Loader resource=games what="games" let:loaded>
            <PagedResults
                loaded
                inflight=inflight.clone()
                noun="games"
                empty={|| view! { <p class="empty">"No games with these filters."</p> }}
                table={|games| view! { <GamesTable games /> }}
            />
        </Loader>
    }
}

/// A list of futures or awards of a league, filtered by type and season.
pub trait OutrightList: Paged + Send + Sync + 'static {
    /// Plural, lower case: the table's id.
    const NOUN: &'static str;
    const CAPTION: &'static str;
    /// The known types (`future_type`, `award_type`), as the service spells them.
    const TYPES: &'static [&'static str];
    fn of_league(league: League, kind: Option<String>, season: Option<u32>) -> Self;
}

impl OutrightList for ListFutures {
    const NOUN: &'static str = "futures";
    const CAPTION: &'static str = "Futures";
    const TYPES: &'static [&'static str] = FutureType::KNOWN;
    fn of_league(league: League, kind: Option<String>, season: Option<u32>) -> Self {
        Self {
            limit: Some(api::PAGE_SIZE),
            future_type: kind.as_deref().map(FutureType::from),
            season,
            ..Self::new(league)
        }
    }
}

impl OutrightList for ListAwards {
    const NOUN: &'static str = "awards";
    const CAPTION: &'static str = "Awards";
    const TYPES: &'static [&'static str] = AwardType::KNOWN;
    fn of_league(league: League, kind: Option<String>, season: Option<u32>) -> Self {
        Self {
            limit: Some(api::PAGE_SIZE),
            award_type: kind.as_deref().map(AwardType::from),
            season,
            ..Self::new(league)
        }
    }
}

/// A season from the URL: a whole year, else none (the field shows what
/// was typed; the service's range check judges the year).
fn season_of(text: Option<String>) -> Option<u32> {
    text?.trim().parse().ok()
}

/// The futures or the awards of a league, paged, with their type and
/// season filters (`?type=&season=`).
fn outrights_tab<R>(league: String, url: UrlState) -> impl IntoView
where
    R: OutrightList,
    R::Item: Clone + Send + Sync + 'static,
    R::Response: Clone + Listing,
    for<'a> Outright: From<&'a R::Item>,
{
    let filters = Memo::new(move |_| (url.get("type"), season_of(url.get("season"))));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let (kind, season) = filters.get();
            let request = R::of_league(League::from(league.as_str()), kind, season);
            let token = inflight.next();
            async move { api::load_pages(request, 1, &token).await }
        }
    });
    let types: Vec<(String, String)> = R::TYPES
        .iter()
        .map(|t| (t.to_string(), format::words(t)))
        .collect();
    let table = |items: Signal<Vec<R::Item>>| {
        let outrights = Signal::derive(move || {
            items.with(|all| all.iter().map(Outright::from).collect::<Vec<_>>())
        });
        view! { <OutrightTable outrights id=R::NOUN caption=R::CAPTION /> }
    };
    view! {
        <div class="filters inline">
            <FilterSelect url key="type" id="contest-type" label="Type" all="All types" options=types />
            <TextFilter url key="season" id="contest-season" label="Season" kind="number" placeholder="Any" min="1900" max="2200" />
        </div>
        <Loader resource=list what=R::NOUN let:loaded>
            <PagedResults
                loaded
                inflight=inflight.clone()
                noun=R::NOUN
                empty={|| view! { <p class="empty">{format!("No {} for this league with these filters.", R::NOUN)}</p> }}
                table
            />
        </Loader>
    }
}

#[component]
fn TeamsTab(league: String) -> impl IntoView {
    let inflight = Inflight::new();
    let teams = LocalResource::new(move || {
        let request = GetLeagueInfo {
            league: Some(League::from(league.as_str())),
            include_teams: Some(true),
        };
        let token = inflight.next();
        async move {
            let response = api::send(&request, &token).await?;
            Ok(response
                .data
                .leagues()
                .first()
                .and_then(|l| l.teams.clone())
                .unwrap_or_default())
        }
    });
    view! {
        <Loader resource=teams what="teams" let:teams>
            {if teams.is_empty() {
                view! { <p class="empty">"No teams listed."</p> }.into_any()
            } else {
                view! { <TeamsTable teams /> }.into_any()
            }}
        </Loader>
    }
}
