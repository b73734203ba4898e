//! How values, paths and times read, the same on every page.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::{Game, OddsFormat};
use predmarket_web::components::GamesTable;
use predmarket_web::{Page, format};
use wasm_bindgen_test::*;

use super::support::*;

// Values and paths.

#[wasm_bindgen_test]
fn the_live_indicator_says_its_state_and_the_data_age() {
    use predmarket_web::api::Freshness;
    use predmarket_web::components::freshness_text;
    let text = |f: Freshness| freshness_text(&f, 10_000.0);
    let pair = |state: &str, age: Option<&str>| (state.to_owned(), age.map(str::to_owned));
    // Live: the server's age when heard, plus the time since.
    assert_eq!(
        text(Freshness::Live {
            age_ms: 1_500.0,
            at_ms: 9_000.0
        }),
        pair("live", Some("2 s"))
    );
    assert_eq!(
        text(Freshness::Stale {
            reason: "poll_failed".into(),
            age_ms: 39_000.0,
            at_ms: 9_000.0
        }),
        pair("stale: poll_failed", Some("40 s"))
    );
    assert_eq!(
        text(Freshness::Polled { at_ms: 7_000.0 }),
        pair("polled", Some("3 s"))
    );
    assert_eq!(
        text(Freshness::Stale {
            reason: "budget".into(),
            age_ms: 600_000.0,
            at_ms: 10_000.0
        }),
        pair("stale: budget", Some("10 min"))
    );
    assert_eq!(text(Freshness::Waiting), pair("connecting", None));
    assert_eq!(
        text(Freshness::Refused {
            code: "NOT_FOUND".into()
        }),
        pair("not live: NOT_FOUND", None)
    );
}

#[wasm_bindgen_test]
fn values_read_the_same_everywhere() {
    assert_eq!(format::cents(Some(0.29)), "29¢");
    assert_eq!(format::cents(Some(0.285)), "28.5¢");
    assert_eq!(format::cents(None), "—");
    assert_eq!(format::cents_change(Some(-0.027)), "−2.7¢");
    assert_eq!(format::money(Some(645_026.79)), "$645K");
    assert_eq!(format::money(Some(98_480.0)), "$98.5K");
    assert_eq!(format::money(Some(4_862.53)), "$4.86K");
    assert_eq!(format::money(Some(1_867_350.9)), "$1.87M");
    assert_eq!(format::money(Some(12.345)), "$12.35");
    assert_eq!(format::integer(Some(1_234_567.0)), "1,234,567");
    assert_eq!(format::odds(3.5, &OddsFormat::American), "+250");
    assert_eq!(format::odds(1.909, &OddsFormat::American), "-110");
    assert_eq!(format::odds(3.5, &OddsFormat::Decimal), "3.50");
    assert_eq!(format::odds(4.0, &OddsFormat::Probability), "25.0%");
    assert_eq!(format::odds(0.5, &OddsFormat::Decimal), "—");
    assert_eq!(
        format::datetime(Some("2026-11-23T04:00:00Z")),
        "Nov 23, 2026 04:00 UTC"
    );
    assert_eq!(format::date(Some("not a date")), "not a date");
    assert_eq!(format::epoch_ms(1_795_218_888.0), Some(1_795_218_888_000.0));
    assert_eq!(format::words("not_started"), "Not started");
}

#[wasm_bindgen_test]
fn paths_name_their_page() {
    assert_eq!(Page::of_path("/app/"), Page::Markets);
    assert_eq!(Page::of_path("/app/markets"), Page::Markets);
    assert_eq!(
        Page::of_path("/app/markets/500024"),
        Page::Market("500024".into())
    );
    assert_eq!(
        Page::of_path("/app/markets/a%2Fb"),
        Page::Market("a/b".into())
    );
    assert_eq!(
        Page::of_path("/app/sports/games/KCvSF20250209%40NFL"),
        Page::Game("KCvSF20250209@NFL".into())
    );
    assert_eq!(
        Page::of_path("/app/sports/futures/nfl_championship_2026"),
        Page::Future("nfl_championship_2026".into())
    );
    assert_eq!(Page::of_path("/app/series"), Page::SeriesList);
    assert_eq!(Page::of_path("/app/nope/nope"), Page::NotFound);
}

// Times in every documented form.

/// 2025-09-04T18:00:00Z in each form the public service sends.
const SAME_INSTANT: [&str; 8] = [
    "2025-09-04T18:00:00Z",
    "2025-09-04T18:00:00+00:00",
    "2025-09-04T18:00:00.000Z",
    "2025-09-04T18:00:00.000000+00:00",
    "2025-09-04T14:00:00-04:00",
    "1757008800",
    "1757008800000",
    " 1757008800 ",
];

#[wasm_bindgen_test]
fn every_documented_time_form_reads_the_same() {
    for form in SAME_INSTANT {
        assert_eq!(
            format::datetime(Some(form)),
            "Sep 4, 2025 18:00 UTC",
            "{form:?}"
        );
        assert_eq!(format::date(Some(form)), "Sep 4, 2025", "{form:?}");
    }
    // A day without a time is a date, even where a time is expected.
    assert_eq!(format::date(Some("2025-09-04")), "Sep 4, 2025");
    assert_eq!(format::datetime(Some("2025-09-04")), "Sep 4, 2025");
    // Unix times the models hold as numbers: seconds, or milliseconds.
    assert_eq!(format::epoch_ms(1_757_008_800.0), Some(1_757_008_800_000.0));
    assert_eq!(
        format::epoch_ms(1_757_008_800_000.0),
        Some(1_757_008_800_000.0)
    );
    assert_eq!(format::epoch_ms(f64::NAN), None);
    // Not a time: shown as sent, never as a wrong date.
    assert_eq!(format::datetime(Some("TBD")), "TBD");
    assert_eq!(format::datetime(None), "—");
}

#[wasm_bindgen_test]
async fn games_show_their_time_whatever_form_it_came_in() {
    let mut forms: Vec<serde_json::Value> = SAME_INSTANT.iter().map(|f| (*f).into()).collect();
    // Numbers on the wire, as trades and price points send them.
    forms.push(serde_json::json!(1_757_008_800));
    forms.push(serde_json::json!(1_757_008_800_000_i64));
    let games: Vec<Game> = forms
        .iter()
        .enumerate()
        .map(|(i, when)| {
            serde_json::from_value(serde_json::json!({
                "id": format!("g{i}"),
                "title": "Away at Home",
                "scheduled_at": when,
            }))
            .expect("a game")
        })
        .collect();
    let n = games.len() as u32;
    let (root, _h) = mount(move || view! { <GamesTable games=Signal::stored(games) /> });
    tick().await;
    assert_eq!(count(&root, "#games tbody tr"), n);
    for i in 0..n {
        let cell = text(&root, &format!(r#"tr[data-id="g{i}"] td"#));
        assert_eq!(cell, "Sep 4, 2025 18:00 UTC", "game g{i}");
    }
}
