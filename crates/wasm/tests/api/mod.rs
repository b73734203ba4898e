//! Tests shared by the Node and the Chromium runs.

use js_sys::{Array, Object, Reflect};
use predmarket_wasm::{Client, is_api_error};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

fn server_url() -> &'static str {
    option_env!("PREDMARKET_TEST_URL")
        .expect("PREDMARKET_TEST_URL: run these through `cargo xtask test`")
}

fn server_key() -> &'static str {
    option_env!("PREDMARKET_TEST_KEY")
        .expect("PREDMARKET_TEST_KEY: run these through `cargo xtask test`")
}

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in pairs {
        Reflect::set(&object, &JsValue::from_str(key), value).expect("set");
    }
    object.into()
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).expect("get")
}

fn client_with(api_key: &str, base_url: &str) -> Client {
    let options = object(&[
        ("apiKey", api_key.into()),
        ("baseUrl", base_url.into()),
        ("maxRetries", 0.into()),
    ]);
    match Client::new(options) {
        Ok(client) => client,
        Err(e) => panic!("constructor failed: {e:?}"),
    }
}

fn client() -> Client {
    client_with(server_key(), server_url())
}

async fn rejection(promise: js_sys::Promise) -> JsValue {
    match JsFuture::from(promise).await {
        Ok(value) => panic!("expected a rejection, got {value:?}"),
        Err(error) => error,
    }
}

#[wasm_bindgen_test]
async fn lists_the_eight_platforms() {
    let response = JsFuture::from(client().list_platforms(JsValue::UNDEFINED, JsValue::UNDEFINED))
        .await
        .expect("listPlatforms");
    let platforms: Array = get(&response, "platforms")
        .dyn_into()
        .expect("platforms array");
    assert_eq!(platforms.length(), 8);
    assert_eq!(
        get(&platforms.get(0), "id").as_string().as_deref(),
        Some("platform_a")
    );
    let health = get(&platforms.get(0), "health");
    assert!(get(&health, "response_time_ms").as_f64().is_some());
    assert_eq!(get(&get(&response, "meta"), "total").as_f64(), Some(8.0));
}

#[wasm_bindgen_test]
async fn a_wrong_key_rejects_with_a_typed_error() {
    let error = rejection(
        client_with("not-a-key", server_url())
            .list_platforms(JsValue::UNDEFINED, JsValue::UNDEFINED),
    )
    .await;
    assert!(error.is_instance_of::<js_sys::Error>(), "a real Error");
    assert!(is_api_error(&error));
    assert_eq!(
        get(&error, "name").as_string().as_deref(),
        Some("PredmarketError")
    );
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("UNAUTHORIZED")
    );
    assert_eq!(get(&error, "status").as_f64(), Some(401.0));
    let message = get(&error, "message").as_string().unwrap_or_default();
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
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("VALIDATION_ERROR")
    );
    assert_eq!(
        get(&error, "parameter").as_string().as_deref(),
        Some("apiKey")
    );
}

#[wasm_bindgen_test]
async fn an_aborted_signal_rejects_with_aborted() {
    let controller = web_sys::AbortController::new().expect("AbortController");
    controller.abort();
    let options = object(&[("signal", controller.signal().into())]);
    let error = rejection(client().list_platforms(JsValue::UNDEFINED, options)).await;
    assert_eq!(get(&error, "code").as_string().as_deref(), Some("ABORTED"));
}

#[wasm_bindgen_test]
async fn an_unreachable_server_is_a_network_error() {
    // Port 9 (discard) on loopback: nothing listens there.
    let error = rejection(
        client_with(server_key(), "http://127.0.0.1:9")
            .list_platforms(JsValue::UNDEFINED, JsValue::UNDEFINED),
    )
    .await;
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("NETWORK_ERROR")
    );
}

#[wasm_bindgen_test]
fn is_api_error_rejects_other_values() {
    assert!(!is_api_error(&JsValue::from_str("x")));
    assert!(!is_api_error(&js_sys::Error::new("plain").into()));
}
