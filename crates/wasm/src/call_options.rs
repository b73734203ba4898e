//! Call options (`{ signal, timeoutMs, maxRetries, headers, onResponse }`,
//! and `maxItems` for pagers), and the link from an `AbortSignal` to the
//! client's cancel token.

use crate::json;
use js_sys::Object;
use predmarket_client::{Answer, CallOptions, CancelToken, Error};
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The keys of call options and of pager options.
pub const CALL_OPTIONS: &[&str] = &["signal", "timeoutMs", "maxRetries", "headers", "onResponse"];
pub const PAGER_OPTIONS: &[&str] = &[
    "signal",
    "timeoutMs",
    "maxRetries",
    "headers",
    "onResponse",
    "maxItems",
];

/// A call's options, read and checked: what the client needs, the signal
/// link that must live as long as the call, and the raw-response hook.
pub struct Call {
    pub options: CallOptions,
    /// Held, not read: dropping it removes the abort listener.
    _link: SignalLink,
    on_response: Option<js_sys::Function>,
}

impl Call {
    pub fn read(options: &JsValue) -> Result<Call, Error> {
        let link = link_signal(options)?;
        let number = |key: &str| -> Result<Option<f64>, Error> {
            let value = json::get(options, key);
            if value.is_undefined() || value.is_null() {
                return Ok(None);
            }
            match value.as_f64() {
                Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
                _ => Err(Error::invalid(key, "must be a non-negative number")),
            }
        };
        let call_options = CallOptions {
            cancel: Some(link.token.clone()),
            timeout: number("timeoutMs")?
                .filter(|ms| *ms > 0.0)
                .map(|ms| Duration::from_millis(ms as u64)),
            max_retries: number("maxRetries")?.map(|n| n.min(20.0) as u32),
            headers: crate::options::headers(options)?,
        };
        let on_response = json::get(options, "onResponse");
        let on_response = if on_response.is_undefined() || on_response.is_null() {
            None
        } else {
            Some(
                on_response
                    .dyn_into::<js_sys::Function>()
                    .map_err(|_| Error::invalid("onResponse", "must be a function"))?,
            )
        };
        Ok(Call {
            options: call_options,
            _link: link,
            on_response,
        })
    }

    /// Hands the answer's status, headers and request id to `onResponse`.
    pub fn answered<B>(&self, answer: &Answer<B>, url: &str) {
        let Some(hook) = &self.on_response else {
            return;
        };
        let headers = json::object();
        for (name, value) in answer.headers.iter() {
            json::set(&headers, name, &JsValue::from_str(value));
        }
        let info = json::Obj::new()
            .num("status", f64::from(answer.status))
            .str("url", url)
            .val("headers", &headers)
            .opt_str("requestId", answer.request_id())
            .build();
        let _ = hook.call1(&JsValue::UNDEFINED, &info);
    }
}

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
