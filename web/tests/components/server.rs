//! Against the reference server (when PREDMARKET_TEST_URL and
//! PREDMARKET_TEST_KEY were set at build time): the app, its filters,
//! profiles and paging.

use leptos::prelude::*;
use predmarket_client::core::models::{Future, League, PlatformId};
use predmarket_client::core::request::{
    GetLeagueInfo, ListFutures, ListMarkets, ListPlatforms, ListTrades,
};
use predmarket_web::Page;
use predmarket_web::api::{self, Inflight};
use predmarket_web::components::{Outright, OutrightTable, PagedResults};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;

#[wasm_bindgen_test]
async fn the_app_lists_markets_and_a_market_shows_its_book() {
    use_test_server();
    let (root, handle) = mount(|| view! { <predmarket_web::App /> });
    assert!(
        wait_for(&root, "#markets tbody tr", 15_000).await,
        "the market list appears"
    );
    assert_eq!(count(&root, "#markets tbody tr"), 25);
    // Load more appends the next page.
    find(&root, ".load-more button").expect("load more").click();
    let mut waited = 0;
    while count(&root, "#markets tbody tr") < 50 && waited < 10_000 {
        sleep(50).await;
        waited += 50;
    }
    assert_eq!(count(&root, "#markets tbody tr"), 50);
    // A platform that says it publishes a book, trades and history: from
    // the service's directory, not from a label.
    let platforms = predmarket_web::api::client()
        .expect("client")
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    let complete = platforms
        .iter()
        .filter(|p| {
            p.features.as_ref().is_some_and(|f| {
                f.orderbook == Some(true)
                    && f.trades == Some(true)
                    && f.historical_data == Some(true)
            })
        })
        .map(|p| p.id.clone())
        .collect::<Vec<_>>();
    let id = complete
        .iter()
        .find_map(|platform| {
            find(
                &root,
                &format!(r#"#markets tbody tr [data-platform="{platform}"]"#),
            )
        })
        .and_then(|cell| cell.closest("tr").ok().flatten())
        .and_then(|tr| tr.get_attribute("data-id"))
        .expect("a market of a platform with every feature in the first two pages");
    drop(handle);

    let (root, _h) = mount(move || {
        view! { <leptos_router::components::Router><predmarket_web::pages::market::MarketPage id=id /></leptos_router::components::Router> }
    });
    assert!(
        wait_for(&root, "table.levels tbody tr.bid", 15_000).await,
        "the order book has levels"
    );
    assert!(find(&root, ".depth-chart path.asks").is_some());
    // Trades load when their card scrolls into view (a market's first
    // paint costs three requests): scroll there as a reader would.
    assert!(
        wait_for(&root, r#"article[aria-labelledby="trades-h"]"#, 15_000).await,
        "the trades card"
    );
    if let Some(card) = find(&root, r#"article[aria-labelledby="trades-h"]"#) {
        card.scroll_into_view();
    }
    assert!(wait_for(&root, "#trades tbody tr", 15_000).await, "trades");
    assert!(
        wait_for(&root, ".price-chart path.line", 15_000).await,
        "price history"
    );
}

#[wasm_bindgen_test]
async fn a_wrong_key_shows_the_unauthorized_notice() {
    use_test_server();
    let storage = web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .expect("sessionStorage");
    storage
        .set_item("predmarket.apiKey", "not-a-key")
        .expect("set");
    let (root, _h) = mount(|| view! { <predmarket_web::App /> });
    let found = wait_for(&root, r#"[data-code="UNAUTHORIZED"]"#, 15_000).await;
    let _ = storage.remove_item("predmarket.apiKey");
    assert!(found);
}

#[wasm_bindgen_test]
async fn filters_and_league_tabs_come_from_the_service() {
    use_test_server();
    let client = predmarket_web::api::client().expect("client");
    let platforms = client
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    let leagues = client
        .send(&GetLeagueInfo::default(), &Default::default())
        .await
        .expect("the leagues")
        .data
        .leagues()
        .to_vec();
    assert!(!platforms.is_empty() && !leagues.is_empty());

    // The market list's platform filter: every platform that serves
    // markets, by its name, and nothing else.
    let (root, handle) = mount(|| view! { <predmarket_web::App /> });
    assert!(
        wait_for(
            &root,
            "#filter-platform option[value]:not([value=''])",
            15_000
        )
        .await
    );
    let options = root
        .query_selector_all("#filter-platform option:not([value=''])")
        .expect("options");
    let shown: Vec<(String, String)> = (0..options.length())
        .filter_map(|i| options.item(i))
        .map(|o| {
            let o: web_sys::HtmlElement = o.unchecked_into();
            (
                o.get_attribute("value").unwrap_or_default(),
                o.text_content().unwrap_or_default(),
            )
        })
        .collect();
    let serving_markets: Vec<(String, String)> = platforms
        .iter()
        .filter(|p| {
            p.endpoints
                .as_ref()
                .and_then(|e| e.is_available("markets"))
                .unwrap_or(true)
        })
        .map(|p| (p.id.clone(), p.name.clone().unwrap_or_else(|| p.id.clone())))
        .collect();
    assert_eq!(shown, serving_markets);
    drop(handle);

    // Sports: one tab per league the service lists, the first one chosen.
    let (root, _h) = mount(|| {
        view! { <leptos_router::components::Router><predmarket_web::pages::sports::SportsPage /></leptos_router::components::Router> }
    });
    assert!(wait_for(&root, ".pills a", 15_000).await);
    assert_eq!(count(&root, ".pills a"), leagues.len() as u32);
    let first = &leagues[0];
    let current = find(&root, r#".pills a[aria-current="page"]"#).expect("a chosen league");
    assert_eq!(
        current.get_attribute("data-league").as_deref(),
        Some(first.id.as_str())
    );
    assert_eq!(
        current.text_content().unwrap_or_default(),
        first
            .abbreviation
            .clone()
            .or_else(|| first.name.clone())
            .unwrap_or_else(|| first.id.clone())
    );
    assert!(
        wait_for(&root, "#games tbody tr", 15_000).await,
        "the first league's games"
    );
}

/// A trader of a platform that publishes user profiles, from the trades
/// of one of its markets: (platform id, trader name).
async fn a_trader() -> (String, String) {
    let client = predmarket_web::api::client().expect("client");
    let platforms = client
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    for platform in platforms.iter().filter(|p| {
        p.features
            .as_ref()
            .is_some_and(|f| f.user_profiles == Some(true) && f.trades == Some(true))
    }) {
        let markets = client
            .send(
                &ListMarkets {
                    platform: Some(PlatformId::from(platform.id.as_str())),
                    limit: Some(5),
                    ..ListMarkets::default()
                },
                &Default::default(),
            )
            .await
            .expect("markets")
            .markets;
        for market in markets {
            let trades = client
                .send(&ListTrades::new(market.id.clone()), &Default::default())
                .await
                .expect("trades")
                .trades;
            if let Some(name) = trades
                .iter()
                .find_map(|t| t.user.as_ref().and_then(|u| u.name.clone()))
            {
                return (platform.id.clone(), name);
            }
        }
    }
    panic!("no platform with profiles has a named trader");
}

#[wasm_bindgen_test]
async fn a_profile_shows_its_metrics_and_trades_and_trade_lists_link_there() {
    use_test_server();
    let (platform, user) = a_trader().await;
    let (p, u) = (platform.clone(), user.clone());
    let (root, handle) = mount(move || {
        view! { <leptos_router::components::Router><predmarket_web::pages::profile::ProfilePage platform=p user=u /></leptos_router::components::Router> }
    });
    assert!(wait_for(&root, "#profile-metrics", 15_000).await, "metrics");
    assert_eq!(count(&root, "#profile-metrics .stat"), 6);
    assert!(text(&root, "h1").contains(&user));
    assert!(
        wait_for(&root, "#profile-trades tbody tr", 15_000).await,
        "trades"
    );
    // Every trade links to its market.
    // (How many pages: the runner's URL may carry another test's `?pages=`.)
    let rows = count(&root, "#profile-trades tbody tr");
    assert!(rows > 0, "{rows}");
    assert_eq!(
        count(
            &root,
            "#profile-trades tbody tr a.title[href^='/app/markets/']"
        ),
        rows
    );
    // The avatar: the service's URL, no referrer, or none at all.
    if let Some(img) = find(&root, ".profile img.avatar") {
        assert_eq!(
            img.get_attribute("referrerpolicy").as_deref(),
            Some("no-referrer")
        );
    }
    drop(handle);
    assert_eq!(
        Page::of_path(&predmarket_web::routes::profile(&platform, &user)),
        Page::Profile(platform, user)
    );
}

#[wasm_bindgen_test]
async fn a_category_filter_goes_into_the_url_and_narrows_the_list() {
    use_test_server();
    let client = predmarket_web::api::client().expect("client");
    let category = client
        .send(
            &ListMarkets {
                limit: Some(5),
                ..ListMarkets::default()
            },
            &Default::default(),
        )
        .await
        .expect("markets")
        .markets
        .into_iter()
        .find_map(|m| m.category)
        .expect("a market with a category");
    let expected: Vec<String> = client
        .send(
            &ListMarkets {
                limit: Some(predmarket_web::api::PAGE_SIZE),
                category: Some(category.clone()),
                ..ListMarkets::default()
            },
            &Default::default(),
        )
        .await
        .expect("filtered markets")
        .markets
        .into_iter()
        .map(|m| m.id)
        .collect();
    let history = web_sys::window()
        .expect("window")
        .history()
        .expect("history");
    let before = web_sys::window()
        .expect("window")
        .location()
        .href()
        .expect("href");
    let (root, _h) = mount(|| {
        view! { <leptos_router::components::Router><predmarket_web::pages::markets::MarketsPage /></leptos_router::components::Router> }
    });
    assert!(wait_for(&root, "#markets tbody tr", 15_000).await);
    let input = find(&root, "#filter-category").expect("the category field");
    type_into(&input, &category);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let change = web_sys::Event::new_with_event_init_dict("change", &init).expect("event");
    input.dispatch_event(&change).expect("dispatch");
    let shown = || {
        let list = root.query_selector_all("#markets tbody tr").expect("rows");
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| {
                n.unchecked_into::<web_sys::Element>()
                    .get_attribute("data-id")
            })
            .collect::<Vec<_>>()
    };
    let mut waited = 0;
    while shown() != expected && waited < 15_000 {
        sleep(50).await;
        waited += 50;
    }
    let search = web_sys::window()
        .expect("window")
        .location()
        .search()
        .expect("search");
    // Leave the runner's page as it was.
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before));
    assert_eq!(shown(), expected);
    assert!(search.contains("category="), "{search}");
}

/// Futures page by offset, `{total, limit, offset, has_more, next_offset}`
/// without a cursor (as every list of the public service's older pages
/// did): "Load more" asks for the page at `next_offset`, so the list goes
/// on with the items that follow, none twice.
#[wasm_bindgen_test]
async fn load_more_of_an_offset_paged_list_goes_on_from_next_offset() {
    use_test_server();
    let client = predmarket_web::api::client().expect("client");
    let options = Default::default();
    let leagues = client
        .send(&GetLeagueInfo::default(), &options)
        .await
        .expect("the leagues")
        .data
        .leagues()
        .to_vec();
    // Pages of three, so a league with six futures has a second page.
    let mut found = None;
    for league in &leagues {
        let request = ListFutures {
            limit: Some(3),
            ..ListFutures::new(League::from(league.id.as_str()))
        };
        let first = client.send(&request, &options).await.expect("futures");
        let total = first.data.pagination.as_ref().and_then(|p| p.total);
        if total.is_some_and(|t| t >= 6.0) {
            found = Some((request, first));
            break;
        }
    }
    let (request, first) = found.expect("a league with six futures or more");
    let pagination = first.data.pagination.clone().expect("pagination");
    assert_eq!(pagination.next_offset, Some(3.0), "{pagination:?}");
    // What the page at next_offset holds, asked for directly.
    let second = client
        .send(
            &ListFutures {
                offset: Some(3),
                ..request.clone()
            },
            &options,
        )
        .await
        .expect("the second page");
    let expected: Vec<String> = first
        .data
        .futures
        .iter()
        .chain(&second.data.futures)
        .map(|f| f.id.clone())
        .collect();
    assert_eq!(expected.len(), 6);

    let loaded = api::load_pages(request, 1, &Default::default())
        .await
        .expect("the first page");
    let (root, _h) = mount(move || {
        view! {
            <PagedResults
                loaded
                inflight=Inflight::new()
                noun="futures"
                empty={|| view! { <p class="empty">"No futures."</p> }}
                table={|items: Signal<Vec<Future>>| {
                    let outrights = Signal::derive(move || {
                        items.with(|all| all.iter().map(Outright::from).collect::<Vec<_>>())
                    });
                    view! { <OutrightTable outrights id="futures" caption="Futures" /> }
                }}
            />
        }
    });
    let shown = || {
        let rows = root
            .query_selector_all("#futures tbody tr[data-id]")
            .expect("rows");
        (0..rows.length())
            .filter_map(|i| rows.item(i))
            .filter_map(|n| {
                n.unchecked_into::<web_sys::Element>()
                    .get_attribute("data-id")
            })
            .collect::<Vec<_>>()
    };
    assert!(eventually(15_000, || shown().len() == 3).await);
    find(&root, ".load-more button").expect("load more").click();
    assert!(
        eventually(15_000, || shown().len() >= 6).await,
        "the second page arrives"
    );
    assert_eq!(shown(), expected, "the page at next_offset, in order");
}
