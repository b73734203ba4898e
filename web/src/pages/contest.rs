//! The page of a future or an award: one page, two resources.

use crate::api;
use crate::components::{Contest, ItemPage, OddsBoard, OddsFormatSwitch, PlatformWarnings};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{
    AwardResponse, FutureResponse, OddsFormat, PlatformError, SportsMeta,
};
use predmarket_client::core::odds::Quote;
use predmarket_client::core::request::{GetAward, GetFuture, Request};
use std::collections::BTreeMap;

/// A contest, the platforms that failed, and the service's "as of".
type Loaded = (
    Contest,
    Option<BTreeMap<String, PlatformError>>,
    Option<String>,
);

fn loaded(contest: Contest, meta: Option<SportsMeta>) -> Option<Loaded> {
    let (errors, as_of) = meta
        .map(|m| (m.platform_errors, m.data_freshness))
        .unwrap_or_default();
    Some((contest, errors, as_of))
}

/// How often a board's odds are asked again while its page is open: the
/// core's default for a watch of a future (the
/// scheduler stretches it when the page is hidden or the budget is low).
fn contest_watch_ms() -> f64 {
    predmarket_core::change::WatchKind::Future.default_interval_ms()
}

/// A future (e.g. the championship): outcomes × platforms.
#[component]
pub fn FuturePage(#[prop(into)] id: String) -> impl IntoView {
    let read = |r: FutureResponse| loaded(Contest::from(&r.data), r.meta);
    contest_page(id, "future", GetFuture::new, read)
}

/// An award (e.g. MVP): candidates × platforms.
#[component]
pub fn AwardPage(#[prop(into)] id: String) -> impl IntoView {
    let read = |r: AwardResponse| loaded(Contest::from(&r.data), r.meta);
    contest_page(id, "award", GetAward::new, read)
}

fn contest_page<R: Request + 'static>(
    id: String,
    what: &'static str,
    request: fn(String) -> R,
    read: fn(R::Response) -> Option<Loaded>,
) -> impl IntoView {
    let (odds_format, set_format) = UrlState::new().odds_format();
    let contest = api::item_by_id_every(id, what, request, read, Some(contest_watch_ms()));
    // Each refresh rebuilds the view: the quotes before mark what moved.
    let last = StoredValue::new(None::<Vec<Quote>>);
    view! {
        <ItemPage class="contest-page" back=("/app/sports", "Sports") resource=contest what=format!("the {what}") let:loaded>
            {
                let before = last.get_value();
                last.set_value(Some(loaded.0.quotes.clone()));
                view! { <ContestView loaded before odds_format set_format /> }
            }
        </ItemPage>
    }
}

#[component]
fn ContestView(
    loaded: Loaded,
    before: Option<Vec<Quote>>,
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
) -> impl IntoView {
    let (contest, errors, as_of) = loaded;
    let league = contest.league.clone();
    let list_view = contest.list_view;
    view! {
        <header class="page-head">
            <h1><bdi>{contest.name.clone()}</bdi></h1>
            <p class="tags">
                {league.map(|l| {
                    let name = l.clone();
                    view! {
                        <a class="tag" href=routes::sports(&l, list_view)>
                            {move || api::league_name(&name).unwrap_or_else(|| name.clone())} " " {format::words(list_view)}
                        </a>
                    }
                })}
                {contest.kind.clone().map(|t| view! { <span class="tag">{t}</span> })}
                {contest.season.map(|s| view! { <span class="tag subtle">{format!("Season {s:.0}")}</span> })}
                <span class="muted">"Deadline " {format::date(contest.deadline.as_deref())}</span>
            </p>
            {contest.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            {contest.eligibility.clone().map(|e| view! { <p class="fine">"Eligibility: " {e}</p> })}
        </header>
        <PlatformWarnings errors />
        {as_of.map(|at| view! { <p class="fine as-of">{format!("Odds as of {}", format::datetime(Some(&at)))}</p> })}
        <div class="toolbar">
            <h2>"Odds by platform" <span class="live-badge" title="Kept up to date while the page is open, within the rate budget">"Live"</span></h2>
            <OddsFormatSwitch format=odds_format on_change=set_format />
        </div>
        <OddsBoard quotes=contest.quotes format=odds_format caption=contest.name required=contest.required before />
    }
}
