//! Several markets' prices on one chart: the markets of an event
//! (`?event=`), those ticked in `?ids=` (the first few by default), over
//! `?interval=`. Two requests: the event with its markets, then one price
//! history for all of them (the service takes up to 10 ids).

use crate::api::{self, Directory, Feature, Inflight};
use crate::components::{CompareChart, Line, Loader, platform_id, yes_price};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{Market, PriceInterval};
use predmarket_client::core::request::{GetEvent, GetPriceHistory};

/// What the service takes in one price-history call.
const MAX_MARKETS: usize = 10;
/// Markets ticked when the link names none.
const DEFAULT_PICKS: usize = 4;
const INTERVALS: [(&str, &str, u32); 3] = [
    ("1h", "Hourly, 1 week", 168),
    ("4h", "4-hourly, 1 month", 180),
    ("1d", "Daily, 4 months", 120),
];

#[component]
pub fn ComparePage() -> impl IntoView {
    let url = UrlState::new();
    let event = Memo::new(move |_| url.get("event"));
    let inflight = Inflight::new();
    let markets = LocalResource::new(move || {
        let event = event.get();
        let token = inflight.next();
        async move {
            let Some(id) = event else {
                return Ok(None);
            };
            let request = GetEvent {
                include_nested: Some(true),
                ..GetEvent::new(id.clone())
            };
            let event = api::send(&request, &token)
                .await?
                .events
                .into_iter()
                .next()
                .ok_or_else(|| api::missing("event", &id))?;
            Ok(Some((
                event.title.clone().unwrap_or(id),
                event.id.clone(),
                event.markets.unwrap_or_default(),
            )))
        }
    });
    view! {
        <section class="page compare-page">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/events">"Events"</a></nav>
            <header class="page-head">
                <h1>"Compare prices"</h1>
                <p class="lede">"The yes price of several markets of one event, on one chart."</p>
            </header>
            <Loader resource=markets what="the markets" let:found>
                {match found {
                    Some((title, id, markets)) => view! { <Comparison title id markets url /> }.into_any(),
                    None => view! {
                        <p class="empty">"Open an event or a market's price history and choose "<em>"Compare"</em>" to compare its markets."</p>
                    }.into_any(),
                }}
            </Loader>
        </section>
    }
}

/// The ticked markets: `?ids=` filtered to the event's, else the first few.
fn picks(url: &UrlState, markets: &[Market]) -> Vec<String> {
    let asked: Vec<String> = url
        .get("ids")
        .map(|ids| ids.split(',').map(str::trim).map(str::to_owned).collect())
        .unwrap_or_default();
    let known = |id: &String| markets.iter().any(|m| &m.id == id);
    let mut chosen: Vec<String> = asked.into_iter().filter(known).collect();
    if chosen.is_empty() {
        chosen = markets
            .iter()
            .take(DEFAULT_PICKS)
            .map(|m| m.id.clone())
            .collect();
    }
    chosen.truncate(MAX_MARKETS);
    chosen
}

#[component]
fn Comparison(title: String, id: String, markets: Vec<Market>, url: UrlState) -> impl IntoView {
    if markets.len() < 2 {
        return view! {
            <p class="empty">"This event has fewer than two markets: nothing to compare. "<a href=routes::event(&id)>"Back to the event"</a></p>
        }
        .into_any();
    }
    let markets = StoredValue::new(markets);
    let chosen = Memo::new(move |_| markets.with_value(|all| picks(&url, all)));
    let interval = Memo::new(move |_| {
        url.get("interval")
            .filter(|i| INTERVALS.iter().any(|(v, _, _)| v == i))
            .unwrap_or_else(|| "1h".into())
    });
    let platform = markets.with_value(|all| {
        all.first()
            .map(|m| platform_id(m.platform.as_ref()))
            .unwrap_or_default()
    });
    let inflight = Inflight::new();
    let history = LocalResource::new(move || {
        let ids = chosen.get();
        let interval = interval.get();
        let token = inflight.next();
        let platform = platform.clone();
        async move {
            // An event's markets share its platform: one that keeps no
            // history is said, not asked (the answer would be a 400).
            if let Some(directory) = Directory::get()
                && !directory.supports(&platform, Feature::History).await
            {
                return Ok(Err(format!(
                    "{} does not publish price history.",
                    directory.name(&platform)
                )));
            }
            let limit = INTERVALS
                .iter()
                .find(|(v, _, _)| *v == interval)
                .map_or(168, |(_, _, n)| *n);
            let request = GetPriceHistory {
                interval: Some(PriceInterval::from(interval.as_str())),
                limit: Some(limit),
                ..GetPriceHistory::new(ids.clone())
            };
            let response = api::send(&request, &token).await?;
            let lines = markets.with_value(|all| {
                ids.iter()
                    .map(|id| {
                        let market = all.iter().find(|m| &m.id == id);
                        let label = market
                            .and_then(|m| m.title.clone())
                            .unwrap_or_else(|| id.clone());
                        // One outcome per market (the first the history
                        // names), so a line is one price.
                        let mine: Vec<_> = response.points_of(id).collect();
                        let outcome = mine.iter().find_map(|p| p.outcome_id.clone());
                        let points = mine
                            .into_iter()
                            .filter(|p| p.outcome_id == outcome)
                            .filter_map(|p| {
                                let t = format::epoch_ms(p.timestamp?)?;
                                Some((t, p.price.as_ref()?.close?))
                            })
                            .collect();
                        Line { label, points }
                    })
                    .collect::<Vec<_>>()
            });
            Ok(Ok(lines))
        }
    });
    let toggle = move |id: String, on: bool| {
        let mut ids = chosen.get_untracked();
        ids.retain(|i| *i != id);
        if on {
            ids.push(id);
        }
        url.set(&[("ids", Some(ids.join(",")))], true);
    };
    let boxes = markets.with_value(|all| {
        all.iter()
            .map(|m| {
                let id = m.id.clone();
                let (checked_id, disabled_id) = (id.clone(), id.clone());
                let label = m.title.clone().unwrap_or_else(|| m.id.clone());
                let price = format::cents(yes_price(m));
                view! {
                    <li>
                        <label>
                            <input
                                type="checkbox"
                                data-id=id.clone()
                                prop:checked=move || chosen.with(|c| c.contains(&checked_id))
                                // The last one stays: a chart of nothing says nothing.
                                disabled=move || chosen.with(|c| {
                                    let on = c.contains(&disabled_id);
                                    (on && c.len() == 1) || (!on && c.len() >= MAX_MARKETS)
                                })
                                on:change=move |ev| toggle(id.clone(), event_target_checked(&ev))
                            />
                            " " <bdi>{label}</bdi> " " <span class="muted">{price}</span>
                        </label>
                    </li>
                }
            })
            .collect_view()
    });
    view! {
        <p class="tags"><a class="tag" href=routes::event(&id)>"Event: " <bdi>{title}</bdi></a></p>
        <article class="card" aria-labelledby="compare-h">
            <header class="card-head">
                <h2 id="compare-h">"Yes price"</h2>
                <div class="segmented intervals" role="group" aria-label="Interval">
                    {INTERVALS.iter().map(|(value, label, _)| {
                        let value = *value;
                        view! {
                            <button type="button" data-interval=value title=*label
                                aria-pressed=move || (interval.get() == value).to_string()
                                on:click=move |_| url.set(&[("interval", Some(value.to_owned()))], true)
                            >{value}</button>
                        }
                    }).collect_view()}
                </div>
            </header>
            <fieldset class="compare-pick">
                <legend>{format!("Markets (up to {MAX_MARKETS})")}</legend>
                <ul class="compare-picks">{boxes}</ul>
            </fieldset>
            <Loader resource=history what="price histories" let:lines>
                {match lines {
                    Ok(lines) => view! { <CompareChart lines /> }.into_any(),
                    Err(why) => view! { <p class="empty">{why}</p> }.into_any(),
                }}
            </Loader>
        </article>
    }
    .into_any()
}
