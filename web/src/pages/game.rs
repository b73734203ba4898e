//! One game: each platform's moneyline, spread and total side by side,
//! and its recorded odds where the server records.

use crate::api;
use crate::components::{
    LiveStatus, Loader, OddsBoard, OddsFormatSwitch, OrderbookLadder, PlatformName,
    PlatformWarnings, RecordedHistory, StatusBadge, decimal_odds, game_odds, platform_id,
};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::change::WatchKind;
use predmarket_client::core::game_id::GameId;
use predmarket_client::core::models::{GameMarket, GameMarketType, GameResponse, OddsFormat};
use predmarket_client::core::odds::{self, BoardKind, OddsBoard as Board};
use predmarket_client::core::orderbook::Book;
use predmarket_client::core::request::GetGame;

/// The caption of a board: "Moneyline", "Spread 3.5", "Total 47.5", or the
/// platform event's name.
fn caption(kind: &BoardKind) -> String {
    match kind {
        BoardKind::Market { kind, line } => {
            let name = format::words(kind.as_str());
            match line {
                Some(l) if *kind == GameMarketType::Spread => format!("{name} ±{l}"),
                Some(l) => format!("{name} {l}"),
                None => name,
            }
        }
        BoardKind::Event { name, event_id, .. } => name
            .clone()
            .or_else(|| event_id.clone())
            .unwrap_or_else(|| "Other markets".to_owned()),
    }
}

/// The board of the same kind in the answer before a refresh, to mark
/// the prices that moved.
fn board_before<'a>(kind: &BoardKind, before: &'a [Board]) -> Option<&'a Board> {
    before.iter().find(|b| &b.kind == kind)
}

/// Every platform's price on a board, as the odds board draws them.
fn quotes(board: &Board) -> Vec<odds::Quote> {
    board
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().map(|c| c.quote.clone()))
        .collect()
}

/// A platform event's outcomes whose kind the service does not say: each
/// with its price, volume, liquidity and status, as sent.
#[component]
fn EventBoard(board: Board, markets: Vec<GameMarket>) -> impl IntoView {
    let platform = match &board.kind {
        BoardKind::Event { platform, .. } => platform.clone(),
        BoardKind::Market { .. } => None,
    };
    let title = caption(&board.kind);
    let rows = board
        .rows
        .iter()
        .map(|row| {
            let cell = row.cells.first();
            let outcome = cell.and_then(|c| markets.get(c.at.0)?.outcomes().get(c.at.1));
            view! {
                <tr>
                    <th scope="row"><bdi>{row.label.clone()}</bdi></th>
                    <td class="num">{format::cents(cell.map(|c| c.price))}</td>
                    <td class="num">{format::money(cell.and_then(|c| c.volume))}</td>
                    <td class="num">{format::money(cell.and_then(|c| c.liquidity))}</td>
                    <td>{outcome.and_then(|o| o.status.as_ref()).map(|s| view! { <StatusBadge status=s.as_str().to_owned() /> })}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="data event-board">
            <caption>
                <PlatformName id=platform_id(platform.as_ref()) />
                ": "
                <bdi>{title}</bdi>
            </caption>
            <thead>
                <tr>
                    <th scope="col">"Outcome"</th>
                    <th scope="col" class="num">"Price"</th>
                    <th scope="col" class="num">"Volume"</th>
                    <th scope="col" class="num">"Liquidity"</th>
                    <th scope="col">"Status"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// The order books of a game's outcomes, one disclosure each.
#[component]
fn OutcomeBooks(markets: Vec<GameMarket>) -> impl IntoView {
    let books = markets
        .iter()
        .flat_map(|m| {
            m.outcomes().iter().filter_map(move |o| {
                let book = Book::new(&o.order_book.as_ref()?.yes_side());
                (!book.is_empty()).then(|| {
                    (
                        m.platform.clone(),
                        o.label().unwrap_or_default().to_owned(),
                        book,
                    )
                })
            })
        })
        .map(|(platform, label, book)| {
            view! {
                <details class="outcome-book">
                    <summary>
                        <PlatformName id=platform_id(platform.as_ref()) />
                        ": "
                        <bdi>{label.clone()}</bdi>
                    </summary>
                    <OrderbookLadder book outcome=label before=None />
                </details>
            }
        })
        .collect_view();
    view! { <div class="outcome-books">{books}</div> }
}

/// One game: each platform's moneyline, spread and total side by side.
///
/// Each refresh rebuilds the head and the boards, but not the toolbar
/// between them: its live indicator stays one element, so a reader hears
/// it when its state changes, not on every update.
#[component]
pub fn GamePage(#[prop(into)] id: String) -> impl IntoView {
    let (odds_format, set_format) = UrlState::new().odds_format();
    let (game, feed) = api::item_by_id_live(
        id.clone(),
        "game",
        GetGame::new,
        Some,
        WatchKind::Game,
        true,
    );
    let shown = Memo::new(move |_| game.with(|g| matches!(g, Some(Ok(_)))));
    // The answer before marks what moved.
    let last = StoredValue::new(None::<GameResponse>);
    let boards = move || {
        let response = game.get().and_then(Result::ok)?;
        let before = last.get_value();
        last.set_value(Some(response.clone()));
        Some(view! { <GameBoards response before odds_format /> })
    };
    // `ItemPage`'s frame, with the toolbar and boards after its loader.
    view! {
        <section class="page game-page">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/sports">"Sports"</a></nav>
            <Loader resource=game what="the game" let:response>
                <GameHead response />
            </Loader>
            <Show when=move || shown.get()>
                <GameToolbar odds_format set_format feed=Some(feed) />
            </Show>
            {boards}
            <article class="card" aria-labelledby="recorded-h">
                <header class="card-head"><h2 id="recorded-h">"Recorded odds"</h2></header>
                <RecordedHistory kind=WatchKind::Game id=id.clone() title="Best odds of each outcome" read=game_odds unit=decimal_odds />
            </article>
        </section>
    }
}

/// A game's head, its toolbar and its boards, for a game answered once.
#[component]
pub fn GameView(
    response: GameResponse,
    before: Option<GameResponse>,
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
    /// Where the odds come from and how old they are (a live page).
    #[prop(optional)]
    feed: Option<api::Feed>,
) -> impl IntoView {
    view! {
        <GameHead response=response.clone() />
        <GameToolbar odds_format set_format feed />
        <GameBoards response before odds_format />
    }
}

/// The odds format switch, and the live indicator of a live page.
#[component]
fn GameToolbar(
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
    feed: Option<api::Feed>,
) -> impl IntoView {
    view! {
        <div class="toolbar">
            <h2>"Odds by platform" {feed.map(|feed| view! { <LiveStatus feed /> })}</h2>
            <OddsFormatSwitch format=odds_format on_change=set_format />
        </div>
    }
}

/// The title, league, status, teams and score, and the platforms that
/// failed.
#[component]
fn GameHead(response: GameResponse) -> impl IntoView {
    let GameResponse { data, meta, .. } = response;
    let game = data.game;
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
    }
}

/// The odds boards, every platform's markets and their order books.
#[component]
fn GameBoards(
    response: GameResponse,
    before: Option<GameResponse>,
    odds_format: Memo<OddsFormat>,
) -> impl IntoView {
    let data = response.data;
    // The service's platform events as odds boards: one per kind and line
    // where the outcomes say their kind, one per event otherwise.
    let boards = odds::game_boards(&data.markets);
    let boards_before = before
        .as_ref()
        .map(|b| odds::game_boards(&b.data.markets))
        .unwrap_or_default();
    let board_views = boards
        .into_iter()
        .map(|board| match &board.kind {
            BoardKind::Market { kind, .. } => {
                let before = board_before(&board.kind, &boards_before).map(quotes);
                let kind = kind.as_str().to_owned();
                view! {
                    <article class="card" data-market-type=kind>
                        <OddsBoard quotes=quotes(&board) format=odds_format caption=caption(&board.kind) before />
                    </article>
                }
                .into_any()
            }
            BoardKind::Event { .. } => view! {
                <article class="card" data-market-type="event">
                    <EventBoard board markets=data.markets.clone() />
                </article>
            }
            .into_any(),
        })
        .collect_view();
    let markets = data
        .markets
        .iter()
        .map(|m| {
            view! {
                <tr>
                    <td><PlatformName id=platform_id(m.platform.as_ref()) /></td>
                    <th scope="row"><bdi>{m.name().unwrap_or_default().to_owned()}</bdi></th>
                    <td class="num">{m.outcomes().len()}</td>
                    <td class="num">{format::money(m.volume())}</td>
                    <td class="num">{format::money(m.volume_24h())}</td>
                    <td class="num">{format::money(m.liquidity())}</td>
                </tr>
            }
        })
        .collect_view();
    let empty = data.markets.is_empty();
    view! {
        {if empty {
            view! { <p class="empty">"No platform has a market on this game yet."</p> }.into_any()
        } else {
            view! {
                <div class="boards">{board_views}</div>
                <h2>"Markets"</h2>
                <div class="table-wrap">
                    <table class="data game-markets">
                        <caption class="visually-hidden">"Every platform's markets on this game"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Platform"</th>
                                <th scope="col">"Event"</th>
                                <th scope="col" class="num">"Outcomes"</th>
                                <th scope="col" class="num">"Volume"</th>
                                <th scope="col" class="num">"24h volume"</th>
                                <th scope="col" class="num">"Liquidity"</th>
                            </tr>
                        </thead>
                        <tbody>{markets}</tbody>
                    </table>
                </div>
                <h2>"Order books"</h2>
                <OutcomeBooks markets=data.markets.clone() />
            }
            .into_any()
        }}
    }
}
