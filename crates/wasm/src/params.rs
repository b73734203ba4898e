//! Parameters from the JS object a caller passes, read into the core's
//! request structs (their `Deserialize`, the same one the reference server
//! parses a query string with), whose checks then run before anything is
//! sent. The JS type of each parameter object is derived from the same
//! struct (tsify: `ListMarketsParams` and so on).
//!
//! Keys are the service's wire names (`include_raw`, `market_id`,
//! `takerOnly`), so parameters read like the responses. Reading is strict
//! where a typo would otherwise be silently ignored: an unknown key is a
//! `VALIDATION_ERROR` naming it and listing the keys the operation takes;
//! a value of the wrong type is one naming the parameter. Numbers may be
//! numbers or strings of digits, booleans `true`/`false` or their strings
//! (the wire form).

use crate::json;
use js_sys::{Array, JsString, Object};
use predmarket_client::Error;
use predmarket_client::core::request::*;
use wasm_bindgen::{JsCast, JsValue};

fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// The parameter object `value` as JSON text holding only the keys that are
/// set, with where each member ends in it (to name the parameter a decode
/// error points at); an unknown key is an error naming it.
fn to_json(value: &JsValue, allowed: &[&str]) -> Result<Members, Error> {
    let mut members = Members {
        text: String::from("{"),
        ends: Vec::new(),
    };
    if is_absent(value) {
        members.text.push('}');
        return Ok(members);
    }
    if !value.is_object() || Array::is_array(value) || value.is_function() {
        return Err(Error::invalid("params", "must be an object"));
    }
    for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
        let Some(key) = key.as_string() else { continue };
        let item = json::get(value, &key);
        if is_absent(&item) {
            continue;
        }
        if !allowed.contains(&key.as_str()) {
            let hint = match key.as_str() {
                "signal" | "maxItems" => {
                    "; call options such as `signal` and `maxItems` go in the next argument"
                        .to_owned()
                }
                _ if allowed.is_empty() => String::from("; this operation takes no parameters"),
                _ => format!("; expected one of {}", allowed.join(", ")),
            };
            return Err(Error::invalid(
                key.clone(),
                format!("is not a parameter of this operation{hint}"),
            ));
        }
        // What JSON.stringify would drop or turn into null, silently.
        if item.is_function() || item.is_symbol() || item.is_bigint() {
            return Err(Error::invalid(key, "must be a string, number or boolean"));
        }
        if item.as_f64().is_some_and(|n| !n.is_finite()) {
            return Err(Error::invalid(key, "must be a finite number"));
        }
        let text: Option<String> = js_sys::JSON::stringify(&item).ok().map(String::from);
        let Some(text) = text else {
            return Err(Error::invalid(key, "must hold JSON values only"));
        };
        if !members.ends.is_empty() {
            members.text.push(',');
        }
        // The key goes through JSON too, for its escaping.
        members.text.push_str(&String::from(
            js_sys::JSON::stringify(&JsValue::from_str(&key))
                .unwrap_or_else(|_| JsString::from("\"\"")),
        ));
        members.text.push(':');
        members.text.push_str(&text);
        members.ends.push((key, members.text.len()));
    }
    members.text.push('}');
    Ok(members)
}

/// A parameter object as JSON text, and the byte offset just past each
/// member with its key.
struct Members {
    text: String,
    ends: Vec<(String, usize)>,
}

impl Members {
    /// The key of the member holding byte `offset` of the text.
    fn key_at(&self, offset: usize) -> Option<&str> {
        self.ends
            .iter()
            .find(|(_, end)| offset <= *end)
            .map(|(key, _)| key.as_str())
    }

    /// A decode failure as a validation error naming the parameter: the
    /// error's column says where in the (one-line) text it happened.
    /// (`serde_path_to_error` would say it too, at the cost of wrapping
    /// every deserializer: 12% of the package's code.)
    fn error(&self, error: &serde_json::Error) -> Error {
        let message = error.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) => message[..at].to_owned(),
            None => message,
        };
        let quoted = message.split('`').nth(1).filter(|_| {
            message.starts_with("missing field") || message.starts_with("duplicate field")
        });
        match quoted {
            Some(field) if message.starts_with("missing") => Error::invalid(field, "is required"),
            Some(field) => Error::invalid(field, "takes exactly one value"),
            None => match self.key_at(error.column().saturating_sub(1)) {
                Some(key) => Error::invalid(key, message),
                None => Error::invalid("params", message),
            },
        }
    }
}

/// Reads the parameters of `R` from a JS object (or `undefined`).
pub fn read<R: Request>(value: &JsValue) -> Result<R, Error> {
    let members = to_json(value, parameter_names::<R>())?;
    serde_json::from_str::<R>(&members.text).map_err(|e| members.error(&e))
}

/// The first argument of an operation on one resource: its id as a string,
/// or an object holding it under `id_key`.
pub fn read_with_id<R: Request>(value: &JsValue, id_key: &str) -> Result<R, Error> {
    match value.as_string() {
        Some(id) => {
            let object = json::object();
            json::set(&object, id_key, &JsValue::from_str(&id));
            read(&object)
        }
        None => read(value),
    }
}

pub fn list_series(value: &JsValue) -> Result<ListSeries, Error> {
    read(value)
}

pub fn get_series(value: &JsValue) -> Result<GetSeries, Error> {
    read_with_id(value, "id")
}

pub fn list_markets(value: &JsValue) -> Result<ListMarkets, Error> {
    read(value)
}

pub fn get_market(value: &JsValue) -> Result<GetMarket, Error> {
    read_with_id(value, "id")
}

pub fn get_orderbook(value: &JsValue) -> Result<GetOrderbook, Error> {
    read_with_id(value, "id")
}

pub fn list_events(value: &JsValue) -> Result<ListEvents, Error> {
    read(value)
}

pub fn get_event(value: &JsValue) -> Result<GetEvent, Error> {
    read_with_id(value, "id")
}

pub fn list_trades(value: &JsValue) -> Result<ListTrades, Error> {
    read_with_id(value, "market_id")
}

pub fn get_league_info(value: &JsValue) -> Result<GetLeagueInfo, Error> {
    read(value)
}

pub fn list_games(value: &JsValue) -> Result<ListGames, Error> {
    read(value)
}

pub fn get_game(value: &JsValue) -> Result<GetGame, Error> {
    read_with_id(value, "game_id")
}

pub fn list_platforms(value: &JsValue) -> Result<ListPlatforms, Error> {
    read(value)
}

pub fn get_future(value: &JsValue) -> Result<GetFuture, Error> {
    read_with_id(value, "id")
}

pub fn list_futures(value: &JsValue) -> Result<ListFutures, Error> {
    read(value)
}

pub fn get_award(value: &JsValue) -> Result<GetAward, Error> {
    read_with_id(value, "id")
}

pub fn list_awards(value: &JsValue) -> Result<ListAwards, Error> {
    read(value)
}

pub fn get_price_history(value: &JsValue) -> Result<GetPriceHistory, Error> {
    read(value)
}

pub fn get_profile_info(value: &JsValue) -> Result<GetProfileInfo, Error> {
    read(value)
}

pub fn list_profile_trades(value: &JsValue) -> Result<ListProfileTrades, Error> {
    read(value)
}
