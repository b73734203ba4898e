//! Errors thrown into JS are real `Error` objects (with a stack) carrying
//! `name`, `code`, `status`, `retryAfterMs`, `details` and `parameter`.
//!
//! In the npm package they are instances of the classes `PredmarketError`
//! and `PredmarketAbortError` (name `AbortError`), defined by the package's
//! plain JS (crates/wasm/js/errors.js) and registered with each wasm module
//! when it is instantiated (`__registerErrorClasses`): a class written in
//! a wasm-bindgen JS snippet breaks some of its targets. Without
//! registration (the wasm tests) the errors are plain `Error`s with the
//! same fields.

use crate::json::{self, set};
use predmarket_core::Error;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The `name` of every error but an abort.
pub const NAME: &str = "PredmarketError";
/// The `name` of an aborted call's error.
pub const ABORT_NAME: &str = "AbortError";

thread_local! {
    /// The prototypes of `PredmarketError` and `PredmarketAbortError`.
    static CLASSES: RefCell<Option<(JsValue, JsValue)>> = const { RefCell::new(None) };
}

/// Called once by the package's entry with its two error classes.
#[wasm_bindgen(js_name = __registerErrorClasses, skip_typescript)]
pub fn register_error_classes(base: &js_sys::Function, abort: &js_sys::Function) {
    // Reflect, not json::get: a class is a function, not an object.
    let prototype = |class: &js_sys::Function| {
        js_sys::Reflect::get(class.as_ref(), &JsValue::from_str("prototype"))
            .ok()
            .filter(JsValue::is_object)
    };
    let (Some(base), Some(abort)) = (prototype(base), prototype(abort)) else {
        return;
    };
    CLASSES.with(|c| *c.borrow_mut() = Some((base, abort)));
}

pub fn to_js(error: &Error) -> JsValue {
    let js_error = js_sys::Error::new(&error.to_string());
    let aborted = matches!(error, Error::Aborted);
    CLASSES.with(|c| {
        if let Some((base, abort)) = &*c.borrow() {
            let prototype = if aborted { abort } else { base };
            js_sys::Object::set_prototype_of(js_error.as_ref(), prototype.unchecked_ref());
        }
    });
    // An own property too, so the name shows in logs without the classes.
    js_error.set_name(if aborted { ABORT_NAME } else { NAME });
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
    if let Some(details) = error.details() {
        set(target, "details", &to_js_value(details));
    }
    if let Error::Redirected { location, .. } = error {
        set(target, "location", &JsValue::from_str(location));
    }
    js_error.into()
}

/// A JSON value as the JS value `JSON.parse` would give. Built directly,
/// not through JSON text: serializing would link serde_json's encoder and
/// its float formatter into the package.
fn to_js_value(value: &serde_json::Value) -> JsValue {
    use serde_json::Value;
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => n.as_f64().map_or(JsValue::NULL, JsValue::from_f64),
        Value::String(s) => JsValue::from_str(s),
        Value::Array(items) => items
            .iter()
            .map(to_js_value)
            .collect::<js_sys::Array>()
            .into(),
        Value::Object(map) => {
            let object = json::object();
            for (key, item) in map {
                // `json::set`: a `__proto__` key stays an own property.
                set(&object, key, &to_js_value(item));
            }
            object
        }
    }
}
