//! The page of a future or an award: one page, two resources.

use crate::api;
use crate::components::{Contest, ItemPage, OddsBoard, OddsFormatSwitch, PlatformWarnings};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{OddsFormat, PlatformError, SportsMeta};
use predmarket_client::core::request::{GetAward, GetFuture, Request};
use std::collections::BTreeMap;

/// A contest with the platforms that failed to price it.
type Loaded = (Contest, Option<BTreeMap<String, PlatformError>>);

/// A by-id request of a future or an award.
pub trait ContestRequest: Request + 'static {
    /// For the placeholder and a 404 ("future").
    const WHAT: &'static str;
    fn for_id(id: String) -> Self;
    fn read(response: Self::Response) -> Loaded;
}

fn warnings(meta: Option<SportsMeta>) -> Option<BTreeMap<String, PlatformError>> {
    meta.and_then(|m| m.platform_errors)
}

impl ContestRequest for GetFuture {
    const WHAT: &'static str = "future";
    fn for_id(id: String) -> Self {
        Self::new(id)
    }
    fn read(response: Self::Response) -> Loaded {
        (Contest::from(&response.data), warnings(response.meta))
    }
}

impl ContestRequest for GetAward {
    const WHAT: &'static str = "award";
    fn for_id(id: String) -> Self {
        Self::new(id)
    }
    fn read(response: Self::Response) -> Loaded {
        (Contest::from(&response.data), warnings(response.meta))
    }
}

/// A future (e.g. the championship): outcomes × platforms.
#[component]
pub fn FuturePage(#[prop(into)] id: String) -> impl IntoView {
    contest_page::<GetFuture>(id)
}

/// An award (e.g. MVP): candidates × platforms.
#[component]
pub fn AwardPage(#[prop(into)] id: String) -> impl IntoView {
    contest_page::<GetAward>(id)
}

fn contest_page<R: ContestRequest>(id: String) -> impl IntoView {
    let (odds_format, set_format) = UrlState::new().odds_format();
    let contest = api::item_by_id(id, R::WHAT, R::for_id, |r| Some(R::read(r)));
    view! {
        <ItemPage class="contest-page" back=("/app/sports", "Sports") resource=contest what=R::WHAT let:loaded>
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
