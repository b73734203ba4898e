//! The odds board: best prices, arbitrage, fair probabilities and the
//! prices that moved.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::OddsFormat;
use predmarket_client::core::odds::Quote;
use predmarket_web::components::{Board, OddsBoard};
use wasm_bindgen_test::*;

use super::support::*;

fn arbitrage_quotes() -> Vec<Quote> {
    // Best prices 2.2 (A) and 2.1 (B): 1/2.2 + 1/2.1 = 0.931 < 1.
    vec![
        quote("Home", "north", 2.2),
        quote("Away", "north", 1.7),
        quote("Home", "south", 1.9),
        quote("Away", "south", 2.1),
    ]
}

#[wasm_bindgen_test]
async fn a_live_odds_board_marks_the_prices_that_moved() {
    let mut before = arbitrage_quotes();
    before[1].decimal = 1.8; // Away on north moved from 1.8 to 1.7
    before.pop(); // Away on south is new
    let (root, _h) = mount(move || {
        view! { <OddsBoard quotes=arbitrage_quotes() format=OddsFormat::Decimal caption="Moneyline" before=Some(before.clone()) /> }
    });
    tick().await;
    assert_eq!(count(&root, "td.changed"), 2);
    assert!(
        find(
            &root,
            r#"tr[data-outcome="away"] td.changed[data-platform="north"]"#
        )
        .is_some()
    );
    assert!(
        find(
            &root,
            r#"tr[data-outcome="away"] td.changed[data-platform="south"]"#
        )
        .is_some()
    );
    assert!(find(&root, r#"tr[data-outcome="home"] td.changed"#).is_none());
}

#[wasm_bindgen_test]
async fn odds_board_highlights_best_prices_and_flags_the_arbitrage() {
    let format = RwSignal::new(OddsFormat::Decimal);
    let (root, _h) =
        mount(move || view! { <OddsBoard quotes=arbitrage_quotes() format caption="Moneyline" /> });
    tick().await;
    assert_eq!(count(&root, "tbody tr"), 2);
    assert_eq!(count(&root, "td.best"), 2);
    assert!(text(&root, r#"tr[data-outcome="home"] td.best"#).starts_with("2.20"));
    assert_eq!(
        find(&root, r#"tr[data-outcome="home"] td.best"#)
            .and_then(|e| e.get_attribute("data-platform"))
            .as_deref(),
        Some("north")
    );
    assert!(text(&root, r#"tr[data-outcome="away"] td.best"#).starts_with("2.10"));
    let flag = find(&root, ".arb.found").expect("an arbitrage");
    assert!(flag.text_content().unwrap_or_default().contains("93.1%"));
    assert_eq!(count(&root, ".arb .legs li"), 2);
    // The switch re-renders every cell in the chosen notation.
    format.set(OddsFormat::American);
    tick().await;
    assert!(text(&root, r#"tr[data-outcome="home"] td.best"#).starts_with("+120"));
    format.set(OddsFormat::Probability);
    tick().await;
    assert!(text(&root, r#"tr[data-outcome="home"] td.best"#).starts_with("45.5%"));
}

#[wasm_bindgen_test]
async fn odds_board_without_arbitrage_shows_fair_probabilities() {
    let quotes = vec![
        quote("Home", "north", 1.8),
        quote("Away", "north", 2.0),
        quote("Home", "south", 1.75),
        quote("Away", "south", 2.05),
    ];
    let board = Board::new(&quotes, None);
    let fair_sum: f64 = board.fair.values().sum();
    assert!((fair_sum - 1.0).abs() < 1e-9);
    let (root, _h) = mount(
        move || view! { <OddsBoard quotes format=OddsFormat::Decimal caption="Moneyline" /> },
    );
    tick().await;
    assert!(find(&root, ".arb.none").is_some());
    assert!(find(&root, ".arb.found").is_none());
    assert_eq!(count(&root, "td.fair"), 2);
    assert_eq!(count(&root, "tfoot td.num"), 2, "each platform's margin");
}

#[wasm_bindgen_test]
async fn an_unpriced_required_outcome_rules_out_arbitrage() {
    let required = vec!["home".to_owned(), "away".to_owned(), "draw".to_owned()];
    let (root, _h) = mount(
        move || view! { <OddsBoard quotes=arbitrage_quotes() format=OddsFormat::Decimal caption="1X2" required /> },
    );
    tick().await;
    assert!(
        find(&root, ".arb.found").is_none(),
        "a draw nobody prices could lose every stake"
    );
}
