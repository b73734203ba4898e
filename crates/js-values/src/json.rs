//! Crossing between JS values and Rust.
//!
//! Responses: `JSON.parse` on a JS string held by reference, so the body
//! never enters wasm memory (`js_sys::JSON::parse` takes `&str`, which
//! would copy it); Rust then reads only the few fields it needs.
//!
//! The exported functions read their inputs and build their results with
//! the small helpers here (Reflect), not serde: typed deserializers of the
//! models cost more wasm than everything else together.

use js_sys::{JsString, Object, Reflect};
use predmarket_core::Error;
use predmarket_core::models::PriceLevel;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &JsString) -> Result<JsValue, JsValue>;

}

pub fn parse(text: &JsString) -> Result<JsValue, JsValue> {
    json_parse(text)
}

/// A response body as JS objects, or a decode error quoting its start.
pub fn parse_body(text: &JsString) -> Result<JsValue, Error> {
    parse(text).map_err(|_| {
        let start: String = text.slice(0, 200).into();
        Error::decode(Some(200), "the body is not JSON", &start)
    })
}

/// Reads `object[key]`, `undefined` when absent or not an object.
pub fn get(object: &JsValue, key: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `object[key]` for a key that is already a JS value.
pub fn get_key(object: &JsValue, key: &JsValue) -> JsValue {
    Reflect::get(object, key).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `object[a][b]…`.
pub fn get_path(object: &JsValue, path: &[&str]) -> JsValue {
    path.iter()
        .fold(object.clone(), |value, key| get(&value, key))
}

/// `target[key] = value`, always as an own data property: keys come from
/// the wire too (an error's `details`, an outcome's name), and assigning
/// `__proto__` would set the object's prototype instead.
pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    if key == "__proto__" {
        define(target, key, value);
    } else {
        // Plain objects inherit no other setter: assignment is a define.
        let _ = Reflect::set(target, &JsValue::from_str(key), value);
    }
}

/// `target[key]` defined as an enumerable, writable, configurable data
/// property (what `JSON.parse` makes of every key).
pub fn define(target: &JsValue, key: &str, value: &JsValue) {
    let descriptor = Object::new();
    let _ = Reflect::set(&descriptor, &JsValue::from_str("value"), value);
    for flag in ["enumerable", "writable", "configurable"] {
        let _ = Reflect::set(&descriptor, &JsValue::from_str(flag), &JsValue::TRUE);
    }
    let target: &Object = target.unchecked_ref();
    let _ = Reflect::define_property(target, &JsValue::from_str(key), &descriptor);
}

pub fn object() -> JsValue {
    Object::new().into()
}

/// `object[key]` when it is a string.
pub fn string(object: &JsValue, key: &str) -> Option<String> {
    get(object, key).as_string()
}

/// `object[key]` when it is a number or a string holding one (the
/// declarations say `Numeric`: the public service sends both).
pub fn number(object: &JsValue, key: &str) -> Option<f64> {
    let value = get(object, key);
    value.as_f64().or_else(|| {
        value
            .as_string()
            .and_then(|s| predmarket_core::number::parse(s.trim()))
            .filter(|n| n.is_finite())
    })
}

/// The elements of `value` when it is an array, else none.
pub fn elements(value: &JsValue) -> Vec<JsValue> {
    if js_sys::Array::is_array(value) {
        js_sys::Array::from(value).iter().collect()
    } else {
        Vec::new()
    }
}

/// A JS object built field by field; absent options are left out.
pub struct Obj(JsValue);

impl Default for Obj {
    fn default() -> Self {
        Self::new()
    }
}

impl Obj {
    pub fn new() -> Self {
        Self(object())
    }
    pub fn num(self, key: &str, value: f64) -> Self {
        set(&self.0, key, &JsValue::from_f64(value));
        self
    }
    pub fn opt_num(self, key: &str, value: Option<f64>) -> Self {
        match value {
            Some(v) => self.num(key, v),
            None => self,
        }
    }
    pub fn str(self, key: &str, value: &str) -> Self {
        set(&self.0, key, &JsValue::from_str(value));
        self
    }
    pub fn opt_str(self, key: &str, value: Option<&str>) -> Self {
        match value {
            Some(v) => self.str(key, v),
            None => self,
        }
    }
    pub fn bool(self, key: &str, value: bool) -> Self {
        set(&self.0, key, &JsValue::from_bool(value));
        self
    }
    pub fn val(self, key: &str, value: &JsValue) -> Self {
        set(&self.0, key, value);
        self
    }
    pub fn build(self) -> JsValue {
        self.0
    }
}

/// A JS array of `items`.
pub fn array<T>(items: impl IntoIterator<Item = T>, f: impl Fn(T) -> JsValue) -> JsValue {
    items.into_iter().map(f).collect::<js_sys::Array>().into()
}

/// The price levels of a JS array of `{ price, size }` (numbers or numeric
/// strings); entries without both are skipped.
pub fn price_levels(value: &JsValue) -> Vec<PriceLevel> {
    elements(value)
        .iter()
        .filter_map(|l| Some(PriceLevel::new(number(l, "price")?, number(l, "size")?)))
        .collect()
}
