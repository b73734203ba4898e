//! The `Client` class: one method per operation, one pager per list, both
//! expanded from the core's operation table.

use crate::ops::{self, At};
use crate::pager::Session;
use crate::{call_options, errors, json, options, params};
use js_sys::Promise;
use predmarket_client::Error;
use predmarket_client::core::request::{HttpRequest, Operation};
use predmarket_client::fetch::{FetchClient, FetchTransport};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A client of the predmarket service. Holds the rate budget, the cache and
/// the requests in flight: create one and share it.
#[wasm_bindgen]
pub struct Client {
    pub(crate) inner: Rc<FetchClient>,
    /// The `fetch` option, for the watch streams' own request (watch.rs).
    pub(crate) fetch: Option<js_sys::Function>,
    /// What the package's `Client` (js/client.js) puts around each call
    /// and pager when an option of its needs to see them (`checkCapabilities`,
    /// `persistentCache`); see [`Client::set_around`].
    around: Option<Around>,
}

/// The package's hooks: `call(operation, params, options)` answers a call
/// (it sends through `__call`), `pager(operation, params, pager)` returns
/// the pager to hand out; `operation` is the operation's index in the
/// core's table, as `__operations()` lists it (a number crosses into JS
/// for less code than a name).
struct Around {
    call: js_sys::Function,
    pager: js_sys::Function,
}

impl Client {
    /// Sends the request of `operation` built from `params` and resolves with the
    /// page `JSON.parse` built from the body, which never crosses into wasm
    /// memory. Not generic, and not inlined into the methods: every method
    /// is one call of this with its operation's descriptor.
    #[inline(never)]
    fn call(&self, operation: Operation, params: &JsValue, given: JsValue) -> Promise {
        let Some(around) = &self.around else {
            return self.send_call(operation, params, given);
        };
        let index = JsValue::from(operation as u32);
        match around
            .call
            .call3(&JsValue::UNDEFINED, &index, params, &given)
        {
            Ok(answer) => Promise::resolve(&answer),
            Err(thrown) => Promise::reject(&thrown),
        }
    }

    /// The call itself: its request sent, its answer parsed.
    #[inline(never)]
    fn send_call(&self, operation: Operation, params: &JsValue, given: JsValue) -> Promise {
        let op = ops::op(operation);
        // Captured now, while the caller's frames are on the stack: a
        // rejection's stack points at the call, not at the promise machinery.
        let site = js_sys::Error::new("");
        let http = params::values(op, params)
            .and_then(|values| (op.build)(values, At::Given))
            .map(|built| built.http);
        crate::pager::boxed_promise(Box::pin(fetch_json(self.inner.clone(), http, given, site)))
    }

    /// A pager of `operation` (`make` gives it its class), handed to the
    /// package's hook when there is one.
    #[inline(never)]
    fn pager(
        &self,
        operation: Operation,
        params: JsValue,
        options: JsValue,
        make: fn(Rc<Session>) -> JsValue,
    ) -> Result<JsValue, JsValue> {
        let pager = make(self.session(operation, &params, options)?);
        match &self.around {
            None => Ok(pager),
            Some(around) => around.pager.call3(
                &JsValue::UNDEFINED,
                &JsValue::from(operation as u32),
                &params,
                &pager,
            ),
        }
    }

    #[inline(never)]
    fn session(
        &self,
        operation: Operation,
        params: &JsValue,
        options: JsValue,
    ) -> Result<Rc<Session>, JsValue> {
        let op = ops::op(operation);
        params::values(op, params)
            .and_then(|values| Session::new(self.inner.clone(), op, values, options))
            .map_err(|e| errors::to_js(&e))
    }
}

async fn fetch_json(
    inner: Rc<FetchClient>,
    http: Result<HttpRequest, Error>,
    given: JsValue,
    site: js_sys::Error,
) -> Result<JsValue, JsValue> {
    let run = async {
        call_options::check_options(&given, call_options::CALL_OPTIONS, "call options")?;
        let http = http?;
        let call = call_options::Call::read(&given)?;
        let answer = inner.send_http_answer(&http, &call.options).await?;
        call.answered(&answer, &http.url(&inner.config().base_url));
        json::parse_body(&answer.body.0)
    };
    run.await.map_err(|e| errors::to_js_at(&e, &site))
}

#[wasm_bindgen]
impl Client {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
    ) -> Result<Client, JsValue> {
        let (config, fetch) = options::client_config(&options).map_err(|e| errors::to_js(&e))?;
        let transport = FetchTransport::with_fetch(fetch.clone());
        let inner =
            FetchClient::with_transport(config, transport).map_err(|e| errors::to_js(&e))?;
        Ok(Client {
            inner: Rc::new(inner),
            fetch,
            around: None,
        })
    }

    /// Puts the package's hooks around every call and pager of this
    /// client (js/client.js, once, when an option of its needs them).
    #[wasm_bindgen(js_name = __around, skip_typescript)]
    pub fn set_around(&mut self, call: js_sys::Function, pager: js_sys::Function) {
        self.around = Some(Around { call, pager });
    }

    /// The call of the operation at `index` of the core's table as the
    /// client sends it, without the package's hooks: what they and the
    /// watches' polls send through (js/client.js).
    #[wasm_bindgen(js_name = __call, skip_typescript)]
    pub fn call_at(&self, index: u32, params: JsValue, options: JsValue) -> Promise {
        match Operation::ALL.get(index as usize) {
            Some(operation) => self.send_call(*operation, &params, options),
            None => Promise::reject(&js_sys::Error::new("not an operation of the client").into()),
        }
    }

    /// The base URL requests go to.
    #[wasm_bindgen(getter, js_name = baseUrl)]
    pub fn base_url(&self) -> String {
        self.inner.config().base_url.clone()
    }

    /// Requests the client-side rate budget allows right now.
    #[wasm_bindgen(getter, js_name = rateBudgetRemaining)]
    pub fn rate_budget_remaining(&self) -> u32 {
        self.inner.rate_budget_remaining()
    }

    /// The intervals the core's watch scheduler gives the active watches of
    /// this client (`wanted`, in ms), within its rate budget: for the
    /// package's `watch*` methods (watch.js), not documented.
    #[wasm_bindgen(js_name = __watchIntervals, skip_typescript)]
    pub fn watch_intervals(&self, wanted: Vec<f64>, visible: bool) -> Vec<f64> {
        use predmarket_client::core::schedule::{Watch, intervals};
        let watches: Vec<Watch> = wanted
            .into_iter()
            .map(|interval_ms| Watch {
                interval_ms,
                visible,
            })
            .collect();
        intervals(
            &watches,
            self.inner.config().rate_limit_per_minute,
            self.inner.rate_budget_remaining(),
        )
    }

    /// Forgets every cached answer (see `cacheTtlMs`).
    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        self.inner.clear_cache();
    }
}

/// The methods of every operation and the pagers of every list, from the
/// core's operation table (`js_client!` makes their TypeScript types from
/// the entry's names: `getMarket(params: string | GetMarketParams,
/// options?: CallOptions): Promise<MarketsResponse>`).
macro_rules! js_methods {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        predmarket_model_derive::js_client! {
            methods
            $($(#[doc = $doc])* $variant $method $name $path $paging [$($pager)*] ($($args)+) $answer;)+
        }
    };
}

predmarket_client::core::for_each_operation!(js_methods);
