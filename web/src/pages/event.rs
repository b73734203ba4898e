use crate::api;
use crate::components::{ItemPage, MarketTable, PlatformName, platform_id};
use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::core::models::Event;
use predmarket_client::core::request::GetEvent;

/// One event with its markets.
#[component]
pub fn EventPage(#[prop(into)] id: String) -> impl IntoView {
    let request = |id| GetEvent {
        id,
        include_nested: Some(true),
        ..GetEvent::default()
    };
    let event = api::item_by_id(id, "event", request, |r| r.events);
    view! {
        <ItemPage class="event-page" back=("/app/events", "Events") resource=event what="the event" let:event>
            <EventView event />
        </ItemPage>
    }
}

#[component]
fn EventView(event: Event) -> impl IntoView {
    let markets = event.markets.clone().unwrap_or_default();
    let count = markets.len();
    let source = format::safe_url(event.resolution_source_url.as_deref());
    view! {
        <header class="page-head">
            <h1><bdi>{event.title.clone().unwrap_or_else(|| event.id.clone())}</bdi></h1>
            <p class="tags">
                <PlatformName id=platform_id(event.platform.as_ref()) />
                {event.series_id.clone().map(|s| view! { <a class="tag" href=routes::series(&s)>"Series " <bdi>{s.clone()}</bdi></a> })}
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
            view! { <MarketTable markets caption="Markets in this event" id="event-markets".to_string() /> }.into_any()
        }}
    }
}
