//! The events and the series lists: one page, two resources.

use crate::api::{self, Inflight, Listing};
use crate::components::{EventTable, Loader, PagedResults, PlatformFilter, SearchBox, SeriesTable};
use crate::routes::UrlState;
use leptos::prelude::*;
use predmarket_client::core::models::PlatformId;
use predmarket_client::core::request::{ListEvents, ListSeries, Paged};

/// A searchable list of groups of markets, filtered by platform.
pub trait Catalog: Paged + Send + Sync + 'static
where
    Self::Item: Clone + Send + Sync + 'static,
    Self::Response: Clone + Listing,
{
    /// Plural, lower case ("events"); also the directory's endpoint name.
    const NOUN: &'static str;
    const TITLE: &'static str;
    const LEDE: &'static str;
    const PLACEHOLDER: &'static str;
    fn new(query: Option<String>, platform: Option<PlatformId>) -> Self;
    fn table(items: Signal<Vec<Self::Item>>) -> AnyView;
}

/// Both requests take the same filters; only the texts and the table differ.
macro_rules! catalog {
    ($($request:ty {
        $noun:literal, $title:literal, $lede:literal, $placeholder:literal,
        |$items:ident| $table:expr
    })*) => {$(
        impl Catalog for $request {
            const NOUN: &'static str = $noun;
            const TITLE: &'static str = $title;
            const LEDE: &'static str = $lede;
            const PLACEHOLDER: &'static str = $placeholder;
            fn new(query: Option<String>, platform: Option<PlatformId>) -> Self {
                Self {
                    limit: Some(api::PAGE_SIZE),
                    query,
                    platform,
                    ..Self::default()
                }
            }
            fn table($items: Signal<Vec<Self::Item>>) -> AnyView {
                $table.into_any()
            }
        }
    )*};
}

catalog! {
    ListEvents {
        "events", "Events",
        "Questions grouped by what they are about: an election, a match, a data release.",
        "Search events",
        |items| view! { <EventTable events=items id="events" /> }
    }
    ListSeries {
        "series", "Series",
        "Recurring questions: every election of a country, every monthly data release.",
        "Search series, e.g. elections, inflation",
        |items| view! { <SeriesTable series=items /> }
    }
}

#[component]
pub fn EventsPage() -> impl IntoView {
    catalog::<ListEvents>()
}

#[component]
pub fn SeriesListPage() -> impl IntoView {
    catalog::<ListSeries>()
}

/// Search, platform filter and the paged table, all in the URL
/// (`?q=&platform=&pages=`).
fn catalog<C>() -> impl IntoView
where
    C: Catalog,
    C::Item: Clone + Send + Sync + 'static,
    C::Response: Clone + Listing,
{
    let url = UrlState::new();
    let filters = Memo::new(move |_| (url.get("q"), url.get("platform")));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let (query, platform) = filters.get();
            let request = C::new(query, platform.as_deref().map(PlatformId::from));
            let pages = url.pages_to_preload();
            let token = inflight.next();
            async move { api::load_pages(request, pages, &token).await }
        }
    });
    let pending = RwSignal::new(false);
    let empty = move || {
        let what = match url.get_untracked("q") {
            Some(q) => format!("No {} match “{q}”.", C::NOUN),
            None => format!("No {} match.", C::NOUN),
        };
        view! { <p class="empty">{what}</p> }
    };
    view! {
        <section class=format!("page {}-page", C::NOUN)>
            <header class="page-head">
                <h1>{C::TITLE}</h1>
                <p class="lede">{C::LEDE}</p>
            </header>
            <div class="filters">
                <SearchBox url id="list-search" label=format!("Search {}", C::NOUN) placeholder=C::PLACEHOLDER />
                <div class="selects">
                    <PlatformFilter url endpoint=C::NOUN />
                </div>
            </div>
            <div class="results" class:pending=move || pending.get()>
                <Loader resource=list what=C::NOUN pending let:loaded>
                    <PagedResults loaded inflight=inflight.clone() noun=C::NOUN empty table=C::table url />
                </Loader>
            </div>
        </section>
    }
}
