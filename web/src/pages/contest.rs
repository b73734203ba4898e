//! The page of a future or an award: one page, two resources.

use crate::api;
use crate::components::{Contest, ItemPage, OddsBoard, OddsFormatSwitch, PlatformWarnings};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{
    AwardResponse, FutureResponse, OddsFormat, PlatformError, SportsMeta,
};
use predmarket_client::core::request::{GetAward, GetFuture, Request};
use std::collections::BTreeMap;

/// A contest with the platforms that failed to price it.
type Loaded = (Contest, Option<BTreeMap<String, PlatformError>>);

fn warnings(meta: Option<SportsMeta>) -> Option<BTreeMap<String, PlatformError>> {
    meta.and_then(|m| m.platform_errors)
}

/// A future (e.g. the championship): outcomes × platforms.
#[component]
pub fn FuturePage(#[prop(into)] id: String) -> impl IntoView {
    let read = |r: FutureResponse| Some((Contest::from(&r.data), warnings(r.meta)));
    contest_page(id, "future", GetFuture::new, read)
}

/// An award (e.g. MVP): candidates × platforms.
#[component]
pub fn AwardPage(#[prop(into)] id: String) -> impl IntoView {
    let read = |r: AwardResponse| Some((Contest::from(&r.data), warnings(r.meta)));
    contest_page(id, "award", GetAward::new, read)
}

fn contest_page<R: Request + 'static>(
    id: String,
    what: &'static str,
    request: fn(String) -> R,
    read: fn(R::Response) -> Option<Loaded>,
) -> impl IntoView {
    let (odds_format, set_format) = UrlState::new().odds_format();
    let contest = api::item_by_id(id, what, request, read);
    view! {
        <ItemPage class="contest-page" back=("/app/sports", "Sports") resource=contest what=format!("the {what}") let:loaded>
            <ContestView loaded odds_format set_format />
        </ItemPage>
    }
}

#[component]
fn ContestView(
    loaded: Loaded,
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
) -> impl IntoView {
    let (contest, errors) = loaded;
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
        <div class="toolbar">
            <h2>"Odds by platform"</h2>
            <OddsFormatSwitch format=odds_format on_change=set_format />
        </div>
        <OddsBoard quotes=contest.quotes format=odds_format caption=contest.name required=contest.required />
    }
}
