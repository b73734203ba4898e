//! The outrights, futures and awards: one table for both shapes.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::{Award, Future};
use predmarket_web::components::{Outright, OutrightTable};
use wasm_bindgen_test::*;

use super::support::*;

#[wasm_bindgen_test]
async fn futures_and_awards_read_into_one_table_nulls_included() {
    let future: Future = serde_json::from_value(serde_json::json!({
        "id": "nfl_champion_2026",
        "future_name": "Champion",
        "future_type": "championship",
        "season": 2026,
        "markets": [
            {"platform": "north", "market_id": "n1", "outcomes": [
                {"outcome_name": "Kansas City", "odds": {"decimal": 4.0}},
                {"outcome_name": "Buffalo", "odds": {"decimal": 5.0}}
            ]}
        ],
        "metadata": {"deadline": "2026-02-08"}
    }))
    .expect("a future");
    let award: Award = serde_json::from_value(serde_json::json!({
        "id": "nfl_mvp_2026",
        "award_name": null,
        "award_type": null,
        "season": null,
        "markets": null,
        "metadata": null
    }))
    .expect("an award with nulls");
    let outrights = vec![Outright::from(&future), Outright::from(&award)];
    let (root, _h) = mount(
        move || view! { <OutrightTable outrights id="outrights" caption="Futures and awards" /> },
    );
    tick().await;
    assert_eq!(count(&root, "#outrights tbody tr"), 2);
    let first = text(&root, r#"tr[data-id="nfl_champion_2026"]"#);
    assert!(
        first.contains("Champion") && first.contains("Kansas City") && first.contains("25.0%"),
        "{first}"
    );
    assert_eq!(
        find(&root, r#"tr[data-id="nfl_champion_2026"] a"#)
            .and_then(|a| a.get_attribute("href"))
            .as_deref(),
        Some("/app/sports/futures/nfl_champion_2026")
    );
    // Every field of the award is null: its id stands in for the name and
    // each cell says "not known".
    let second = text(&root, r#"tr[data-id="nfl_mvp_2026"]"#);
    assert!(
        second.contains("nfl_mvp_2026") && second.contains("—"),
        "{second}"
    );
    assert_eq!(
        find(&root, r#"tr[data-id="nfl_mvp_2026"] a"#)
            .and_then(|a| a.get_attribute("href"))
            .as_deref(),
        Some("/app/sports/awards/nfl_mvp_2026")
    );
}

#[wasm_bindgen_test]
async fn futures_and_awards_lists_count_their_platforms() {
    use predmarket_client::core::models::{ListAwardsResponse, ListFuturesResponse};
    let futures: ListFuturesResponse = public!("list_futures_platform_markets.json");
    let awards: ListAwardsResponse = public!("list_awards_older.json");
    let outrights: Vec<Outright> = futures
        .data
        .futures
        .iter()
        .map(Outright::from)
        .chain(awards.data.awards.iter().map(Outright::from))
        .collect();
    let (root, _h) = mount(
        move || view! { <OutrightTable outrights id="outrights" caption="Futures and awards" /> },
    );
    tick().await;
    let platforms = |id: &str| {
        root.query_selector_all(&format!(r#"tr[data-id="{id}"] td.num"#))
            .ok()
            .and_then(|l| l.get(1))
            .and_then(|c| c.text_content())
            .unwrap_or_default()
    };
    assert_eq!(platforms("nba_championship_2026"), "3", "platform_markets");
    assert_eq!(platforms("nba_mvp_2026"), "2", "platforms");
    assert_eq!(platforms("nba_roy_2026"), "1");
}
