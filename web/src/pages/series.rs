use super::event::missing;
use super::events::EventTable;
use crate::api::{self, Inflight};
use crate::components::{ErrorNotice, Loading, PlatformName};
use crate::format;
use leptos::prelude::*;
use predmarket_client::core::models::Series;
use predmarket_client::core::request::GetSeries;

/// One series with its events.
#[component]
pub fn SeriesPage(#[prop(into)] id: String) -> impl IntoView {
    // The page is rebuilt when the id in the path changes.
    let id = Signal::stored(id);
    let inflight = Inflight::new();
    let series = LocalResource::new(move || {
        let id = id.get();
        let token = inflight.next();
        async move {
            let request = GetSeries {
                id: id.clone(),
                include_nested: Some(true),
                ..GetSeries::default()
            };
            let response = api::send(&request, &token).await?;
            response
                .series
                .into_iter()
                .next()
                .ok_or_else(|| missing("series", &id))
        }
    });
    view! {
        <section class="page series-detail">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/series">"Series"</a></nav>
            <Transition fallback=|| view! { <Loading what="the series" /> }>
                {move || Suspend::new(async move {
                    match series.await {
                        Ok(s) => view! { <SeriesView series=s /> }.into_any(),
                        Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| series.refetch()) /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
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
                <PlatformName id=series.platform.as_ref().map(|p| p.as_str().to_owned()).unwrap_or_default() />
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
