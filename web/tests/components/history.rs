//! The recorded history: a row that does not follow the one before (a
//! gap, lost rows, a restart) breaks every line and is shaded, never
//! bridged; the wire answer read tolerantly; books and games read into
//! values; and a server without an archive said so in words, without a
//! request it would refuse.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::CancelToken;
use predmarket_client::core::change::WatchKind;
use predmarket_web::api::{self, Continuity, Recorded};
use predmarket_web::components::{
    HistoryChart, RecordedView, Sample, book_depth, breaks, decimal_odds, game_odds, share_count,
};
use wasm_bindgen_test::*;

use super::support::*;

const T0: f64 = 1_795_000_000_000.0;

fn sample(s: f64, continuity: Continuity, bid: Option<f64>) -> Sample {
    Sample {
        at_ms: T0 + s * 1000.0,
        continuity,
        values: bid
            .map(|b| {
                vec![
                    ("Bid depth".to_owned(), b),
                    ("Ask depth".to_owned(), 2.0 * b),
                ]
            })
            .unwrap_or_default(),
    }
}

fn moves(d: &str) -> usize {
    d.matches('M').count()
}

#[wasm_bindgen_test]
async fn a_gap_breaks_every_line_and_is_shaded() {
    let samples = vec![
        sample(0.0, Continuity::First, Some(100.0)),
        sample(5.0, Continuity::Continues, Some(120.0)),
        sample(10.0, Continuity::Continues, Some(90.0)),
        sample(40.0, Continuity::Gap(30_000), Some(300.0)),
        sample(45.0, Continuity::Continues, Some(310.0)),
        sample(60.0, Continuity::Resync, Some(50.0)),
    ];
    assert_eq!(breaks(&samples).len(), 2);
    let (root, _h) =
        mount(move || view! { <HistoryChart title="Depth" samples unit=share_count /> });
    tick().await;
    for label in ["Bid depth", "Ask depth"] {
        let d = find(&root, &format!(r#"path.series[data-label="{label}"]"#))
            .and_then(|p| p.get_attribute("d"))
            .expect(label);
        // Three runs: before the gap, between the gap and the lost rows, after.
        assert_eq!(moves(&d), 3, "{label}: {d}");
        // No step is drawn into a break: each run's steps stay inside it.
        for run in d.split('M').filter(|r| !r.is_empty()) {
            assert!(!run.contains("NaN"), "{d}");
        }
    }
    assert_eq!(count(&root, "rect.gap"), 2);
    let summary = text(&root, ".history-summary");
    assert!(summary.contains("6 recorded answers"), "{summary}");
    assert!(summary.contains("2 breaks"), "{summary}");
    assert!(summary.contains("45 s without a known answer"), "{summary}");
    assert_eq!(count(&root, "table.history-rows tbody tr"), 6);
    assert_eq!(count(&root, "table.history-rows tbody tr.break"), 3);
    let rows = text(&root, "table.history-rows tbody");
    assert!(rows.contains("after a gap of 30 s"), "{rows}");
    assert!(rows.contains("after lost rows"), "{rows}");
    assert!(rows.contains("620"), "{rows}");
}

#[wasm_bindgen_test]
async fn a_row_without_values_lifts_the_pen_and_reads_as_a_dash() {
    let samples = vec![
        sample(0.0, Continuity::First, Some(10.0)),
        sample(5.0, Continuity::Continues, None),
        sample(10.0, Continuity::Continues, Some(12.0)),
    ];
    let (root, _h) =
        mount(move || view! { <HistoryChart title="Depth" samples unit=share_count /> });
    tick().await;
    let d = find(&root, r#"path.series[data-label="Bid depth"]"#)
        .and_then(|p| p.get_attribute("d"))
        .expect("bid line");
    assert_eq!(moves(&d), 2, "{d}");
    assert_eq!(count(&root, "rect.gap"), 0);
    assert!(text(&root, "table.history-rows tbody").contains('—'));
}

#[wasm_bindgen_test]
fn the_wire_answer_is_read_tolerantly() {
    let recorded = api::parse_history(
        r#"{"data":[
            {"received_ms":1795000000000,"seq":1,"continuity":"first","gap_ms":null,"answer":{"data":{}}},
            {"received":"no time in ms","continuity":"continues"},
            {"received_ms":1795000030000,"seq":2,"continuity":"gap","gap_ms":25000,"answer":null},
            {"received_ms":1795000035000,"seq":3,"continuity":"something new"}
        ],"meta":{"next_from":1795000035001}}"#,
    )
    .expect("a page");
    let continuity: Vec<Continuity> = recorded.rows.iter().map(|r| r.continuity).collect();
    assert_eq!(
        continuity,
        [
            Continuity::First,
            Continuity::Gap(25_000),
            Continuity::Resync
        ]
    );
    assert!(recorded.more);
    assert!(api::parse_history("<html>").is_err());
    let last = api::parse_history(r#"{"data":[],"meta":{"next_from":null}}"#).expect("a page");
    assert!(!last.more && last.rows.is_empty());
}

#[wasm_bindgen_test]
fn a_recorded_book_reads_as_its_depth_per_side() {
    let answer = serde_json::json!({"data": {"market_id": "m", "yes": {
        "bids": [{"price": 0.48, "size": 100}, {"price": 0.47, "size": 50}],
        "asks": [{"price": 0.50, "size": 80}]
    }}});
    assert_eq!(
        book_depth(&answer),
        [
            ("Bid depth".to_owned(), 150.0),
            ("Ask depth".to_owned(), 80.0)
        ]
    );
    assert!(book_depth(&serde_json::json!({"error": "x"})).is_empty());
}

#[wasm_bindgen_test]
fn a_recorded_game_reads_as_its_best_odds_per_outcome() {
    let answer: serde_json::Value = public!("get_game.json");
    let odds = game_odds(&answer);
    assert_eq!(odds.len(), 1, "{odds:?}");
    let (label, decimal) = &odds[0];
    assert_eq!(label, "Chiefs");
    assert!((2.1..2.3).contains(decimal), "{decimal}");
    assert!(game_odds(&serde_json::json!({"data": null})).is_empty());
}

#[wasm_bindgen_test]
async fn hostile_text_in_a_recorded_answer_stays_text() {
    let recorded = Recorded {
        rows: vec![api::HistoryRow {
            received_ms: T0,
            continuity: Continuity::First,
            answer: serde_json::json!({"data": {"markets": [{"title": HOSTILE}]}}),
        }],
        more: false,
    };
    fn label_as_series(answer: &serde_json::Value) -> Vec<(String, f64)> {
        let title = answer
            .pointer("/data/markets/0/title")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        vec![(title.to_owned(), 2.5)]
    }
    let (root, _h) = mount(move || {
        view! { <RecordedView recorded=Some(recorded) title="Odds" read=label_as_series unit=decimal_odds /> }
    });
    tick().await;
    assert!(find(&root, "script").is_none() && find(&root, "img").is_none());
    assert!(text(&root, "figcaption").contains("<script>"));
}

#[wasm_bindgen_test]
async fn without_an_archive_the_card_says_so() {
    let (root, _h) = mount(move || {
        view! { <RecordedView recorded=None title="Depth" read=book_depth unit=share_count /> }
    });
    tick().await;
    assert!(
        text(&root, ".no-history").contains("keeps no recorded history"),
        "{}",
        text(&root, ".no-history")
    );
    assert!(find(&root, "svg").is_none());
}

/// The test server records nothing: its document says so, and the demo
/// asks no `/history` (a 404 the browser would log as an error).
#[wasm_bindgen_test]
async fn a_server_that_records_nothing_is_not_asked_for_history() {
    use_test_server();
    let answer = api::recorded(WatchKind::Orderbook, "any", &CancelToken::new()).await;
    assert!(matches!(answer, Ok(None)), "{answer:?}");
}
