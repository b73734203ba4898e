//! `ClientOptions` from a JS object, checked.

use crate::json::{self, get};
use futures::future::LocalBoxFuture;
use predmarket_client::{ClientConfig, DEFAULT_BASE_URL, Error, Event, Observer, SharedBudget};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

fn number(options: &JsValue, key: &str) -> Result<Option<f64>, Error> {
    let value = get(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(Error::invalid(key, "must be a non-negative number")),
    }
}

fn string(options: &JsValue, key: &str) -> Result<Option<String>, Error> {
    let value = get(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| Error::invalid(key, "must be a string"))
}

fn function(options: &JsValue, key: &str) -> Result<Option<js_sys::Function>, Error> {
    let value = get(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .dyn_into::<js_sys::Function>()
        .map(Some)
        .map_err(|_| Error::invalid(key, "must be a function"))
}

/// `headers`: a plain object of string values (client or call options).
pub fn headers(options: &JsValue) -> Result<Vec<(String, String)>, Error> {
    let value = get(options, "headers");
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    if !value.is_object() {
        return Err(Error::invalid("headers", "must be an object of strings"));
    }
    let mut out = Vec::new();
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let Some(name) = key.as_string() else {
            continue;
        };
        let header = get(&value, &name).as_string().ok_or_else(|| {
            Error::invalid("headers", format!("the value of `{name}` must be a string"))
        })?;
        out.push((name, header));
    }
    predmarket_client::check_headers(&out, "headers")?;
    Ok(out)
}

const KEYS: &[&str] = &[
    "apiKey",
    "baseUrl",
    "timeoutMs",
    "maxRetries",
    "rateLimitPerMinute",
    "cacheTtlMs",
    "cacheMaxEntries",
    "maxBodyBytes",
    "headers",
    "fetch",
    "sharedBudget",
    "onEvent",
    "debug",
];

/// The JS face of an event: `{ type, method, url, attempt, status?,
/// elapsedMs?, waitMs?, reason?, code?, requestId? }`.
fn event_object(event: &Event<'_>) -> JsValue {
    json::Obj::new()
        .str("type", event.kind.as_str())
        .str("method", event.method)
        .str("url", event.url)
        .num("attempt", f64::from(event.attempt))
        .opt_num("status", event.status.map(f64::from))
        .opt_num("elapsedMs", event.elapsed_ms)
        .opt_num("waitMs", event.wait_ms)
        .opt_str("reason", event.reason.map(|r| r.as_str()))
        .opt_str("code", event.error.map(|c| c.as_str()))
        .opt_str("requestId", event.request_id)
        .build()
}

fn debug_line(event: &Event<'_>) -> String {
    let mut line = format!(
        "predmarket {} {} {}",
        event.kind.as_str(),
        event.method,
        event.url
    );
    if event.attempt > 0 {
        line.push_str(&format!(" attempt={}", event.attempt));
    }
    if let Some(status) = event.status {
        line.push_str(&format!(" status={status}"));
    }
    if let Some(ms) = event.elapsed_ms {
        line.push_str(&format!(" elapsed={}ms", ms.round() as i64));
    }
    if let Some(ms) = event.wait_ms {
        line.push_str(&format!(" wait={}ms", ms.round() as i64));
    }
    if let Some(reason) = event.reason {
        line.push_str(&format!(" reason={}", reason.as_str()));
    }
    if let Some(id) = event.request_id {
        line.push_str(&format!(" request-id={id}"));
    }
    line
}

/// The client's config, and the custom `fetch` if one was given.
pub fn client_config(options: &JsValue) -> Result<(ClientConfig, Option<js_sys::Function>), Error> {
    if !options.is_object() {
        return Err(Error::invalid(
            "options",
            "pass an object: new Client({ apiKey, baseUrl })",
        ));
    }
    // A misspelt option (`apikey`, `timeout`) would otherwise be ignored
    // silently and the default used.
    crate::call_options::check_options(options, KEYS, "client options")?;
    let api_key =
        string(options, "apiKey")?.ok_or_else(|| Error::invalid("apiKey", "is required"))?;
    let base_url = string(options, "baseUrl")?.unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
    let mut config = ClientConfig::new(base_url, api_key);
    if let Some(ms) = number(options, "timeoutMs")? {
        config.timeout = (ms > 0.0).then(|| Duration::from_millis(ms as u64));
    }
    if let Some(n) = number(options, "maxRetries")? {
        config.max_retries = n.min(20.0) as u32;
    }
    if let Some(n) = number(options, "rateLimitPerMinute")? {
        config.rate_limit_per_minute = n.min(u32::MAX as f64) as u32;
    }
    if let Some(ms) = number(options, "cacheTtlMs")? {
        config.cache_ttl = (ms > 0.0).then(|| Duration::from_millis(ms as u64));
    }
    if let Some(n) = number(options, "cacheMaxEntries")? {
        config.cache_max_entries = n as usize;
    }
    if let Some(n) = number(options, "maxBodyBytes")? {
        config.max_body_bytes = n as u64;
    }
    config.headers = headers(options)?;
    let on_event = function(options, "onEvent")?;
    let debug = get(options, "debug");
    if !(debug.is_undefined() || debug.is_null() || debug.as_bool().is_some()) {
        return Err(Error::invalid("debug", "must be a boolean"));
    }
    let debug = debug.is_truthy();
    if on_event.is_some() || debug {
        let observer: Observer = Rc::new(move |event: &Event<'_>| {
            if let Some(f) = &on_event {
                // A throwing hook must not break the call it observes.
                let _ = f.call1(&JsValue::UNDEFINED, &event_object(event));
            }
            if debug {
                web_sys::console::debug_1(&JsValue::from_str(&debug_line(event)));
            }
        });
        config.observer = Some(observer);
    }
    if let Some(budget) = shared_budget(options)? {
        config.shared_budget = Some(Rc::new(budget));
    }
    let fetch = function(options, "fetch")?;
    Ok((config, fetch))
}

/// `sharedBudget`: a ledger the client asks before each request, shared
/// with other clients (the package's `index.js` turns `sharedBudget: true`
/// into the tabs' ledger of js/shared-budget.js). Plain JS on purpose: the
/// same ledger in Rust cost the package 31.6 KB gzip (docs/benchmarks.md).
struct JsBudget(JsValue);

fn shared_budget(options: &JsValue) -> Result<Option<JsBudget>, Error> {
    let value = get(options, "sharedBudget");
    if value.is_undefined() || value.is_null() || value.as_bool() == Some(false) {
        return Ok(None);
    }
    if get(&value, "acquire").is_function() {
        Ok(Some(JsBudget(value)))
    } else {
        Err(Error::invalid(
            "sharedBudget",
            "must be true or an object with acquire(limit), blockFor(ms) and remaining(limit)",
        ))
    }
}

impl JsBudget {
    /// `this.name(arg)`; `None` when it is missing or throws.
    fn call(&self, name: &str, arg: f64) -> Option<JsValue> {
        get(&self.0, name)
            .dyn_into::<js_sys::Function>()
            .ok()?
            .call1(&self.0, &JsValue::from_f64(arg))
            .ok()
    }
}

// A ledger that fails (storage full, a lock refused) lets the request go:
// the client's own budget and the service's headers still apply.
impl SharedBudget for JsBudget {
    fn acquire(&self, limit: u32) -> LocalBoxFuture<'_, Result<(), f64>> {
        let answer = self.call("acquire", f64::from(limit));
        Box::pin(async move {
            let wait = match answer {
                Some(value) => {
                    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&value))
                        .await
                        .ok()
                        .and_then(|v| v.as_f64())
                        .unwrap_or(0.0)
                }
                None => 0.0,
            };
            if wait > 0.0 { Err(wait) } else { Ok(()) }
        })
    }

    fn block_for(&self, wait_ms: f64) {
        self.call("blockFor", wait_ms);
    }

    fn remaining(&self, limit: u32) -> u32 {
        self.call("remaining", f64::from(limit))
            .and_then(|v| v.as_f64())
            .map_or(limit, |n| n.clamp(0.0, f64::from(limit)) as u32)
    }
}

/// The shared ledger's rules and names as predmarket-core states them, and
/// the default base URL, for shared-budget.js (which keeps the ledger in
/// IndexedDB): read from here, so JS restates none of them. Not documented
/// (`skip_typescript`): the entries' business.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = __ledgerRules, skip_typescript)]
pub fn ledger_rules() -> JsValue {
    use predmarket_client::core::ledger;
    let rules = json::object();
    let number = |key, n: f64| json::set(&rules, key, &JsValue::from_f64(n));
    number("windowMs", ledger::WINDOW_MS);
    number("safetyMs", ledger::SAFETY_MS);
    number("maxBlockMs", ledger::MAX_BLOCK_MS);
    number("maxEntries", ledger::MAX_ENTRIES as f64);
    let text = |key, s: &str| json::set(&rules, key, &JsValue::from_str(s));
    text("namePrefix", ledger::NAME_PREFIX);
    text("database", ledger::DATABASE);
    text("store", ledger::STORE);
    text("defaultBaseUrl", DEFAULT_BASE_URL);
    rules
}
