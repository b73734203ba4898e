use super::game::odds_in_url;
use crate::api::{self, Inflight};
use crate::components::{ErrorNotice, Loading, OddsBoard, OddsFormatSwitch, PlatformWarnings};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{FutureResponse, OddsFormat};
use predmarket_client::core::odds;
use predmarket_client::core::request::GetFuture;

/// A future (e.g. the championship): outcomes × platforms.
#[component]
pub fn FuturePage(#[prop(into)] id: String) -> impl IntoView {
    // The page is rebuilt when the id in the path changes.
    let id = Signal::stored(id);
    let url = UrlState::new();
    let (odds_format, set_format) = odds_in_url(url);
    let inflight = Inflight::new();
    let future = LocalResource::new(move || {
        let id = id.get();
        let token = inflight.next();
        async move { api::send(&GetFuture::new(id), &token).await }
    });
    view! {
        <section class="page future-page">
            <Transition fallback=|| view! { <Loading what="the future" /> }>
                {move || Suspend::new(async move {
                    match future.await {
                        Ok(response) => view! { <FutureView response odds_format set_format /> }.into_any(),
                        Err(error) => view! {
                            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/sports?view=futures">"Futures"</a></nav>
                            <ErrorNotice error retry=Callback::new(move |_| future.refetch()) />
                        }
                        .into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn FutureView(
    response: FutureResponse,
    odds_format: Memo<OddsFormat>,
    set_format: Callback<OddsFormat>,
) -> impl IntoView {
    let FutureResponse { data: future, meta } = response;
    let quotes = odds::future_quotes(&future);
    let metadata = future.metadata.clone().unwrap_or_default();
    let required = metadata.eligible_teams.clone().filter(|t| !t.is_empty());
    let league = future.league.as_ref().map(|l| l.as_str().to_owned());
    let name = future
        .future_name
        .clone()
        .unwrap_or_else(|| future.id.clone());
    view! {
        <nav class="crumbs" aria-label="Breadcrumb">
            <a href="/app/sports">"Sports"</a>
            {league.clone().map(|l| view! {
                <span aria-hidden="true">" / "</span>
                <a href=routes::sports(&l, "futures")>"Futures"</a>
            })}
        </nav>
        <header class="page-head">
            <h1><bdi>{name.clone()}</bdi></h1>
            <p class="tags">
                {future.future_type.as_ref().map(|t| view! { <span class="tag">{format::words(t.as_str())}</span> })}
                {future.season.map(|s| view! { <span class="tag subtle">{format!("Season {s:.0}")}</span> })}
                <span class="muted">"Deadline " {format::date(metadata.deadline.as_deref())}</span>
            </p>
            {metadata.description.clone().map(|d| view! { <p class="description">{d}</p> })}
        </header>
        <PlatformWarnings errors=meta.as_ref().and_then(|m| m.platform_errors.clone()) />
        <div class="toolbar">
            <h2>"Odds by platform"</h2>
            <OddsFormatSwitch format=odds_format on_change=set_format />
        </div>
        <OddsBoard quotes format=odds_format caption=name required=required.unwrap_or_default() />
    }
}
