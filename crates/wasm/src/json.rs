//! `JSON.parse` on a JS string held by reference: the body never enters
//! wasm memory (js_sys::JSON::parse takes `&str`, which would copy it).

use js_sys::JsString;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &JsString) -> Result<JsValue, JsValue>;
}

pub fn parse(text: &JsString) -> Result<JsValue, JsValue> {
    json_parse(text)
}

/// Reads `object[key]`, `undefined` when absent or not an object.
pub fn get(object: &JsValue, key: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
