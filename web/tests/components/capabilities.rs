//! Capabilities read at run time: a page about a market or a user of a
//! platform whose `/platforms` entry says it publishes no order book,
//! trades, price history or profiles asks for none of them (no request,
//! no resource on the tab's stream) and says so, against the reference
//! server, whose platforms differ in what they publish. Platforms are
//! chosen by their features, never by their labels.

use leptos::prelude::*;
use predmarket_client::core::models::{Platform, PlatformFeatures};
use predmarket_client::core::request::{ListMarkets, ListPlatforms};
use predmarket_web::api::Directory;
use wasm_bindgen_test::*;

use super::support::*;

/// A platform that lists markets and whose features pass `wanted`.
async fn platform_where(wanted: impl Fn(&PlatformFeatures) -> bool) -> String {
    let platforms: Vec<Platform> = predmarket_web::api::client()
        .expect("client")
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    platforms
        .into_iter()
        .find(|p| {
            p.endpoints
                .as_ref()
                .and_then(|e| e.is_available("markets"))
                .unwrap_or(false)
                && p.features.as_ref().is_some_and(&wanted)
        })
        .map(|p| p.id)
        .expect("the server has such a platform")
}

/// The id of one market of `platform`.
async fn a_market_of(platform: &str) -> String {
    let request = ListMarkets {
        platform: Some(platform.into()),
        limit: Some(1),
        ..ListMarkets::default()
    };
    predmarket_web::api::client()
        .expect("client")
        .send(&request, &Default::default())
        .await
        .expect("a market")
        .markets
        .into_iter()
        .next()
        .expect("one market")
        .id
}

/// A watch of the tab's stream as it appears in the stream's URL.
fn on_stream(kind: &str, id: &str) -> String {
    String::from(js_sys::encode_uri_component(&format!("{kind}:{id}")))
}

/// Mounts the market page of `id` with the app's directory, and scrolls
/// its trades card into view (trades are asked for only then).
async fn market_page(id: String) -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    let (root, handle) = mount(move || {
        Directory::provide();
        view! { <leptos_router::components::Router><predmarket_web::pages::market::MarketPage id=id.clone() /></leptos_router::components::Router> }
    });
    let card = r#"article[aria-labelledby="trades-h"]"#;
    assert!(wait_for(&root, card, 15_000).await, "the trades card");
    if let Some(card) = find(&root, card) {
        card.scroll_into_view();
    }
    (root, Box::new(handle))
}

/// The text of the card headed by `heading` (an `aria-labelledby` id).
fn card(root: &web_sys::HtmlElement, heading: &str) -> String {
    text(root, &format!(r#"article[aria-labelledby="{heading}"]"#))
}

#[wasm_bindgen_test]
async fn a_market_without_book_trades_or_history_asks_for_none_and_says_so() {
    use_test_server();
    let platform = platform_where(|f| {
        f.orderbook == Some(false) && f.trades == Some(false) && f.historical_data == Some(false)
    })
    .await;
    let id = a_market_of(&platform).await;
    let log = FetchLog::start();
    let (root, _h) = market_page(id.clone()).await;
    for (heading, what) in [
        ("book-h", "does not publish order books"),
        ("history-h", "does not publish price history"),
        ("trades-h", "does not publish trades"),
    ] {
        assert!(
            eventually(15_000, || card(&root, heading).contains(what)).await,
            "{heading}: {}",
            card(&root, heading)
        );
    }
    // The market's own prices are followed on the tab's stream: once that
    // stream is asked for, its list of resources is the page's.
    let market = on_stream("market", &id);
    assert!(
        eventually(15_000, || !log.asked(&market).is_empty()).await,
        "the market is followed: {:?}",
        log.urls()
    );
    for part in ["/orderbook", "/trades", "/price-history", "orderbook%3A"] {
        assert_eq!(log.asked(part), Vec::<String>::new(), "{part} was asked");
    }
    assert!(
        find(&root, "table.levels").is_none() && find(&root, "#trades").is_none(),
        "no book or tape drawn"
    );
}

#[wasm_bindgen_test]
async fn a_market_with_a_book_and_history_but_no_trades_asks_for_those_two_only() {
    use_test_server();
    let platform = platform_where(|f| {
        f.orderbook == Some(true) && f.historical_data == Some(true) && f.trades == Some(false)
    })
    .await;
    let id = a_market_of(&platform).await;
    let log = FetchLog::start();
    let (root, _h) = market_page(id.clone()).await;
    assert!(
        eventually(15_000, || card(&root, "trades-h")
            .contains("does not publish trades"))
        .await,
        "{}",
        card(&root, "trades-h")
    );
    assert!(
        wait_for(&root, "table.levels tbody tr", 15_000).await,
        "the book is drawn"
    );
    assert!(
        wait_for(&root, ".price-chart path.line", 15_000).await,
        "the history is drawn"
    );
    // The book comes through the tab's stream (or, without one, its own
    // request); the history by its request.
    let book = on_stream("orderbook", &id);
    assert!(
        !log.asked(&book).is_empty() || !log.asked("/orderbook").is_empty(),
        "the book was asked: {:?}",
        log.urls()
    );
    assert!(!log.asked("/price-history").is_empty(), "{:?}", log.urls());
    assert_eq!(log.asked("/trades"), Vec::<String>::new());
}

#[wasm_bindgen_test]
async fn a_profile_of_a_platform_without_profiles_asks_nothing_and_says_so() {
    use_test_server();
    let platform = platform_where(|f| f.user_profiles == Some(false)).await;
    let user = "someone".to_owned();
    let log = FetchLog::start();
    let (root, _h) = mount(move || {
        Directory::provide();
        view! { <leptos_router::components::Router><predmarket_web::pages::profile::ProfilePage platform=platform.clone() user=user.clone() /></leptos_router::components::Router> }
    });
    assert!(
        eventually(15_000, || count(&root, "p.empty") == 2).await,
        "the profile and its trades both say why: {}",
        text(&root, ".profile-page")
    );
    let says = root.text_content().unwrap_or_default();
    assert_eq!(
        says.matches("does not publish user profiles").count(),
        2,
        "{says}"
    );
    assert_eq!(log.asked("/profile"), Vec::<String>::new());
}
