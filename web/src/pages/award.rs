use super::game::odds_in_url;
use crate::api::{self, Inflight};
use crate::components::{ErrorNotice, Loading, OddsBoard, OddsFormatSwitch, PlatformWarnings};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{AwardResponse, OddsFormat};
use predmarket_client::core::odds;
use predmarket_client::core::request::GetAward;

/// An award (e.g. MVP): candidates × platforms.
#[component]
pub fn AwardPage(#[prop(into)] id: String) -> impl IntoView {
    // The page is rebuilt when the id in the path changes.
    let id = Signal::stored(id);
    let url = UrlState::new();
    let (odds_format, set_format) = odds_in_url(url);
    let inflight = Inflight::new();
    let award = LocalResource::new(move || {
        let id = id.get();
        let token = inflight.next();
        async move { api::send(&GetAward::new(id), &token).await }
    });
    view! {
        <section class="page award-page">
            <Transition fallback=|| view! { <Loading what="the award" /> }>
                {move || Suspend::new(async move {
                    match award.await {
                        Ok(response) => view! { <AwardView response odds_format set_format /> }.into_any(),
                        Err(error) => view! {
                            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/sports?view=awards">"Awards"</a></nav>
                            <ErrorNotice error retry=Callback::new(move |_| award.refetch()) />
                        }
                        .into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn AwardView(
    response: AwardResponse,
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
) -> impl IntoView {
    let AwardResponse { data: award, meta } = response;
    let quotes = odds::award_quotes(&award);
    let metadata = award.metadata.clone().unwrap_or_default();
    let league = award.league.as_ref().map(|l| l.as_str().to_owned());
    let name = award.award_name.clone().unwrap_or_else(|| award.id.clone());
    view! {
        <nav class="crumbs" aria-label="Breadcrumb">
            <a href="/app/sports">"Sports"</a>
            {league.clone().map(|l| view! {
                <span aria-hidden="true">" / "</span>
                <a href=routes::sports(&l, "awards")>"Awards"</a>
            })}
        </nav>
        <header class="page-head">
            <h1><bdi>{name.clone()}</bdi></h1>
            <p class="tags">
                {award.award_type.as_ref().map(|t| view! { <span class="tag">{format::words(t.as_str())}</span> })}
                {award.season.map(|s| view! { <span class="tag subtle">{format!("Season {s:.0}")}</span> })}
                <span class="muted">"Deadline " {format::date(metadata.deadline.as_deref())}</span>
            </p>
            {metadata.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            {metadata.eligibility.clone().map(|e| view! { <p class="fine">"Eligibility: " {e}</p> })}
        </header>
        <PlatformWarnings errors=meta.as_ref().and_then(|m| m.platform_errors.clone()) />
        <div class="toolbar">
            <h2>"Odds by platform"</h2>
            <OddsFormatSwitch format=odds_format on_change=set_format />
        </div>
        <OddsBoard quotes format=odds_format caption=name />
    }
}
