//! The client's rejections: the core's errors as the package's
//! `PredmarketError` (predmarket-js-values' `errors`, shared with the pure
//! functions' wasm), with the stack of the caller's call site, and the
//! `isApiError` guard.

use crate::json::{self, set};
use predmarket_client::Error;
pub use predmarket_js_values::errors::to_js;
use predmarket_js_values::errors::{ABORT_NAME, NAME};
use wasm_bindgen::prelude::*;

/// The error of a call, with the stack of where the caller made the call
/// (`site`, captured synchronously then) instead of the wasm and promise
/// machinery that rejected it later; the call site's error is its `cause`
/// chain's start only in spirit: `cause` holds what the library knows of
/// the underlying failure.
pub fn to_js_at(error: &Error, site: &js_sys::Error) -> JsValue {
    let js_error = to_js(error);
    if let Some(stack) = json::get(site.as_ref(), "stack").as_string() {
        // The site's first line is its own (empty) message; the frames follow.
        let frames = stack.split_once('\n').map_or("", |(_, rest)| rest);
        let name = json::get(&js_error, "name").as_string().unwrap_or_default();
        set(
            &js_error,
            "stack",
            &JsValue::from_str(&format!("{name}: {error}\n{frames}")),
        );
    }
    if let Error::Network { message } = error {
        set(&js_error, "cause", &js_sys::Error::new(message).into());
    }
    js_error
}

/// Whether `value` is an error of this library: narrows `unknown` in TS.
#[wasm_bindgen(js_name = isApiError, unchecked_return_type = "value is ApiError")]
pub fn is_api_error(#[wasm_bindgen(unchecked_param_type = "unknown")] value: &JsValue) -> bool {
    let name = json::get(value, "name").as_string();
    value.is_instance_of::<js_sys::Error>()
        && matches!(name.as_deref(), Some(NAME | ABORT_NAME))
        && json::get(value, "code").is_string()
}
