use crate::api::{self, Inflight, Loaded, PagedList};
use crate::components::{ErrorNotice, LoadMore, Loading, PlatformName};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{Event, PlatformId};
use predmarket_client::core::request::ListEvents;

/// Search box and platform filter shared by the events and series lists
/// (both live on platform_a and platform_b only).
#[component]
pub fn ListFilters(
    url: UrlState,
    #[prop(into)] label: String,
    #[prop(into)] placeholder: String,
) -> impl IntoView {
    let q = Memo::new(move |_| url.get("q"));
    let draft = RwSignal::new(url.get_untracked("q").unwrap_or_default());
    Effect::new(move |_| draft.set(q.get().unwrap_or_default()));
    let on_search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        url.set(
            &[("q", Some(draft.get_untracked())), ("pages", None)],
            false,
        );
    };
    let platform_option = move |value: &'static str| {
        view! {
            <option value=value prop:selected=move || url.get("platform").as_deref().unwrap_or("") == value>
                {if value.is_empty() { "All platforms".to_owned() } else { api::platform_name(value) }}
            </option>
        }
    };
    view! {
        <div class="filters">
            <form role="search" class="search" on:submit=on_search>
                <label for="list-search" class="visually-hidden">{label}</label>
                <input
                    id="list-search"
                    type="search"
                    name="q"
                    placeholder=placeholder
                    autocomplete="off"
                    prop:value=move || draft.get()
                    on:input=move |ev| draft.set(event_target_value(&ev))
                />
                <button type="submit" class="primary">"Search"</button>
            </form>
            <div class="selects">
                <div class="field">
                    <label for="filter-platform">"Platform"</label>
                    <select
                        id="filter-platform"
                        on:change=move |ev| url.set(&[("platform", Some(event_target_value(&ev))), ("pages", None)], false)
                    >
                        {platform_option("")}
                        {platform_option("platform_a")}
                        {platform_option("platform_b")}
                    </select>
                </div>
            </div>
        </div>
    }
}

/// How many pages a shared link may preload.
pub fn preload_pages(url: &UrlState) -> usize {
    url.get_untracked("pages")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1)
        .clamp(1, 8)
}

/// Events (groups of markets) of platform_a and platform_b, searchable.
#[component]
pub fn EventsPage() -> impl IntoView {
    let url = UrlState::new();
    let filters = Memo::new(move |_| (url.get("q"), url.get("platform")));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let (query, platform) = filters.get();
            let request = ListEvents {
                limit: Some(api::PAGE_SIZE),
                query,
                platform: platform.as_deref().map(PlatformId::from),
                ..ListEvents::default()
            };
            let pages = preload_pages(&url);
            let token = inflight.next();
            async move { api::load_pages(request, pages, &token).await }
        }
    });
    let pending = RwSignal::new(false);
    view! {
        <section class="page events-page">
            <header class="page-head">
                <h1>"Events"</h1>
                <p class="lede">"Questions grouped by what they are about: an election, a match, a data release."</p>
            </header>
            <ListFilters url label="Search events" placeholder="Search events" />
            <div class="results" class:pending=move || pending.get()>
                <Transition fallback=|| view! { <Loading what="events" /> } set_pending=pending>
                    {move || {
                        let inflight = inflight.clone();
                        Suspend::new(async move {
                            match list.await {
                                Ok(loaded) => view! { <EventResults loaded url inflight /> }.into_any(),
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
fn EventResults(loaded: Loaded<ListEvents>, url: UrlState, inflight: Inflight) -> impl IntoView {
    let total = loaded.first.pagination.as_ref().and_then(|p| p.total);
    if loaded.items.is_empty() {
        return view! { <p class="empty">"No events match."</p> }.into_any();
    }
    let list = PagedList::new(loaded.items, loaded.pager);
    let on_more = Callback::new(move |_| {
        list.more(inflight.current(), move |pages| {
            url.set(&[("pages", Some(pages.to_string()))], true)
        });
    });
    view! {
        <EventTable events=list.items id="events" />
        <LoadMore shown=Signal::derive(move || list.items.with(Vec::len)) total done=list.done state=list.state noun="events" on_more />
    }
    .into_any()
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
                            <td><PlatformName id=event.platform.as_ref().map(|p| p.as_str().to_owned()).unwrap_or_default() /></td>
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
