//! The page of an outright, a future or an award: one page, two resources.

use crate::api;
use crate::components::{
    LiveStatus, Loader, OddsBoard, OddsFormatSwitch, Outright, PlatformWarnings,
};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::change::WatchKind;
use predmarket_client::core::models::{AwardResponse, FutureResponse, PlatformError, SportsMeta};
use predmarket_client::core::odds::Quote;
use predmarket_client::core::request::{GetAward, GetFuture, Request};
use std::collections::BTreeMap;

/// An outright, the platforms that failed, and the service's "as of".
type Loaded = (
    Outright,
    Option<BTreeMap<String, PlatformError>>,
    Option<String>,
);

fn loaded(outright: Outright, meta: Option<SportsMeta>) -> Option<Loaded> {
    let (errors, as_of) = meta
        .map(|m| (m.platform_errors, m.data_freshness))
        .unwrap_or_default();
    Some((outright, errors, as_of))
}

/// A future (e.g. the championship): outcomes × platforms.
#[component]
pub fn FuturePage(#[prop(into)] id: String) -> impl IntoView {
    let read = |r: FutureResponse| loaded(Outright::from(&r.data), r.meta);
    outright_page(id, "future", GetFuture::new, read)
}

/// An award (e.g. MVP): candidates × platforms.
#[component]
pub fn AwardPage(#[prop(into)] id: String) -> impl IntoView {
    let read = |r: AwardResponse| loaded(Outright::from(&r.data), r.meta);
    outright_page(id, "award", GetAward::new, read)
}

fn outright_page<R: Request + 'static>(
    id: String,
    what: &'static str,
    request: fn(String) -> R,
    read: fn(R::Response) -> Option<Loaded>,
) -> impl IntoView {
    let (odds_format, set_format) = UrlState::new().odds_format();
    let kind = if what == "award" {
        WatchKind::Award
    } else {
        WatchKind::Future
    };
    let (outright, feed) = api::item_by_id_live(id, what, request, read, kind, true);
    let shown = Memo::new(move |_| outright.with(|o| matches!(o, Some(Ok(_)))));
    // Each refresh rebuilds the head and the board, not the toolbar
    // between them: its live indicator stays one element, heard when its
    // state changes. The quotes before mark what moved.
    let last = StoredValue::new(None::<Vec<Quote>>);
    let board = move || {
        let (outright, ..) = outright.get().and_then(Result::ok)?;
        let before = last.get_value();
        last.set_value(Some(outright.quotes.clone()));
        Some(view! {
            <OddsBoard quotes=outright.quotes format=odds_format caption=outright.name required=outright.required before />
        })
    };
    // `ItemPage`'s frame, with the toolbar and board after its loader.
    view! {
        <section class="page contest-page">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/sports">"Sports"</a></nav>
            <Loader resource=outright what=format!("the {what}") let:loaded>
                <OutrightHead loaded />
            </Loader>
            <Show when=move || shown.get()>
                <div class="toolbar">
                    <h2>"Odds by platform" <LiveStatus feed /></h2>
                    <OddsFormatSwitch format=odds_format on_change=set_format />
                </div>
            </Show>
            {board}
        </section>
    }
}

/// An outright's name, league, kind, season, deadline and rules, and the
/// platforms that failed.
#[component]
fn OutrightHead(loaded: Loaded) -> impl IntoView {
    let (outright, errors, as_of) = loaded;
    let league = outright.league.clone();
    let list_view = outright.list_view;
    view! {
        <header class="page-head">
            <h1><bdi>{outright.name.clone()}</bdi></h1>
            <p class="tags">
                {league.map(|l| {
                    let name = l.clone();
                    view! {
                        <a class="tag" href=routes::sports(&l, list_view)>
                            {move || api::league_name(&name).unwrap_or_else(|| name.clone())} " " {format::words(list_view)}
                        </a>
                    }
                })}
                {outright.kind.clone().map(|t| view! { <span class="tag">{t}</span> })}
                {outright.season.map(|s| view! { <span class="tag subtle">{format!("Season {s:.0}")}</span> })}
                <span class="muted">"Deadline " {format::date(outright.deadline.as_deref())}</span>
            </p>
            {outright.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            {outright.eligibility.clone().map(|e| view! { <p class="fine">"Eligibility: " {e}</p> })}
        </header>
        <PlatformWarnings errors />
        {as_of.map(|at| view! { <p class="fine as-of">{format!("Odds as of {}", format::datetime(Some(&at)))}</p> })}
    }
}
