//! The fetch transport: the *global* `fetch` (window, worker and Node alike).

use crate::transport::{Body, Transport, TransportRequest, TransportResponse};
use predmarket_core::rate::RateLimitHeaders;
use predmarket_core::{ApiFailure, Error};
use std::future::Future;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The body as the JS string `Response.text()` gave: the JS library hands it
/// to `JSON.parse` without a copy into wasm memory.
#[derive(Debug, Clone)]
pub struct JsBody(pub js_sys::JsString);

impl Body for JsBody {
    fn to_text(&self) -> String {
        String::from(&self.0)
    }

    fn into_error(self, status: u16, retry_after_ms: Option<u64>) -> Error {
        let parsed = js_sys::JSON::parse(&String::from(&self.0)).ok();
        let error = parsed
            .as_ref()
            .map(|p| get(p, "error"))
            .filter(JsValue::is_object);
        let failure = match error {
            Some(error) => ApiFailure {
                status,
                code: get(&error, "code").as_string().unwrap_or_default(),
                message: get(&error, "message").as_string().unwrap_or_default(),
                details: Some(get(&error, "details"))
                    .filter(JsValue::is_object)
                    .map(|d| to_value(&d, 0)),
                retry_after_ms,
            },
            // Not the service's error body (a proxy's HTML page, say): an
            // empty code makes the status decide (Error::from_failure).
            None => {
                let start: String = self.0.slice(0, 200).into();
                ApiFailure {
                    status,
                    code: String::new(),
                    message: format!("HTTP {status}: {start}"),
                    details: None,
                    retry_after_ms,
                }
            }
        };
        Error::from_failure(failure)
    }
}

fn get(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A JS value (from `JSON.parse`, so plain data) as a `serde_json::Value`;
/// nesting is bounded, since the value came over the network.
fn to_value(value: &JsValue, depth: u32) -> serde_json::Value {
    use serde_json::Value;
    if let Some(b) = value.as_bool() {
        Value::Bool(b)
    } else if let Some(n) = value.as_f64() {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    } else if let Some(s) = value.as_string() {
        Value::String(s)
    } else if depth >= 16 {
        Value::Null
    } else if js_sys::Array::is_array(value) {
        let items = js_sys::Array::from(value)
            .iter()
            .map(|v| to_value(&v, depth + 1))
            .collect();
        Value::Array(items)
    } else if value.is_object() {
        let mut map = serde_json::Map::new();
        for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
            if let Some(key) = key.as_string() {
                let item = to_value(&get(value, &key), depth + 1);
                map.insert(key, item);
            }
        }
        Value::Object(map)
    } else {
        Value::Null
    }
}

#[derive(Debug, Clone, Default)]
pub struct FetchTransport;

/// Aborts the fetch when the request future is dropped (timeout, cancel).
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}

fn js_message(value: &wasm_bindgen::JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "fetch failed".to_owned())
}

#[wasm_bindgen]
extern "C" {
    /// The global `fetch`, looked up at each call (so a test or a
    /// polyfill can replace it), with a plain init object: no `Request` or
    /// `Headers` objects to build, which costs a measurable share of a
    /// call in Node.
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(url: &str, init: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

fn network(value: &JsValue) -> Error {
    Error::Network {
        message: js_message(value),
    }
}

impl Transport for FetchTransport {
    type Body = JsBody;

    async fn get(&self, request: TransportRequest<'_>) -> Result<TransportResponse<JsBody>, Error> {
        let controller = web_sys::AbortController::new().ok();
        let mut guard = AbortOnDrop(controller);
        let headers = js_sys::Object::new();
        let init = js_sys::Object::new();
        let set = |target: &js_sys::Object, key: &str, value: &JsValue| {
            let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
        };
        set(&headers, "X-API-Key", &JsValue::from_str(request.api_key));
        set(&init, "headers", &headers);
        if let Some(controller) = &guard.0 {
            set(&init, "signal", &controller.signal());
        }
        let pending = global_fetch(request.url, &init).map_err(|e| network(&e))?;
        let response: web_sys::Response = JsFuture::from(pending)
            .await
            .map_err(|e| network(&e))?
            .dyn_into()
            .map_err(|_| Error::Network {
                message: "fetch did not give a Response".into(),
            })?;
        let status = response.status();
        let headers = response.headers();
        let rate_limit = RateLimitHeaders::read(|name| headers.get(name).ok().flatten());
        let text_promise = response.text().map_err(|e| network(&e))?;
        let text = JsFuture::from(text_promise)
            .await
            .map_err(|e| network(&e))?;
        // The body is complete: nothing left to abort.
        guard.0 = None;
        let text = text
            .dyn_into::<js_sys::JsString>()
            .map_err(|_| Error::decode(Some(status), "body is not text", ""))?;
        Ok(TransportResponse {
            status,
            rate_limit,
            body: JsBody(text),
        })
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn sleep(&self, duration: Duration) -> impl Future<Output = ()> {
        // setTimeout takes a signed 32-bit delay (and gloo-timers throws on
        // more); longer waits would fire at once instead.
        gloo_timers::future::sleep(duration.min(Duration::from_millis(i32::MAX as u64)))
    }
}

/// A client over the global `fetch`.
pub type FetchClient = crate::Client<FetchTransport>;

impl FetchClient {
    pub fn new(config: crate::ClientConfig) -> Result<Self, Error> {
        Self::with_transport(config, FetchTransport)
    }
}
