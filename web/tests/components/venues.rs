//! "On other platforms" against the reference server, whose generated data
//! holds cross-platform pairs with known answers: a coin asked on two
//! platforms the same way, with YES and NO swapped, and on a platform
//! that publishes no order book; look-alikes that differ by a day or a
//! price band. The market, event and series pages' "On other platforms",
//! and the cross-platform view of a filter's markets.

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
    use_test_server();
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

/// Markets a search of the reference server finds (the page's own search
/// is one such request).
async fn search(query: &str, limit: u32) -> Vec<Market> {
    let request = ListMarkets {
        query: Some(query.to_owned()),
        limit: Some(limit),
        ..ListMarkets::default()
    };
    predmarket_web::api::client()
        .expect("client")
        .send(&request, &Default::default())
        .await
        .expect("a search")
        .markets
}

/// A market of `found` and one of another platform asking it word for
/// word (the generator's daily coin closes are listed on two platforms),
/// the first market having `group` (its event or series id).
fn twins(found: &[Market], group: impl Fn(&Market) -> Option<String>) -> Vec<(Market, Market)> {
    found
        .iter()
        .filter(|m| group(m).is_some() && m.title.is_some())
        .filter_map(|m| {
            let twin = found
                .iter()
                .find(|o| o.platform != m.platform && o.title == m.title)?;
            Some((m.clone(), twin.clone()))
        })
        .collect()
}

/// Scrolls to the "On other platforms" card of a mounted page and waits
/// for `other` to be listed in it.
async fn listed_on_card(root: &web_sys::HtmlElement, other: &str) -> web_sys::HtmlElement {
    let card = r#"section[aria-labelledby="venues-h"]"#;
    assert!(wait_for(root, card, 15_000).await, "the card");
    if let Some(card) = find(root, card) {
        card.scroll_into_view();
    }
    let row = format!(r#"li.venue[data-id="{other}"]"#);
    assert!(wait_for(root, &row, 15_000).await, "{other} is listed");
    find(root, &row).expect("row")
}

#[wasm_bindgen_test]
async fn an_event_page_lists_its_markets_counterparts() {
    use_test_server();
    use predmarket_client::core::request::GetEvent;
    let client = predmarket_web::api::client().expect("client");
    // An event with a market another platform asks word for word, among
    // what the page's own search of the event's subject finds.
    let found = search("bitcoin", 50).await;
    let mut chosen = None;
    for (mine, twin) in twins(&found, |m| m.event_id.clone()) {
        let id = mine.event_id.clone().expect("an event");
        let event = client
            .send(
                &GetEvent {
                    id: id.clone(),
                    include_nested: Some(true),
                    ..GetEvent::default()
                },
                &Default::default(),
            )
            .await
            .expect("the event")
            .events
            .into_iter()
            .next()
            .expect("one event");
        let mut subject = Market::new(event.id.clone());
        subject.title = event.title.clone();
        subject.trading_end_at = event.event_end_at.clone();
        let Some(text) = predmarket_web::components::search_text(&subject) else {
            continue;
        };
        let searched = search(&text, 50).await;
        let has_own = event
            .markets
            .as_deref()
            .unwrap_or_default()
            .iter()
            .any(|m| m.id == mine.id);
        if has_own && searched.iter().any(|m| m.id == twin.id) {
            chosen = Some((id, twin.id));
            break;
        }
    }
    let (event, twin) = chosen.expect("an event with a counterpart its search finds");
    let (root, _h) = mount(move || {
        Directory::provide();
        view! { <leptos_router::components::Router><predmarket_web::pages::group::EventPage id=event.clone() /></leptos_router::components::Router> }
    });
    let li = listed_on_card(&root, &twin).await;
    assert_eq!(li.get_attribute("data-relation").as_deref(), Some("same"));
    assert!(count(&li, ".reasons li") >= 2, "reasons are listed");
    // An event has several markets: the row says which one it is about.
    assert!(text(&li, ".venue-own").starts_with("For "));
}

#[wasm_bindgen_test]
async fn a_series_page_lists_its_markets_counterparts() {
    use_test_server();
    use predmarket_client::core::request::GetSeries;
    let client = predmarket_web::api::client().expect("client");
    let found = search("bitcoin", 50).await;
    let mut chosen = None;
    for (mine, twin) in twins(&found, |m| m.series_id.clone()) {
        let id = mine.series_id.clone().expect("a series");
        let series = client
            .send(
                &GetSeries {
                    id: id.clone(),
                    ..GetSeries::default()
                },
                &Default::default(),
            )
            .await
            .expect("the series")
            .series
            .into_iter()
            .next()
            .expect("one series");
        let mut subject = Market::new(series.id.clone());
        subject.title = series.title.clone();
        let Some(text) = predmarket_web::components::search_text(&subject) else {
            continue;
        };
        // The page compares the series' first 100 markets.
        let own = client
            .send(
                &ListMarkets {
                    series_id: Some(id.clone()),
                    limit: Some(100),
                    ..ListMarkets::default()
                },
                &Default::default(),
            )
            .await
            .expect("the series' markets")
            .markets;
        let searched = search(&text, 50).await;
        if own.iter().any(|m| m.id == mine.id) && searched.iter().any(|m| m.id == twin.id) {
            chosen = Some((id, twin.id));
            break;
        }
    }
    let (series, twin) = chosen.expect("a series with a counterpart its search finds");
    let (root, _h) = mount(move || {
        Directory::provide();
        view! { <leptos_router::components::Router><predmarket_web::pages::group::SeriesPage id=series.clone() /></leptos_router::components::Router> }
    });
    let li = listed_on_card(&root, &twin).await;
    assert_eq!(li.get_attribute("data-relation").as_deref(), Some("same"));
    assert!(count(&li, ".reasons li") >= 2, "reasons are listed");
}

/// The row of the pair of markets `x` and `y`, in either order.
fn pair_row(root: &web_sys::HtmlElement, x: &str, y: &str) -> Option<web_sys::HtmlElement> {
    find(root, &format!(r#"li.pair[data-a="{x}"][data-b="{y}"]"#))
        .or_else(|| find(root, &format!(r#"li.pair[data-a="{y}"][data-b="{x}"]"#)))
}

/// Shows every pair of the relations ticked ("show more" until none are
/// left out).
async fn every_row(root: &web_sys::HtmlElement) {
    for _ in 0..100 {
        let Some(more) = find(root, "button.more-pairs") else {
            return;
        };
        let before = count(root, "li.pair");
        more.click();
        assert!(
            eventually(5_000, || count(root, "li.pair") > before).await,
            "more rows"
        );
    }
}

/// Clicks a checkbox of the relation filter as a user would.
fn tick(root: &web_sys::HtmlElement, selector: &str) {
    find(root, selector).expect("the checkbox").click();
}

#[wasm_bindgen_test]
async fn the_cross_platform_view_lists_the_pairs_of_the_filters() {
    use_test_server();
    let client = predmarket_web::api::client().expect("client");
    let total = client
        .send(
            &ListMarkets {
                category: Some("Crypto".into()),
                limit: Some(1),
                ..ListMarkets::default()
            },
            &Default::default(),
        )
        .await
        .expect("the filter's count")
        .pagination
        .and_then(|p| p.total)
        .expect("a total") as usize;
    assert!(total > 250, "more than a page of 250: {total}");
    let quark = pair_of("quarkcoin").await;
    let photon = pair_of("photoncoin").await;
    let nebula = pair_of("nebulacoin").await;
    // Look-alikes: one day apart, and price bands that do not nest.
    let zephyr = pair_of("zephyrcash").await;
    let tessel = pair_of("tesselcash").await;

    let window = web_sys::window().expect("window");
    let history = window.history().expect("history");
    let before = window.location().href().expect("href");
    let _ =
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?category=Crypto"));
    let (root, _h) = mount(move || {
        Directory::provide();
        view! { <leptos_router::components::Router><predmarket_web::pages::venues::VenuesPage /></leptos_router::components::Router> }
    });
    {
        assert!(
            wait_for(&root, ".load-more .count", 15_000).await,
            "the count"
        );
        let first = text(&root, ".load-more .count");
        assert!(first.starts_with("Showing 250 of "), "{first}");
        // "Load more" until every market of the filter is compared.
        for _ in 0..total.div_ceil(250) {
            let Some(more) = find(&root, ".load-more button") else {
                break;
            };
            let before = text(&root, ".load-more .count");
            more.click();
            assert!(
                eventually(15_000, || text(&root, ".load-more .count") != before).await,
                "a page more"
            );
        }
        let all = text(&root, ".load-more .count");
        assert!(
            all.starts_with(&format!("Showing {} of ", format_count(total))),
            "{all}"
        );
        assert!(find(&root, ".load-more button").is_none(), "{all}");
        every_row(&root).await;

        let firm = pair_row(&root, &quark[0].id, &quark[1].id).expect("the quarkcoin pair");
        assert_eq!(firm.get_attribute("data-relation").as_deref(), Some("same"));
        let reasons = text(&firm, ".reasons");
        assert!(count(&firm, ".reasons li") >= 2, "{reasons}");
        assert!(reasons.contains("Threshold"), "{reasons}");
        assert!(reasons.contains("Date"), "{reasons}");
        // Both markets are linked.
        assert_eq!(count(&firm, "a[href*='/markets/']"), 2);
        let swapped = pair_row(&root, &photon[0].id, &photon[1].id).expect("the photoncoin pair");
        assert_eq!(
            swapped.get_attribute("data-relation").as_deref(),
            Some("inverted")
        );
        assert!(text(&swapped, ".reasons").contains("Outcome mapping"));

        // Look-alikes are not listed by default, and never as the same.
        for pair in [&zephyr, &tessel] {
            assert!(pair_row(&root, &pair[0].id, &pair[1].id).is_none());
        }
        tick(&root, "#rel-different");
        assert!(
            eventually(5_000, || find(
                &root,
                r#"li.pair[data-relation="different"]"#
            )
            .is_some())
            .await,
            "look-alikes listed"
        );
        every_row(&root).await;
        for pair in [&zephyr, &tessel] {
            let (x, y) = (pair[0].id.clone(), pair[1].id.clone());
            assert!(
                eventually(5_000, || pair_row(&root, &x, &y).is_some()).await,
                "the look-alike {x} / {y} is listed with the different ones"
            );
            let row = pair_row(&root, &x, &y).expect("row");
            assert_eq!(
                row.get_attribute("data-relation").as_deref(),
                Some("different")
            );
            assert!(count(&row, ".reasons li") >= 1);
        }
        let search = web_sys::window()
            .expect("window")
            .location()
            .search()
            .expect("search");
        assert!(
            search.contains("rel=same%2Cinverted%2Cdifferent")
                || search.contains("rel=same,inverted,different"),
            "{search}"
        );
        // Unticking "same" leaves the inverted pair.
        tick(&root, "#rel-same");
        assert!(
            eventually(5_000, || pair_row(&root, &quark[0].id, &quark[1].id)
                .is_none())
            .await,
            "same pairs hidden"
        );
        assert!(pair_row(&root, &photon[0].id, &photon[1].id).is_some());
        tick(&root, "#rel-same");
        every_row(&root).await;

        // The net gap on request, from both books where both publish one.
        assert!(
            eventually(5_000, || pair_row(&root, &quark[0].id, &quark[1].id)
                .is_some())
            .await
        );
        let firm = pair_row(&root, &quark[0].id, &quark[1].id).expect("row");
        assert!(find(&firm, ".net-gap").is_none(), "not priced unasked");
        find(&firm, "button.price-gap").expect("the button").click();
        assert!(wait_for(&firm, ".net-gap", 15_000).await, "a net gap");
        assert!(text(&firm, ".net-gap").contains("Net gap at size 100"));
        let skipped = pair_row(&root, &nebula[0].id, &nebula[1].id).expect("the nebulacoin pair");
        find(&skipped, "button.price-gap")
            .expect("the button")
            .click();
        assert!(wait_for(&skipped, ".gap-skipped", 15_000).await);
        assert!(text(&skipped, ".gap-skipped").contains("does not publish order books"));
    }
    // Leave the runner's page as it was.
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before));
}

/// A count as the page writes it (thousands separated).
fn format_count(n: usize) -> String {
    predmarket_web::format::integer(Some(n as f64))
}
