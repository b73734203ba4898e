//! The platform directory: health, response time and features.

use crate::api::{self, Inflight};
use crate::components::Loader;
use leptos::prelude::*;
use predmarket_client::core::models::Platform;
use predmarket_client::core::request::ListPlatforms;

/// The platform directory: health, response time and features. Asks
/// again on each visit: health is the point of the page.
#[component]
pub fn PlatformsPage() -> impl IntoView {
    let inflight = Inflight::new();
    let platforms = LocalResource::new(move || {
        let token = inflight.next();
        async move { api::send(&ListPlatforms, &token).await.map(|r| r.platforms) }
    });
    view! {
        <section class="page platforms-page">
            <header class="page-head">
                <h1>"Platforms"</h1>
                <p class="lede">"The exchanges behind the service: health, speed and what each one publishes."</p>
            </header>
            <Loader resource=platforms what="platforms" let:platforms>
                {if platforms.is_empty() {
                    view! { <p class="empty">"The service lists no platforms."</p> }.into_any()
                } else {
                    view! { <PlatformTable platforms /> }.into_any()
                }}
            </Loader>
        </section>
    }
}

fn yes_no(value: Option<bool>) -> impl IntoView {
    match value {
        Some(true) => {
            view! { <span class="yes-no yes">"✓"<span class="visually-hidden">"yes"</span></span> }
                .into_any()
        }
        Some(false) => {
            view! { <span class="yes-no no">"—"<span class="visually-hidden">"no"</span></span> }
                .into_any()
        }
        None => {
            view! { <span class="muted">"?"<span class="visually-hidden">"unknown"</span></span> }
                .into_any()
        }
    }
}

#[component]
fn PlatformTable(platforms: Vec<Platform>) -> impl IntoView {
    let rows = platforms
        .into_iter()
        .map(|p| {
            let health = p.health.clone().unwrap_or(predmarket_client::core::models::PlatformHealth {
                status: None,
                last_check: None,
                response_time_ms: None,
            });
            let health_status = health.status.as_ref().map(|s| s.to_string()).unwrap_or_else(|| "unknown".into());
            let features = p.features.clone().unwrap_or_default();
            let response_time = health.response_time_ms.map(|ms| format!("{ms:.0} ms")).unwrap_or_else(|| "—".into());
            view! {
                <tr data-platform=p.id.clone()>
                    <th scope="row">{p.name.clone().unwrap_or_else(|| p.id.clone())}<span class="sub">{p.id.clone()}</span></th>
                    <td>{p.status.as_ref().map(|s| view! { <crate::components::StatusBadge status=s.to_string() /> })}</td>
                    <td><span class=format!("health health-{health_status}")>{health_status.clone()}</span></td>
                    <td class="num">{response_time}</td>
                    <td>{yes_no(features.orderbook)}</td>
                    <td>{yes_no(features.trades)}</td>
                    <td>{yes_no(features.historical_data)}</td>
                    <td>{yes_no(features.user_profiles)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="data" id="platforms">
                <caption class="visually-hidden">"Platforms with their health and features"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Platform"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col">"Health"</th>
                        <th scope="col" class="num">"Response time"</th>
                        <th scope="col">"Orderbook"</th>
                        <th scope="col">"Trades"</th>
                        <th scope="col">"History"</th>
                        <th scope="col">"Profiles"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
