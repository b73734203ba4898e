//! Pagers for JS: `nextPage()` and `for await (const item of pager)`, on the
//! core's `Walk` (both paging models, loop guard, `maxItems`, restart on
//! an expired cursor). Pages are parsed by `JSON.parse`; Rust reads only the
//! item count and the pagination object of each.

use crate::call_options;
use crate::ops::{At, Layout, Op, PAGINATION};
use crate::{errors, json};
use futures::lock::Mutex;
use js_sys::{Array, Promise};
use predmarket_client::Error;
use predmarket_client::core::Walk;
use predmarket_client::core::models::{OffsetPagination, Pagination};
use predmarket_client::core::request::params::Value;
use predmarket_client::core::request::{HttpRequest, PagePosition};
use predmarket_client::fetch::FetchClient;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// The first of `paths` in `page` whose value passes `is`, else `undefined`.
fn first(page: &JsValue, paths: &[&[&str]], is: impl Fn(&JsValue) -> bool) -> JsValue {
    paths
        .iter()
        .map(|path| json::get_path(page, path))
        .find(|v| is(v))
        .unwrap_or(JsValue::UNDEFINED)
}

/// The page's items: the first array under one of the layout's keys, each
/// looked for inside `data` first, then at the top level (the rule of the
/// core's operation table), else `undefined`.
fn items_of(layout: &Layout, page: &JsValue) -> JsValue {
    let data = json::get(page, "data");
    layout
        .items
        .iter()
        .flat_map(|key| [json::get(&data, key), json::get(page, key)])
        .find(Array::is_array)
        .unwrap_or(JsValue::UNDEFINED)
}

fn decode_error(what: &str) -> Error {
    Error::decode(Some(200), what, "")
}

/// The next page's position, by the core's rules for the page's model.
fn next_position(layout: &Layout, page: &JsValue) -> Result<Option<PagePosition>, Error> {
    let pagination = first(page, PAGINATION, JsValue::is_object);
    if !pagination.is_object() {
        return Ok(None);
    }
    let has_more = json::get(&pagination, "has_more").as_bool();
    // A number, or (as the service sends numbers) a numeric string.
    let next = json::get(&pagination, "next_offset");
    let next_offset = match next.as_f64().or_else(|| {
        next.as_string()
            .and_then(|t| predmarket_client::core::number::parse(t.trim()))
    }) {
        Some(n) => Some(n),
        None if next.is_undefined() || next.is_null() => None,
        None => return Err(decode_error("`next_offset` is not a number")),
    };
    if layout.offset {
        let p = OffsetPagination {
            has_more,
            next_offset,
            ..Default::default()
        };
        Ok(p.next().map(PagePosition::Offset))
    } else {
        let next = json::get(&pagination, "next_cursor");
        let next_cursor = match next.as_string() {
            Some(c) => Some(c),
            None if next.is_undefined() || next.is_null() => None,
            None => return Err(decode_error("`next_cursor` is not a string")),
        };
        // The cursor, or on the public service's older pages (no cursor)
        // the offset: the core's rule.
        let p = Pagination {
            has_more,
            next_cursor,
            next_offset,
            ..Default::default()
        };
        Ok(p.next_position())
    }
}

struct State {
    walk: Walk,
    /// Items of the last page the iterator has not handed out yet.
    buffer: Array,
    index: u32,
    /// The page `buffer` came from.
    response: JsValue,
    /// Ended by the iterator's `return()` (a `break` out of `for await`).
    closed: bool,
}

/// One paging session, shared by the pager object and its iterators.
pub struct Session {
    client: Rc<FetchClient>,
    options: JsValue,
    op: &'static Op,
    layout: &'static Layout,
    /// The caller's parameters, read for `op`.
    values: Vec<Option<Value>>,
    state: Mutex<State>,
    /// (done, delivered, pages), readable while a page is loading.
    progress: Cell<(bool, usize, usize)>,
}

fn progress_of(walk: &Walk) -> (bool, usize, usize) {
    (walk.is_done(), walk.delivered(), walk.pages())
}

fn page_object(items: &Array, response: &JsValue) -> JsValue {
    let page = json::object();
    json::set(&page, "items", items);
    json::set(&page, "response", response);
    page
}

fn iterator_result(value: &JsValue, done: bool) -> JsValue {
    let result = json::object();
    json::set(&result, "value", value);
    json::set(&result, "done", &JsValue::from_bool(done));
    result
}

impl Session {
    /// Checks parameters and options now, so a bad one throws where the
    /// pager is created rather than at the first page.
    pub fn new(
        client: Rc<FetchClient>,
        op: &'static Op,
        values: Vec<Option<Value>>,
        options: JsValue,
    ) -> Result<Rc<Self>, Error> {
        let Some(layout) = &op.layout else {
            return Err(Error::invalid("params", "this operation does not page"));
        };
        call_options::check_options(&options, call_options::PAGER_OPTIONS, "pager options")?;
        let start = (op.build)(values.clone(), At::Given)?.start;
        let mut walk = Walk::new(start);
        walk.set_max_items(call_options::max_items(&options)?);
        let progress = Cell::new(progress_of(&walk));
        Ok(Rc::new(Self {
            client,
            options,
            op,
            layout,
            values,
            state: Mutex::new(State {
                walk,
                buffer: Array::new(),
                index: 0,
                response: JsValue::NULL,
                closed: false,
            }),
            progress,
        }))
    }

    /// The request of the next page; `None` when paging is over.
    fn next_http(&self, walk: &Walk) -> Result<Option<HttpRequest>, Error> {
        let Some(position) = walk.next_position()? else {
            return Ok(None);
        };
        let built = (self.op.build)(self.values.clone(), At::Page(position))?;
        Ok(Some(built.http))
    }

    pub fn progress(&self) -> (bool, usize, usize) {
        self.progress.get()
    }

    /// The next page's delivered items and the page itself.
    async fn fetch(&self, state: &mut State) -> Result<Option<(Array, JsValue)>, Error> {
        let result = self.fetch_inner(state).await;
        let (done, delivered, pages) = progress_of(&state.walk);
        let over = done || state.closed || result.as_ref().is_ok_and(Option::is_none);
        self.progress.set((over, delivered, pages));
        result
    }

    async fn fetch_inner(&self, state: &mut State) -> Result<Option<(Array, JsValue)>, Error> {
        loop {
            let Some(request) = self.next_http(&state.walk)? else {
                return Ok(None);
            };
            let call = call_options::Call::read(&self.options)?;
            match self.client.send_http_answer(&request, &call.options).await {
                Ok(answer) => {
                    call.answered(&answer, &request.url(&self.client.config().base_url));
                    let page = json::parse_body(&answer.body.0)?;
                    let items = items_of(self.layout, &page);
                    if !Array::is_array(&items) {
                        return Err(decode_error(&format!(
                            "the page has no `{}` array",
                            self.layout.items.first().copied().unwrap_or("items")
                        )));
                    }
                    let items: Array = items.unchecked_into();
                    let len = items.length();
                    let next = next_position(self.layout, &page)?;
                    let range = state.walk.accept_page(len as usize, next)?;
                    let (start, end) = (range.start as u32, range.end as u32);
                    let delivered = if start == 0 && end == len {
                        items
                    } else {
                        items.slice(start, end)
                    };
                    return Ok(Some((delivered, page)));
                }
                // Ok(()) when the session restarted after an expired cursor.
                Err(error) => state.walk.on_error(error)?,
            }
        }
    }

    async fn next_page(self: Rc<Self>) -> Result<JsValue, Error> {
        let mut state = self.state.lock().await;
        if state.closed {
            return Ok(JsValue::NULL);
        }
        // Items the iterator buffered but has not handed out come first, so
        // mixing both ways of reading still delivers each item once.
        let length = state.buffer.length();
        if state.index < length {
            let rest = state.buffer.slice(state.index, length);
            state.index = length;
            return Ok(page_object(&rest, &state.response));
        }
        match self.fetch(&mut state).await? {
            Some((items, response)) => {
                state.buffer = Array::new();
                state.index = 0;
                state.response = response.clone();
                Ok(page_object(&items, &response))
            }
            None => Ok(JsValue::NULL),
        }
    }

    async fn next_item(self: Rc<Self>) -> Result<JsValue, Error> {
        let mut state = self.state.lock().await;
        loop {
            if state.closed {
                return Ok(iterator_result(&JsValue::UNDEFINED, true));
            }
            if state.index < state.buffer.length() {
                let item = state.buffer.get(state.index);
                state.index += 1;
                return Ok(iterator_result(&item, false));
            }
            match self.fetch(&mut state).await? {
                Some((items, response)) => {
                    state.buffer = items;
                    state.index = 0;
                    state.response = response;
                }
                None => return Ok(iterator_result(&JsValue::UNDEFINED, true)),
            }
        }
    }

    async fn close(self: Rc<Self>) -> Result<JsValue, Error> {
        let mut state = self.state.lock().await;
        state.closed = true;
        state.buffer = Array::new();
        state.index = 0;
        let (_, delivered, pages) = self.progress.get();
        self.progress.set((true, delivered, pages));
        Ok(iterator_result(&JsValue::UNDEFINED, true))
    }
}

fn promise<F>(future: F) -> Promise
where
    F: std::future::Future<Output = Result<JsValue, Error>> + 'static,
{
    boxed_promise(Box::pin(async move {
        future.await.map_err(|e| errors::to_js(&e))
    }))
}

/// The one instantiation of `future_to_promise` in the package: each
/// future type compiled its own copy of the promise machinery.
pub fn boxed_promise(future: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    future_to_promise(future)
}

/// The async iterator of a pager (`for await (const item of pager)`).
#[wasm_bindgen]
pub struct PagerIterator {
    source: Rc<Session>,
}

#[wasm_bindgen]
impl PagerIterator {
    /// The next item; `{ done: true }` when the listing is over.
    #[wasm_bindgen(unchecked_return_type = "Promise<IteratorResult<unknown, undefined>>")]
    pub fn next(&self) -> Promise {
        promise(Session::next_item(self.source.clone()))
    }

    /// Ends the iteration (called by `break` out of `for await`).
    #[wasm_bindgen(
        js_name = "return",
        unchecked_return_type = "Promise<IteratorResult<unknown, undefined>>"
    )]
    pub fn finish(&self) -> Promise {
        promise(Session::close(self.source.clone()))
    }

    #[wasm_bindgen(js_name = "[Symbol.asyncIterator]")]
    pub fn iterator(&self) -> PagerIterator {
        PagerIterator {
            source: self.source.clone(),
        }
    }
}

macro_rules! pager_classes {
    ($($(#[$doc:meta])* $class:ident => $page_ts:tt, $iterator_ts:tt;)+) => {
        $(
            $(#[$doc])*
            #[wasm_bindgen]
            pub struct $class {
                session: Rc<Session>,
            }

            impl $class {
                pub(crate) fn new(session: Rc<Session>) -> Self {
                    Self { session }
                }
            }

            #[wasm_bindgen]
            impl $class {
                /// The next page: the items new to the caller and the page as
                /// the service sent it; `null` when the listing is over.
                #[wasm_bindgen(js_name = nextPage, unchecked_return_type = $page_ts)]
                pub fn next_page(&self) -> Promise {
                    promise(Session::next_page(self.session.clone()))
                }

                /// Every item, fetching pages as needed:
                /// `for await (const item of pager)`.
                #[wasm_bindgen(js_name = "[Symbol.asyncIterator]", unchecked_return_type = $iterator_ts)]
                pub fn iterator(&self) -> PagerIterator {
                    PagerIterator { source: self.session.clone() }
                }

                /// Whether the listing is over (finished, capped, failed or closed).
                #[wasm_bindgen(getter)]
                pub fn done(&self) -> bool {
                    self.session.progress().0
                }

                /// Items delivered so far.
                #[wasm_bindgen(getter)]
                pub fn delivered(&self) -> f64 {
                    self.session.progress().1 as f64
                }

                /// Pages fetched so far.
                #[wasm_bindgen(getter)]
                pub fn pages(&self) -> f64 {
                    self.session.progress().2 as f64
                }
            }
        )+
    };
}

/// The pager class of every list of the core's operation table
/// (`MarketsPager` for `pager[markets Market]`).
macro_rules! js_pagers {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        predmarket_model_derive::js_client! {
            pagers
            $($variant $method $name $path $paging [$($pager)*] ($($args)+) $answer;)+
        }
    };
}

predmarket_client::core::for_each_operation!(js_pagers);
