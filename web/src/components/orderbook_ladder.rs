//! An order book as a price ladder, with the levels that changed since the
//! last book marked.

use crate::format;
use leptos::prelude::*;
use predmarket_core::change;
use predmarket_core::models::PriceLevel;
use predmarket_core::orderbook::Book;

/// Levels shown per side: the top of the book is what people act on.
const LEVELS: usize = 12;

/// The prices of `levels` that are new or resized since the book before
/// (the core's change rule, the one the npm package's watches use); none
/// for the first book, where nothing is marked.
fn changed_prices(levels: &[PriceLevel], before: Option<&[PriceLevel]>) -> Vec<f64> {
    before.map_or_else(Vec::new, |before| {
        change::level_changes(before, levels)
            .into_iter()
            .filter(|(_, _, to)| to.is_some())
            .map(|(price, _, _)| price)
            .collect()
    })
}

fn side_rows(
    levels: &[PriceLevel],
    before: Option<&[PriceLevel]>,
    max: f64,
    class: &'static str,
) -> impl IntoView + use<> {
    let mut cumulative = 0.0;
    let changed = changed_prices(levels, before);
    levels
        .iter()
        .take(LEVELS)
        .map(|l| {
            cumulative += l.size;
            let width = if max > 0.0 { (cumulative / max * 100.0).min(100.0) } else { 0.0 };
            let class = if changed.contains(&l.price) { format!("{class} changed") } else { class.to_owned() };
            view! {
                <tr class=class>
                    <td class="num price">{format::cents(Some(l.price))}</td>
                    <td class="num">{format::shares(Some(l.size))}</td>
                    <td class="num total">
                        <span class="bar" style=format!("width:{width:.1}%") aria-hidden="true"></span>
                        <span class="val">{format::shares(Some(cumulative))}</span>
                    </td>
                </tr>
            }
        })
        .collect_view()
}

/// One outcome's book as two ladders: bids (best first) and asks (best
/// first), with the running total drawn as a bar.
/// Levels new or resized since `before` (the last book of a live view) are
/// marked `changed`.
#[component]
pub fn OrderbookLadder(
    book: Book,
    #[prop(into)] outcome: String,
    before: Option<Book>,
) -> impl IntoView {
    let total = |levels: &[PriceLevel]| levels.iter().take(LEVELS).map(|l| l.size).sum::<f64>();
    let max = total(&book.bids).max(total(&book.asks));
    let empty_row =
        |what: &'static str| view! { <tr><td colspan="3" class="empty">{what}</td></tr> };
    let bids = if book.bids.is_empty() {
        empty_row("No bids").into_any()
    } else {
        side_rows(&book.bids, before.as_ref().map(|b| &b.bids[..]), max, "bid").into_any()
    };
    let asks = if book.asks.is_empty() {
        empty_row("No asks").into_any()
    } else {
        side_rows(&book.asks, before.as_ref().map(|b| &b.asks[..]), max, "ask").into_any()
    };
    view! {
        <div class="ladder">
            <table class="data levels bids">
                <caption>{format!("{outcome} bids")}<span class="sub">"Buyers, best first"</span></caption>
                <thead><tr><th scope="col" class="num">"Price"</th><th scope="col" class="num">"Shares"</th><th scope="col" class="num">"Total"</th></tr></thead>
                <tbody>{bids}</tbody>
            </table>
            <table class="data levels asks">
                <caption>{format!("{outcome} asks")}<span class="sub">"Sellers, best first"</span></caption>
                <thead><tr><th scope="col" class="num">"Price"</th><th scope="col" class="num">"Shares"</th><th scope="col" class="num">"Total"</th></tr></thead>
                <tbody>{asks}</tbody>
            </table>
        </div>
    }
}
