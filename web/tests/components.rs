//! The demo's components in headless Chromium: mount, interact, let the
//! reactive system tick, assert on the DOM. Pure components need nothing
//! else; the last tests talk to the reference server when
//! PREDMARKET_TEST_URL / PREDMARKET_TEST_KEY are set at build time (as
//! `cargo xtask test` does). Run with
//! `cargo test -p predmarket-web --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use leptos::mount::{UnmountHandle, mount_to};
use leptos::prelude::*;
use leptos::tachys::view::Render;
use leptos::task::tick;
use predmarket_client::Error;
use predmarket_client::core::ApiFailure;
use predmarket_client::core::models::{
    Award, BidAsk, Future, Game, Market, MarketsResponse, OddsFormat, PlatformError, PlatformId,
    PriceLevel, SkippedItem,
};
use predmarket_client::core::odds::Quote;
use predmarket_client::core::orderbook::Book;
use predmarket_client::core::request::{GetLeagueInfo, ListMarkets, ListPlatforms, ListTrades};
use predmarket_web::api::{self, Inflight, Loaded, Unread};
use predmarket_web::components::{
    Board, CandleChart, CompareChart, Contest, ContestTable, CostCalculator, DepthChart,
    ErrorNotice, GamesTable, Line, Loader, MarketTable, OddsBoard, OrderbookLadder, PagedResults,
    PlatformWarnings, PriceChart, PricePoint, Quote as BarQuote, RemoteImage, UnreadNotice,
};
use predmarket_web::{Page, format};
use std::collections::BTreeMap;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts a view into a fresh element of the page; the handle unmounts it
/// when dropped.
fn mount<F, N>(f: F) -> (web_sys::HtmlElement, UnmountHandle<<N as Render>::State>)
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    let document = document();
    let wrapper: web_sys::HtmlElement = document
        .create_element("section")
        .expect("create")
        .unchecked_into();
    document
        .body()
        .expect("body")
        .append_child(&wrapper)
        .expect("append");
    let handle = mount_to(wrapper.clone(), f);
    (wrapper, handle)
}

fn find(root: &web_sys::HtmlElement, selector: &str) -> Option<web_sys::HtmlElement> {
    root.query_selector(selector)
        .ok()
        .flatten()
        .map(|e| e.unchecked_into())
}

fn text(root: &web_sys::HtmlElement, selector: &str) -> String {
    find(root, selector)
        .map(|e| e.text_content().unwrap_or_default())
        .unwrap_or_default()
}

fn count(root: &web_sys::HtmlElement, selector: &str) -> u32 {
    root.query_selector_all(selector)
        .map(|l| l.length())
        .unwrap_or(0)
}

/// Types into an input as a user would (value, then a bubbling `input`).
fn type_into(input: &web_sys::HtmlElement, value: &str) {
    let input: &web_sys::HtmlInputElement = input.unchecked_ref();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
    input.dispatch_event(&event).expect("dispatch");
}

async fn sleep(ms: u64) {
    gloo_timers::future::sleep(Duration::from_millis(ms)).await;
}

/// Waits (up to `ms`) for a selector to match.
async fn wait_for(root: &web_sys::HtmlElement, selector: &str, ms: u64) -> bool {
    eventually(ms, || find(root, selector).is_some()).await
}

/// Waits until `condition` holds, asking every 50 ms, for at most `ms` of
/// those waits (on a busy machine each lasts longer: the ceiling grows,
/// never shrinks).
async fn eventually(ms: u64, condition: impl Fn() -> bool) -> bool {
    let mut waited = 0;
    while waited < ms {
        if condition() {
            return true;
        }
        sleep(50).await;
        waited += 50;
    }
    condition()
}

fn failure(status: u16, code: &str, retry_after_ms: Option<u64>) -> Error {
    Error::from_failure(ApiFailure {
        status,
        code: code.into(),
        message: "refused".into(),
        details: None,
        retry_after_ms,
    })
}

fn level(price: f64, size: f64) -> PriceLevel {
    PriceLevel::new(price, size)
}

fn quote(outcome: &str, platform: &str, decimal: f64) -> Quote {
    Quote {
        outcome: outcome.to_lowercase(),
        label: outcome.into(),
        platform: Some(PlatformId::from(platform)),
        market_id: None,
        decimal,
    }
}

const HOSTILE: &str =
    "<script>alert(\"xss\")</script><img src=x onerror=\"alert(1)\">\u{202e}Reversed\u{202c}";

// --- error notice --------------------------------------------------------

#[wasm_bindgen_test]
async fn unauthorized_asks_for_a_key_with_a_link_to_settings() {
    let (root, _h) = mount(|| view! { <ErrorNotice error=failure(401, "UNAUTHORIZED", None) /> });
    tick().await;
    let alert = find(&root, "[role=alert]").expect("an alert");
    assert_eq!(
        alert.get_attribute("data-code").as_deref(),
        Some("UNAUTHORIZED")
    );
    assert!(text(&root, "strong").contains("API key"));
    assert!(find(&root, r#"a[href="/app/settings"]"#).is_some());
    assert!(
        find(&root, "button").is_none(),
        "a wrong key is not worth retrying"
    );
}

#[wasm_bindgen_test]
async fn rate_limited_counts_down_then_retries_by_itself() {
    let retries = RwSignal::new(0);
    let (root, _h) = mount(move || {
        view! { <ErrorNotice error=failure(429, "RATE_LIMITED", Some(2000)) retry=Callback::new(move |_| retries.update(|n| *n += 1)) /> }
    });
    tick().await;
    assert_eq!(text(&root, ".secs"), "2");
    let state = || {
        find(&root, ".countdown")
            .and_then(|c| c.get_attribute("data-state"))
            .unwrap_or_default()
    };
    assert_eq!(state(), "counting");
    // Each second shows in turn, however late a busy machine runs the
    // timer: waited for, not slept through.
    assert!(eventually(15_000, || text(&root, ".secs") == "1").await);
    assert_eq!(retries.get_untracked(), 0);
    assert!(
        eventually(15_000, || text(&root, ".secs") == "0"
            && retries.get_untracked() > 0)
        .await
    );
    assert_eq!(
        retries.get_untracked(),
        1,
        "retried once when the count reached zero"
    );
    // And only once: the clock that retries has stopped, so nothing is
    // left that could retry again (waited for, not slept through).
    assert!(
        eventually(15_000, || state() == "done").await,
        "the countdown's clock stops at zero"
    );
    assert_eq!(retries.get_untracked(), 1, "and only once");
}

#[wasm_bindgen_test]
async fn retry_now_skips_the_wait() {
    let retries = RwSignal::new(0);
    let (root, _h) = mount(move || {
        view! { <ErrorNotice error=failure(429, "RATE_LIMITED", None) retry=Callback::new(move |_| retries.update(|n| *n += 1)) /> }
    });
    tick().await;
    assert_eq!(
        text(&root, ".secs"),
        "5",
        "five seconds when the service does not say"
    );
    find(&root, ".countdown button").expect("retry now").click();
    tick().await;
    assert_eq!(retries.get_untracked(), 1);
    assert_eq!(
        find(&root, ".countdown").and_then(|c| c.get_attribute("data-state")),
        Some("done".into()),
        "and the clock stopped: it will not retry again"
    );
}

#[wasm_bindgen_test]
async fn a_server_error_offers_try_again_and_an_abort_shows_nothing() {
    let retries = RwSignal::new(0);
    let (root, _h) = mount(move || {
        view! {
            <div id="server"><ErrorNotice error=failure(500, "INTERNAL_ERROR", None) retry=Callback::new(move |_| retries.update(|n| *n += 1)) /></div>
            <div id="aborted"><ErrorNotice error=Error::Aborted /></div>
        }
    });
    tick().await;
    find(&root, "#server button").expect("try again").click();
    tick().await;
    assert_eq!(retries.get_untracked(), 1);
    assert_eq!(count(&root, "#aborted *"), 0);
}

#[wasm_bindgen_test]
async fn error_details_from_the_service_are_text() {
    let error = Error::from_failure(ApiFailure {
        status: 500,
        code: "INTERNAL_ERROR".into(),
        message: HOSTILE.into(),
        details: None,
        retry_after_ms: None,
    });
    let (root, _h) = mount(move || view! { <ErrorNotice error /> });
    tick().await;
    assert!(text(&root, ".detail").contains("<script>"));
    assert_eq!(count(&root, "script, img"), 0);
}

// --- depth chart ---------------------------------------------------------

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

// --- live order book -----------------------------------------------------

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

// --- cost calculator ------------------------------------------------------

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

// --- odds board -------------------------------------------------------------

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

// --- hostile text -----------------------------------------------------------

#[wasm_bindgen_test]
async fn hostile_titles_and_warnings_are_shown_as_characters() {
    let mut market = Market::new("m<1>");
    market.title = Some(HOSTILE.into());
    market.event_name = Some(r#"<a href="javascript:alert(1)">event</a>"#.into());
    market.platform = Some(PlatformId::from("<b>platform</b>"));
    let mut warnings = BTreeMap::new();
    warnings.insert(
        "west".to_owned(),
        PlatformError {
            code: Some("<i>CODE</i>".into()),
            message: Some(HOSTILE.into()),
        },
    );
    let (root, _h) = mount(move || {
        view! {
            <MarketTable markets=vec![market] caption="Markets" />
            <PlatformWarnings errors=Some(warnings) />
        }
    });
    tick().await;
    assert_eq!(
        count(&root, "script, img, b, i"),
        0,
        "no element came from the data"
    );
    assert_eq!(count(&root, r#"a[href^="javascript"]"#), 0);
    let title = text(&root, "tbody .title");
    assert!(
        title.contains(r#"<script>alert("xss")</script>"#),
        "{title}"
    );
    assert!(text(&root, ".platform-warnings li").contains("<script>"));
    // The market link encodes the id as one path segment.
    assert_eq!(
        find(&root, "tbody .title")
            .and_then(|a| a.get_attribute("href"))
            .as_deref(),
        Some("/app/markets/m%3C1%3E")
    );
}

#[wasm_bindgen_test]
fn links_and_colours_from_data_are_filtered() {
    assert_eq!(format::safe_url(Some("javascript:alert(1)")), None);
    assert_eq!(format::safe_url(Some(" JAVASCRIPT:alert(1)")), None);
    assert_eq!(format::safe_url(Some("data:text/html,<script>")), None);
    assert_eq!(
        format::safe_url(Some("https://x.example/a\"onmouseover=1")),
        None
    );
    assert_eq!(
        format::safe_url(Some("https://x.example/m/1")).as_deref(),
        Some("https://x.example/m/1")
    );
    assert_eq!(format::safe_color("#c4acaa").as_deref(), Some("#c4acaa"));
    assert_eq!(format::safe_color("red;background:url(x)"), None);
    assert_eq!(format::safe_color("#12345z"), None);
}

// --- formatting and paths -----------------------------------------------------

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

// --- times in every documented form ------------------------------------------

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

// --- price history: bid and ask in every shape -------------------------------

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

// --- list items that could not be read ---------------------------------------

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

// --- the loading scaffold -------------------------------------------------

#[wasm_bindgen_test]
async fn the_scaffold_shows_loading_then_the_value() {
    // The value comes only when the test lets it: "loading" is asserted
    // while the value is certainly still pending.
    let released = RwSignal::new(false);
    let (root, _h) = mount(move || {
        let resource = LocalResource::new(move || async move {
            while !released.get_untracked() {
                sleep(20).await;
            }
            Ok::<_, Error>(42)
        });
        view! {
            <Loader resource what="the answer" let:n>
                <p class="value">{n}</p>
            </Loader>
        }
    });
    tick().await;
    assert!(text(&root, ".loading").contains("Loading the answer"));
    released.set(true);
    assert!(wait_for(&root, ".value", 5_000).await);
    assert_eq!(text(&root, ".value"), "42");
    assert!(find(&root, ".loading").is_none());
}

#[wasm_bindgen_test]
async fn the_scaffold_shows_the_error_and_retries() {
    let calls = RwSignal::new(0);
    let (root, _h) = mount(move || {
        let resource = LocalResource::new(move || {
            calls.update_untracked(|n| *n += 1);
            let first = calls.get_untracked() == 1;
            async move {
                if first {
                    Err(failure(503, "PLATFORM_UNAVAILABLE", None))
                } else {
                    Ok("second time".to_owned())
                }
            }
        });
        view! {
            <Loader resource what="a value" let:v>
                <p class="value">{v}</p>
            </Loader>
        }
    });
    assert!(wait_for(&root, "[role=alert]", 5_000).await);
    find(&root, "[role=alert] button")
        .expect("try again")
        .click();
    assert!(wait_for(&root, ".value", 5_000).await);
    assert_eq!(text(&root, ".value"), "second time");
    assert_eq!(calls.get_untracked(), 2);
}

// --- futures and awards: one shape -------------------------------------------

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
    let contests = vec![Contest::from(&future), Contest::from(&award)];
    let (root, _h) = mount(
        move || view! { <ContestTable contests id="contests" caption="Futures and awards" /> },
    );
    tick().await;
    assert_eq!(count(&root, "#contests tbody tr"), 2);
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

// --- live views and the device cache ---------------------------------------------------

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

#[wasm_bindgen_test]
async fn remote_images_are_http_only_lazy_and_send_no_referrer() {
    let (root, _h) = mount(|| {
        view! {
            <div id="good"><RemoteImage url=Some("https://img.example/m/1.png".to_owned()) alt="" class="market-image" /></div>
            <div id="script"><RemoteImage url=Some("javascript:alert(1)".to_owned()) alt="x" class="market-image" /></div>
            <div id="data"><RemoteImage url=Some("data:image/svg+xml,<svg onload=alert(1)>".to_owned()) alt="x" class="market-image" /></div>
            <div id="none"><RemoteImage url=None alt="x" class="market-image" /></div>
        }
    });
    tick().await;
    let img = find(&root, "#good img").expect("an image");
    assert_eq!(
        img.get_attribute("src").as_deref(),
        Some("https://img.example/m/1.png")
    );
    assert_eq!(
        img.get_attribute("referrerpolicy").as_deref(),
        Some("no-referrer")
    );
    assert_eq!(img.get_attribute("loading").as_deref(), Some("lazy"));
    assert_eq!(img.get_attribute("alt").as_deref(), Some(""));
    assert_eq!(count(&root, "#script img, #data img, #none img"), 0);
}

// --- against the reference server -------------------------------------------

/// Points the app at the test server (what Settings would store).
fn use_test_server() -> bool {
    let (Some(url), Some(key)) = (
        option_env!("PREDMARKET_TEST_URL"),
        option_env!("PREDMARKET_TEST_KEY"),
    ) else {
        return false;
    };
    let storage = web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .expect("sessionStorage");
    storage.set_item("predmarket.baseUrl", url).expect("set");
    storage.set_item("predmarket.apiKey", key).expect("set");
    true
}

#[wasm_bindgen_test]
async fn the_app_lists_markets_and_a_market_shows_its_book() {
    if !use_test_server() {
        return;
    }
    let (root, handle) = mount(|| view! { <predmarket_web::App /> });
    assert!(
        wait_for(&root, "#markets tbody tr", 15_000).await,
        "the market list appears"
    );
    assert_eq!(count(&root, "#markets tbody tr"), 25);
    // Load more appends the next page.
    find(&root, ".load-more button").expect("load more").click();
    let mut waited = 0;
    while count(&root, "#markets tbody tr") < 50 && waited < 10_000 {
        sleep(50).await;
        waited += 50;
    }
    assert_eq!(count(&root, "#markets tbody tr"), 50);
    // A platform that says it publishes a book, trades and history: from
    // the service's directory, not from a label.
    let platforms = predmarket_web::api::client()
        .expect("client")
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    let complete = platforms
        .iter()
        .filter(|p| {
            p.features.as_ref().is_some_and(|f| {
                f.orderbook == Some(true)
                    && f.trades == Some(true)
                    && f.historical_data == Some(true)
            })
        })
        .map(|p| p.id.clone())
        .collect::<Vec<_>>();
    let id = complete
        .iter()
        .find_map(|platform| {
            find(
                &root,
                &format!(r#"#markets tbody tr [data-platform="{platform}"]"#),
            )
        })
        .and_then(|cell| cell.closest("tr").ok().flatten())
        .and_then(|tr| tr.get_attribute("data-id"))
        .expect("a market of a platform with every feature in the first two pages");
    drop(handle);

    let (root, _h) = mount(move || {
        view! { <leptos_router::components::Router><predmarket_web::pages::market::MarketPage id=id /></leptos_router::components::Router> }
    });
    assert!(
        wait_for(&root, "table.levels tbody tr.bid", 15_000).await,
        "the order book has levels"
    );
    assert!(find(&root, ".depth-chart path.asks").is_some());
    // Trades load when their card scrolls into view (a market's first
    // paint costs three requests): scroll there as a reader would.
    assert!(
        wait_for(&root, r#"article[aria-labelledby="trades-h"]"#, 15_000).await,
        "the trades card"
    );
    if let Some(card) = find(&root, r#"article[aria-labelledby="trades-h"]"#) {
        card.scroll_into_view();
    }
    assert!(wait_for(&root, "#trades tbody tr", 15_000).await, "trades");
    assert!(
        wait_for(&root, ".price-chart path.line", 15_000).await,
        "price history"
    );
}

#[wasm_bindgen_test]
async fn a_wrong_key_shows_the_unauthorized_notice() {
    if !use_test_server() {
        return;
    }
    let storage = web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .expect("sessionStorage");
    storage
        .set_item("predmarket.apiKey", "not-a-key")
        .expect("set");
    let (root, _h) = mount(|| view! { <predmarket_web::App /> });
    let found = wait_for(&root, r#"[data-code="UNAUTHORIZED"]"#, 15_000).await;
    let _ = storage.remove_item("predmarket.apiKey");
    assert!(found);
}

#[wasm_bindgen_test]
async fn filters_and_league_tabs_come_from_the_service() {
    if !use_test_server() {
        return;
    }
    let client = predmarket_web::api::client().expect("client");
    let platforms = client
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    let leagues = client
        .send(&GetLeagueInfo::default(), &Default::default())
        .await
        .expect("the leagues")
        .data
        .leagues()
        .to_vec();
    assert!(!platforms.is_empty() && !leagues.is_empty());

    // The market list's platform filter: every platform that serves
    // markets, by its name, and nothing else.
    let (root, handle) = mount(|| view! { <predmarket_web::App /> });
    assert!(
        wait_for(
            &root,
            "#filter-platform option[value]:not([value=''])",
            15_000
        )
        .await
    );
    let options = root
        .query_selector_all("#filter-platform option:not([value=''])")
        .expect("options");
    let shown: Vec<(String, String)> = (0..options.length())
        .filter_map(|i| options.item(i))
        .map(|o| {
            let o: web_sys::HtmlElement = o.unchecked_into();
            (
                o.get_attribute("value").unwrap_or_default(),
                o.text_content().unwrap_or_default(),
            )
        })
        .collect();
    let serving_markets: Vec<(String, String)> = platforms
        .iter()
        .filter(|p| {
            p.endpoints
                .as_ref()
                .and_then(|e| e.is_available("markets"))
                .unwrap_or(true)
        })
        .map(|p| (p.id.clone(), p.name.clone().unwrap_or_else(|| p.id.clone())))
        .collect();
    assert_eq!(shown, serving_markets);
    drop(handle);

    // Sports: one tab per league the service lists, the first one chosen.
    let (root, _h) = mount(|| {
        view! { <leptos_router::components::Router><predmarket_web::pages::sports::SportsPage /></leptos_router::components::Router> }
    });
    assert!(wait_for(&root, ".pills a", 15_000).await);
    assert_eq!(count(&root, ".pills a"), leagues.len() as u32);
    let first = &leagues[0];
    let current = find(&root, r#".pills a[aria-current="page"]"#).expect("a chosen league");
    assert_eq!(
        current.get_attribute("data-league").as_deref(),
        Some(first.id.as_str())
    );
    assert_eq!(
        current.text_content().unwrap_or_default(),
        first
            .abbreviation
            .clone()
            .or_else(|| first.name.clone())
            .unwrap_or_else(|| first.id.clone())
    );
    assert!(
        wait_for(&root, "#games tbody tr", 15_000).await,
        "the first league's games"
    );
}

/// A trader of a platform that publishes user profiles, from the trades
/// of one of its markets: (platform id, trader name).
async fn a_trader() -> (String, String) {
    let client = predmarket_web::api::client().expect("client");
    let platforms = client
        .send(&ListPlatforms, &Default::default())
        .await
        .expect("the directory")
        .platforms;
    for platform in platforms.iter().filter(|p| {
        p.features
            .as_ref()
            .is_some_and(|f| f.user_profiles == Some(true) && f.trades == Some(true))
    }) {
        let markets = client
            .send(
                &ListMarkets {
                    platform: Some(PlatformId::from(platform.id.as_str())),
                    limit: Some(5),
                    ..ListMarkets::default()
                },
                &Default::default(),
            )
            .await
            .expect("markets")
            .markets;
        for market in markets {
            let trades = client
                .send(&ListTrades::new(market.id.clone()), &Default::default())
                .await
                .expect("trades")
                .trades;
            if let Some(name) = trades
                .iter()
                .find_map(|t| t.user.as_ref().and_then(|u| u.name.clone()))
            {
                return (platform.id.clone(), name);
            }
        }
    }
    panic!("no platform with profiles has a named trader");
}

#[wasm_bindgen_test]
async fn a_profile_shows_its_metrics_and_trades_and_trade_lists_link_there() {
    if !use_test_server() {
        return;
    }
    let (platform, user) = a_trader().await;
    let (p, u) = (platform.clone(), user.clone());
    let (root, handle) = mount(move || {
        view! { <leptos_router::components::Router><predmarket_web::pages::profile::ProfilePage platform=p user=u /></leptos_router::components::Router> }
    });
    assert!(wait_for(&root, "#profile-metrics", 15_000).await, "metrics");
    assert_eq!(count(&root, "#profile-metrics .stat"), 6);
    assert!(text(&root, "h1").contains(&user));
    assert!(
        wait_for(&root, "#profile-trades tbody tr", 15_000).await,
        "trades"
    );
    // Every trade links to its market.
    // (How many pages: the runner's URL may carry another test's `?pages=`.)
    let rows = count(&root, "#profile-trades tbody tr");
    assert!(rows > 0, "{rows}");
    assert_eq!(
        count(
            &root,
            "#profile-trades tbody tr a.title[href^='/app/markets/']"
        ),
        rows
    );
    // The avatar: the service's URL, no referrer, or none at all.
    if let Some(img) = find(&root, ".profile img.avatar") {
        assert_eq!(
            img.get_attribute("referrerpolicy").as_deref(),
            Some("no-referrer")
        );
    }
    drop(handle);
    assert_eq!(
        Page::of_path(&predmarket_web::routes::profile(&platform, &user)),
        Page::Profile(platform, user)
    );
}

#[wasm_bindgen_test]
async fn a_category_filter_goes_into_the_url_and_narrows_the_list() {
    if !use_test_server() {
        return;
    }
    let client = predmarket_web::api::client().expect("client");
    let category = client
        .send(
            &ListMarkets {
                limit: Some(5),
                ..ListMarkets::default()
            },
            &Default::default(),
        )
        .await
        .expect("markets")
        .markets
        .into_iter()
        .find_map(|m| m.category)
        .expect("a market with a category");
    let expected: Vec<String> = client
        .send(
            &ListMarkets {
                limit: Some(predmarket_web::api::PAGE_SIZE),
                category: Some(category.clone()),
                ..ListMarkets::default()
            },
            &Default::default(),
        )
        .await
        .expect("filtered markets")
        .markets
        .into_iter()
        .map(|m| m.id)
        .collect();
    let history = web_sys::window()
        .expect("window")
        .history()
        .expect("history");
    let before = web_sys::window()
        .expect("window")
        .location()
        .href()
        .expect("href");
    let (root, _h) = mount(|| {
        view! { <leptos_router::components::Router><predmarket_web::pages::markets::MarketsPage /></leptos_router::components::Router> }
    });
    assert!(wait_for(&root, "#markets tbody tr", 15_000).await);
    let input = find(&root, "#filter-category").expect("the category field");
    type_into(&input, &category);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let change = web_sys::Event::new_with_event_init_dict("change", &init).expect("event");
    input.dispatch_event(&change).expect("dispatch");
    let shown = || {
        let list = root.query_selector_all("#markets tbody tr").expect("rows");
        (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| {
                n.unchecked_into::<web_sys::Element>()
                    .get_attribute("data-id")
            })
            .collect::<Vec<_>>()
    };
    let mut waited = 0;
    while shown() != expected && waited < 15_000 {
        sleep(50).await;
        waited += 50;
    }
    let search = web_sys::window()
        .expect("window")
        .location()
        .search()
        .expect("search");
    // Leave the runner's page as it was.
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before));
    assert_eq!(shown(), expected);
    assert!(search.contains("category="), "{search}");
}

// ---- The public service's real-shaped bodies (tests/fixtures/public). ----

/// A fixture body of tests/fixtures/public, decoded.
macro_rules! public {
    ($file:literal) => {
        serde_json::from_str(include_str!(concat!("../../tests/fixtures/public/", $file)))
            .expect("a real-shaped fixture decodes")
    };
}

#[wasm_bindgen_test]
async fn the_game_page_draws_boards_and_named_markets_from_the_older_game_body() {
    use predmarket_client::core::models::GameResponse;
    use predmarket_web::pages::game::GameView;
    let response: GameResponse = public!("get_game_older.json");
    let (odds_format, set) = signal(OddsFormat::American);
    let set_format = Callback::new(move |f| set.set(f));
    let (root, _h) = mount(move || {
        view! { <GameView response before=None odds_format=Memo::new(move |_| odds_format.get()) set_format /> }
    });
    tick().await;
    // Moneyline, spread 3.5, total 48.5, and the prop on its event's board.
    for kind in ["moneyline", "spread", "total", "event"] {
        assert_eq!(
            count(&root, &format!(r#"article[data-market-type="{kind}"]"#)),
            1,
            "{kind} board"
        );
    }
    let moneyline = text(&root, r#"article[data-market-type="moneyline"]"#);
    assert!(
        moneyline.contains("Buffalo") && moneyline.contains("Falcons"),
        "{moneyline}"
    );
    assert!(text(&root, r#"article[data-market-type="event"]"#).contains("Josh Allen 2+ TDs"));
    // The markets table: one row per platform event, with its name,
    // volumes and liquidity.
    let rows = root
        .query_selector_all("table.game-markets tbody tr")
        .expect("rows");
    assert_eq!(rows.length(), 2);
    let first = rows
        .get(0)
        .and_then(|r| r.text_content())
        .unwrap_or_default();
    assert!(first.contains("Buffalo at Atlanta"), "{first}");
    assert!(
        first.contains(&format::money(Some(95_242.0))),
        "volume: {first}"
    );
    assert!(
        first.contains(&format::money(Some(20_311.5))),
        "24h volume: {first}"
    );
    assert!(
        first.contains(&format::money(Some(2_180.75))),
        "liquidity: {first}"
    );
}

#[wasm_bindgen_test]
async fn the_game_page_shows_2_0_0_events_and_their_order_books() {
    use predmarket_client::core::models::GameResponse;
    use predmarket_web::pages::game::GameView;
    let response: GameResponse = public!("get_game_2_0_0.json");
    let (odds_format, set) = signal(OddsFormat::American);
    let set_format = Callback::new(move |f| set.set(f));
    let (root, _h) = mount(move || {
        view! { <GameView response before=None odds_format=Memo::new(move |_| odds_format.get()) set_format /> }
    });
    tick().await;
    assert_eq!(
        count(&root, r#"article[data-market-type="event"]"#),
        2,
        "one per platform event"
    );
    let polymarket = text(&root, r#"article[data-market-type="event"]"#);
    assert!(
        polymarket.contains("Bills") && polymarket.contains("71¢"),
        "{polymarket}"
    );
    let rows = root
        .query_selector_all("table.game-markets tbody tr")
        .expect("rows");
    let first = rows
        .get(0)
        .and_then(|r| r.text_content())
        .unwrap_or_default();
    assert!(first.contains("Bills vs. Falcons"), "{first}");
    assert!(
        first.contains(&format::money(Some(45_210.5))),
        "liquidity: {first}"
    );
    // Bills (polymarket) and Buffalo (kalshi) have books; the empty one
    // and the null one are not drawn.
    assert_eq!(count(&root, "details.outcome-book"), 2);
}

#[wasm_bindgen_test]
async fn trades_show_the_yes_price_not_the_mis_scaled_one() {
    use predmarket_client::core::models::TradesResponse;
    use predmarket_web::pages::market::TradeRow;
    let r: TradesResponse = public!("list_trades_yes_price.json");
    let trades = r.trades;
    let (root, _h) = mount(move || {
        view! {
            <table><tbody>
                {trades.into_iter().map(|trade| view! { <TradeRow trade now=1_757_010_000_000.0 /> }).collect_view()}
            </tbody></table>
        }
    });
    tick().await;
    let rows = root.query_selector_all("tbody tr").expect("rows");
    let cells: Vec<String> = (0..rows.length())
        .filter_map(|i| rows.get(i))
        .filter_map(|r| {
            r.unchecked_into::<web_sys::Element>()
                .query_selector("td.num")
                .ok()
                .flatten()
        })
        .filter_map(|c| c.text_content())
        .collect();
    assert_eq!(cells, ["13¢", "86¢", "15¢"]);
}

#[wasm_bindgen_test]
async fn futures_and_awards_lists_count_their_platforms() {
    use predmarket_client::core::models::{ListAwardsResponse, ListFuturesResponse};
    let futures: ListFuturesResponse = public!("list_futures_platform_markets.json");
    let awards: ListAwardsResponse = public!("list_awards_older.json");
    let contests: Vec<Contest> = futures
        .data
        .futures
        .iter()
        .map(Contest::from)
        .chain(awards.data.awards.iter().map(Contest::from))
        .collect();
    let (root, _h) = mount(
        move || view! { <ContestTable contests id="contests" caption="Futures and awards" /> },
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
