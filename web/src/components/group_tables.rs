//! Events and series as tables (their lists and a series' page).

use super::PlatformName;
use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::core::models::{Event, PlatformId, Series};

/// The id a platform cell shows (empty when the service sent none).
pub fn platform_id(platform: Option<&PlatformId>) -> String {
    platform.map(|p| p.as_str().to_owned()).unwrap_or_default()
}

/// Events as a table (the events list and a series' page).
#[component]
pub fn EventTable(
    #[prop(into)] events: Signal<Vec<Event>>,
    #[prop(into)] id: String,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data events" id=id>
                <caption class="visually-hidden">"Events"</caption>
                <thead>
                    <tr>
                        <th scope="col" class="title-col">"Event"</th>
                        <th scope="col">"Platform"</th>
                        <th scope="col" class="num">"Markets"</th>
                        <th scope="col" class="num">"Volume"</th>
                        <th scope="col">"Ends"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || events.get() key=|e: &Event| e.id.clone() let:event>
                        <tr data-id=event.id.clone()>
                            <th scope="row" class="title-col">
                                <a href=routes::event(&event.id) class="title"><bdi>{event.title.clone().unwrap_or_else(|| event.id.clone())}</bdi></a>
                            </th>
                            <td><PlatformName id=platform_id(event.platform.as_ref()) /></td>
                            <td class="num">{format::integer(event.market_count)}</td>
                            <td class="num">{format::money(event.total_volume)}</td>
                            <td>{format::date(event.event_end_at.as_deref())}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
    }
}

/// Series as a table (the series list).
#[component]
pub fn SeriesTable(#[prop(into)] series: Signal<Vec<Series>>) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data series" id="series">
                <caption class="visually-hidden">"Series"</caption>
                <thead>
                    <tr>
                        <th scope="col" class="title-col">"Series"</th>
                        <th scope="col">"Platform"</th>
                        <th scope="col" class="num">"Events"</th>
                        <th scope="col" class="num">"Markets"</th>
                        <th scope="col" class="num">"Volume"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || series.get() key=|s: &Series| s.id.clone() let:series>
                        <tr data-id=series.id.clone()>
                            <th scope="row" class="title-col">
                                <a href=routes::series(&series.id) class="title"><bdi>{series.title.clone().unwrap_or_else(|| series.id.clone())}</bdi></a>
                                {series.category.clone().map(|c| view! { <span class="sub"><bdi>{c}</bdi></span> })}
                            </th>
                            <td><PlatformName id=platform_id(series.platform.as_ref()) /></td>
                            <td class="num">{format::integer(series.event_count)}</td>
                            <td class="num">{format::integer(series.market_count)}</td>
                            <td class="num">{format::money(series.total_volume)}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
    }
}
