//! The order book's views: the depth chart, the live ladder and the cost
//! calculator that walks the book.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::orderbook::Book;
use predmarket_web::components::{CostCalculator, DepthChart, OrderbookLadder};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;

// The depth chart.

#[wasm_bindgen_test]
async fn depth_chart_draws_both_sides_and_the_mid() {
    let book = Book::from_levels(
        &[level(0.48, 100.0), level(0.47, 50.0), level(0.45, 300.0)],
        &[level(0.50, 80.0), level(0.52, 120.0)],
    );
    let curve = book.depth_curve();
    let mid = book.mid();
    let (root, _h) = mount(move || view! { <DepthChart curve mid=mid /> });
    tick().await;
    let bids = find(&root, "path.bids").expect("bids");
    let asks = find(&root, "path.asks").expect("asks");
    let d = bids.get_attribute("d").unwrap_or_default();
    assert!(d.starts_with('M') && d.ends_with('Z'));
    // One vertical step per level: M + L to the first size, 2 L per further level, 3 to close.
    assert_eq!(d.matches('L').count(), 1 + 2 * 2 + 2);
    assert!(asks.get_attribute("d").unwrap_or_default().starts_with('M'));
    assert!(find(&root, "line.mid").is_some());
    let label = find(&root, "svg")
        .and_then(|s| s.get_attribute("aria-label"))
        .unwrap_or_default();
    assert!(
        label.contains("3 bid levels") && label.contains("2 ask levels"),
        "{label}"
    );
    assert!(
        text(&root, ".depth-max").contains("450"),
        "the deepest side: 450 shares"
    );
}

#[wasm_bindgen_test]
async fn depth_chart_of_an_empty_book_says_so() {
    let (root, _h) = mount(|| view! { <DepthChart curve=Book::default().depth_curve() /> });
    tick().await;
    assert!(find(&root, "svg").is_none());
    assert!(text(&root, ".empty").contains("No resting orders"));
}

// The live ladder.

#[wasm_bindgen_test]
async fn a_live_ladder_marks_the_levels_new_or_resized_since_the_last_book() {
    let before = calculator_book();
    // 28¢ resized, 26¢ new, 25¢ unchanged; 30¢ unchanged, 35¢ gone, 36¢ new.
    let now = Book::from_levels(
        &[level(0.28, 150.0), level(0.26, 50.0), level(0.25, 400.0)],
        &[level(0.30, 100.0), level(0.36, 10.0)],
    );
    let (root, _h) = mount(move || {
        view! { <OrderbookLadder book=now.clone() outcome="Yes" before=Some(before.clone()) /> }
    });
    tick().await;
    let changed = |side: &str| {
        root.query_selector_all(&format!("table.levels tr.{side}.changed td.price"))
            .map(|list| {
                (0..list.length())
                    .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    assert_eq!(changed("bid"), ["28¢", "26¢"]);
    assert_eq!(changed("ask"), ["36¢"]);
}

#[wasm_bindgen_test]
async fn the_first_book_of_a_live_ladder_marks_nothing() {
    let (root, _h) =
        mount(|| view! { <OrderbookLadder book=calculator_book() outcome="Yes" before=None /> });
    tick().await;
    assert!(find(&root, "table.levels tr.bid").is_some());
    assert!(find(&root, "tr.changed").is_none());
}

// The cost calculator.

fn calculator_book() -> Book {
    Book::from_levels(
        &[level(0.28, 100.0), level(0.25, 400.0)],
        &[level(0.30, 100.0), level(0.35, 200.0)],
    )
}

#[wasm_bindgen_test]
async fn calculator_walks_the_asks_for_a_buy() {
    let (root, _h) = mount(|| view! { <CostCalculator book=calculator_book() outcome="Yes" /> });
    tick().await;
    assert_eq!(text(&root, ".cost"), "$30.00", "100 shares at the best ask");
    assert_eq!(text(&root, ".vwap"), "30¢");
    let input = find(&root, "input.shares").expect("input");
    type_into(&input, "250");
    tick().await;
    // 100 × 0.30 + 150 × 0.35 = 82.50, average 33¢, 3¢ worse than the best.
    assert_eq!(text(&root, ".cost"), "$82.50");
    assert_eq!(text(&root, ".vwap"), "33¢");
    assert!(text(&root, ".slippage").starts_with("3¢"));
    assert!(find(&root, ".partial").is_none());
    type_into(&input, "1000");
    tick().await;
    assert!(
        text(&root, ".partial").contains("Only 300 of 1,000"),
        "{}",
        text(&root, ".partial")
    );
    type_into(&input, "abc");
    tick().await;
    assert!(find(&root, ".cost").is_none());
}

#[wasm_bindgen_test]
async fn calculator_walks_the_bids_for_a_sell() {
    let (root, _h) =
        mount(|| view! { <CostCalculator book=calculator_book() outcome="Yes" shares=200.0 /> });
    tick().await;
    let sell = root
        .query_selector_all(".segmented button")
        .expect("buttons")
        .item(1)
        .expect("sell");
    sell.unchecked_ref::<web_sys::HtmlElement>().click();
    tick().await;
    // 100 × 0.28 + 100 × 0.25 = 53.00.
    assert_eq!(text(&root, ".cost"), "$53.00");
    assert!(
        find(&root, ".payout").is_none(),
        "no payout line for a sale"
    );
}
