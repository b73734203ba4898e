//! The fetch transport: the *global* `fetch` (window, worker and Node alike)
//! through gloo-net.

use crate::transport::{Body, Transport, TransportRequest, TransportResponse};
use gloo_net::http::Request;
use predmarket_core::Error;
use predmarket_core::rate::RateLimitHeaders;
use std::future::Future;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The body as the JS string `Response.text()` gave: the JS library hands it
/// to `JSON.parse` without a copy into wasm memory.
#[derive(Debug, Clone)]
pub struct JsBody(pub js_sys::JsString);

impl Body for JsBody {
    fn to_text(&self) -> String {
        String::from(&self.0)
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

impl Transport for FetchTransport {
    type Body = JsBody;

    async fn get(&self, request: TransportRequest<'_>) -> Result<TransportResponse<JsBody>, Error> {
        let controller = web_sys::AbortController::new().ok();
        let mut guard = AbortOnDrop(controller);
        let signal = guard.0.as_ref().map(|c| c.signal());
        let response = Request::get(request.url)
            .header("X-API-Key", request.api_key)
            .abort_signal(signal.as_ref())
            .send()
            .await
            .map_err(|e| Error::Network {
                message: e.to_string(),
            })?;
        let status = response.status();
        let headers = response.headers();
        let rate_limit = RateLimitHeaders::read(|name| headers.get(name));
        let raw: web_sys::Response = response.into();
        let text_promise = raw.text().map_err(|e| Error::Network {
            message: js_message(&e),
        })?;
        let text = JsFuture::from(text_promise)
            .await
            .map_err(|e| Error::Network {
                message: js_message(&e),
            })?;
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
