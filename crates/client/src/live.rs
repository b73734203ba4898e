//! `GET /stream` read over fetch: one stream of every resource watched,
//! reopened with the new list when it changes (each resource resumed
//! where it was, `Last-Event-ID`) and with backoff when it drops; the first
//! answer tells whether the server has streams at all (a 404 or 405, as
//! from the public service, means polling, for good).
//!
//! A `fetch` reader, not `EventSource`: the key goes as the `X-API-Key`
//! header, which `EventSource` cannot send. What decides (parsing,
//! positions, the silence rule, backoff, what an answer means) is
//! predmarket-core's `sse` over the contract in `live`; this module only
//! moves bytes and timers. A stream that stays open but goes quiet past
//! the deadline its events announce is told `stale` (`silent`) here, for
//! each of its resources, and reopened from fresh snapshots. What one
//! connection's bytes tell is `live_read`, sans-IO.

use crate::live_read::{Connection, Told};
use predmarket_core::live::{self, Kind, StreamEvent};
use predmarket_core::sse::{self, Positions};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A stream that has not answered by then is given up (and retried).
const OPEN_TIMEOUT: Duration = Duration::from_millis(live::OPEN_TIMEOUT_MS);

/// Whether the server streams, as far as the client knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// No stream has answered yet.
    Discover,
    /// A stream answered once: the server has them (one may be down now).
    Stream,
    /// The server has no streams: watch by polling.
    Poll,
}

/// What the stream tells its owner.
#[derive(Debug, Clone)]
pub enum Notice {
    /// A stream of these resources answered; it carries them from now.
    Opened(Vec<String>),
    /// An event of one resource (replays already seen are left out).
    Event(Kind, StreamEvent),
    /// The stream dropped or could not be opened; it is reopened after a
    /// backoff, its resources are not vouched for meanwhile.
    Down,
    /// The server has no streams: poll.
    NoStreams,
}

struct Conn {
    id: u64,
    resources: Vec<String>,
    controller: Option<web_sys::AbortController>,
}

impl Conn {
    fn close(&self) {
        if let Some(c) = &self.controller {
            c.abort();
        }
    }
}

struct State {
    mode: Mode,
    wanted: Vec<String>,
    current: Option<Conn>,
    opening: Option<Conn>,
    positions: Positions,
    retry_ms: u64,
    failures: u32,
    backing_off: bool,
    /// A reopening is queued (see [`LiveStream::set`]).
    queued: bool,
    next_id: u64,
}

/// Waits for a slot of the key's rate budget (the service counts each
/// stream request as one).
pub type Budget = Box<dyn Fn() -> futures::future::LocalBoxFuture<'static, ()>>;

struct Inner {
    url: String,
    api_key: Option<String>,
    budget: Option<Budget>,
    on: Box<dyn Fn(Notice)>,
    state: RefCell<State>,
}

/// One multiplexed stream of a client's watched resources.
#[derive(Clone)]
pub struct LiveStream(Rc<Inner>);

impl LiveStream {
    /// A stream of the service at `base_url`, telling `on` what happens;
    /// each opening first takes its slot of `budget` (the client's:
    /// `Client::acquire_budget`). Nothing is asked until
    /// [`LiveStream::set`] names resources.
    pub fn new(
        base_url: &str,
        api_key: Option<&str>,
        budget: Option<Budget>,
        on: impl Fn(Notice) + 'static,
    ) -> Self {
        Self(Rc::new(Inner {
            url: format!("{}{}", base_url.trim_end_matches('/'), live::PATH),
            api_key: api_key.map(str::to_owned),
            budget,
            on: Box::new(on),
            state: RefCell::new(State {
                mode: Mode::Discover,
                wanted: Vec::new(),
                current: None,
                opening: None,
                positions: Positions::default(),
                retry_ms: live::RETRY_MS,
                failures: 0,
                backing_off: false,
                queued: false,
                next_id: 0,
            }),
        }))
    }

    pub fn mode(&self) -> Mode {
        self.0.state.borrow().mode
    }

    /// Whether the open stream carries `resource` now.
    pub fn covers(&self, resource: &str) -> bool {
        let state = self.0.state.borrow();
        state
            .current
            .as_ref()
            .is_some_and(|c| c.resources.iter().any(|r| r == resource))
    }

    /// Data of `resource` came from elsewhere (a poll): a stream reopened
    /// sends it a fresh snapshot rather than replaying older events.
    pub fn forget(&self, resource: &str) {
        self.0.state.borrow_mut().positions.forget(resource);
    }

    /// Watches `resources` (the first [`live::MAX_RESOURCES`]; the rest
    /// poll): opens a stream of them unless the one open (or opening)
    /// carries exactly these, and closes the old one once the new one has
    /// answered.
    ///
    /// Calls made together (the views of one page coming up) open one
    /// stream: the reopening waits for the current task to end.
    pub fn set(&self, mut resources: Vec<String>) {
        resources.truncate(live::MAX_RESOURCES);
        let mut state = self.0.state.borrow_mut();
        state.positions.retain(&resources);
        state.wanted = resources;
        if std::mem::replace(&mut state.queued, true) {
            return;
        }
        drop(state);
        let this = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            this.0.state.borrow_mut().queued = false;
            this.reopen();
        });
    }

    fn reopen(&self) {
        let (id, resources, last_event_id, controller) = {
            let mut state = self.0.state.borrow_mut();
            if state.mode == Mode::Poll {
                return;
            }
            if state.wanted.is_empty() {
                for conn in [state.current.take(), state.opening.take()]
                    .into_iter()
                    .flatten()
                {
                    conn.close();
                }
                return;
            }
            if state.backing_off {
                return;
            }
            let target = state.opening.as_ref().or(state.current.as_ref());
            if target.is_some_and(|t| t.resources == state.wanted) {
                return;
            }
            if let Some(old) = state.opening.take() {
                old.close();
            }
            state.next_id += 1;
            let id = state.next_id;
            let resources = state.wanted.clone();
            let controller = web_sys::AbortController::new().ok();
            state.opening = Some(Conn {
                id,
                resources: resources.clone(),
                controller: controller.clone(),
            });
            let last = state.positions.last_event_id(&resources);
            (id, resources, last, controller)
        };
        let this = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            this.run(id, resources, last_event_id, controller).await;
        });
    }

    fn is_opening(&self, id: u64) -> bool {
        self.0
            .state
            .borrow()
            .opening
            .as_ref()
            .is_some_and(|c| c.id == id)
    }

    fn is_current(&self, id: u64) -> bool {
        self.0
            .state
            .borrow()
            .current
            .as_ref()
            .is_some_and(|c| c.id == id)
    }

    async fn run(
        &self,
        id: u64,
        resources: Vec<String>,
        last_event_id: Option<String>,
        controller: Option<web_sys::AbortController>,
    ) {
        if let Some(budget) = &self.0.budget {
            budget().await;
            // Superseded while it waited: the newer one goes instead.
            if !self.is_opening(id) {
                return;
            }
        }
        let query: Vec<String> = resources
            .iter()
            .map(|r| format!("{}={}", live::WATCH_PARAM, js_sys::encode_uri_component(r)))
            .collect();
        let url = format!("{}?{}", self.0.url, query.join("&"));
        let headers = js_sys::Object::new();
        set(&headers, "accept", &live::MEDIA_TYPE.into());
        if let Some(key) = &self.0.api_key {
            set(&headers, "X-API-Key", &key.into());
        }
        if let Some(last) = &last_event_id {
            set(&headers, live::LAST_EVENT_ID_HEADER, &last.into());
        }
        let init = js_sys::Object::new();
        set(&init, "headers", &headers);
        // The key stays on the service's origin: no redirect is followed.
        set(&init, "redirect", &"manual".into());
        if let Some(c) = &controller {
            set(&init, "signal", &c.signal());
        }
        // Given up if it has not answered in time.
        let answered = Rc::new(std::cell::Cell::new(false));
        {
            let (answered, controller) = (answered.clone(), controller.clone());
            wasm_bindgen_futures::spawn_local(async move {
                gloo_timers::future::sleep(OPEN_TIMEOUT).await;
                if !answered.get()
                    && let Some(c) = controller
                {
                    c.abort();
                }
            });
        }
        let response = match crate::fetch::global_fetch(&url, &init) {
            Ok(pending) => JsFuture::from(pending).await,
            Err(error) => Err(error),
        };
        answered.set(true);
        let response: web_sys::Response = match response.and_then(|r| r.dyn_into()) {
            Ok(response) => response,
            Err(_) => {
                // Network errors, a timeout, an abort.
                self.failed(id, None);
                return;
            }
        };
        if !self.is_opening(id) {
            cancel_body(&response);
            return;
        }
        let status = response.status();
        let headers = response.headers();
        let content_type = headers.get("content-type").ok().flatten();
        if status == 200
            && !sse::has_no_streams(status, content_type.as_deref())
            && let Some(body) = response.body()
        {
            self.opened(&resources);
            self.read(id, &resources, body).await;
            if self.is_current(id) {
                self.failed(id, None);
            }
            return;
        }
        cancel_body(&response);
        if sse::has_no_streams(status, content_type.as_deref()) {
            self.no_streams();
        } else {
            let retry_after = headers
                .get("retry-after")
                .ok()
                .flatten()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(|s| s.saturating_mul(1000));
            self.failed(id, retry_after);
        }
    }

    fn opened(&self, resources: &[String]) {
        {
            let mut state = self.0.state.borrow_mut();
            let Some(conn) = state.opening.take() else {
                return;
            };
            if let Some(before) = state.current.replace(conn) {
                before.close();
            }
            state.mode = Mode::Stream;
            state.failures = 0;
        }
        (self.0.on)(Notice::Opened(resources.to_vec()));
    }

    async fn read(&self, id: u64, resources: &[String], body: web_sys::ReadableStream) {
        let reader = match call(&body, "getReader", &[]) {
            Ok(reader) => reader,
            Err(_) => return,
        };
        let decoder = TextDecoder::new();
        let options = js_sys::Object::new();
        set(&options, "stream", &JsValue::TRUE);
        let mut stream = Connection::new(resources.to_vec(), js_sys::Date::now());
        // The read in flight, kept across a wake-up that was not silence.
        let mut pending: Option<JsFuture> = None;
        loop {
            let next = match pending.take() {
                Some(next) => next,
                None => {
                    match call(&reader, "read", &[]).and_then(|p| p.dyn_into::<js_sys::Promise>()) {
                        Ok(promise) => JsFuture::from(promise),
                        Err(_) => break,
                    }
                }
            };
            // The next bytes, or silence past the deadline.
            let wait = (stream.deadline_ms() - js_sys::Date::now()).max(0.0);
            let silence = Box::pin(gloo_timers::future::sleep(Duration::from_millis(
                wait as u64,
            )));
            let step = match futures::future::select(next, silence).await {
                futures::future::Either::Left((step, _)) => step,
                futures::future::Either::Right(((), next)) => {
                    let now = js_sys::Date::now();
                    if stream.is_silent(now) {
                        self.silent(id, &stream, now);
                        break;
                    }
                    pending = Some(next);
                    continue;
                }
            };
            let Ok(step) = step else { break };
            if !self.is_current(id) || get(&step, "done").is_truthy() {
                break;
            }
            let chunk: js_sys::Uint8Array = get(&step, "value").unchecked_into();
            let text = String::from(decoder.decode_with(&chunk, &options));
            let told = {
                let mut state = self.0.state.borrow_mut();
                stream.chunk(&text, js_sys::Date::now(), &mut state.positions)
            };
            let Ok(told) = told else { break };
            for told in told {
                match told {
                    Told::Retry(ms) => self.0.state.borrow_mut().retry_ms = ms,
                    Told::Event(kind, body) => {
                        if self.is_current(id) {
                            (self.0.on)(Notice::Event(kind, *body));
                        }
                    }
                }
            }
        }
        quietly(call(&reader, "cancel", &[]));
    }

    /// The stream stayed open but said nothing past its deadline: each of
    /// its resources is told `stale` (`silent`), and the stream reopened
    /// from fresh snapshots (positions of a silent stream are not
    /// trusted), through the usual backoff.
    fn silent(&self, id: u64, stream: &Connection, now: f64) {
        if !self.is_current(id) {
            return;
        }
        let told = stream.silence(&mut self.0.state.borrow_mut().positions, now);
        for body in told {
            (self.0.on)(Notice::Event(Kind::Stale, body));
        }
        self.failed(id, None);
    }

    /// Reopened after the server's `retry` (longer after each failure in
    /// a row, never before `Retry-After`).
    fn failed(&self, id: u64, retry_after_ms: Option<u64>) {
        let wait = {
            let mut state = self.0.state.borrow_mut();
            let conn = if state.opening.as_ref().is_some_and(|c| c.id == id) {
                state.opening.take()
            } else if state.current.as_ref().is_some_and(|c| c.id == id) {
                state.current.take()
            } else {
                None
            };
            let Some(conn) = conn else { return };
            conn.close();
            state.failures += 1;
            state.backing_off = true;
            sse::backoff_ms(
                state.retry_ms,
                state.failures,
                js_sys::Math::random(),
                retry_after_ms,
            )
        };
        (self.0.on)(Notice::Down);
        let this = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            gloo_timers::future::sleep(Duration::from_millis(wait)).await;
            this.0.state.borrow_mut().backing_off = false;
            this.reopen();
        });
    }

    fn no_streams(&self) {
        {
            let mut state = self.0.state.borrow_mut();
            state.mode = Mode::Poll;
            for conn in [state.current.take(), state.opening.take()]
                .into_iter()
                .flatten()
            {
                conn.close();
            }
        }
        (self.0.on)(Notice::NoStreams);
    }
}

#[wasm_bindgen]
extern "C" {
    type TextDecoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextDecoder;
    #[wasm_bindgen(method, js_name = decode)]
    fn decode_with(
        this: &TextDecoder,
        bytes: &js_sys::Uint8Array,
        options: &js_sys::Object,
    ) -> js_sys::JsString;
}

fn get(target: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let function: js_sys::Function = get(target, name).dyn_into()?;
    let args: js_sys::Array = args.iter().collect();
    function.apply(target, &args)
}

fn cancel_body(response: &web_sys::Response) {
    if let Some(body) = response.body() {
        quietly(call(&body, "cancel", &[]));
    }
}

thread_local! {
    /// The rejection handler of promises nobody awaits.
    static IGNORE: Closure<dyn FnMut(JsValue)> = Closure::new(|_: JsValue| {});
}

/// A promise nobody awaits (a cancel, which rejects with the abort's
/// `AbortError` once the stream was aborted): handled, so that the page
/// logs no unhandled rejection.
fn quietly(result: Result<JsValue, JsValue>) {
    if let Ok(promise) = result.and_then(|p| p.dyn_into::<js_sys::Promise>()) {
        IGNORE.with(|ignore| {
            let _ = promise.catch(ignore);
        });
    }
}
