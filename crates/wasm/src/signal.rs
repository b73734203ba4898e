//! Call options (`{ signal }`, and `maxItems` for pagers), and the link
//! from an `AbortSignal` to the client's cancel token.

use crate::json;
use js_sys::Object;
use predmarket_client::{CancelToken, Error};
use wasm_bindgen::prelude::*;

/// The keys of call options and of pager options.
pub const CALL_OPTIONS: &[&str] = &["signal"];
pub const PAGER_OPTIONS: &[&str] = &["signal", "maxItems"];

/// Checks an options object: absent, or an object with only `allowed`
/// keys. A parameter passed here by mistake (`getMarket(id, { platform })`)
/// is reported, not ignored.
pub fn check_options(options: &JsValue, allowed: &[&str], kind: &str) -> Result<(), Error> {
    if options.is_undefined() || options.is_null() {
        return Ok(());
    }
    if !options.is_object() {
        return Err(Error::invalid(
            "options",
            format!("{kind} must be an object"),
        ));
    }
    for key in Object::keys(options.unchecked_ref::<Object>()).iter() {
        let Some(key) = key.as_string() else { continue };
        if !allowed.contains(&key.as_str()) {
            let hint = if kind == "client options" {
                ""
            } else {
                "; parameters of the operation go in the first argument"
            };
            return Err(Error::invalid(
                key.clone(),
                format!("is not one of the {kind} ({}){hint}", allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

/// `maxItems` of pager options.
pub fn max_items(options: &JsValue) -> Result<Option<usize>, Error> {
    let value = json::get(options, "maxItems");
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => Ok(Some(n as usize)),
        _ => Err(Error::invalid("maxItems", "must be a whole number ≥ 0")),
    }
}

/// Ties an `AbortSignal` to a cancel token for as long as the call runs.
pub struct SignalLink {
    pub token: CancelToken,
    listener: Option<(web_sys::AbortSignal, Closure<dyn FnMut()>)>,
}

impl Drop for SignalLink {
    fn drop(&mut self) {
        if let Some((signal, listener)) = &self.listener {
            let _ = signal
                .remove_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        }
    }
}

pub fn link_signal(options: &JsValue) -> Result<SignalLink, Error> {
    let token = CancelToken::new();
    let signal = json::get(options, "signal");
    if signal.is_undefined() || signal.is_null() {
        return Ok(SignalLink {
            token,
            listener: None,
        });
    }
    let signal: web_sys::AbortSignal = signal
        .dyn_into()
        .map_err(|_| Error::invalid("signal", "must be an AbortSignal"))?;
    if signal.aborted() {
        token.cancel();
        return Ok(SignalLink {
            token,
            listener: None,
        });
    }
    let on_abort = {
        let token = token.clone();
        Closure::<dyn FnMut()>::new(move || token.cancel())
    };
    let _ = signal.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    Ok(SignalLink {
        token,
        listener: Some((signal, on_abort)),
    })
}
