//! Lists: the items that could not be read and the platforms that failed.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::{MarketsResponse, SkippedItem};
use predmarket_client::core::request::ListMarkets;
use predmarket_web::api::{Inflight, Loaded, Unread};
use predmarket_web::components::{MarketTable, PagedResults, UnreadNotice};
use wasm_bindgen_test::*;

use super::support::*;

// The items that could not be read.

/// A first page of markets as the core decodes it: two good items, two
/// that cannot be read (no id; not an object).
fn markets_page_with_bad_items() -> Loaded<ListMarkets> {
    let page: MarketsResponse = serde_json::from_value(serde_json::json!({
        "markets": [
            {"id": "m1", "title": "First"},
            {"title": "No id"},
            {"id": "m3", "title": "Third"},
            42
        ],
        "pagination": {"total": 4, "has_more": false}
    }))
    .expect("a page that keeps its readable items");
    Loaded::from_first_page(ListMarkets::default(), page).expect("the page")
}

#[wasm_bindgen_test]
async fn a_list_says_how_many_items_it_could_not_read_and_why() {
    let (root, _h) = mount(|| {
        let loaded = markets_page_with_bad_items();
        view! {
            <PagedResults
                loaded
                inflight=Inflight::new()
                noun="markets"
                empty={|| view! { <p class="empty">"No markets."</p> }}
                table={|markets| view! { <MarketTable markets caption="Markets" id="markets" /> }}
            />
        }
    });
    tick().await;
    assert_eq!(
        count(&root, "#markets tbody tr"),
        2,
        "the readable items stay"
    );
    let notice = find(&root, ".unread-notice").expect("a notice");
    assert_eq!(notice.get_attribute("role").as_deref(), Some("status"));
    let headline = text(&root, ".unread-notice strong");
    assert_eq!(
        headline,
        "2 of the markets the service sent could not be read and are left out."
    );
    assert!(find(&root, ".unread-notice details").is_some());
    assert_eq!(count(&root, ".unread-notice li"), 2);
    let reasons = text(&root, ".unread-notice ul");
    assert!(
        reasons.contains("Page 1, item 2:") && reasons.contains("Page 1, item 4:"),
        "{reasons}"
    );
}

#[wasm_bindgen_test]
async fn a_list_with_every_item_unreadable_is_not_called_empty_silently() {
    let (root, _h) = mount(|| {
        let page: MarketsResponse = serde_json::from_value(serde_json::json!({
            "markets": [{"title": "No id"}]
        }))
        .expect("a page");
        let loaded = Loaded::from_first_page(ListMarkets::default(), page).expect("the page");
        view! {
            <PagedResults
                loaded
                inflight=Inflight::new()
                noun="markets"
                empty={|| view! { <p class="empty">"No markets."</p> }}
                table={|markets| view! { <MarketTable markets caption="Markets" /> }}
            />
        }
    });
    tick().await;
    assert_eq!(
        text(&root, ".unread-notice strong"),
        "1 of the markets the service sent could not be read and is left out."
    );
    assert_eq!(text(&root, "p.empty"), "No markets.");
}

#[wasm_bindgen_test]
async fn unread_reasons_are_text_and_a_clean_list_says_nothing() {
    let hostile = "<img src=x onerror=alert(1)><b>bold</b>";
    let unread = vec![Unread {
        page: 3,
        item: SkippedItem {
            index: 0,
            reason: format!("title: {hostile}{}", "x".repeat(500)),
        },
    }];
    let (root, _h) = mount(move || {
        view! {
            <UnreadNotice unread=Signal::stored(unread) noun="trades" />
            <div id="clean"><UnreadNotice unread=Signal::stored(Vec::new()) noun="trades" /></div>
        }
    });
    tick().await;
    assert!(find(&root, ".unread-notice img").is_none());
    assert!(find(&root, ".unread-notice b").is_none());
    let reason = text(&root, ".unread-notice li");
    assert!(
        reason.starts_with("Page 3, item 1: title: <img"),
        "{reason}"
    );
    assert!(
        reason.ends_with('…') && reason.chars().count() < 300,
        "{reason}"
    );
    assert!(find(&root, "#clean .unread-notice").is_none());
}

// The platforms that failed.

#[wasm_bindgen_test]
async fn a_market_list_shows_the_platforms_that_failed() {
    // `meta.platform_errors` of a market list, read through core's ListMeta.
    let page: MarketsResponse = serde_json::from_value(serde_json::json!({
        "markets": [{"id": "m1", "title": "First"}],
        "pagination": {"total": 1, "has_more": false},
        "meta": {"platform_errors": {"west": {"code": "PLATFORM_UNAVAILABLE", "message": "west did not answer"}}}
    }))
    .expect("a page with platform errors");
    let (root, _h) = mount(move || {
        let loaded = Loaded::from_first_page(ListMarkets::default(), page).expect("the page");
        view! {
            <PagedResults
                loaded
                inflight=Inflight::new()
                noun="markets"
                empty={|| view! { <p class="empty">"No markets."</p> }}
                table={|markets| view! { <MarketTable markets caption="Markets" id="markets" /> }}
            />
        }
    });
    tick().await;
    let warning = find(&root, ".platform-warnings").expect("the warning");
    assert_eq!(warning.get_attribute("role").as_deref(), Some("status"));
    assert_eq!(
        find(&root, ".platform-warnings li")
            .and_then(|li| li.get_attribute("data-platform"))
            .as_deref(),
        Some("west")
    );
    assert!(text(&root, ".platform-warnings li").contains("west did not answer"));
    assert_eq!(count(&root, "#markets tbody tr"), 1, "the rest is served");
}
