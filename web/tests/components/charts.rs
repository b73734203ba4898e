//! The charts: price history with bid and ask, candles, the comparison
//! and the keyboard.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::BidAsk;
use predmarket_web::components::{
    CandleChart, CompareChart, Line, PriceChart, PricePoint, Quote as BarQuote,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;

#[wasm_bindgen_test]
async fn price_chart_follows_the_keyboard() {
    let points: Vec<PricePoint> = (0..10)
        .map(|i| {
            PricePoint::new(
                1_795_000_000_000.0 + f64::from(i) * 3_600_000.0,
                0.30 + f64::from(i) * 0.01,
            )
        })
        .collect();
    let (root, _h) = mount(move || view! { <PriceChart points /> });
    tick().await;
    assert!(find(&root, "path.line").is_some());
    assert!(find(&root, "figure.trend-up").is_some());
    let svg = find(&root, "svg").expect("svg");
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("End");
    init.set_bubbles(true);
    svg.dispatch_event(
        &web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init)
            .expect("event"),
    )
    .expect("dispatch");
    tick().await;
    assert!(
        text(&root, ".readout").ends_with("39¢"),
        "{}",
        text(&root, ".readout")
    );
}

// Price history: bid and ask in every shape.

#[wasm_bindgen_test]
async fn price_chart_draws_bid_and_ask_with_their_range() {
    // The public service's OHLC objects, the spec's numbers, numeric strings.
    let shapes = [
        serde_json::json!({"bid": {"close": 0.54, "open": 0.52, "high": 0.55, "low": 0.53},
                           "ask": {"close": 0.56, "open": 0.55, "high": 0.57, "low": 0.55}}),
        serde_json::json!({"bid": 0.55, "ask": 0.57}),
        serde_json::json!({"bid": "0.56", "ask": "0.58"}),
    ];
    let points: Vec<PricePoint> = shapes
        .into_iter()
        .enumerate()
        .map(|(i, shape)| {
            let quotes: BidAsk = serde_json::from_value(shape).expect("bidAsk");
            PricePoint {
                bid: quotes.bid.as_ref().and_then(BarQuote::of),
                ask: quotes.ask.as_ref().and_then(BarQuote::of),
                ..PricePoint::new(1_757_008_800_000.0 + i as f64 * 3_600_000.0, 0.55)
            }
        })
        .collect();
    let (root, _h) = mount(move || view! { <PriceChart points /> });
    tick().await;
    for line in ["path.line", "path.bid-line", "path.ask-line"] {
        assert!(find(&root, line).is_some(), "{line}");
    }
    // Only the first bar has a range: no band can be drawn from one.
    assert!(find(&root, "path.bid-band").is_none());
    assert!(find(&root, "figure.with-quotes").is_some());
    let rows = text(&root, "table.price-points tbody");
    assert!(rows.contains("54¢ (53¢–55¢)"), "{rows}");
    assert!(rows.contains("56¢ (55¢–57¢)"), "{rows}");
    assert!(rows.contains("57¢") && rows.contains("58¢"), "{rows}");
    assert_eq!(count(&root, "table.price-points tbody tr"), 3);
    let caption = text(&root, "figcaption");
    assert!(caption.contains("last bid 56¢, ask 58¢"), "{caption}");
}

#[wasm_bindgen_test]
async fn price_chart_bands_the_range_when_bars_have_one() {
    let points: Vec<PricePoint> = (0..4)
        .map(|i| {
            let c = 0.40 + f64::from(i) * 0.01;
            PricePoint {
                bid: Some(BarQuote {
                    close: Some(c - 0.01),
                    high: Some(c),
                    low: Some(c - 0.02),
                }),
                ask: None,
                ..PricePoint::new(1_757_008_800_000.0 + f64::from(i) * 60_000.0, c)
            }
        })
        .collect();
    let (root, _h) = mount(move || view! { <PriceChart points /> });
    tick().await;
    assert!(find(&root, "path.bid-band").is_some());
    assert!(find(&root, "path.ask-line").is_none());
    let rows = text(&root, "table.price-points tbody");
    assert!(rows.contains("Sep 4, 2025 18:03 UTC"), "{rows}");
}

#[wasm_bindgen_test]
async fn a_chart_without_bid_or_ask_has_no_table() {
    let points = vec![
        PricePoint::new(1_757_008_800_000.0, 0.5),
        PricePoint::new(1_757_012_400_000.0, 0.6),
    ];
    let (root, _h) = mount(move || view! { <PriceChart points /> });
    tick().await;
    assert!(find(&root, "path.line").is_some());
    assert!(find(&root, "table.price-points").is_none());
    assert!(find(&root, "path.bid-line").is_none());
}

fn bars() -> Vec<PricePoint> {
    // (open, high, low, close, volume): two up bars, one down, one flat
    // bar with its close only.
    let shapes = [
        (Some(0.40), Some(0.46), Some(0.39), 0.45, Some(100.0)),
        (Some(0.45), Some(0.47), Some(0.41), 0.42, Some(400.0)),
        (Some(0.42), Some(0.50), Some(0.42), 0.49, Some(50.0)),
        (None, None, None, 0.49, None),
    ];
    shapes
        .iter()
        .enumerate()
        .map(|(i, &(open, high, low, close, volume))| PricePoint {
            open,
            high,
            low,
            volume,
            ..PricePoint::new(1_757_008_800_000.0 + i as f64 * 3_600_000.0, close)
        })
        .collect()
}

#[wasm_bindgen_test]
async fn candles_show_each_bar_and_its_volume_and_read_by_keyboard() {
    let (root, _h) = mount(|| view! { <CandleChart points=bars() /> });
    tick().await;
    assert_eq!(count(&root, ".candle-chart g.candle"), 4);
    assert_eq!(count(&root, ".candle-chart g.candle.up"), 3, "close ≥ open");
    assert_eq!(count(&root, ".candle-chart g.candle.down"), 1);
    assert_eq!(
        count(&root, ".candle-chart rect.volume"),
        3,
        "bars with a volume"
    );
    // The biggest volume fills the band; the others are in proportion.
    let height = |i: u32| -> f64 {
        let list = root
            .query_selector_all(".candle-chart rect.volume")
            .expect("bars");
        let bar: web_sys::Element = list.item(i).expect("bar").unchecked_into();
        bar.get_attribute("height")
            .and_then(|h| h.parse().ok())
            .unwrap_or(0.0)
    };
    assert!(
        (height(1) - 4.0 * height(0)).abs() < 0.01,
        "{} {}",
        height(0),
        height(1)
    );
    let svg = find(&root, ".candle-chart svg").expect("svg");
    assert_eq!(svg.get_attribute("tabindex").as_deref(), Some("0"));
    svg.focus().expect("focus");
    let key = |k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init)
            .expect("event");
        svg.dispatch_event(&ev).expect("dispatch");
    };
    key("Home");
    tick().await;
    let readout = text(&root, ".candle-chart .quotes-readout");
    assert!(
        readout.contains("Open 40¢") && readout.contains("High 46¢"),
        "{readout}"
    );
    assert!(readout.contains("Volume $100.00"), "{readout}");
    key("ArrowRight");
    tick().await;
    assert!(text(&root, ".candle-chart [aria-live]").contains("Close 42¢"));
}

#[wasm_bindgen_test]
async fn compared_markets_each_get_a_line_a_key_and_a_row() {
    let line = |label: &str, start: f64| Line {
        label: label.into(),
        points: (0..5)
            .map(|i| {
                (
                    1_757_008_800_000.0 + f64::from(i) * 3_600_000.0,
                    start + f64::from(i) * 0.01,
                )
            })
            .collect(),
    };
    let lines = vec![
        line(HOSTILE, 0.30),
        line("Second", 0.60),
        // One point is no line: left out rather than drawn as a dot.
        Line {
            label: "Alone".into(),
            points: vec![(1_757_008_800_000.0, 0.5)],
        },
    ];
    let (root, _h) = mount(move || view! { <CompareChart lines /> });
    tick().await;
    assert_eq!(count(&root, ".compare-chart path.series"), 2);
    assert_eq!(count(&root, ".compare-legend li"), 2);
    assert_eq!(count(&root, "#compare-table tbody tr"), 2);
    assert_eq!(count(&root, "script, img"), 0, "labels are text");
    assert!(text(&root, ".compare-legend").contains("<script>"));
    assert_eq!(
        text(
            &root,
            "#compare-table tbody tr:nth-child(2) td:nth-child(4)"
        ),
        "+4¢"
    );
}
