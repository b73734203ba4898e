//! `ClientOptions` from a JS object, checked.

use crate::json::get;
use predmarket_client::{ClientConfig, DEFAULT_BASE_URL, Error};
use std::time::Duration;
use wasm_bindgen::JsValue;

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

const KEYS: &[&str] = &[
    "apiKey",
    "baseUrl",
    "timeoutMs",
    "maxRetries",
    "rateLimitPerMinute",
    "cacheTtlMs",
    "cacheMaxEntries",
];

pub fn client_config(options: &JsValue) -> Result<ClientConfig, Error> {
    if !options.is_object() {
        return Err(Error::invalid(
            "options",
            "pass an object: new Client({ apiKey, baseUrl })",
        ));
    }
    // A misspelt option (`apikey`, `timeout`) would otherwise be ignored
    // silently and the default used.
    crate::signal::check_options(options, KEYS, "client options")?;
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
    Ok(config)
}
