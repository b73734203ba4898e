//! The markets list with its search, filters and sort in the URL.

use crate::api::{self, Inflight, Loaded};
use crate::components::{
    FilterSelect, Loader, MarketTable, PagedResults, PlatformFilter, SearchBox, SortedBy,
    TextFilter,
};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{MarketSort, MarketStatus, PlatformId, SortOrder};
use predmarket_client::core::request::ListMarkets;

const STATUSES: [&str; 4] = ["open", "closed", "resolved", "suspended"];
const SORTS: [(&str, &str); 7] = [
    ("volume_24h", "24h volume"),
    ("volume_7d", "7d volume"),
    ("volume_total", "Total volume"),
    ("liquidity", "Liquidity"),
    ("open_interest", "Open interest"),
    ("created_at", "Newest"),
    ("trading_end_at", "Closing date"),
];

/// The URL parameters of the filters (all but `pages`), cleared together.
const FILTER_KEYS: [&str; 8] = [
    "q", "platform", "status", "category", "event", "series", "sort", "order",
];

/// The filters of the list, as in the URL. Changing one starts paging over
/// (a cursor belongs to the filters it came with).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Filters {
    pub q: Option<String>,
    pub platform: Option<String>,
    pub status: Option<String>,
    pub category: Option<String>,
    /// An event id (`?event=`): the markets of one event.
    pub event: Option<String>,
    /// A series id (`?series=`).
    pub series: Option<String>,
    pub sort: Option<String>,
    pub order: Option<String>,
}

impl Filters {
    pub fn from_url(url: &UrlState) -> Self {
        Self {
            q: url.get("q"),
            platform: url.get("platform"),
            status: url.get("status"),
            category: url.get("category"),
            event: url.get("event"),
            series: url.get("series"),
            sort: url.get("sort"),
            order: url.get("order"),
        }
    }

    pub fn request(&self) -> ListMarkets {
        ListMarkets {
            limit: Some(api::PAGE_SIZE),
            query: self.q.clone(),
            platform: self.platform.as_deref().map(PlatformId::from),
            status: self.status.as_deref().map(MarketStatus::from),
            category: self.category.clone(),
            event_id: self.event.clone(),
            series_id: self.series.clone(),
            sort: self.sort.as_deref().map(MarketSort::from),
            order: self
                .sort
                .as_ref()
                .and(self.order.as_deref())
                .map(SortOrder::from),
            ..ListMarkets::default()
        }
    }

    /// The filters as URL parameters (for a link to another view of them).
    pub fn query(&self) -> Vec<(&'static str, &str)> {
        FILTER_KEYS
            .iter()
            .zip([
                &self.q,
                &self.platform,
                &self.status,
                &self.category,
                &self.event,
                &self.series,
                &self.sort,
                &self.order,
            ])
            .filter_map(|(k, v)| Some((*k, v.as_deref()?)))
            .collect()
    }

    fn descending(&self) -> bool {
        self.order.as_deref() != Some("asc")
    }

    fn sorted_by(&self) -> SortedBy {
        match self.sort.as_deref() {
            Some("volume_24h") => SortedBy::Volume,
            Some("liquidity") => SortedBy::Liquidity,
            _ => SortedBy::None,
        }
    }

    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Markets of every platform: search, filters, sort, paged table. All of
/// it lives in the URL
/// (`?q=&platform=&status=&category=&event=&series=&sort=&order=&pages=`).
#[component]
pub fn MarketsPage() -> impl IntoView {
    let url = UrlState::new();
    let filters = Memo::new(move |_| Filters::from_url(&url));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let request = filters.get().request();
            let pages = url.pages_to_preload();
            let token = inflight.next();
            async move { api::load_pages(request, pages, &token).await }
        }
    });
    let pending = RwSignal::new(false);
    view! {
        <section class="page markets-page">
            <header class="page-head">
                <h1>"Markets"</h1>
                <p class="lede">"Every open question across the platforms, priced by the crowd."</p>
            </header>
            <MarketFilters url filters />
            // After the filters: the search box stays the first stop of
            // the keyboard.
            <p class="tags">
                <a class="tag venues-link" href=move || filters.with(|f| routes::venues(&f.query()))>
                    "Across platforms: the same questions in these markets"
                </a>
            </p>
            <div class="results" class:pending=move || pending.get() aria-busy=move || pending.get().to_string()>
                <Loader resource=list what="markets" pending let:loaded>
                    <Results loaded url inflight=inflight.clone() filters=filters.get_untracked() />
                </Loader>
            </div>
        </section>
    }
}

/// Drops every filter and the page count: the whole list again.
pub fn clear(url: UrlState) {
    let changes: Vec<(&str, Option<String>)> = FILTER_KEYS
        .iter()
        .chain(&["pages"])
        .map(|k| (*k, None))
        .collect();
    url.set(&changes, false);
}

/// The search and filters of the market list (also the cross-platform
/// view's).
#[component]
pub fn MarketFilters(url: UrlState, filters: Memo<Filters>) -> impl IntoView {
    let set = move |key: &'static str, value: String| {
        url.set(&[(key, Some(value)), ("pages", None)], false)
    };
    let statuses: Vec<(String, String)> = STATUSES
        .iter()
        .map(|s| (s.to_string(), format::words(s)))
        .collect();
    let sorts: Vec<(String, String)> = SORTS
        .iter()
        .map(|(v, t)| (v.to_string(), t.to_string()))
        .collect();
    let descending = move || filters.with(|f| f.descending());
    view! {
        <div class="filters">
            <SearchBox url id="market-search" label="Search markets" placeholder="Search markets, e.g. election, bitcoin, rain" />
            <div class="selects">
                <PlatformFilter url endpoint="markets" />
                <FilterSelect url key="status" label="Status" all="Any status" options=statuses />
                <TextFilter url key="category" label="Category" placeholder="e.g. Politics" />
                <TextFilter url key="event" label="Event id" placeholder="Any event" />
                <TextFilter url key="series" label="Series id" placeholder="Any series" />
                <FilterSelect url key="sort" label="Sort by" all="Default order" options=sorts />
                <div class="field">
                    <span class="label" id="order-label">"Order"</span>
                    <button
                        type="button"
                        class="order"
                        aria-labelledby="order-label order-value"
                        disabled=move || filters.with(|f| f.sort.is_none())
                        on:click=move |_| set("order", if descending() { "asc".into() } else { "desc".into() })
                    >
                        <span id="order-value">{move || if descending() { "↓ High to low" } else { "↑ Low to high" }}</span>
                    </button>
                </div>
                <Show when=move || !filters.with(Filters::is_empty)>
                    <div class="field">
                        <span class="label" aria-hidden="true">" "</span>
                        <button
                            type="button"
                            class="link"
                            on:click=move |_| clear(url)
                        >
                            "Clear filters"
                        </button>
                    </div>
                </Show>
            </div>
        </div>
    }
}

#[component]
fn Results(
    loaded: Loaded<ListMarkets>,
    url: UrlState,
    inflight: Inflight,
    filters: Filters,
) -> impl IntoView {
    let query = filters.q.clone();
    let empty = move || {
        let what = match &query {
            Some(q) => format!("No markets match “{q}”."),
            None => "No markets match these filters.".to_owned(),
        };
        view! {
            <div class="empty-state">
                <p class="empty">{what}</p>
                <p><button type="button" on:click=move |_| clear(url)>"Show all markets"</button></p>
            </div>
        }
    };
    let caption = match &filters.q {
        Some(q) => format!("Markets matching “{q}”"),
        None => "Markets".to_owned(),
    };
    let (sorted, descending) = (filters.sorted_by(), filters.descending());
    view! {
        <PagedResults
            loaded
            inflight
            noun="markets"
            empty
            table={move |markets| view! { <MarketTable markets caption sorted descending id="markets".to_string() /> }}
            url
        />
    }
}
