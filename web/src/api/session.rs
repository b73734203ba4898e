//! The client of the current settings and how a view asks it: one client
//! per settings (so its rate budget is shared by every page), its answers
//! kept on this device, stale-while-revalidate, and cancellation tied to
//! the view that asked.

use super::settings::Settings;
use leptos::prelude::*;
use predmarket_client::browser::{IdbStore, SharedTabsBudget, TabsBudget};
use predmarket_client::core::request::Request;
use predmarket_client::fetch::FetchClient;
use predmarket_client::{CallOptions, CancelToken, ClientConfig, Error};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// Answers kept across reloads, at most (the oldest go first).
const STORE_MAX_ENTRIES: u32 = 400;
/// No single answer larger than this is kept.
const STORE_MAX_BYTES: usize = 512 * 1024;

/// A client for `settings` (checks the URL and key): its budget shared
/// with the other tabs of this key, its answers kept across reloads when
/// the settings may be kept ([`Settings::may_persist`]).
pub fn client_for(settings: &Settings) -> Result<FetchClient, Error> {
    let mut config = ClientConfig::new(settings.base_url.clone(), settings.api_key.clone());
    config.shared_budget = TabsBudget::new(&settings.base_url, &settings.api_key)
        .map(|b| Rc::new(SharedTabsBudget(b)) as Rc<dyn predmarket_client::SharedBudget>);
    if Settings::may_persist() {
        config.store = IdbStore::open(&settings.store_name(), STORE_MAX_ENTRIES, STORE_MAX_BYTES)
            .map(|s| s as Rc<dyn predmarket_client::Store>);
    }
    // Only long enough for a page to read the answer its background
    // revalidation just brought (see `send_swr`): "Refresh" still asks.
    config.cache_ttl = Some(std::time::Duration::from_secs(5));
    config.observer = Some(Rc::new(|event: &predmarket_client::Event<'_>| {
        if event.kind == predmarket_client::EventKind::Wait
            && let Some(ms) = event.wait_ms
        {
            BUDGET_WAIT_UNTIL.with(|until| until.set(js_sys::Date::now() + ms));
        }
    }));
    FetchClient::new(config)
}

thread_local! {
    // Reference-counted, not owned by the reactive arena: it outlives any
    // one mounted app (tests mount and dispose many), which would
    // otherwise dispose it with the first.
    static BUDGET_WAIT_UNTIL: ArcRwSignal<f64> = ArcRwSignal::new(0.0);
}

/// Until when (wall-clock ms) a call waits for the rate budget: the
/// loading placeholders show a countdown to it instead of a spinner.
pub fn budget_wait_until() -> RwSignal<f64> {
    BUDGET_WAIT_UNTIL.with(|until| RwSignal::from(until.clone()))
}

thread_local! {
    static CLIENT: RefCell<Option<(Settings, Rc<FetchClient>)>> = const { RefCell::new(None) };
}

/// The client for the current settings.
pub fn client() -> Result<Rc<FetchClient>, Error> {
    let settings = Settings::load();
    CLIENT.with(|cell| {
        let mut cell = cell.borrow_mut();
        if let Some((cached, client)) = cell.as_ref()
            && *cached == settings
        {
            return Ok(client.clone());
        }
        let client = Rc::new(client_for(&settings)?);
        *cell = Some((settings, client.clone()));
        Ok(client)
    })
}

/// Sends one request, cancelled by `cancel`.
pub async fn send<R: Request>(request: &R, cancel: &CancelToken) -> Result<R::Response, Error> {
    let client = client()?;
    client
        .send(request, &CallOptions::with_cancel(cancel.clone()))
        .await
}

/// Sends `request`, or answers at once with what this device kept of it
/// (stale while revalidate): an answer kept less than `max_age_ms` ago is
/// used as it is; an older one is shown while a fresh one is asked for in
/// the background, and `on_fresh` runs when it has arrived (the caller
/// then asks again and gets it from the client's in-memory cache).
pub async fn send_swr<R>(
    request: &R,
    cancel: &CancelToken,
    max_age_ms: f64,
    on_fresh: impl FnOnce() + 'static,
) -> Result<R::Response, Error>
where
    R: Request + Clone + 'static,
{
    let client = client()?;
    if !client.is_cached(request)
        && let Some((kept, age)) = client.stored(request).await
    {
        if age >= max_age_ms {
            let (request, cancel) = (request.clone(), cancel.clone());
            leptos::task::spawn_local(async move {
                let options = CallOptions::with_cancel(cancel);
                if client.send(&request, &options).await.is_ok() {
                    on_fresh();
                }
            });
        }
        return Ok(kept);
    }
    send(request, cancel).await
}

/// Whether a resource was disposed with its view (reading it then gives
/// nothing; awaiting it would panic).
pub fn is_gone<T: 'static>(resource: LocalResource<T>) -> bool {
    resource.try_read_untracked().is_none()
}

/// A resource's "ask again": bumped when a background revalidation has
/// brought a fresh answer, or when a live view is due.
#[derive(Clone, Copy)]
pub struct Revalidate(RwSignal<u32>);

impl Revalidate {
    pub fn new() -> Self {
        Self(RwSignal::new(0))
    }

    /// Call inside the resource's closure.
    pub fn track(&self) {
        self.0.track();
    }

    /// What `send_swr` calls when the fresh answer is in.
    pub fn trigger(&self) -> impl FnOnce() + 'static {
        let signal = self.0;
        move || signal.try_update(|n| *n += 1).unwrap_or_default()
    }
}

impl Default for Revalidate {
    fn default() -> Self {
        Self::new()
    }
}

/// The requests of one view. `next` cancels what the previous load still
/// has in flight (its answer would be thrown away); leaving the view
/// cancels the last one, which aborts the fetch.
#[derive(Clone)]
pub struct Inflight(Arc<Mutex<CancelToken>>);

impl Inflight {
    /// Must be called while the view is being built, so it can cancel when
    /// the view goes away.
    pub fn new() -> Self {
        let inner = Arc::new(Mutex::new(CancelToken::new()));
        let on_leave = inner.clone();
        on_cleanup(move || {
            if let Ok(token) = on_leave.lock() {
                token.cancel();
            }
        });
        Self(inner)
    }

    /// A fresh token; the previous one is cancelled.
    pub fn next(&self) -> CancelToken {
        let fresh = CancelToken::new();
        if let Ok(mut current) = self.0.lock() {
            std::mem::replace(&mut *current, fresh.clone()).cancel();
        }
        fresh
    }

    /// The token of the current load (e.g. for its "load more").
    pub fn current(&self) -> CancelToken {
        self.0.lock().map(|t| t.clone()).unwrap_or_default()
    }
}

impl Default for Inflight {
    fn default() -> Self {
        Self::new()
    }
}
