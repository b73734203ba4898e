use crate::api::{self, Inflight, Loaded, PagedList};
use crate::components::{ErrorNotice, LoadMore, Loading, MarketTable, SortedBy};
use crate::format;
use crate::routes::UrlState;
use leptos::prelude::*;
use predmarket_client::core::models::{MarketSort, MarketStatus, PlatformId, SortOrder};
use predmarket_client::core::request::ListMarkets;

/// Pages a shared link may ask to preload: each is a request.
const MAX_PRELOAD_PAGES: usize = 8;

const PLATFORMS: [&str; 5] = [
    "platform_a",
    "platform_b",
    "platform_c",
    "platform_d",
    "platform_e",
];
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

/// The filters of the list, as in the URL. Changing one starts paging over
/// (a cursor belongs to the filters it came with).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Filters {
    pub q: Option<String>,
    pub platform: Option<String>,
    pub status: Option<String>,
    pub sort: Option<String>,
    pub order: Option<String>,
}

impl Filters {
    fn from_url(url: &UrlState) -> Self {
        Self {
            q: url.get("q"),
            platform: url.get("platform"),
            status: url.get("status"),
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
            sort: self.sort.as_deref().map(MarketSort::from),
            order: self
                .sort
                .as_ref()
                .and(self.order.as_deref())
                .map(SortOrder::from),
            ..ListMarkets::default()
        }
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
/// it lives in the URL (`?q=&platform=&status=&sort=&order=&pages=`).
#[component]
pub fn MarketsPage() -> impl IntoView {
    let url = UrlState::new();
    let filters = Memo::new(move |_| Filters::from_url(&url));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let request = filters.get().request();
            // Read once per load: growing the list updates `pages` and
            // must not reload it.
            let pages = url
                .get_untracked("pages")
                .and_then(|p| p.parse().ok())
                .unwrap_or(1)
                .clamp(1, MAX_PRELOAD_PAGES);
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
            <div class="results" class:pending=move || pending.get() aria-busy=move || pending.get().to_string()>
                <Transition fallback=|| view! { <Loading what="markets" /> } set_pending=pending>
                    {move || {
                        let inflight = inflight.clone();
                        Suspend::new(async move {
                            match list.await {
                                Ok(loaded) => view! { <Results loaded url inflight filters=filters.get_untracked() /> }.into_any(),
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
fn MarketFilters(url: UrlState, filters: Memo<Filters>) -> impl IntoView {
    let draft = RwSignal::new(url.get_untracked("q").unwrap_or_default());
    // Back and forward change the URL: the box follows.
    Effect::new(move |_| draft.set(filters.with(|f| f.q.clone()).unwrap_or_default()));
    let set = move |key: &'static str, value: String| {
        url.set(&[(key, Some(value)), ("pages", None)], false)
    };
    let on_search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set("q", draft.get_untracked());
    };
    let select = move |key: &'static str,
                       label: &'static str,
                       all: &'static str,
                       options: Vec<(String, String)>| {
        let id = format!("filter-{key}");
        view! {
            <div class="field">
                <label for=id.clone()>{label}</label>
                <select id=id name=key on:change=move |ev| set(key, event_target_value(&ev))>
                    <option value="" prop:selected=move || filters.with(|_| url.get(key).is_none())>{all}</option>
                    {options
                        .into_iter()
                        .map(|(value, text)| {
                            let v = value.clone();
                            view! {
                                <option value=value prop:selected=move || url.get(key).as_deref() == Some(v.as_str())>{text}</option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
        }
    };
    let platforms = PLATFORMS
        .iter()
        .map(|p| (p.to_string(), crate::api::platform_name(p)))
        .collect();
    let statuses = STATUSES
        .iter()
        .map(|s| (s.to_string(), format::words(s)))
        .collect();
    let sorts = SORTS
        .iter()
        .map(|(v, t)| (v.to_string(), t.to_string()))
        .collect();
    let descending = move || filters.with(|f| f.descending());
    view! {
        <div class="filters">
            <form role="search" class="search" on:submit=on_search>
                <label for="market-search" class="visually-hidden">"Search markets"</label>
                <input
                    id="market-search"
                    type="search"
                    name="q"
                    placeholder="Search markets, e.g. election, bitcoin, rain"
                    autocomplete="off"
                    prop:value=move || draft.get()
                    on:input=move |ev| draft.set(event_target_value(&ev))
                />
                <button type="submit" class="primary">"Search"</button>
            </form>
            <div class="selects">
                {select("platform", "Platform", "All platforms", platforms)}
                {select("status", "Status", "Any status", statuses)}
                {select("sort", "Sort by", "Default order", sorts)}
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
                            on:click=move |_| url.set(&[("q", None), ("platform", None), ("status", None), ("sort", None), ("order", None), ("pages", None)], false)
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
    let total = loaded.first.pagination.as_ref().and_then(|p| p.total);
    if loaded.items.is_empty() {
        let what = match &filters.q {
            Some(q) => format!("No markets match “{q}”."),
            None => "No markets match these filters.".to_owned(),
        };
        return view! {
            <div class="empty-state">
                <p class="empty">{what}</p>
                <p><button type="button" on:click=move |_| url.set(&[("q", None), ("platform", None), ("status", None), ("pages", None)], false)>"Show all markets"</button></p>
            </div>
        }
        .into_any();
    }
    let list = PagedList::new(loaded.items, loaded.pager);
    let on_more = Callback::new(move |_| {
        list.more(inflight.current(), move |pages| {
            url.set(&[("pages", Some(pages.to_string()))], true)
        });
    });
    let caption = match &filters.q {
        Some(q) => format!("Markets matching “{q}”"),
        None => "Markets".to_owned(),
    };
    view! {
        <MarketTable
            markets=list.items
            caption
            sorted=filters.sorted_by()
            descending=filters.descending()
            id="markets".to_string()
        />
        <LoadMore
            shown=Signal::derive(move || list.items.with(Vec::len))
            total
            done=list.done
            state=list.state
            noun="markets"
            on_more
        />
    }
    .into_any()
}
