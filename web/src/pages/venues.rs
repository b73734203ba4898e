//! Across platforms: the markets the market list's filters select, loaded
//! a bounded number of pages at a time, and the pairs of markets of
//! different platforms the core's equivalence finds among them, each with
//! its relation, the reasons to check it, and for the same or inverted ones
//! the price gap net of fees at a chosen size from both order books.
//!
//! Everything is in the URL: the list's filters, `?rel=` (the relations
//! shown, same and inverted unless said) and `?pages=`.

use crate::api::{self, Inflight, Listing, Loaded, PagedList};
use crate::components::{
    GapView, LoadMore, Loader, PlatformName, PlatformWarnings, SizeField, UnreadNotice, Vetoes,
    gap_size, platform_id, reason_text, veto_lines,
};
use crate::format;
use crate::pages::markets::{Filters, MarketFilters};
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::equivalence::{self, PairOptions, Relation};
use predmarket_client::core::models::Market;
use predmarket_client::core::request::{ListMarkets, MARKETS_MAX_LIMIT};

/// Pages of [`MARKETS_MAX_LIMIT`] markets compared at most: 2,000 markets,
/// in 8 requests of the key's budget (matched on the page's thread: not
/// timed in a browser).
const MAX_PAGES: usize = 8;

/// Every relation, in the order the pairs are listed.
const RELATIONS: [Relation; 6] = [
    Relation::Same,
    Relation::Inverted,
    Relation::Subset,
    Relation::Superset,
    Relation::Unsure,
    Relation::Different,
];
/// What is shown when `?rel=` does not say.
const DEFAULT_RELATIONS: [Relation; 2] = [Relation::Same, Relation::Inverted];

/// The relations `?rel=` names (`none` for none), else the default.
fn relations_of(param: Option<String>) -> Vec<Relation> {
    let Some(param) = param else {
        return DEFAULT_RELATIONS.to_vec();
    };
    RELATIONS
        .into_iter()
        .filter(|r| param.split(',').any(|p| p.trim() == r.as_str()))
        .collect()
}

/// `?rel=` for a set of relations (absent for the default).
fn relations_param(relations: &[Relation]) -> Option<String> {
    if relations == DEFAULT_RELATIONS {
        return None;
    }
    if relations.is_empty() {
        return Some("none".to_owned());
    }
    Some(
        relations
            .iter()
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// What a relation says of a pair, in words.
fn relation_words(r: Relation) -> &'static str {
    match r {
        Relation::Same => "the same question",
        Relation::Inverted => "the same question, YES on one is NO on the other",
        Relation::Subset => "the first asks a narrower question",
        Relation::Superset => "the second asks a narrower question",
        Relation::Different => "a look-alike: a different question",
        Relation::Unsure => "the data cannot tell",
    }
}

/// The pairs of markets of different platforms among `markets`, every
/// relation, the related ones first (in [`RELATIONS`]' order), each in the
/// list's order. Without their reasons: a daily series' strike ladder
/// alone makes hundreds of subset pairs; a row classifies its pair again,
/// with the reasons, when it is drawn.
fn pairs_of(markets: &[Market]) -> Vec<equivalence::Pair> {
    let options = PairOptions {
        include_different: true,
        without_reasons: true,
        ..PairOptions::default()
    };
    let mut pairs = equivalence::find_pairs(markets, &options);
    pairs.sort_by_key(|p| {
        RELATIONS
            .iter()
            .position(|r| *r == p.classification.relation)
    });
    pairs
}

/// The cross-platform view of the market list's filters
/// (`?q=&platform=&status=&category=&event=&series=&sort=&order=&rel=&pages=`).
#[component]
pub fn VenuesPage() -> impl IntoView {
    let url = UrlState::new();
    let filters = Memo::new(move |_| Filters::from_url(&url));
    let inflight = Inflight::new();
    let list = LocalResource::new({
        let inflight = inflight.clone();
        move || {
            let request = ListMarkets {
                limit: Some(MARKETS_MAX_LIMIT),
                ..filters.get().request()
            };
            let pages = url.pages_to_preload().min(MAX_PAGES);
            let token = inflight.next();
            async move { api::load_pages(request, pages, &token).await }
        }
    });
    let pending = RwSignal::new(false);
    let (size_text, size) = gap_size();
    let one_platform = move || filters.with(|f| f.platform.is_some());
    view! {
        <section class="page venues-page">
            <header class="page-head">
                <h1>"Across platforms"</h1>
                <p class="lede">
                    "The same question on two platforms, the same with YES and NO swapped, a narrower one, or a look-alike: "
                    "the pairs found among the markets of these filters, each with the reasons to check."
                </p>
                <p class="tags">
                    <a class="tag" href=move || filters.with(|f| routes::markets(&f.query()))>"These markets as a list"</a>
                </p>
            </header>
            <MarketFilters url filters />
            <Show when=one_platform>
                <p class="hint">"Pairs are across platforms: with one platform chosen, none are found."</p>
            </Show>
            <SizeField id="pairs-size" text=size_text />
            <div class="results" class:pending=move || pending.get() aria-busy=move || pending.get().to_string()>
                <Loader resource=list what="markets" pending let:loaded>
                    <Pairs loaded url inflight=inflight.clone() size />
                </Loader>
            </div>
        </section>
    }
}

/// One pair as listed: both markets.
#[derive(Clone, PartialEq)]
struct Shown {
    key: (String, String),
    a: Market,
    b: Market,
}

/// Rows drawn at first, and added by each "show more".
const ROWS: usize = 100;

/// The pairs among the loaded markets, the relation filter with a count
/// of each, and "load more" up to [`MAX_PAGES`].
#[component]
fn Pairs(
    loaded: Loaded<ListMarkets>,
    url: UrlState,
    inflight: Inflight,
    size: Memo<Option<f64>>,
) -> impl IntoView {
    let total = loaded.first.total();
    let warnings = view! { <PlatformWarnings errors=loaded.first.platform_errors() /> };
    if loaded.items.is_empty() {
        let unread = loaded.unread;
        return view! {
            {warnings}
            <UnreadNotice unread=Signal::stored(unread) noun="markets" />
            <p class="empty">"No markets match these filters."</p>
        }
        .into_any();
    }
    let list = PagedList::new(loaded.items, loaded.pager, loaded.unread);
    // Matched again only when a page arrives.
    let pairs = Memo::new(move |_| list.items.with(|m| pairs_of(m)));
    let relations = Memo::new(move |_| relations_of(url.get("rel")));
    let shown = Memo::new(move |_| {
        let relations = relations.get();
        pairs.with(|pairs| {
            list.items.with(|markets| {
                pairs
                    .iter()
                    .filter(|p| relations.contains(&p.classification.relation))
                    .map(|p| {
                        let (a, b) = (markets[p.a].clone(), markets[p.b].clone());
                        Shown {
                            key: (a.id.clone(), b.id.clone()),
                            a,
                            b,
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let rows = RwSignal::new(ROWS);
    let hidden = move || shown.with(Vec::len).saturating_sub(rows.get());
    let n_of = move |r: Relation| {
        pairs.with(|p| p.iter().filter(|p| p.classification.relation == r).count())
    };
    let toggle = move |r: Relation, on: bool| {
        let mut now = relations.get_untracked();
        now.retain(|x| *x != r);
        if on {
            now.push(r);
        }
        now.sort_by_key(|x| RELATIONS.iter().position(|y| y == x));
        url.set(&[("rel", relations_param(&now))], false);
    };
    let capped = move || {
        list.items.track();
        list.pages() >= MAX_PAGES
    };
    let done = Signal::derive(move || list.done.get() || capped());
    let on_more = Callback::new(move |_| {
        if capped() {
            return;
        }
        list.more(inflight.current(), move |pages| url.set_pages(pages));
    });
    let checkboxes = RELATIONS
        .into_iter()
        .map(|r| {
            let name = r.as_str();
            let id = format!("rel-{name}");
            view! {
                <label class="relation-choice">
                    <input
                        id=id
                        type="checkbox"
                        name="rel"
                        value=name
                        prop:checked=move || relations.with(|rs| rs.contains(&r))
                        on:change=move |ev| toggle(r, event_target_checked(&ev))
                    />
                    {format!(" {name} ")}
                    <span class="n">{move || format!("({})", format::integer(Some(n_of(r) as f64)))}</span>
                </label>
            }
        })
        .collect_view();
    let summary = move || {
        let (n, all) = (shown.with(Vec::len), pairs.with(Vec::len));
        let markets = list.items.with(Vec::len);
        format!(
            "{} of the {} pairs found among {} markets",
            format::integer(Some(n as f64)),
            format::integer(Some(all as f64)),
            format::integer(Some(markets as f64)),
        )
    };
    view! {
        {warnings}
        <UnreadNotice unread=list.unread noun="markets" />
        <fieldset class="relations">
            <legend>"Relations shown"</legend>
            {checkboxes}
        </fieldset>
        <p class="pairs-count" aria-live="polite">{summary}</p>
        <Show
            when=move || shown.with(|s| !s.is_empty())
            fallback=|| view! { <p class="empty">"No pairs of these relations among these markets."</p> }
        >
            <ul class="pairs">
                <For each=move || shown.with(|s| s.iter().take(rows.get()).cloned().collect::<Vec<_>>()) key=|s| s.key.clone() let:s>
                    <PairRow a=s.a b=s.b size />
                </For>
            </ul>
        </Show>
        <Show when=move || hidden() != 0>
            <p>
                <button type="button" class="more-pairs" on:click=move |_| rows.update(|r| *r += ROWS)>
                    {move || format!("Show more pairs ({} not shown)", format::integer(Some(hidden() as f64)))}
                </button>
            </p>
        </Show>
        <LoadMore shown=Signal::derive(move || list.items.with(Vec::len)) total done state=list.state noun="markets" on_more />
        <Show when=capped>
            <p class="hint">{format!("At most {} markets are compared: narrow the filters for the rest.", format::integer(Some((MAX_PAGES as u32 * MARKETS_MAX_LIMIT) as f64)))}</p>
        </Show>
    }
    .into_any()
}

/// One side of a pair: its platform and its title, linked.
#[component]
fn Side(market: Market, class: &'static str) -> impl IntoView {
    let href = routes::market(&market.id);
    let title = market.title.clone().unwrap_or_else(|| market.id.clone());
    view! {
        <p class=class>
            <PlatformName id=platform_id(market.platform.as_ref()) />
            " "
            <a href=href><bdi>{title}</bdi></a>
        </p>
    }
}

/// One pair: both markets, the relation in words, its reasons (each side
/// named by its platform), and for a same or inverted pair the net gap,
/// priced on request (two order books of the key's budget per pair).
#[component]
fn PairRow(a: Market, b: Market, size: Memo<Option<f64>>) -> impl IntoView {
    let c = equivalence::classify(&a, &b);
    let relation = c.relation.as_str();
    let here = api::platform_name(&platform_id(a.platform.as_ref()));
    let there = api::platform_name(&platform_id(b.platform.as_ref()));
    let reasons: Vec<String> = c
        .reasons
        .iter()
        .map(|r| reason_text(r, &here, &there))
        .collect();
    let vetoes = veto_lines(&c, &here, &there);
    let priced = c.allows_gap();
    let asked = RwSignal::new(false);
    let (ida, idb) = (a.id.clone(), b.id.clone());
    let words = relation_words(c.relation);
    let gap = {
        let (a, b, c) = (a.clone(), b.clone(), c.clone());
        move || {
            asked.get().then(|| {
                view! { <GapView market=a.clone() other=b.clone() c=c.clone() size /> }
            })
        }
    };
    view! {
        <li class="pair" data-a=ida data-b=idb data-relation=relation>
            <Side market=a class="pair-a" />
            <p class="pair-relation">
                <span class=format!("relation relation-{relation}")>{relation}</span>
                " " {words}
            </p>
            <Side market=b class="pair-b" />
            <Vetoes lines=vetoes />
            <ul class="reasons">
                {reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
            </ul>
            {priced.then(|| view! {
                <Show when=move || !asked.get()>
                    <button type="button" class="price-gap" on:click=move |_| asked.set(true)>
                        "Net gap from both order books"
                    </button>
                </Show>
            })}
            {gap}
        </li>
    }
}
