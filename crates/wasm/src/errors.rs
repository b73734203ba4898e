//! Rejections are real `Error` objects (with a stack) carrying `name`,
//! `code`, `status`, `retryAfterMs`, `details` and `parameter`.

use crate::json;
use predmarket_client::Error;
use wasm_bindgen::prelude::*;

const NAME: &str = "PredmarketError";

fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

pub fn to_js(error: &Error) -> JsValue {
    let js_error = js_sys::Error::new(&error.to_string());
    js_error.set_name(NAME);
    let target: &JsValue = js_error.as_ref();
    set(target, "code", &JsValue::from_str(error.code().as_str()));
    if let Some(status) = error.status() {
        set(target, "status", &JsValue::from(status));
    }
    if let Some(ms) = error.retry_after_ms() {
        set(target, "retryAfterMs", &JsValue::from(ms as f64));
    }
    if let Some(parameter) = error.parameter() {
        set(target, "parameter", &JsValue::from_str(parameter));
    }
    if let Some(details) = error.details()
        && let Ok(parsed) = json::parse(&js_sys::JsString::from(details.to_string()))
    {
        set(target, "details", &parsed);
    }
    js_error.into()
}

/// Whether `value` is an error of this library: narrows `unknown` in TS.
#[wasm_bindgen(js_name = isApiError, unchecked_return_type = "value is ApiError")]
pub fn is_api_error(#[wasm_bindgen(unchecked_param_type = "unknown")] value: &JsValue) -> bool {
    value.is_instance_of::<js_sys::Error>()
        && json::get(value, "name").as_string().as_deref() == Some(NAME)
        && json::get(value, "code").is_string()
}
