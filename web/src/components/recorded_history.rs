//! The "recorded history" card of a watched resource: its last hour as
//! the server recorded it (`GET /history`), read into values by the page
//! (a book's depth, a game's odds) and drawn with its gaps. Asked for
//! when the card scrolls into view (it costs a request of the budget);
//! where the server keeps no history, the card says so in words.

use super::history_chart::{HistoryChart, Sample};
use super::{Loader, Loading};
use crate::api::{self, Inflight, Recorded};
use crate::format;
use leptos::prelude::*;
use predmarket_client::core::change::WatchKind;
use predmarket_client::core::models::{
    GameMarketType, GameResponse, OrderbookResponse, PriceLevel,
};
use predmarket_client::core::odds::{self, BoardKind};
use serde_json::Value;

/// Reads a recorded answer into values by series label.
pub type Reading = fn(&Value) -> Vec<(String, f64)>;

/// A book's resting size per side of its yes book (bids and asks in
/// shares): its depth.
pub fn book_depth(answer: &Value) -> Vec<(String, f64)> {
    let Ok(response) = serde_json::from_value::<OrderbookResponse>(answer.clone()) else {
        return Vec::new();
    };
    let book = response.data.yes_book();
    let total = |levels: &[PriceLevel]| -> f64 {
        levels
            .iter()
            .map(|l| l.size)
            .filter(|s| s.is_finite())
            .sum()
    };
    vec![
        ("Bid depth".to_owned(), total(&book.bids[..])),
        ("Ask depth".to_owned(), total(&book.asks[..])),
    ]
}

/// A game's best price of each outcome across platforms (decimal odds),
/// on its moneyline board, or where the service gives no kinds, on the
/// first board the game page shows.
pub fn game_odds(answer: &Value) -> Vec<(String, f64)> {
    let Ok(response) = serde_json::from_value::<GameResponse>(answer.clone()) else {
        return Vec::new();
    };
    let boards = odds::game_boards(&response.data.markets);
    let moneyline = boards.iter().find(|b| {
        matches!(&b.kind, BoardKind::Market { kind, line: None } if *kind == GameMarketType::Moneyline)
    });
    let Some(board) = moneyline.or(boards.first()) else {
        return Vec::new();
    };
    board
        .rows
        .iter()
        .filter_map(|row| {
            let quote = row.best.as_ref().or(row.cells.first().map(|c| &c.quote))?;
            Some((row.label.clone(), quote.decimal))
        })
        .collect()
}

/// The samples of recorded rows.
pub fn samples(recorded: &Recorded, read: Reading) -> Vec<Sample> {
    recorded
        .rows
        .iter()
        .map(|row| Sample {
            at_ms: row.received_ms,
            continuity: row.continuity,
            values: read(&row.answer),
        })
        .collect()
}

/// What a recorded history shows: the chart, or why there is none.
#[component]
pub fn RecordedView(
    recorded: Option<Recorded>,
    #[prop(into)] title: String,
    read: Reading,
    unit: fn(f64) -> String,
) -> impl IntoView {
    let Some(recorded) = recorded else {
        return view! {
            <p class="empty no-history">
                "This server keeps no recorded history. A server started with --record DIR records what its streams watch, and one started with --replay DIR serves such a record."
            </p>
        }
        .into_any();
    };
    let more = recorded.more.then(|| {
        view! { <p class="hint">{format!("The hour holds more than {} answers: these are its oldest.", recorded.rows.len())}</p> }
    });
    let samples = samples(&recorded, read);
    view! {
        {more}
        <HistoryChart title samples unit />
    }
    .into_any()
}

/// The card's body for `kind` `id`: loaded once the card is on screen.
#[component]
pub fn RecordedHistory(
    kind: WatchKind,
    #[prop(into)] id: String,
    /// What the values are ("Depth of the yes book").
    #[prop(into)]
    title: String,
    read: Reading,
    unit: fn(f64) -> String,
) -> impl IntoView {
    let card = NodeRef::<leptos::html::Div>::new();
    let seen = super::seen(card);
    let inflight = Inflight::new();
    let body = move || {
        if !seen.get() {
            return view! { <Loading what="the recorded history" /> }.into_any();
        }
        let (id, inflight) = (id.clone(), inflight.clone());
        let resource = LocalResource::new(move || {
            let (id, token) = (id.clone(), inflight.next());
            async move { api::recorded(kind, &id, &token).await }
        });
        let title = title.clone();
        view! {
            <Loader resource what="the recorded history" let:recorded>
                <RecordedView recorded title=title.clone() read unit />
            </Loader>
        }
        .into_any()
    };
    view! { <div class="recorded-history" node_ref=card>{body}</div> }
}

/// A size in whole shares, as the depth reads.
pub fn share_count(n: f64) -> String {
    format::shares(Some(n.round()))
}

/// Decimal odds.
pub fn decimal_odds(n: f64) -> String {
    format!("{n:.2}")
}
