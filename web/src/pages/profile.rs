//! A user of a platform: who they are, how they trade, and their trades.

use crate::api::{self, Directory, Feature, Inflight, Loaded};
use crate::components::{Loader, PagedResults, PlatformName, RemoteImage};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::core::models::{PlatformId, ProfileInfo, ProfileTrade};
use predmarket_client::core::request::{GetProfileInfo, ListProfileTrades};

const TRADES_PAGE: u32 = 25;

/// Whether the directory says the platform has no user profiles (then
/// nothing is asked: the answer would only be an error).
async fn unsupported(platform: &str) -> bool {
    match Directory::get() {
        Some(d) => !d.supports(platform, Feature::Profiles).await,
        None => false,
    }
}

/// `/app/profiles/{platform}/{user}`: the profile with its metrics and
/// the user's trades, loaded side by side (`?pages=` as on every list).
#[component]
pub fn ProfilePage(platform: String, user: String) -> impl IntoView {
    let url = UrlState::new();
    let info_inflight = Inflight::new();
    let info = LocalResource::new({
        let (platform, user) = (platform.clone(), user.clone());
        move || {
            let request = GetProfileInfo {
                include_metrics: Some(true),
                ..GetProfileInfo::new(PlatformId::from(platform.as_str()), user.clone())
            };
            let token = info_inflight.next();
            let platform = platform.clone();
            async move {
                if unsupported(&platform).await {
                    return Ok(None);
                }
                Ok(Some(api::send(&request, &token).await?.data))
            }
        }
    });
    let trades_inflight = Inflight::new();
    let trades = LocalResource::new({
        let (platform, user) = (platform.clone(), user.clone());
        let trades_inflight = trades_inflight.clone();
        move || {
            let request = ListProfileTrades {
                limit: Some(TRADES_PAGE),
                ..ListProfileTrades::new(PlatformId::from(platform.as_str()), user.clone())
            };
            let pages = url.pages_to_preload();
            let token = trades_inflight.next();
            let platform = platform.clone();
            async move {
                if unsupported(&platform).await {
                    return Ok(None);
                }
                api::load_pages(request, pages, &token).await.map(Some)
            }
        }
    });
    let name_of_platform = platform.clone();
    let platform_of_trades = platform.clone();
    view! {
        <section class="page profile-page">
            <nav class="crumbs" aria-label="Breadcrumb"><a href="/app/markets">"Markets"</a></nav>
            <header class="page-head">
                <h1><bdi>{user.clone()}</bdi></h1>
                <p class="tags"><PlatformName id=platform.clone() /></p>
            </header>
            <Loader resource=info what="the profile" let:info>
                {match info {
                    Some(info) => view! { <ProfileCard info /> }.into_any(),
                    None => view! { <Unsupported platform=name_of_platform.clone() /> }.into_any(),
                }}
            </Loader>
            <article class="card" aria-labelledby="profile-trades-h">
                <h2 id="profile-trades-h">"Trades"</h2>
                <Loader resource=trades what="trades" let:loaded>
                    {match loaded {
                        Some(loaded) => view! { <ProfileTrades loaded inflight=trades_inflight.clone() url /> }.into_any(),
                        None => view! { <Unsupported platform=platform_of_trades.clone() /> }.into_any(),
                    }}
                </Loader>
            </article>
        </section>
    }
}

#[component]
fn Unsupported(platform: String) -> impl IntoView {
    let name = api::platform_name(&platform);
    view! { <p class="empty">{format!("{name} does not publish user profiles.")}</p> }
}

/// Who the user is and how they trade. Every text is the service's and
/// shown as text.
#[component]
fn ProfileCard(info: ProfileInfo) -> impl IntoView {
    let profile = info.profile.unwrap_or_default();
    let metrics = info.metrics;
    let pnl_class = match metrics.as_ref().and_then(|m| m.pnl) {
        Some(p) if p > 0.0 => "change up",
        Some(p) if p < 0.0 => "change down",
        _ => "change",
    };
    let facts: Vec<(&'static str, String)> = [
        ("User id", profile.user_id.clone()),
        (
            "Joined",
            profile.joined_at.as_deref().map(|j| format::date(Some(j))),
        ),
        (
            "Followers",
            profile.follower_count.map(|n| format::integer(Some(n))),
        ),
        (
            "Following",
            profile.following_count.map(|n| format::integer(Some(n))),
        ),
        (
            "Profile views",
            profile.profile_view_count.map(|n| format::integer(Some(n))),
        ),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
    .collect();
    let facts = facts
        .into_iter()
        .map(|(k, v)| view! { <div><dt>{k}</dt><dd><bdi>{v}</bdi></dd></div> })
        .collect_view();
    view! {
        <article class="card profile" aria-labelledby="profile-h">
            <div class="profile-head">
                // The name next to it says whose picture it is.
                <RemoteImage url=profile.profile_image.clone() alt="" class="avatar" size=56 />
                <div>
                    <h2 id="profile-h"><bdi>{profile.display_name.clone().or(profile.user_id.clone()).unwrap_or_else(|| "Profile".into())}</bdi></h2>
                    {profile.description.clone().map(|d| view! { <p class="description">{d}</p> })}
                </div>
            </div>
            <dl class="facts">{facts}</dl>
        </article>
        {metrics.map(|m| view! {
            <div class="stats" role="group" aria-label="Trading metrics" id="profile-metrics">
                <div class="stat"><span class="k">"Volume"</span><span class="v">{format::money(m.volume)}</span></div>
                <div class="stat"><span class="k">"Profit and loss"</span><span class=format!("v {pnl_class}")>{format::money(m.pnl)}</span></div>
                <div class="stat"><span class="k">"Return"</span><span class="v">{format::percent(m.roi)}</span></div>
                <div class="stat"><span class="k">"Markets traded"</span><span class="v">{format::integer(m.num_markets_traded)}</span></div>
                <div class="stat"><span class="k">"Portfolio value"</span><span class="v">{format::money(m.portfolio_value)}</span></div>
                <div class="stat"><span class="k">"Open interest"</span><span class="v">{format::money(m.open_interest)}</span></div>
            </div>
        })}
    }
}

#[component]
fn ProfileTrades(
    loaded: Loaded<ListProfileTrades>,
    inflight: Inflight,
    url: UrlState,
) -> impl IntoView {
    let now = js_sys::Date::now();
    view! {
        <PagedResults
            loaded
            inflight
            noun="trades"
            empty={|| view! { <p class="empty">"This user has no trades."</p> }}
            table={move |trades: Signal<Vec<ProfileTrade>>| view! {
                <div class="table-wrap">
                    <table class="data trades" id="profile-trades">
                        <caption class="visually-hidden">"The user's trades, newest first"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Time"</th>
                                <th scope="col" class="title-col">"Market"</th>
                                <th scope="col">"Side"</th>
                                <th scope="col">"Outcome"</th>
                                <th scope="col" class="num">"Price"</th>
                                <th scope="col" class="num">"Shares"</th>
                                <th scope="col" class="num">"Value"</th>
                            </tr>
                        </thead>
                        <tbody>
                            <For each=move || trades.get() key=|t: &ProfileTrade| t.trade_id.clone() let:trade>
                                <ProfileTradeRow trade now />
                            </For>
                        </tbody>
                    </table>
                </div>
            }}
            url
        />
    }
}

#[component]
fn ProfileTradeRow(trade: ProfileTrade, now: f64) -> impl IntoView {
    let when = trade.timestamp.and_then(format::epoch_ms);
    let side = trade
        .side
        .as_ref()
        .map(|s| s.as_str().to_owned())
        .unwrap_or_default();
    let side_class = format!(
        "side side-{}",
        side.chars()
            .filter(char::is_ascii_alphabetic)
            .collect::<String>()
    );
    let value = trade.price.zip(trade.size).map(|(p, s)| p * s);
    let title = trade
        .title
        .clone()
        .or_else(|| trade.ticker.clone())
        .or_else(|| trade.market_id.clone())
        .unwrap_or_else(|| format::NONE.into());
    let market = match trade.market_id.clone() {
        Some(id) => {
            view! { <a href=routes::market(&id) class="title"><bdi>{title}</bdi></a> }.into_any()
        }
        None => view! { <bdi>{title}</bdi> }.into_any(),
    };
    view! {
        <tr>
            <td title=when.map(format::datetime_ms)>{when.map(|w| format::ago_ms(w, now)).unwrap_or_else(|| format::NONE.into())}</td>
            <th scope="row" class="title-col">{market}</th>
            <td><span class=side_class>{format::words(&side)}</span></td>
            <td><bdi>{trade.outcome.clone().unwrap_or_default()}</bdi></td>
            <td class="num">{format::cents(trade.price)}</td>
            <td class="num">{format::shares(trade.size)}</td>
            <td class="num">{format::money(value)}</td>
        </tr>
    }
}
