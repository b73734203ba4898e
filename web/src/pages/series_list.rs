use super::events::{ListFilters, preload_pages};
use crate::api::{self, Inflight, Loaded, PagedList};
use crate::components::{ErrorNotice, LoadMore, Loading, PlatformName};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{PlatformId, Series};
use predmarket_client::core::request::ListSeries;

/// Series (recurring groups of events), with search.
#[component]
pub fn SeriesListPage() -> impl IntoView {
    let url = UrlState::new();
    let filters = Memo::new(move |_| (url.get("q"), url.get("platform")));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let (query, platform) = filters.get();
            let request = ListSeries {
                limit: Some(api::PAGE_SIZE),
                query,
                platform: platform.as_deref().map(PlatformId::from),
                ..ListSeries::default()
            };
            let pages = preload_pages(&url);
            let token = inflight.next();
            async move { api::load_pages(request, pages, &token).await }
        }
    });
    let pending = RwSignal::new(false);
    view! {
        <section class="page series-page">
            <header class="page-head">
                <h1>"Series"</h1>
                <p class="lede">"Recurring questions: every election of a country, every monthly data release."</p>
            </header>
            <ListFilters url label="Search series" placeholder="Search series, e.g. elections, inflation" />
            <div class="results" class:pending=move || pending.get()>
                <Transition fallback=|| view! { <Loading what="series" /> } set_pending=pending>
                    {move || {
                        let inflight = inflight.clone();
                        Suspend::new(async move {
                            match list.await {
                                Ok(loaded) => view! { <SeriesResults loaded url inflight /> }.into_any(),
                                Err(error) => view! { <ErrorNotice error retry=Callback::new(move |_| list.refetch()) /> }.into_any(),
                            }
                        })
                    }}
                </Transition>
            </div>
        </section>
    }
}

#[component]
fn SeriesResults(loaded: Loaded<ListSeries>, url: UrlState, inflight: Inflight) -> impl IntoView {
    let total = loaded.first.pagination.as_ref().and_then(|p| p.total);
    if loaded.items.is_empty() {
        let what = match url.get_untracked("q") {
            Some(q) => format!("No series match “{q}”."),
            None => "No series.".to_owned(),
        };
        return view! { <p class="empty">{what}</p> }.into_any();
    }
    let list = PagedList::new(loaded.items, loaded.pager);
    let on_more = Callback::new(move |_| {
        list.more(inflight.current(), move |pages| {
            url.set(&[("pages", Some(pages.to_string()))], true)
        });
    });
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
                    <For each=move || list.items.get() key=|s: &Series| s.id.clone() let:series>
                        <tr data-id=series.id.clone()>
                            <th scope="row" class="title-col">
                                <a href=routes::series(&series.id) class="title"><bdi>{series.title.clone().unwrap_or_else(|| series.id.clone())}</bdi></a>
                                {series.category.clone().map(|c| view! { <span class="sub"><bdi>{c}</bdi></span> })}
                            </th>
                            <td><PlatformName id=series.platform.as_ref().map(|p| p.as_str().to_owned()).unwrap_or_default() /></td>
                            <td class="num">{format::integer(series.event_count)}</td>
                            <td class="num">{format::integer(series.market_count)}</td>
                            <td class="num">{format::money(series.total_volume)}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
        <LoadMore shown=Signal::derive(move || list.items.with(Vec::len)) total done=list.done state=list.state noun="series" on_more />
    }
    .into_any()
}
