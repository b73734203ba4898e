//! The public service's real-shaped bodies (tests/fixtures/public) on the
//! pages that read them.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::OddsFormat;
use predmarket_web::format;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;

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
