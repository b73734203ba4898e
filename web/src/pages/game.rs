//! One game: each platform's moneyline, spread and total side by side.

use crate::api;
use crate::components::{
    ItemPage, OddsBoard, OddsFormatSwitch, PlatformName, PlatformWarnings, StatusBadge, platform_id,
};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::game_id::GameId;
use predmarket_client::core::models::{GameMarket, GameMarketType, GameResponse, OddsFormat};
use predmarket_client::core::odds::{self, Quote};
use predmarket_client::core::request::GetGame;

fn line_label(kind: &GameMarketType, line: Option<f64>) -> String {
    let name = format::words(kind.as_str());
    match (kind, line) {
        (GameMarketType::Spread, Some(l)) => {
            format!("{name} {}{}", if l > 0.0 { "+" } else { "" }, l)
        }
        (_, Some(l)) => format!("{name} {l}"),
        (_, None) => name,
    }
}

/// A spread's outcomes read "Team −1.5": the line each side gets, from the
/// outcome (or, for the home side, the market's line).
fn label_spread_lines(quotes: &mut [Quote], markets: &[GameMarket]) {
    for q in quotes.iter_mut() {
        let line = markets
            .iter()
            .filter(|m| m.market_id == q.market_id)
            .flat_map(|m| m.outcomes.iter().flatten())
            .find(|o| {
                odds::outcome_key(o.team_service_id.as_deref(), o.outcome_name.as_deref())
                    .as_deref()
                    == Some(&q.outcome)
            })
            .and_then(|o| o.line);
        if let Some(l) = line {
            q.label = format!("{} {}{}", q.label, if l > 0.0 { "+" } else { "" }, l);
        }
    }
}

/// One game: each platform's moneyline, spread and total side by side.
#[component]
pub fn GamePage(#[prop(into)] id: String) -> impl IntoView {
    let (odds_format, set_format) = UrlState::new().odds_format();
    let game = api::item_by_id_every(id, "game", GetGame::new, Some, Some(game_watch_ms()));
    // Each refresh rebuilds the view: the answer before marks what moved.
    let last = StoredValue::new(None::<GameResponse>);
    view! {
        <ItemPage class="game-page" back=("/app/sports", "Sports") resource=game what="the game" let:response>
            {
                let before = last.get_value();
                last.set_value(Some(response.clone()));
                view! { <GameView response before odds_format set_format /> }
            }
        </ItemPage>
    }
}

/// How often a game's odds are asked again while its page is open (the
/// scheduler stretches it when the page is hidden or the budget is low).
fn game_watch_ms() -> f64 {
    predmarket_core::change::WatchKind::Game.default_interval_ms()
}

#[component]
fn GameView(
    response: GameResponse,
    before: Option<GameResponse>,
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
) -> impl IntoView {
    let GameResponse { data, meta } = response;
    let game = data.game.clone();
    let meta_obj = game.metadata.clone().unwrap_or_default();
    let score = meta_obj
        .get("away_score")
        .and_then(|a| a.as_f64())
        .zip(meta_obj.get("home_score").and_then(|h| h.as_f64()))
        .map(|(a, h)| format!("{a:.0} – {h:.0}"));
    let venue = meta_obj
        .get("venue")
        .and_then(|v| v.as_str())
        .map(str::to_owned);
    let league = game.league.as_ref().map(|l| l.as_str().to_owned());
    // The league's name from the directory; until it has answered, the
    // abbreviation the id ends in (`…@NBA`).
    let id_suffix = GameId::parse(&game.id).ok().and_then(|g| g.league);
    let league_name = league.clone().map(|l| {
        move || {
            api::league_name(&l)
                .or_else(|| id_suffix.clone())
                .unwrap_or_else(|| l.clone())
        }
    });
    let teams = game.teams.clone().unwrap_or_default();
    let boards = [
        GameMarketType::Moneyline,
        GameMarketType::Spread,
        GameMarketType::Total,
    ]
    .into_iter()
    .flat_map(|kind| {
        let mut lines: Vec<Option<f64>> = Vec::new();
        for m in data
            .markets
            .iter()
            .filter(|m| m.market_type.as_ref() == Some(&kind))
        {
            if !lines.contains(&m.line) {
                lines.push(m.line);
            }
        }
        let markets = data.markets.clone();
        let markets_before = before.as_ref().map(|b| b.data.markets.clone());
        lines.into_iter().map(move |line| {
            let mut quotes = odds::game_quotes(&markets, &kind, line);
            if kind == GameMarketType::Spread {
                label_spread_lines(&mut quotes, &markets);
            }
            let before = markets_before
                .as_ref()
                .map(|m| odds::game_quotes(m, &kind, line));
            let caption = line_label(&kind, line);
            view! {
                <article class="card" data-market-type=kind.as_str().to_owned()>
                    <OddsBoard quotes format=odds_format caption before />
                </article>
            }
        })
    })
    .collect_view();
    let markets = data
        .markets
        .iter()
        .map(|m| {
            let source = format::safe_url(m.source_url.as_deref());
            view! {
                <tr>
                    <td><PlatformName id=platform_id(m.platform.as_ref()) /></td>
                    <th scope="row"><bdi>{m.title.clone().unwrap_or_else(|| m.market_id.clone().unwrap_or_default())}</bdi></th>
                    <td>{m.status.as_ref().map(|s| view! { <StatusBadge status=s.as_str().to_owned() /> })}</td>
                    <td class="num">{format::money(m.volume_24h)}</td>
                    <td class="num">{format::money(m.liquidity)}</td>
                    <td>{source.map(|href| view! { <a href=href target="_blank" rel="noopener noreferrer nofollow">"Open ↗"</a> })}</td>
                </tr>
            }
        })
        .collect_view();
    let empty = data.markets.is_empty();
    // The service's "as of": a board painted from the device's cache, or
    // from a platform's cache, says how old its prices are.
    let as_of = meta
        .as_ref()
        .and_then(|m| m.data_freshness.as_deref())
        .map(|at| format!("Odds as of {}", format::datetime(Some(at))));
    view! {
        <header class="page-head game-head">
            <h1><bdi>{game.title.clone().unwrap_or_else(|| game.id.clone())}</bdi></h1>
            <p class="tags">
                {league.map(|l| view! { <a class="tag" href=routes::sports(&l, "games")>{league_name}</a> })}
                {game.status.as_ref().map(|s| view! { <StatusBadge status=s.as_str().to_owned() /> })}
                <span class="muted">{format::datetime(game.scheduled_at.as_deref())}</span>
                {venue.map(|v| view! { <span class="muted"><bdi>{v}</bdi></span> })}
            </p>
        </header>
        <div class="scoreboard" aria-label="Teams and score">
            <span class="team away"><bdi>{teams.first().cloned().unwrap_or_default()}</bdi></span>
            <span class="score">{score.unwrap_or_else(|| "vs".into())}</span>
            <span class="team home"><bdi>{teams.get(1).cloned().unwrap_or_default()}</bdi></span>
        </div>
        <PlatformWarnings errors=meta.as_ref().and_then(|m| m.platform_errors.clone()) />
        {as_of.map(|line| view! { <p class="fine as-of">{line}</p> })}
        <div class="toolbar">
            <h2>"Odds by platform" <span class="live-badge" title="Kept up to date while the page is open, within the rate budget">"Live"</span></h2>
            <OddsFormatSwitch format=odds_format on_change=set_format />
        </div>
        {if empty {
            view! { <p class="empty">"No platform has a market on this game yet."</p> }.into_any()
        } else {
            view! {
                <div class="boards">{boards}</div>
                <h2>"Markets"</h2>
                <div class="table-wrap">
                    <table class="data">
                        <caption class="visually-hidden">"Every platform's markets on this game"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Platform"</th>
                                <th scope="col">"Market"</th>
                                <th scope="col">"Status"</th>
                                <th scope="col" class="num">"24h volume"</th>
                                <th scope="col" class="num">"Liquidity"</th>
                                <th scope="col"><span class="visually-hidden">"Link"</span></th>
                            </tr>
                        </thead>
                        <tbody>{markets}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }}
    }
}
