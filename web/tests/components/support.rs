//! Helpers of every test: mounting a view, reading the DOM, waiting for a
//! condition, errors and values to feed the components, the reference
//! server and the public service's fixtures.

use leptos::mount::{UnmountHandle, mount_to};
use leptos::prelude::*;
use leptos::tachys::view::Render;
use predmarket_client::Error;
use predmarket_client::core::ApiFailure;
use predmarket_client::core::models::{PlatformId, PriceLevel};
use predmarket_client::core::odds::Quote;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Mounts a view into a fresh element of the page; the handle unmounts it
/// when dropped.
pub fn mount<F, N>(f: F) -> (web_sys::HtmlElement, UnmountHandle<<N as Render>::State>)
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

pub fn find(root: &web_sys::HtmlElement, selector: &str) -> Option<web_sys::HtmlElement> {
    root.query_selector(selector)
        .ok()
        .flatten()
        .map(|e| e.unchecked_into())
}

pub fn text(root: &web_sys::HtmlElement, selector: &str) -> String {
    find(root, selector)
        .map(|e| e.text_content().unwrap_or_default())
        .unwrap_or_default()
}

pub fn count(root: &web_sys::HtmlElement, selector: &str) -> u32 {
    root.query_selector_all(selector)
        .map(|l| l.length())
        .unwrap_or(0)
}

/// Types into an input as a user would (value, then a bubbling `input`).
pub fn type_into(input: &web_sys::HtmlElement, value: &str) {
    let input: &web_sys::HtmlInputElement = input.unchecked_ref();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
    input.dispatch_event(&event).expect("dispatch");
}

pub async fn sleep(ms: u64) {
    gloo_timers::future::sleep(Duration::from_millis(ms)).await;
}

/// Waits (up to `ms`) for a selector to match.
pub async fn wait_for(root: &web_sys::HtmlElement, selector: &str, ms: u64) -> bool {
    eventually(ms, || find(root, selector).is_some()).await
}

/// Waits until `condition` holds, asking every 50 ms, for at most `ms` of
/// those waits (on a busy machine each lasts longer: the ceiling grows,
/// never shrinks).
pub async fn eventually(ms: u64, condition: impl Fn() -> bool) -> bool {
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

pub fn failure(status: u16, code: &str, retry_after_ms: Option<u64>) -> Error {
    Error::from_failure(ApiFailure {
        status,
        code: code.into(),
        message: "refused".into(),
        details: None,
        retry_after_ms,
    })
}

pub fn level(price: f64, size: f64) -> PriceLevel {
    PriceLevel::new(price, size)
}

pub fn quote(outcome: &str, platform: &str, decimal: f64) -> Quote {
    Quote {
        outcome: outcome.to_lowercase(),
        label: outcome.into(),
        platform: Some(PlatformId::from(platform)),
        market_id: None,
        decimal,
    }
}

pub const HOSTILE: &str =
    "<script>alert(\"xss\")</script><img src=x onerror=\"alert(1)\">\u{202e}Reversed\u{202c}";

/// Points the app at the test server (what Settings would store). A
/// test that needs the server fails when built without its address and
/// key, as the package's wasm tests do, rather than passing untested:
/// `cargo xtask test --only web-components` builds them with both.
pub fn use_test_server() {
    let (Some(url), Some(key)) = (
        option_env!("PREDMARKET_TEST_URL"),
        option_env!("PREDMARKET_TEST_KEY"),
    ) else {
        panic!(
            "built without PREDMARKET_TEST_URL and PREDMARKET_TEST_KEY: \
             run these through `cargo xtask test --only web-components`"
        );
    };
    let storage = web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .expect("sessionStorage");
    storage.set_item("predmarket.baseUrl", url).expect("set");
    storage.set_item("predmarket.apiKey", key).expect("set");
}

/// A fixture body of tests/fixtures/public, decoded.
macro_rules! public {
    ($file:literal) => {
        serde_json::from_str(include_str!(concat!(
            "../../../tests/fixtures/public/",
            $file
        )))
        .expect("a real-shaped fixture decodes")
    };
}

/// Every request the page sends through the global `fetch` while it
/// lives, by URL: the demo's client and its stream look `fetch` up at each
/// call, so a wrapper that records and passes each call on sees them all.
/// The original is put back when dropped.
pub struct FetchLog {
    original: wasm_bindgen::JsValue,
    urls: js_sys::Array,
}

impl FetchLog {
    pub fn start() -> Self {
        let global = js_sys::global();
        let original = js_sys::Reflect::get(&global, &"fetch".into()).expect("fetch");
        let urls = js_sys::Array::new();
        let wrap = js_sys::Function::new_with_args(
            "original, urls",
            "return function (input, init) { urls.push(String(input && input.url ? input.url : input)); return original.call(globalThis, input, init); };",
        );
        let wrapped = wrap
            .call2(&wasm_bindgen::JsValue::NULL, &original, &urls)
            .expect("wrap");
        js_sys::Reflect::set(&global, &"fetch".into(), &wrapped).expect("set fetch");
        Self { original, urls }
    }

    /// The URLs asked so far, in order.
    pub fn urls(&self) -> Vec<String> {
        self.urls.iter().filter_map(|u| u.as_string()).collect()
    }

    /// The URLs asked so far that contain `part`.
    pub fn asked(&self, part: &str) -> Vec<String> {
        self.urls()
            .into_iter()
            .filter(|u| u.contains(part))
            .collect()
    }
}

impl Drop for FetchLog {
    fn drop(&mut self) {
        let _ = js_sys::Reflect::set(&js_sys::global(), &"fetch".into(), &self.original);
    }
}
