//! "On other platforms" against the reference server, whose generated data
//! holds cross-platform pairs with known answers: a coin asked on two
//! platforms the same way, with YES and NO swapped, and on a platform
//! that publishes no order book.

use leptos::prelude::*;
use predmarket_client::core::models::Market;
use predmarket_client::core::request::ListMarkets;
use predmarket_web::api::Directory;
use wasm_bindgen_test::*;

use super::support::*;

/// The two markets of a generated subject, found by its name.
async fn pair_of(subject: &str) -> Vec<Market> {
    let request = ListMarkets {
        query: Some(subject.to_owned()),
        limit: Some(10),
        ..ListMarkets::default()
    };
    let markets = predmarket_web::api::client()
        .expect("client")
        .send(&request, &Default::default())
        .await
        .expect("a search")
        .markets;
    assert_eq!(markets.len(), 2, "{subject} is asked on two platforms");
    markets
}

/// Mounts the market page of `id` with the app's directory, scrolls to
/// its "On other platforms" card, and waits for `other` to be listed.
async fn counterpart_on_page(
    id: String,
    other: &str,
) -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    let (root, handle) = mount(move || {
        Directory::provide();
        view! { <leptos_router::components::Router><predmarket_web::pages::market::MarketPage id=id.clone() /></leptos_router::components::Router> }
    });
    let card = r#"article[aria-labelledby="venues-h"]"#;
    assert!(wait_for(&root, card, 15_000).await, "the card");
    if let Some(card) = find(&root, card) {
        card.scroll_into_view();
    }
    let row = format!(r#"li.venue[data-id="{other}"]"#);
    assert!(wait_for(&root, &row, 15_000).await, "{other} is listed");
    (root, Box::new(handle))
}

#[wasm_bindgen_test]
async fn a_market_shows_its_counterparts_relation_reasons_and_net_gap() {
    if !use_test_server() {
        return;
    }
    // The same question on two platforms that publish books, closing at
    // the same time from the same source: firm, a net gap without "if".
    let quark = pair_of("quarkcoin").await;
    let (id, other) = (quark[0].id.clone(), quark[1].id.clone());
    let (root, _h) = counterpart_on_page(id, &other).await;
    let row = format!(r#"li.venue[data-id="{other}"]"#);
    let li = find(&root, &row).expect("row");
    assert_eq!(li.get_attribute("data-relation").as_deref(), Some("same"));
    assert_eq!(text(&li, ".relation"), "same");
    assert!(count(&li, ".reasons li") >= 2, "reasons are listed");
    let reasons = text(&li, ".reasons");
    assert!(reasons.contains("Threshold"), "{reasons}");
    assert!(reasons.contains("Date"), "{reasons}");
    assert!(
        wait_for(&li, ".net-gap", 15_000).await,
        "a net gap from both books"
    );
    let gap = text(&li, ".net-gap");
    assert!(gap.contains("Net gap at size 100"), "{gap}");
    assert!(gap.contains("quote"), "the quotes' ages: {gap}");
    assert!(find(&li, ".conditional").is_none(), "{gap}");
    // Another size is priced again from the books in hand.
    type_into(&find(&root, "#venue-size").expect("size"), "40");
    assert!(
        eventually(5_000, || text(&li, ".net-gap")
            .contains("Net gap at size 40"))
        .await,
        "the size is applied"
    );
    drop(_h);

    // YES here is NO there.
    let photon = pair_of("photoncoin").await;
    let (id, other) = (photon[0].id.clone(), photon[1].id.clone());
    let (root, _h) = counterpart_on_page(id, &other).await;
    let li = find(&root, &format!(r#"li.venue[data-id="{other}"]"#)).expect("row");
    assert_eq!(
        li.get_attribute("data-relation").as_deref(),
        Some("inverted")
    );
    assert!(text(&li, ".reasons").contains("Outcome mapping"));
    drop(_h);

    // One side's platform publishes no order book: said, not asked for.
    let nebula = pair_of("nebulacoin").await;
    let (id, other) = (nebula[0].id.clone(), nebula[1].id.clone());
    let (root, _h) = counterpart_on_page(id, &other).await;
    let li = find(&root, &format!(r#"li.venue[data-id="{other}"]"#)).expect("row");
    assert_eq!(li.get_attribute("data-relation").as_deref(), Some("same"));
    assert!(
        wait_for(&li, ".gap-skipped", 15_000).await,
        "the gap is skipped"
    );
    let skipped = text(&li, ".gap-skipped");
    assert!(
        skipped.contains("does not publish order books"),
        "{skipped}"
    );
}
