//! Markets as a table, with the status badge and platform name cells other
//! tables share.

use super::{Download, platform_id};
use crate::api::Directory;
use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::core::models::Market;

/// A status as a coloured pill (`open`, `closed`, `resolved`, ...).
#[component]
pub fn StatusBadge(#[prop(into)] status: String) -> impl IntoView {
    let class = format!(
        "badge status-{}",
        status
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
    );
    view! { <span class=class>{format::words(&status)}</span> }
}

/// A platform's display name, updated when the directory arrives.
#[component]
pub fn PlatformName(#[prop(into)] id: String) -> impl IntoView {
    let directory = Directory::get();
    let data = id.clone();
    view! {
        <span class="platform" data-platform=data>
            {move || directory.map(|d| d.name(&id)).unwrap_or_else(|| id.clone())}
        </span>
    }
}

/// The yes price of a market (a "yes" key, else the first outcome).
pub fn yes_price(market: &Market) -> Option<f64> {
    market.current_price("yes").or_else(|| {
        let first = market.outcomes.as_ref()?.first()?;
        market.current_price(first.name.as_deref().unwrap_or(&first.id))
    })
}

/// The 24 h change of the yes price, when the service sends one.
pub fn yes_change(market: &Market) -> Option<f64> {
    yes_of(market.price_24h_changes.as_ref()?)
}

/// The 7-day change of the yes price, when the service sends one.
pub fn yes_change_7d(market: &Market) -> Option<f64> {
    yes_of(market.price_7d_changes.as_ref()?)
}

fn yes_of(changes: &std::collections::BTreeMap<String, serde_json::Value>) -> Option<f64> {
    let value = changes.get("yes").or_else(|| {
        changes
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("yes"))
            .map(|(_, v)| v)
    })?;
    value.as_f64()
}

/// The class of a price change: up, down or flat.
pub fn change_class(change: Option<f64>) -> &'static str {
    match change {
        Some(c) if c > 0.0005 => "change up",
        Some(c) if c < -0.0005 => "change down",
        _ => "change",
    }
}

/// Which column a list is sorted by, for `aria-sort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortedBy {
    None,
    Volume,
    Liquidity,
}

/// Markets as a table: title, platform, status, yes price, 24 h volume,
/// liquidity. Titles are untrusted text: rendered as text, isolated for
/// right-to-left marks.
#[component]
pub fn MarketTable(
    #[prop(into)] markets: Signal<Vec<Market>>,
    #[prop(into)] caption: String,
    #[prop(default = SortedBy::None)] sorted: SortedBy,
    #[prop(default = false)] descending: bool,
    #[prop(optional, into)] id: Option<String>,
) -> impl IntoView {
    let aria_sort = move |column: SortedBy| {
        (sorted == column && column != SortedBy::None).then_some(if descending {
            "descending"
        } else {
            "ascending"
        })
    };
    let file = id.clone().unwrap_or_else(|| "markets".to_owned());
    view! {
        <Download name=file rows=move || serde_json::to_value(markets.get_untracked()).unwrap_or_default() />
        <div class="table-wrap">
            <table class="data markets" id=id>
                <caption class="visually-hidden">{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col" class="title-col">"Market"</th>
                        <th scope="col">"Platform"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col" class="num">"Yes"</th>
                        <th scope="col" class="num" aria-sort=aria_sort(SortedBy::Volume)>"24h volume"</th>
                        <th scope="col" class="num" aria-sort=aria_sort(SortedBy::Liquidity)>"Liquidity"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || markets.get() key=|m| m.id.clone() let:market>
                        <MarketRow market />
                    </For>
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn MarketRow(market: Market) -> impl IntoView {
    let price = yes_price(&market);
    let change = yes_change(&market);
    let change_class = change_class(change);
    let platform = platform_id(market.platform.as_ref());
    let status = market.status.as_ref().map(|s| s.as_str().to_owned());
    let title = market.title.clone().unwrap_or_else(|| market.id.clone());
    let context = market
        .event_name
        .clone()
        .or_else(|| market.category.clone());
    view! {
        <tr data-id=market.id.clone()>
            <th scope="row" class="title-col">
                <a href=routes::market(&market.id) class="title"><bdi>{title}</bdi></a>
                {context.map(|c| view! { <span class="sub"><bdi>{c}</bdi></span> })}
            </th>
            <td><PlatformName id=platform /></td>
            <td>{status.map(|s| view! { <StatusBadge status=s /> })}</td>
            <td class="num price">
                {format::cents(price)}
                {change.map(|c| view! { <span class=change_class>{format::cents_change(Some(c))}</span> })}
            </td>
            <td class="num">{format::money(market.volume_24h)}</td>
            <td class="num">{format::money(market.liquidity)}</td>
        </tr>
    }
}
