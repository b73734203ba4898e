use crate::api;
use crate::components::ErrorNotice;
use leptos::prelude::*;
use predmarket_client::core::models::{Platform, PlatformsResponse};
use predmarket_client::{CallOptions, Error};

async fn load() -> Result<PlatformsResponse, Error> {
    let client = api::client()?;
    client.send(&predmarket_client::core::request::ListPlatforms, &CallOptions::default()).await
}

/// The platform directory: health, response time and features.
#[component]
pub fn PlatformsPage() -> impl IntoView {
    let platforms = LocalResource::new(load);
    view! {
        <section class="page">
            <h1>"Platforms"</h1>
            <Transition fallback=|| view! { <p class="loading" aria-busy="true">"Loading platforms…"</p> }>
                {move || Suspend::new(async move {
                    match platforms.await {
                        Ok(response) if response.platforms.is_empty() => {
                            view! { <p class="empty">"The service lists no platforms."</p> }.into_any()
                        }
                        Ok(response) => view! { <PlatformTable platforms=response.platforms /> }.into_any(),
                        Err(error) => view! { <ErrorNotice error /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

fn yes_no(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "yes",
        Some(false) => "no",
        None => "—",
    }
}

#[component]
fn PlatformTable(platforms: Vec<Platform>) -> impl IntoView {
    let rows = platforms
        .into_iter()
        .map(|p| {
            let health = p.health.clone().unwrap_or_else(|| predmarket_client::core::models::PlatformHealth {
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
                    <td>{p.status.as_ref().map(|s| s.to_string()).unwrap_or_else(|| "—".into())}</td>
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
