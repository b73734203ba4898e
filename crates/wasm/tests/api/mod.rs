//! Tests shared by the Node and the Chromium runs, against the reference
//! servers `cargo xtask test` starts (their URLs are compiled in):
//! - `PREDMARKET_TEST_URL`: 10 000 markets, platform_h failing, keys with
//!   low per-key limits (`pm_low_<runner>:3`, `pm_tiny_<runner>:1`, …);
//! - `PREDMARKET_TEST_FLAKY_URL`: 200 ms latency, 30 % 5xx, 20 % 429.

mod errors;
mod functions;
mod operations;
mod paging;
mod resilience;

use js_sys::{Array, Object, Promise, Reflect};
use predmarket_wasm::{Client, is_api_error};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

pub const U: JsValue = JsValue::UNDEFINED;

/// A pager method's answer as its class: the wasm client without the
/// package's hooks (`__around`) hands the class itself, where the
/// package's `Client` may hand its persistent cache's wrapper.
pub trait PagerClass {
    fn class<T: wasm_bindgen::convert::TryFromJsValue>(self, what: &str) -> T;
}

impl PagerClass for Result<JsValue, JsValue> {
    fn class<T: wasm_bindgen::convert::TryFromJsValue>(self, what: &str) -> T {
        let made = self.unwrap_or_else(|e| panic!("{what}: {}", code(&e)));
        T::try_from_js_value(made).unwrap_or_else(|_| panic!("{what}: not its pager class"))
    }
}

pub fn server_url() -> &'static str {
    match option_env!("PREDMARKET_TEST_URL") {
        Some(url) => url,
        None => panic!("PREDMARKET_TEST_URL: run these through `cargo xtask test`"),
    }
}

pub fn flaky_url() -> &'static str {
    match option_env!("PREDMARKET_TEST_FLAKY_URL") {
        Some(url) => url,
        None => panic!("PREDMARKET_TEST_FLAKY_URL: run these through `cargo xtask test`"),
    }
}

pub fn server_key() -> &'static str {
    match option_env!("PREDMARKET_TEST_KEY") {
        Some(key) => key,
        None => panic!("PREDMARKET_TEST_KEY: run these through `cargo xtask test`"),
    }
}

/// A key of the main server reserved for this runner (Node and Chromium
/// share the server, and a per-key limit would carry over between them).
pub fn runner_key(kind: &str) -> String {
    format!("pm_{kind}_{}", crate::RUNNER)
}

pub fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in pairs {
        Reflect::set(&object, &JsValue::from_str(key), value).expect("set");
    }
    object.into()
}

pub fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub fn path(value: &JsValue, keys: &[&str]) -> JsValue {
    keys.iter().fold(value.clone(), |v, k| get(&v, k))
}

pub fn string(value: &JsValue, key: &str) -> Option<String> {
    get(value, key).as_string()
}

pub fn array(value: &JsValue) -> Array {
    assert!(Array::is_array(value), "not an array: {value:?}");
    Array::from(value)
}

pub fn code(error: &JsValue) -> String {
    string(error, "code").unwrap_or_else(|| format!("not an ApiError: {error:?}"))
}

/// A client of `base_url` with `extra` options (camelCase, as in JS).
pub fn client_of(api_key: &str, base_url: &str, extra: &[(&str, JsValue)]) -> Client {
    let mut pairs = vec![("apiKey", api_key.into()), ("baseUrl", base_url.into())];
    pairs.extend(extra.iter().cloned());
    match Client::new(object(&pairs)) {
        Ok(client) => client,
        Err(e) => panic!("constructor failed: {:?}", get(&e, "message")),
    }
}

pub fn client_with(api_key: &str, base_url: &str) -> Client {
    client_of(api_key, base_url, &[("maxRetries", 0.into())])
}

pub fn client() -> Client {
    client_with(server_key(), server_url())
}

pub async fn resolve(promise: Promise) -> JsValue {
    match JsFuture::from(promise).await {
        Ok(value) => value,
        Err(error) => panic!(
            "rejected: {} {:?}",
            code(&error),
            get(&error, "message").as_string()
        ),
    }
}

pub async fn rejection(promise: Promise) -> JsValue {
    match JsFuture::from(promise).await {
        Ok(value) => panic!("expected a rejection, got {value:?}"),
        Err(error) => {
            assert!(is_api_error(&error), "an ApiError: {error:?}");
            error
        }
    }
}

#[wasm_bindgen]
extern "C" {
    /// `AbortSignal.timeout(ms)`: a signal that aborts after `ms`.
    #[wasm_bindgen(js_namespace = AbortSignal, js_name = timeout)]
    pub fn abort_after(ms: u32) -> web_sys::AbortSignal;
}

/// Platform and league ids as the server names them, in its listing order.
/// Tests never write an id: `cargo xtask test` also runs them against a
/// server started with `--rename-ids`.
pub struct Ids {
    platforms: Vec<String>,
    leagues: Vec<String>,
}

impl Ids {
    /// The `n`-th platform of `/platforms` (0: the one with every feature).
    pub fn platform(&self, n: usize) -> JsValue {
        JsValue::from_str(&self.platforms[n])
    }

    /// The `n`-th league of `/league-info`.
    pub fn league(&self, n: usize) -> JsValue {
        JsValue::from_str(&self.leagues[n])
    }
}

pub async fn ids() -> Ids {
    let c = client();
    let platforms = resolve(c.list_platforms(U, U)).await;
    let leagues = resolve(c.get_league_info(U, U)).await;
    let id_of = |v: JsValue| string(&v, "id").expect("an id");
    Ids {
        platforms: array(&get(&platforms, "platforms"))
            .iter()
            .map(id_of)
            .collect(),
        leagues: array(&get(&leagues, "data")).iter().map(id_of).collect(),
    }
}

pub fn signal_after(ms: u32) -> JsValue {
    object(&[("signal", abort_after(ms).into())])
}

#[wasm_bindgen_test]
async fn lists_the_eight_platforms() {
    let response = resolve(client().list_platforms(U, U)).await;
    let platforms = array(&get(&response, "platforms"));
    assert_eq!(platforms.length(), 8);
    assert!(string(&platforms.get(0), "id").is_some_and(|id| !id.is_empty()));
    let health = get(&platforms.get(0), "health");
    assert!(get(&health, "response_time_ms").as_f64().is_some());
    assert_eq!(path(&response, &["meta", "total"]).as_f64(), Some(8.0));
}

#[wasm_bindgen_test]
async fn a_wrong_key_rejects_with_a_typed_error() {
    let error = rejection(client_with("not-a-key", server_url()).list_platforms(U, U)).await;
    assert!(error.is_instance_of::<js_sys::Error>(), "a real Error");
    assert_eq!(string(&error, "name").as_deref(), Some("PredmarketError"));
    assert_eq!(code(&error), "UNAUTHORIZED");
    assert_eq!(get(&error, "status").as_f64(), Some(401.0));
    assert!(get(&error, "stack").is_string());
    let message = string(&error, "message").unwrap_or_default();
    assert!(
        !message.contains("not-a-key"),
        "the key never appears in a message: {message}"
    );
}

#[wasm_bindgen_test]
fn a_missing_key_is_a_validation_error_naming_the_parameter() {
    let error = match Client::new(object(&[("baseUrl", server_url().into())])) {
        Ok(_) => panic!("must throw"),
        Err(error) => error,
    };
    assert!(is_api_error(&error));
    assert_eq!(code(&error), "VALIDATION_ERROR");
    assert_eq!(string(&error, "parameter").as_deref(), Some("apiKey"));
}

#[wasm_bindgen_test]
fn a_misspelt_client_option_is_reported() {
    let options = object(&[("apiKey", server_key().into()), ("timeout", 5.into())]);
    let error = match Client::new(options) {
        Ok(_) => panic!("must throw"),
        Err(error) => error,
    };
    assert_eq!(string(&error, "parameter").as_deref(), Some("timeout"));
}

#[wasm_bindgen_test]
async fn an_aborted_signal_rejects_with_aborted() {
    let controller = web_sys::AbortController::new().expect("AbortController");
    controller.abort();
    let options = object(&[("signal", controller.signal().into())]);
    let error = rejection(client().list_platforms(U, options)).await;
    assert_eq!(code(&error), "ABORTED");
}

#[wasm_bindgen_test]
async fn an_unreachable_server_is_a_network_error() {
    // Port 9 (discard) on loopback: nothing listens there.
    let error =
        rejection(client_with(server_key(), "http://127.0.0.1:9").list_platforms(U, U)).await;
    assert_eq!(code(&error), "NETWORK_ERROR");
}

#[wasm_bindgen_test]
fn is_api_error_rejects_other_values() {
    assert!(!is_api_error(&JsValue::from_str("x")));
    assert!(!is_api_error(&js_sys::Error::new("plain").into()));
}
