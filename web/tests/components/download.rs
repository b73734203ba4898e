//! Downloads: the markets table's CSV and NDJSON links give the rows it
//! shows, written by predmarket-core's export rule.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::export::{self, CsvOptions};
use predmarket_client::core::models::Market;
use predmarket_web::components::MarketTable;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

use super::support::*;

/// The text behind a `blob:` URL (the page's own `fetch`).
async fn blob_text(url: &str) -> String {
    let global = js_sys::global();
    let fetch: js_sys::Function = js_sys::Reflect::get(&global, &"fetch".into())
        .expect("fetch")
        .unchecked_into();
    let response = JsFuture::from(js_sys::Promise::from(
        fetch.call1(&global, &url.into()).expect("fetch called"),
    ))
    .await
    .expect("the blob is read");
    let text: js_sys::Function = js_sys::Reflect::get(&response, &"text".into())
        .expect("text")
        .unchecked_into();
    JsFuture::from(js_sys::Promise::from(
        text.call0(&response).expect("text called"),
    ))
    .await
    .expect("its text")
    .as_string()
    .expect("a string")
}

#[wasm_bindgen_test]
async fn the_markets_table_downloads_its_rows_as_csv_and_ndjson() {
    let markets: Vec<Market> = serde_json::from_value(serde_json::json!([
        { "id": "m1", "title": "=HYPERLINK(\"x\"), a formula?", "current_prices": { "yes": { "price": 0.41 } } },
        { "id": "m2", "title": "Line\nbreak \"quoted\"", "tags": ["a", "b"] }
    ]))
    .expect("markets");
    let shown = markets.clone();
    let (root, _h) = mount(move || {
        let markets = Signal::stored(shown.clone());
        view! { <MarketTable markets caption="Markets" id="markets" /> }
    });
    tick().await;
    // The test stops the browser's own download; the link's handler has
    // run by then (target before bubbling).
    let stop = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| e.prevent_default());
    root.add_event_listener_with_callback("click", stop.as_ref().unchecked_ref())
        .expect("a listener");
    let rows = serde_json::to_value(&markets).expect("rows");
    for (format, want) in [
        (
            "csv",
            export::to_csv(
                &export::rows(&rows),
                None,
                CsvOptions {
                    spreadsheet_safe: true,
                },
            ),
        ),
        ("ndjson", export::to_ndjson(&export::rows(&rows))),
    ] {
        let link = find(&root, &format!(".download-link[data-format={format}]")).expect("a link");
        assert_eq!(
            link.get_attribute("download").as_deref(),
            Some(format!("markets.{format}").as_str())
        );
        link.click();
        let href = link.get_attribute("href").expect("an href");
        assert!(href.starts_with("blob:"), "{href}");
        let got = blob_text(&href).await;
        assert_eq!(got, want, "{format}");
    }
    let csv = export::to_csv(
        &export::rows(&rows),
        None,
        CsvOptions {
            spreadsheet_safe: true,
        },
    );
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"x\"\"), a formula?\""),
        "{csv}"
    );
    assert!(csv.contains("\"Line\nbreak \"\"quoted\"\"\""), "{csv}");
}
