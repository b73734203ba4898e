//! Text and links from the service are data, never markup: hostile titles,
//! warnings, links, colours and images.

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::core::models::{Market, PlatformError, PlatformId};
use predmarket_web::components::{MarketTable, PlatformWarnings, RemoteImage};
use predmarket_web::format;
use std::collections::BTreeMap;
use wasm_bindgen_test::*;

use super::support::*;

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
