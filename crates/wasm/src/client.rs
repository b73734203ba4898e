//! The `Client` class.

use crate::{errors, json, options};
use js_sys::Promise;
use predmarket_client::core::request::{ListPlatforms, Request};
use predmarket_client::fetch::FetchClient;
use predmarket_client::{CallOptions, CancelToken, Error};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// A client of the predmarket service.
#[wasm_bindgen]
pub struct Client {
    inner: Rc<FetchClient>,
}

/// Ties an `AbortSignal` to a cancel token for as long as the call runs.
struct SignalLink {
    token: CancelToken,
    _listener: Option<(web_sys::AbortSignal, Closure<dyn FnMut()>)>,
}

impl Drop for SignalLink {
    fn drop(&mut self) {
        if let Some((signal, listener)) = &self._listener {
            let _ = signal.remove_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        }
    }
}

fn link_signal(call_options: &JsValue) -> Result<SignalLink, Error> {
    let token = CancelToken::new();
    let signal = json::get(call_options, "signal");
    if signal.is_undefined() || signal.is_null() {
        return Ok(SignalLink { token, _listener: None });
    }
    let signal: web_sys::AbortSignal =
        signal.dyn_into().map_err(|_| Error::invalid("signal", "must be an AbortSignal"))?;
    if signal.aborted() {
        token.cancel();
        return Ok(SignalLink { token, _listener: None });
    }
    let on_abort = {
        let token = token.clone();
        Closure::<dyn FnMut()>::new(move || token.cancel())
    };
    let _ = signal.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    Ok(SignalLink { token, _listener: Some((signal, on_abort)) })
}

impl Client {
    /// Sends `request` and resolves with the parsed JSON body.
    fn call<R: Request + 'static>(&self, request: R, call_options: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let link = link_signal(&call_options).map_err(|e| errors::to_js(&e))?;
            let options = CallOptions { cancel: Some(link.token.clone()) };
            let body = inner.send_raw(&request, &options).await.map_err(|e| errors::to_js(&e))?;
            json::parse(&body.0).map_err(|_| errors::to_js(&Error::decode(Some(200), "not JSON", &body.0.slice(0, 200).as_string().unwrap_or_default())))
        })
    }
}

#[wasm_bindgen]
impl Client {
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue) -> Result<Client, JsValue> {
        let config = options::client_config(&options).map_err(|e| errors::to_js(&e))?;
        let inner = FetchClient::new(config).map_err(|e| errors::to_js(&e))?;
        Ok(Client { inner: Rc::new(inner) })
    }

    /// The base URL requests go to.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.config().base_url.clone()
    }

    /// `GET /platforms`: every platform with its health and features.
    #[wasm_bindgen(js_name = listPlatforms, unchecked_return_type = "Promise<PlatformsResponse>")]
    pub fn list_platforms(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallOptions | undefined")] options: JsValue,
    ) -> Promise {
        self.call(ListPlatforms, options)
    }
}
