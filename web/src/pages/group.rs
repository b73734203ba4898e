//! The page of an event and the page of a series, each ending with its
//! markets on other platforms: one frame, two resources, each drawn by its
//! own view.

use crate::api;
use crate::components::{
    EventTable, ItemPage, Loader, Loading, MarketTable, OtherPlatforms, PlatformName, platform_id,
    search_text,
};
use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::CancelToken;
use predmarket_client::core::models::{Event, Market, Series};
use predmarket_client::core::request::{GetEvent, GetSeries, ListMarkets};

/// A series' markets compared with other platforms': its first page in
/// the service's order, one request (a daily series has hundreds).
const SERIES_MARKETS: u32 = 100;

/// A page of one group fetched with its nested items.
macro_rules! group_page {
    ($($(#[$doc:meta])* $page:ident: $request:ident, $what:literal, $back:expr,
        |$r:ident| $take:expr, |$item:ident| $view:expr;)*) => {$(
        $(#[$doc])*
        #[component]
        pub fn $page(#[prop(into)] id: String) -> impl IntoView {
            let request = |id| $request {
                id,
                include_nested: Some(true),
                ..$request::default()
            };
            let resource = api::item_by_id(id, $what, request, |$r: <$request as predmarket_client::core::request::Request>::Response| $take);
            let view = |$item| $view;
            view! {
                <ItemPage class=concat!($what, "-detail") back=$back resource what=concat!("the ", $what) children=view />
            }
        }
    )*};
}

group_page! {
    /// One event with its markets.
    EventPage: GetEvent, "event", ("/app/events", "Events"),
        |r| r.events, |event| view! { <EventView event /> };
    /// One series with its events.
    SeriesPage: GetSeries, "series", ("/app/series", "Series"),
        |r| r.series, |series| view! { <SeriesView series /> };
}

#[component]
fn EventView(event: Event) -> impl IntoView {
    let markets = event.markets.clone().unwrap_or_default();
    let count = markets.len();
    let source = format::safe_url(event.resolution_source_url.as_deref());
    // The event's subject, searched on the other platforms when the card
    // scrolls into view: the event's title read as a market's would be.
    let mut subject = Market::new(event.id.clone());
    subject.title = event.title.clone();
    subject.trading_end_at = event.event_end_at.clone();
    let search = search_text(&subject);
    let venues_card = NodeRef::<leptos::html::Section>::new();
    let venues_seen = crate::components::seen(venues_card);
    let venues = {
        let markets = markets.clone();
        move || {
            if !venues_seen.get() {
                return view! { <Loading what="markets on other platforms" /> }.into_any();
            }
            view! { <OtherPlatforms markets=markets.clone() search=search.clone() /> }.into_any()
        }
    };
    view! {
        <header class="page-head">
            <h1><bdi>{event.title.clone().unwrap_or_else(|| event.id.clone())}</bdi></h1>
            <p class="tags">
                <PlatformName id=platform_id(event.platform.as_ref()) />
                {event.series_id.clone().map(|s| view! { <a class="tag" href=routes::series(&s)>"Series " <bdi>{s.clone()}</bdi></a> })}
                {(count >= 2).then(|| view! {
                    <a class="tag compare-link" href=routes::with_query("/app/compare", &[("event", &event.id)])>"Compare their prices"</a>
                })}
            </p>
            {event.description.clone().map(|d| view! { <p class="description">{d}</p> })}
        </header>
        <div class="stats">
            <div class="stat"><span class="k">"Markets"</span><span class="v">{format::integer(event.market_count)}</span></div>
            <div class="stat"><span class="k">"Volume"</span><span class="v">{format::money(event.total_volume)}</span></div>
            <div class="stat"><span class="k">"Starts"</span><span class="v small">{format::date(event.event_start_at.as_deref())}</span></div>
            <div class="stat"><span class="k">"Ends"</span><span class="v small">{format::date(event.event_end_at.as_deref())}</span></div>
        </div>
        {source.map(|href| view! {
            <p class="fine">"Resolution source: " <a href=href.clone() target="_blank" rel="noopener noreferrer nofollow">{href.clone()}</a></p>
        })}
        <h2>"Markets in this event"</h2>
        {if count == 0 {
            view! { <p class="empty">"This event has no markets yet."</p> }.into_any()
        } else {
            view! { <MarketTable markets=markets.clone() caption="Markets in this event" id="event-markets".to_string() /> }.into_any()
        }}
        <section class="card" aria-labelledby="venues-h" node_ref=venues_card>
            <h2 id="venues-h">"On other platforms"</h2>
            {venues}
        </section>
    }
}

#[component]
fn SeriesView(series: Series) -> impl IntoView {
    let events = series.events.clone().unwrap_or_default();
    let empty = events.is_empty();
    let tags = series.tags.clone().unwrap_or_default();
    // As on an event's page: the series' title is the subject searched on
    // the other platforms, its markets asked for when the card is seen.
    let mut subject = Market::new(series.id.clone());
    subject.title = series.title.clone();
    let search = search_text(&subject);
    let venues_card = NodeRef::<leptos::html::Section>::new();
    let venues_seen = crate::components::seen(venues_card);
    let id = series.id.clone();
    let venues = move || {
        if !venues_seen.get() {
            return view! { <Loading what="markets on other platforms" /> }.into_any();
        }
        view! { <SeriesVenues id=id.clone() search=search.clone() /> }.into_any()
    };
    view! {
        <header class="page-head">
            <h1><bdi>{series.title.clone().unwrap_or_else(|| series.id.clone())}</bdi></h1>
            <p class="tags">
                <PlatformName id=platform_id(series.platform.as_ref()) />
                {series.category.clone().map(|c| view! { <span class="tag"><bdi>{c}</bdi></span> })}
                {tags.into_iter().map(|t| view! { <span class="tag subtle"><bdi>{t}</bdi></span> }).collect_view()}
            </p>
            {series.description.clone().map(|d| view! { <p class="description">{d}</p> })}
        </header>
        <div class="stats">
            <div class="stat"><span class="k">"Events"</span><span class="v">{format::integer(series.event_count)}</span></div>
            <div class="stat"><span class="k">"Markets"</span><span class="v">{format::integer(series.market_count)}</span></div>
            <div class="stat"><span class="k">"Volume"</span><span class="v">{format::money(series.total_volume)}</span></div>
        </div>
        <h2>"Events in this series"</h2>
        {if empty {
            view! { <p class="empty">"No events in this series yet."</p> }.into_any()
        } else {
            view! { <EventTable events id="series-events" /> }.into_any()
        }}
        <section class="card" aria-labelledby="venues-h" node_ref=venues_card>
            <h2 id="venues-h">"On other platforms"</h2>
            {venues}
        </section>
    }
}

/// "On other platforms" for a series: its markets (one request), then
/// the search of its subject against them.
#[component]
fn SeriesVenues(id: String, search: Option<String>) -> impl IntoView {
    let markets = LocalResource::new(move || {
        let request = ListMarkets {
            series_id: Some(id.clone()),
            limit: Some(SERIES_MARKETS),
            ..ListMarkets::default()
        };
        async move { Ok(api::send(&request, &CancelToken::new()).await?.markets) }
    });
    view! {
        <Loader resource=markets what="the series' markets" let:markets>
            {if markets.is_empty() {
                view! { <p class="empty">"This series has no markets to compare yet."</p> }.into_any()
            } else {
                view! { <OtherPlatforms markets search=search.clone() /> }.into_any()
            }}
        </Loader>
    }
}
