use crate::api;
use crate::components::{EventTable, ItemPage, PlatformName, platform_id};
use crate::format;
use leptos::prelude::*;
use predmarket_client::core::models::Series;
use predmarket_client::core::request::GetSeries;

/// One series with its events.
#[component]
pub fn SeriesPage(#[prop(into)] id: String) -> impl IntoView {
    let request = |id| GetSeries {
        id,
        include_nested: Some(true),
        ..GetSeries::default()
    };
    let series = api::item_by_id(id, "series", request, |r| r.series);
    view! {
        <ItemPage class="series-detail" back=("/app/series", "Series") resource=series what="the series" let:series>
            <SeriesView series />
        </ItemPage>
    }
}

#[component]
fn SeriesView(series: Series) -> impl IntoView {
    let events = series.events.clone().unwrap_or_default();
    let empty = events.is_empty();
    let tags = series.tags.clone().unwrap_or_default();
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
    }
}
