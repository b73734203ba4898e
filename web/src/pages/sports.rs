use crate::api::{self, Inflight, Loaded, PagedList};
use crate::components::{ErrorNotice, LoadMore, Loading, PlatformWarnings, StatusBadge};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::Error;
use predmarket_client::core::models::{
    Award, Future, Game, GameStatus, League, LeagueInfo, LeagueInfoData,
};
use predmarket_client::core::odds::{self, Quote};
use predmarket_client::core::request::{GetLeagueInfo, ListAwards, ListFutures, ListGames};

const VIEWS: [(&str, &str); 4] = [
    ("games", "Games"),
    ("futures", "Futures"),
    ("awards", "Awards"),
    ("teams", "Teams"),
];
const GAME_STATUSES: [&str; 4] = ["not_started", "in_progress", "final", "postponed"];

fn league_of(url: &UrlState) -> String {
    url.get("league")
        .filter(|l| League::from(l.as_str()).is_known())
        .unwrap_or_else(|| "league_a".into())
}

fn view_of(url: &UrlState) -> String {
    url.get("view")
        .filter(|v| VIEWS.iter().any(|(k, _)| k == v))
        .unwrap_or_else(|| "games".into())
}

/// Sports: one tab per league with its season and status, then its games,
/// futures, awards or teams (`?league=&view=&status=`).
#[component]
pub fn SportsPage() -> impl IntoView {
    let url = UrlState::new();
    let league = Memo::new(move |_| league_of(&url));
    let tab = Memo::new(move |_| view_of(&url));
    let inflight = Inflight::new();
    let leagues = LocalResource::new(move || {
        let token = inflight.next();
        async move { api::send(&GetLeagueInfo::default(), &token).await }
    });
    view! {
        <section class="page sports-page">
            <header class="page-head">
                <h1>"Sports"</h1>
                <p class="lede">"Games, futures and awards, with every platform's odds side by side."</p>
            </header>
            <Transition fallback=|| view! { <Loading what="leagues" /> }>
                {move || Suspend::new(async move {
                    match leagues.await {
                        Ok(response) => {
                            let all = match response.data {
                                LeagueInfoData::Many(list) => list,
                                LeagueInfoData::One(one) => vec![one],
                            };
                            view! { <LeagueTabs leagues=all league tab /> }.into_any()
                        }
                        Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| leagues.refetch()) /> }.into_any(),
                    }
                })}
            </Transition>
            {move || {
                let league = league.get();
                match tab.get().as_str() {
                    "futures" => view! { <FuturesTab league /> }.into_any(),
                    "awards" => view! { <AwardsTab league /> }.into_any(),
                    "teams" => view! { <TeamsTab league /> }.into_any(),
                    _ => view! { <GamesTab league url /> }.into_any(),
                }
            }}
        </section>
    }
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
                .unwrap_or_else(|| format::label(&l.id));
            view! {
                <a
                    href=move || routes::sports(&id, &tab.get())
                    aria-current=move || (league.get() == current).then_some("page")
                    class="pill"
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

fn score(game: &Game) -> Option<String> {
    let meta = game.metadata.as_ref()?;
    let away = meta.get("away_score")?.as_f64()?;
    let home = meta.get("home_score")?.as_f64()?;
    Some(format!("{away:.0} – {home:.0}"))
}

#[component]
fn GamesTab(league: String, url: UrlState) -> impl IntoView {
    let status = Memo::new(move |_| url.get("status"));
    let inflight = Inflight::new();
    let league_for_load = league.clone();
    let games = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let request = ListGames {
                league: League::from(league_for_load.as_str()),
                status: status.get().map(|s| GameStatus::from(s.as_str())),
                limit: Some(api::PAGE_SIZE),
                ..ListGames::default()
            };
            let token = inflight.next();
            async move { api::load_pages(request, 1, &token).await }
        }
    });
    let option = move |value: &'static str, label: String| {
        view! { <option value=value prop:selected=move || status.get().as_deref().unwrap_or("") == value>{label}</option> }
    };
    view! {
        <div class="filters inline">
            <div class="field">
                <label for="game-status">"Status"</label>
                <select id="game-status" on:change=move |ev| url.set(&[("status", Some(event_target_value(&ev)))], false)>
                    {option("", "All games".into())}
                    {GAME_STATUSES.iter().map(|s| option(s, format::words(s))).collect_view()}
                </select>
            </div>
        </div>
        <Transition fallback=|| view! { <Loading what="games" /> }>
            {move || {
                let inflight = inflight.clone();
                Suspend::new(async move {
                    match games.await {
                        Ok(loaded) => view! { <GamesTable loaded inflight /> }.into_any(),
                        Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| games.refetch()) /> }.into_any(),
                    }
                })
            }}
        </Transition>
    }
}

#[component]
fn GamesTable(loaded: Loaded<ListGames>, inflight: Inflight) -> impl IntoView {
    let total = loaded.first.data.pagination.as_ref().and_then(|p| p.total);
    let warnings = loaded
        .first
        .meta
        .as_ref()
        .and_then(|m| m.platform_errors.clone());
    if loaded.items.is_empty() {
        return view! { <PlatformWarnings errors=warnings /><p class="empty">"No games with this status."</p> }.into_any();
    }
    let list = PagedList::new(loaded.items, loaded.pager);
    let on_more = Callback::new(move |_| list.more(inflight.current(), |_| ()));
    view! {
        <PlatformWarnings errors=warnings />
        <div class="table-wrap">
            <table class="data games" id="games">
                <caption class="visually-hidden">"Games"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Date"</th>
                        <th scope="col" class="title-col">"Game"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col" class="num">"Score"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || list.items.get() key=|g: &Game| g.id.clone() let:game>
                        <tr data-id=game.id.clone()>
                            <td>{format::datetime(game.scheduled_at.as_deref())}</td>
                            <th scope="row" class="title-col">
                                <a href=routes::game(&game.id) class="title"><bdi>{game.title.clone().unwrap_or_else(|| game.id.clone())}</bdi></a>
                            </th>
                            <td>{game.status.as_ref().map(|s| view! { <StatusBadge status=s.as_str().to_owned() /> })}</td>
                            <td class="num">{score(&game).unwrap_or_else(|| format::NONE.into())}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
        <LoadMore shown=Signal::derive(move || list.items.with(Vec::len)) total done=list.done state=list.state noun="games" on_more />
    }
    .into_any()
}

/// The favourite of a board: the outcome with the highest best-price
/// probability, and that probability.
fn favourite(quotes: &[Quote]) -> Option<(String, f64)> {
    odds::best_prices(quotes)
        .into_values()
        .max_by(|a, b| a.probability().total_cmp(&b.probability()))
        .map(|q| (q.label.clone(), q.probability()))
}

/// One row of the futures or awards list.
#[derive(Clone)]
struct BoardRow {
    id: String,
    name: String,
    kind: String,
    season: Option<f64>,
    platforms: usize,
    favourite: Option<(String, f64)>,
    deadline: Option<String>,
    href: String,
}

impl From<&Future> for BoardRow {
    fn from(f: &Future) -> Self {
        Self {
            id: f.id.clone(),
            name: f.future_name.clone().unwrap_or_else(|| f.id.clone()),
            kind: f
                .future_type
                .as_ref()
                .map(|t| format::words(t.as_str()))
                .unwrap_or_default(),
            season: f.season,
            platforms: f.markets.as_ref().map_or(0, Vec::len),
            favourite: favourite(&odds::future_quotes(f)),
            deadline: f.metadata.as_ref().and_then(|m| m.deadline.clone()),
            href: routes::future(&f.id),
        }
    }
}

impl From<&Award> for BoardRow {
    fn from(a: &Award) -> Self {
        Self {
            id: a.id.clone(),
            name: a.award_name.clone().unwrap_or_else(|| a.id.clone()),
            kind: a
                .award_type
                .as_ref()
                .map(|t| format::words(t.as_str()))
                .unwrap_or_default(),
            season: a.season,
            platforms: a.markets.as_ref().map_or(0, Vec::len),
            favourite: favourite(&odds::award_quotes(a)),
            deadline: a.metadata.as_ref().and_then(|m| m.deadline.clone()),
            href: routes::award(&a.id),
        }
    }
}

#[component]
fn BoardsTable(
    rows: Signal<Vec<BoardRow>>,
    #[prop(into)] id: String,
    caption: &'static str,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data boards" id=id>
                <caption class="visually-hidden">{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col" class="title-col">"Market"</th>
                        <th scope="col">"Type"</th>
                        <th scope="col">"Favourite"</th>
                        <th scope="col" class="num">"Chance"</th>
                        <th scope="col" class="num">"Platforms"</th>
                        <th scope="col">"Deadline"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || rows.get() key=|r: &BoardRow| r.id.clone() let:row>
                        <tr data-id=row.id.clone()>
                            <th scope="row" class="title-col">
                                <a href=row.href.clone() class="title"><bdi>{row.name.clone()}</bdi></a>
                                {row.season.map(|s| view! { <span class="sub">{format!("Season {s:.0}")}</span> })}
                            </th>
                            <td>{row.kind.clone()}</td>
                            <td><bdi>{row.favourite.as_ref().map(|(n, _)| n.clone()).unwrap_or_else(|| format::NONE.into())}</bdi></td>
                            <td class="num">{format::percent(row.favourite.as_ref().map(|(_, p)| *p))}</td>
                            <td class="num">{row.platforms}</td>
                            <td>{format::date(row.deadline.as_deref())}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn FuturesTab(league: String) -> impl IntoView {
    let inflight = Inflight::new();
    let futures = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let request = ListFutures {
                limit: Some(api::PAGE_SIZE),
                ..ListFutures::new(League::from(league.as_str()))
            };
            let token = inflight.next();
            async move { api::load_pages(request, 1, &token).await }
        }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="futures" /> }>
            {move || {
                let inflight = inflight.clone();
                Suspend::new(async move {
                    match futures.await {
                        Ok(loaded) => {
                            let total = loaded.first.data.pagination.as_ref().and_then(|p| p.total);
                            let warnings = loaded.first.meta.as_ref().and_then(|m| m.platform_errors.clone());
                            view! { <Boards items=loaded.items pager=loaded.pager total warnings inflight noun="futures" /> }.into_any()
                        }
                        Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| futures.refetch()) /> }.into_any(),
                    }
                })
            }}
        </Transition>
    }
}

#[component]
fn AwardsTab(league: String) -> impl IntoView {
    let inflight = Inflight::new();
    let awards = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let request = ListAwards {
                limit: Some(api::PAGE_SIZE),
                ..ListAwards::new(League::from(league.as_str()))
            };
            let token = inflight.next();
            async move { api::load_pages(request, 1, &token).await }
        }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="awards" /> }>
            {move || {
                let inflight = inflight.clone();
                Suspend::new(async move {
                    match awards.await {
                        Ok(loaded) => {
                            let total = loaded.first.data.pagination.as_ref().and_then(|p| p.total);
                            let warnings = loaded.first.meta.as_ref().and_then(|m| m.platform_errors.clone());
                            view! { <Boards items=loaded.items pager=loaded.pager total warnings inflight noun="awards" /> }.into_any()
                        }
                        Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| awards.refetch()) /> }.into_any(),
                    }
                })
            }}
        </Transition>
    }
}

/// The futures or awards of a league, paged by offset.
#[component]
fn Boards<R>(
    items: Vec<R::Item>,
    pager: predmarket_client::core::Pager<R>,
    total: Option<f64>,
    warnings: Option<
        std::collections::BTreeMap<String, predmarket_client::core::models::PlatformError>,
    >,
    inflight: Inflight,
    noun: &'static str,
) -> impl IntoView
where
    R: predmarket_client::core::Paged + Send + Sync + 'static,
    R::Item: Clone + Send + Sync + 'static,
    R::Response: Clone,
    for<'a> BoardRow: From<&'a R::Item>,
{
    if items.is_empty() {
        return view! { <PlatformWarnings errors=warnings /><p class="empty">{format!("No {noun} for this league.")}</p> }.into_any();
    }
    let list = PagedList::new(items, pager);
    let rows = Signal::derive(move || {
        list.items
            .with(|items| items.iter().map(BoardRow::from).collect::<Vec<_>>())
    });
    let on_more = Callback::new(move |_| list.more(inflight.current(), |_| ()));
    let caption = if noun == "awards" {
        "Awards"
    } else {
        "Futures"
    };
    view! {
        <PlatformWarnings errors=warnings />
        <BoardsTable rows id=noun caption />
        <LoadMore shown=Signal::derive(move || list.items.with(Vec::len)) total done=list.done state=list.state noun on_more />
    }
    .into_any()
}

#[component]
fn TeamsTab(league: String) -> impl IntoView {
    let inflight = Inflight::new();
    let info = LocalResource::new(move || {
        let request = GetLeagueInfo {
            league: Some(League::from(league.as_str())),
            include_teams: Some(true),
        };
        let token = inflight.next();
        async move {
            let response = api::send(&request, &token).await?;
            Ok::<_, Error>(
                response
                    .data
                    .leagues()
                    .first()
                    .and_then(|l| l.teams.clone())
                    .unwrap_or_default(),
            )
        }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="teams" /> }>
            {move || Suspend::new(async move {
                match info.await {
                    Ok(teams) if teams.is_empty() => view! { <p class="empty">"No teams listed."</p> }.into_any(),
                    Ok(teams) => {
                        let rows = teams
                            .into_iter()
                            .map(|t| {
                                let meta = t.metadata.clone().unwrap_or_default();
                                let swatches = meta
                                    .colors
                                    .unwrap_or_default()
                                    .iter()
                                    .filter_map(|c| format::safe_color(c))
                                    .map(|c| view! { <span class="swatch" style=format!("background:{c}") aria-hidden="true"></span> })
                                    .collect_view();
                                let place = [t.city.clone(), t.state.clone()].into_iter().flatten().collect::<Vec<_>>().join(", ");
                                view! {
                                    <tr data-id=t.service_id.clone()>
                                        <th scope="row" class="title-col">
                                            <span class="swatches">{swatches}</span>
                                            <bdi>{t.name.clone().unwrap_or_else(|| t.service_id.clone())}</bdi>
                                        </th>
                                        <td>{t.abbreviation.clone().unwrap_or_default()}</td>
                                        <td><bdi>{place}</bdi></td>
                                        <td><bdi>{t.conference.clone().unwrap_or_default()}</bdi></td>
                                        <td><bdi>{t.division.clone().unwrap_or_default()}</bdi></td>
                                        <td><bdi>{meta.stadium.clone().unwrap_or_default()}</bdi></td>
                                        <td class="num">{meta.founded.map(|f| format!("{f:.0}")).unwrap_or_default()}</td>
                                    </tr>
                                }
                            })
                            .collect_view();
                        view! {
                            <div class="table-wrap">
                                <table class="data teams" id="teams">
                                    <caption class="visually-hidden">"Teams"</caption>
                                    <thead>
                                        <tr>
                                            <th scope="col" class="title-col">"Team"</th>
                                            <th scope="col">"Abbr."</th>
                                            <th scope="col">"City"</th>
                                            <th scope="col">"Conference"</th>
                                            <th scope="col">"Division"</th>
                                            <th scope="col">"Stadium"</th>
                                            <th scope="col" class="num">"Founded"</th>
                                        </tr>
                                    </thead>
                                    <tbody>{rows}</tbody>
                                </table>
                            </div>
                        }
                        .into_any()
                    }
                    Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| info.refetch()) /> }.into_any(),
                }
            })}
        </Transition>
    }
}
