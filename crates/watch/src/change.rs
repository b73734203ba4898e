//! The core's change rules as plain JS functions: what changed between two
//! answers of one resource (the `watch*` streams yield exactly these), the
//! default interval of each kind of watch, and which errors end one. The
//! rules are predmarket-core's `change` module; the vectors in
//! `tests/fixtures/rules/` are run against both.

use crate::json;
use js_sys::{Array, Object};
use predmarket_core::change::{self, Tree, WatchKind};
use predmarket_core::models::PriceLevel;
use wasm_bindgen::prelude::*;

/// The levels of one side of one outcome of an orderbook answer (or of
/// its `data`); none when absent.
fn levels(value: &JsValue, book: &str, side: &str) -> Vec<PriceLevel> {
    let data = json::get(value, "data");
    let whole = if data.is_object() {
        data
    } else {
        value.clone()
    };
    json::price_levels(&json::get_path(&whole, &[book, side]))
}

/// The price levels new (`from: null`), resized or gone (`to: null`)
/// between two order books: `yes` then `no`, bids then asks, each by price
/// ascending. Levels of one price are summed.
#[wasm_bindgen(js_name = bookChanges, unchecked_return_type = "LevelChange[]")]
pub fn book_changes(
    #[wasm_bindgen(unchecked_param_type = "OrderbookResponse | Orderbook")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OrderbookResponse | Orderbook")] after: JsValue,
) -> JsValue {
    let size = |v: Option<f64>| v.map_or(JsValue::NULL, JsValue::from_f64);
    let out = Array::new();
    // The order of the core's `book_changes`.
    for book in ["yes", "no"] {
        for side in ["bids", "asks"] {
            let was = levels(&before, book, side);
            let now = levels(&after, book, side);
            for (price, from, to) in change::level_changes(&was, &now) {
                out.push(
                    &json::Obj::new()
                        .str("book", book)
                        .str("side", side)
                        .num("price", price)
                        .val("from", &size(from))
                        .val("to", &size(to))
                        .build(),
                );
            }
        }
    }
    out.into()
}

/// A parsed JSON value, as the core's diff reads it.
#[derive(Clone)]
struct Js(JsValue);

impl Tree for Js {
    fn object_keys(&self) -> Option<Vec<String>> {
        (self.0.is_object() && !Array::is_array(&self.0)).then(|| {
            Object::keys(self.0.unchecked_ref::<Object>())
                .iter()
                .filter_map(|k| k.as_string())
                .collect()
        })
    }
    fn array_len(&self) -> Option<usize> {
        Array::is_array(&self.0).then(|| Array::from(&self.0).length() as usize)
    }
    fn key(&self, key: &str) -> Option<Self> {
        // Own keys only: `constructor` or `__proto__` of a plain object
        // are not values of the answer.
        let key = JsValue::from_str(key);
        Object::has_own(self.0.unchecked_ref::<Object>(), &key)
            .then(|| Js(json::get_key(&self.0, &key)))
    }
    fn index(&self, index: usize) -> Option<Self> {
        let array = Array::from(&self.0);
        (index < array.length() as usize).then(|| Js(array.get(index as u32)))
    }
    fn same_leaf(&self, other: &Self) -> bool {
        match (self.0.as_f64(), other.0.as_f64()) {
            (Some(a), Some(b)) => a == b,
            _ => Object::is(&self.0, &other.0),
        }
    }
}

/// The values that changed between two answers, by path
/// (`data.markets[0].yes_price`); `null` where a value was or is missing.
/// Objects key by key, arrays index by index; the top-level `meta`
/// (timings) is left out.
#[wasm_bindgen(js_name = valueChanges, unchecked_return_type = "JsonChange[]")]
pub fn value_changes(
    #[wasm_bindgen(unchecked_param_type = "unknown")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] after: JsValue,
) -> JsValue {
    let value = |v: Option<Js>| v.map_or(JsValue::NULL, |v| v.0);
    json::array(change::tree_changes(&Js(before), &Js(after)), |c| {
        json::Obj::new()
            .str("path", &c.path)
            .val("from", &value(c.from))
            .val("to", &value(c.to))
            .build()
    })
}

/// How often a watch of `kind` asks when its caller does not say (ms).
#[wasm_bindgen(js_name = watchIntervalMs)]
pub fn watch_interval_ms(#[wasm_bindgen(unchecked_param_type = "WatchKind")] kind: &str) -> f64 {
    WatchKind::from_name(kind).map_or(f64::NAN, WatchKind::default_interval_ms)
}

/// Whether an error ends a watch (asking again cannot change the answer)
/// rather than being told to `onError` and asked again at the next
/// interval.
#[wasm_bindgen(js_name = endsWatch)]
pub fn ends_watch(#[wasm_bindgen(unchecked_param_type = "unknown")] error: JsValue) -> bool {
    let status = json::get(&error, "status")
        .as_f64()
        .filter(|s| (0.0..=999.0).contains(s))
        .map(|s| s as u16);
    let code = json::string(&error, "code").unwrap_or_default();
    change::ends_watch(status, &code)
}
