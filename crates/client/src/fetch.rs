//! The fetch transport: the *global* `fetch` (window, worker and Node alike).

use crate::transport::{Body, Transport, TransportRequest, TransportResponse};
use predmarket_core::error::retry_after_in_details;
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

    fn is_json(&self) -> bool {
        json_parse(&self.0).is_ok()
    }

    fn into_error(self, status: u16, retry_after_ms: Option<u64>) -> Error {
        let parsed = json_parse(&self.0).ok();
        let error = parsed
            .as_ref()
            .map(|p| get(p, "error"))
            .filter(JsValue::is_object);
        let failure = match error {
            Some(error) => {
                let details = Some(get(&error, "details"))
                    .filter(JsValue::is_object)
                    .map(|d| to_value(&d, 0));
                ApiFailure {
                    status,
                    code: get(&error, "code").as_string().unwrap_or_default(),
                    message: get(&error, "message").as_string().unwrap_or_default(),
                    retry_after_ms: retry_after_ms
                        .or_else(|| retry_after_in_details(details.as_ref())),
                    details,
                }
            }
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

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of the JS string itself: no copy into wasm memory.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
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

/// Sends with the global `fetch`, or with the one given (proxies, tests,
/// instrumentation).
#[derive(Debug, Clone, Default)]
pub struct FetchTransport {
    fetch: Option<js_sys::Function>,
}

impl FetchTransport {
    pub fn with_fetch(fetch: Option<js_sys::Function>) -> Self {
        Self { fetch }
    }
}

/// Aborts the fetch when the request future is dropped (timeout, cancel).
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}

// The helpers below use JS globals through declarations, not a JS
// snippet: the JS library builds for several wasm-bindgen targets, and
// snippets do not survive all of them.
#[wasm_bindgen]
extern "C" {
    type TextDecoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextDecoder;
    #[wasm_bindgen(method)]
    fn decode(this: &TextDecoder, bytes: &js_sys::Uint8Array) -> js_sys::JsString;
}

fn global_get(target: &JsValue, key: &str) -> JsValue {
    if !target.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

thread_local! {
    /// `performance` and its `now`, when the runtime has them (monotonic);
    /// looked up once, so the budget never mixes two clocks.
    static PERFORMANCE_NOW: Option<(JsValue, js_sys::Function)> = {
        let performance = global_get(&js_sys::global(), "performance");
        global_get(&performance, "now")
            .dyn_into::<js_sys::Function>()
            .ok()
            .map(|now| (performance, now))
    };
}

fn monotonic_ms() -> f64 {
    PERFORMANCE_NOW.with(|clock| match clock {
        Some((performance, now)) => now
            .call0(performance)
            .ok()
            .and_then(|t| t.as_f64())
            .unwrap_or_else(js_sys::Date::now),
        None => js_sys::Date::now(),
    })
}

/// 64 random bits from `crypto.getRandomValues`, or `Math.random` where
/// there is no `crypto` (jitter needs spread, not secrecy).
fn random_bits() -> u64 {
    let words = js_sys::Uint32Array::new_with_length(2);
    let crypto = global_get(&js_sys::global(), "crypto");
    let filled = global_get(&crypto, "getRandomValues")
        .dyn_into::<js_sys::Function>()
        .ok()
        .is_some_and(|f| f.call1(&crypto, &words).is_ok());
    if !filled {
        words.set_index(0, (js_sys::Math::random() * 4_294_967_296.0) as u32);
        words.set_index(1, (js_sys::Math::random() * 4_294_967_296.0) as u32);
    }
    (u64::from(words.get_index(0)) << 32) | u64::from(words.get_index(1))
}

/// What failed, as far as fetch tells: Node, Deno and Bun name the cause
/// (refused, DNS); browsers say only "Failed to fetch" for a network
/// failure and a CORS refusal alike.
fn describe_fetch_error(error: &JsValue) -> String {
    let message = global_get(error, "message")
        .as_string()
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "fetch failed".to_owned());
    let cause = global_get(error, "cause");
    let code = global_get(&cause, "code")
        .as_string()
        .or_else(|| global_get(error, "code").as_string());
    let cause_text = global_get(&cause, "message")
        .as_string()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    match code.as_deref() {
        Some("ECONNREFUSED") => format!("connection refused ({message}{cause_text})"),
        Some("ENOTFOUND" | "EAI_AGAIN") => format!("DNS lookup failed ({message}{cause_text})"),
        Some("ECONNRESET") => format!("connection reset ({message}{cause_text})"),
        Some(code) => format!("{message}{cause_text} ({code})"),
        None if global_get(&js_sys::global(), "document").is_object() => format!(
            "{message} (the browser does not say why: the service is unreachable, or it refused the origin (CORS); see the console)"
        ),
        None => format!("{message}{cause_text}"),
    }
}

/// The body as a JS string, or `None` past `limit` bytes (the rest is not
/// read). A declared length with no content coding bounds what `text()`
/// reads; anything else is read chunk by chunk, counting.
async fn read_body(
    response: &web_sys::Response,
    limit: u64,
) -> Result<Option<js_sys::JsString>, Error> {
    let headers = response.headers();
    let length = headers.get("content-length").ok().flatten();
    let declared = length.as_deref().and_then(|l| l.trim().parse::<u64>().ok());
    let cancel = |stream: &JsValue| {
        if let Ok(cancel) = global_get(stream, "cancel").dyn_into::<js_sys::Function>() {
            // Its promise settles on its own; the fetch is aborted as well
            // when the request future is dropped.
            let _ = cancel.call0(stream);
        }
    };
    let body: JsValue = response.body().map(JsValue::from).unwrap_or(JsValue::NULL);
    if declared.is_some_and(|n| n > limit) {
        cancel(&body);
        return Ok(None);
    }
    let coded = headers.get("content-encoding").ok().flatten().is_some();
    if body.is_null() || (declared.is_some() && !coded) {
        let text = JsFuture::from(response.text().map_err(|e| network(&e))?)
            .await
            .map_err(|e| network(&e))?;
        return text
            .dyn_into::<js_sys::JsString>()
            .map(Some)
            .map_err(|_| Error::decode(Some(response.status()), "body is not text", ""));
    }
    let reader = global_get(&body, "getReader")
        .dyn_into::<js_sys::Function>()
        .and_then(|f| f.call0(&body))
        .map_err(|e| network(&e))?;
    let read = global_get(&reader, "read")
        .dyn_into::<js_sys::Function>()
        .map_err(|e| network(&e))?;
    let mut chunks = Vec::new();
    let mut total: u64 = 0;
    loop {
        let step = read
            .call0(&reader)
            .and_then(|p| p.dyn_into::<js_sys::Promise>())
            .map_err(|e| network(&e))?;
        let step = JsFuture::from(step).await.map_err(|e| network(&e))?;
        if global_get(&step, "done").is_truthy() {
            break;
        }
        let chunk: js_sys::Uint8Array = global_get(&step, "value").unchecked_into();
        total += u64::from(chunk.byte_length());
        if total > limit {
            cancel(&reader);
            return Ok(None);
        }
        chunks.push(chunk);
    }
    let bytes = if chunks.len() == 1 {
        chunks.remove(0)
    } else {
        let all = js_sys::Uint8Array::new_with_length(total as u32);
        let mut at = 0;
        for chunk in &chunks {
            all.set(chunk, at);
            at += chunk.byte_length();
        }
        all
    };
    Ok(Some(TextDecoder::new().decode(&bytes)))
}

fn js_message(value: &wasm_bindgen::JsValue) -> String {
    describe_fetch_error(value)
}

#[wasm_bindgen]
extern "C" {
    /// The global `fetch`, looked up at each call (so a test or a
    /// polyfill can replace it), with a plain init object: no `Request` or
    /// `Headers` objects to build, which costs a measurable share of a
    /// call in Node.
    #[wasm_bindgen(js_name = fetch, catch)]
    pub(crate) fn global_fetch(url: &str, init: &JsValue) -> Result<js_sys::Promise, JsValue>;
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
        // A caller's header name is any HTTP token, `__proto__` included:
        // defined, so that it stays a header rather than the prototype.
        let define = |target: &js_sys::Object, key: &str, value: &JsValue| {
            let descriptor = js_sys::Object::new();
            set(&descriptor, "value", value);
            set(&descriptor, "enumerable", &JsValue::TRUE);
            set(&descriptor, "writable", &JsValue::TRUE);
            set(&descriptor, "configurable", &JsValue::TRUE);
            let _ = js_sys::Reflect::define_property(target, &JsValue::from_str(key), &descriptor);
        };
        for (name, value) in request.headers {
            define(&headers, name, &JsValue::from_str(value));
        }
        // Last: no header of the caller's replaces the key.
        if let Some(key) = request.api_key {
            set(&headers, "X-API-Key", &JsValue::from_str(key));
        }
        set(&init, "headers", &headers);
        // The client follows redirects itself, to the service's origin only,
        // so that the key never goes to another one (fetch would resend it).
        set(&init, "redirect", &JsValue::from_str("manual"));
        if let Some(controller) = &guard.0 {
            set(&init, "signal", &controller.signal());
        }
        let pending = match &self.fetch {
            None => global_fetch(request.url, &init).map_err(|e| network(&e))?,
            Some(fetch) => fetch
                .call2(&JsValue::UNDEFINED, &JsValue::from_str(request.url), &init)
                .and_then(|p| {
                    p.dyn_into::<js_sys::Promise>()
                        .or_else(|v| Ok(js_sys::Promise::resolve(&v)))
                })
                .map_err(|e| network(&e))?,
        };
        let response: web_sys::Response = JsFuture::from(pending)
            .await
            .map_err(|e| network(&e))?
            .dyn_into()
            .map_err(|_| Error::Network {
                message: "fetch did not give a Response".into(),
            })?;
        if response.type_() == web_sys::ResponseType::Opaqueredirect {
            // Browsers hide a manual redirect's target from scripts.
            return Err(Error::Network {
                message: "the service answered with a redirect, which a browser does not let the client follow with the key kept to the service's origin; use the URL it redirects to as baseUrl".into(),
            });
        }
        let status = response.status();
        let headers = response.headers();
        let rate_limit = RateLimitHeaders::read(|name| headers.get(name).ok().flatten());
        let location = headers.get("location").ok().flatten();
        let mut all_headers = Vec::new();
        if let Ok(Some(entries)) = js_sys::try_iter(&headers) {
            for entry in entries.flatten() {
                let pair = js_sys::Array::from(&entry);
                if let (Some(name), Some(value)) =
                    (pair.get(0).as_string(), pair.get(1).as_string())
                {
                    all_headers.push((name, value));
                }
            }
        }
        let text =
            read_body(&response, request.max_body_bytes)
                .await?
                .ok_or(Error::ResponseTooLarge {
                    status,
                    limit_bytes: request.max_body_bytes,
                })?;
        // The body is complete: nothing left to abort.
        guard.0 = None;
        Ok(TransportResponse {
            status,
            rate_limit,
            location,
            headers: all_headers,
            body: JsBody(text),
        })
    }

    fn now_ms(&self) -> f64 {
        monotonic_ms()
    }

    fn random_seed(&self) -> u64 {
        random_bits()
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
        Self::with_transport(config, FetchTransport::default())
    }
}
