//! Parameters from the JS object a caller passes, read into the core's
//! request structs through their parameter table (`#[derive(Params)]` on
//! the struct, so the struct stays the one declaration); the struct's
//! checks then run before anything is sent. The JS type of each parameter
//! object is derived from the same struct (tsify: `ListMarketsParams` and
//! so on).
//!
//! Keys are the service's wire names (`include_raw`, `market_id`,
//! `takerOnly`), so parameters read like the responses. Reading is strict
//! where a typo would otherwise be silently ignored: an unknown key is a
//! `VALIDATION_ERROR` naming it and listing the keys the operation takes;
//! a value of the wrong type is one naming the parameter. Numbers may be
//! numbers or strings of digits, booleans `true`/`false` or their strings
//! (the wire form).
//!
//! One reader, driven by the table, serves every operation: serde's
//! derives compiled a decoder per request type, most of the package's
//! wasm (docs/benchmarks.md).

use crate::json;
use crate::ops::Op;
use js_sys::{Array, Object};
use predmarket_client::Error;
use predmarket_client::core::request::params::{self, Param, Raw, Value};
use wasm_bindgen::{JsCast, JsValue};

fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// A JS value as a parameter value, before its kind is known.
fn raw(key: &str, value: &JsValue) -> Result<Raw, Error> {
    if let Some(text) = value.as_string() {
        return Ok(Raw::Text(text));
    }
    if let Some(flag) = value.as_bool() {
        return Ok(Raw::Flag(flag));
    }
    if let Some(n) = value.as_f64() {
        if !n.is_finite() {
            return Err(Error::invalid(key, "must be a finite number"));
        }
        return Ok(Raw::Number(n));
    }
    if Array::is_array(value) {
        let mut items = Vec::new();
        for item in Array::from(value).iter() {
            match item.as_string() {
                Some(text) => items.push(text),
                None => return Err(Error::invalid(key, "must hold strings only")),
            }
        }
        return Ok(Raw::List(items));
    }
    Err(Error::invalid(key, "must be a string, number or boolean"))
}

fn unknown(table: &[Param], key: &str) -> String {
    let hint = match key {
        "signal" | "maxItems" => {
            "; call options such as `signal` and `maxItems` go in the next argument".to_owned()
        }
        _ if table.is_empty() => String::from("; this operation takes no parameters"),
        _ => format!("; expected one of {}", params::names(table)),
    };
    format!("is not a parameter of this operation{hint}")
}

/// The values of the parameters of `table` in the JS object `value`
/// (or `undefined`), with `id` (its key and value) when the caller passed
/// the id alone. Not generic: compiled once for every operation.
#[inline(never)]
fn read_values(
    value: &JsValue,
    table: &'static [Param],
    id: Option<(&str, String)>,
) -> Result<Vec<Option<Value>>, Error> {
    let mut pairs = Vec::new();
    if let Some((key, id)) = id {
        pairs.push((key.to_owned(), Raw::Text(id)));
    } else if !is_absent(value) {
        if !value.is_object() || Array::is_array(value) || value.is_function() {
            return Err(Error::invalid("params", "must be an object"));
        }
        for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
            let Some(key) = key.as_string() else { continue };
            let item = json::get(value, &key);
            if is_absent(&item) {
                continue;
            }
            let item = if table.iter().any(|p| p.name == key) {
                raw(&key, &item)?
            } else {
                // Reported by `params::read`, with the keys it takes.
                Raw::Flag(false)
            };
            pairs.push((key, item));
        }
    }
    params::read(table, pairs, |key| unknown(table, key))
}

/// The values of the parameters of `op` in the first argument of its
/// method: an object of parameters (or `undefined`), or the id alone as a
/// string for an operation on one resource.
pub fn values(op: &Op, value: &JsValue) -> Result<Vec<Option<Value>>, Error> {
    let id = op
        .id_key
        .and_then(|key| value.as_string().map(|id| (key, id)));
    read_values(value, op.params, id)
}
