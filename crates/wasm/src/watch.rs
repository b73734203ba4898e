//! The client's side of the watch streams. They are written in plain JS
//! (`js/watch.js`, the `watch*` methods of the package's `Client` in
//! `js/client.js`, typed in `js/types/watch.d.ts`), polling through the
//! client's own calls (`Client.__call`); the scheduler behind them
//! (`Client.__watchIntervals`) and the rules of what changed, what ends a
//! watch and how a stream reads are the core's, the latter in the watch
//! streams' own wasm (crates/watch), loaded at the first watch.
//!
//! Where the server offers `GET /stream`, the watches of a client share one
//! stream of it; the request is sent from here (`Client.__send`), so
//! that the key is added as for every request of the client and watch.js
//! never holds it.

#[cfg(target_arch = "wasm32")]
use crate::client::Client;
#[cfg(target_arch = "wasm32")]
use crate::json;
#[cfg(target_arch = "wasm32")]
use predmarket_client::core::change::WatchKind;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

/// The recorder's extension (docs/record.md, the core's `history`
/// contract), sent by history.js.
#[cfg(target_arch = "wasm32")]
use predmarket_client::core::history::PATH as HISTORY_PATH;

// The client exists on wasm32 only (its transport is the global `fetch`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(url: &str, init: &JsValue) -> Result<JsValue, JsValue>;
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
impl Client {
    /// Whether `id` is one the client would ask for with a watch of `kind`
    /// (not blank, not `.` or `..`): a stream naming a bad one would be
    /// refused whole, so such a watch polls, and its first poll says why.
    /// Here, not in the watch streams' wasm: it builds the request as the
    /// client does, with code only the client's wasm has already.
    #[wasm_bindgen(js_name = __streamable, skip_typescript)]
    pub fn streamable(&self, kind: &str, id: &str) -> bool {
        WatchKind::from_name(kind).is_some_and(|kind| kind.request(id).is_ok())
    }

    /// `fetch(baseUrl + path + "?" + query, init)` through the
    /// client's `fetch`, with the client's headers and the key added to
    /// `init.headers`: the key never passes through JS. `path` is one of
    /// the server's extensions (`live::PATH`, read by watch.js from
    /// `__liveRules`, and [`HISTORY_PATH`]), anything else is refused, and `query` cannot change the origin; `init` (watch.js,
    /// history.js) follows no redirect. Sent once the client's rate budget
    /// has a slot for it.
    #[wasm_bindgen(js_name = __send, skip_typescript)]
    pub fn send(&self, path: &str, query: &str, init: JsValue) -> js_sys::Promise {
        if path != predmarket_client::core::live::PATH && path != HISTORY_PATH {
            return js_sys::Promise::reject(
                &js_sys::Error::new("not an extension of the server").into(),
            );
        }
        let config = self.inner.config();
        let headers = json::get(&init, "headers");
        for (name, value) in &config.headers {
            json::set(&headers, name, &JsValue::from_str(value));
        }
        // Last: no header of the caller's replaces the key.
        json::set(&headers, "X-API-Key", &JsValue::from_str(&config.api_key));
        let url = format!("{}{path}?{query}", config.base_url.trim_end_matches('/'));
        let inner = self.inner.clone();
        let fetch = self.fetch.clone();
        crate::pager::boxed_promise(Box::pin(async move {
            // The service counts the opening of a stream as a request: it
            // waits for its slot of the budget as a call would.
            inner.acquire_budget(&url).await;
            let response = match &fetch {
                None => global_fetch(&url, &init),
                Some(fetch) => fetch.call2(&JsValue::UNDEFINED, &JsValue::from_str(&url), &init),
            }?;
            wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&response)).await
        }))
    }
}
