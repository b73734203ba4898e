//! Talking to the service: the settings (base URL and key), the client
//! built from them, cancellation tied to the page, the directory of
//! platforms and leagues, and paged lists. One client per settings, so its rate budget is shared
//! by every page.

use leptos::prelude::*;
use predmarket_client::browser::{IdbStore, SharedTabsBudget, TabsBudget};
use predmarket_client::core::Pager;
use predmarket_client::core::models::{
    EventsResponse, LeagueInfo, ListAwardsResponse, ListFuturesResponse, ListGamesResponse,
    MarketsResponse, Platform, PlatformError, PlatformsResponse, ProfileTradesResponse,
    SeriesResponse, Skipped, SkippedItem, TradesResponse,
};
use predmarket_client::core::request::{GetLeagueInfo, ListPlatforms, Paged, Request};
use predmarket_client::fetch::FetchClient;
use predmarket_client::{CallOptions, CancelToken, ClientConfig, Error};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

const BASE_URL_KEY: &str = "predmarket.baseUrl";
const API_KEY_KEY: &str = "predmarket.apiKey";

/// Page size of every list.
pub const PAGE_SIZE: u32 = 25;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub base_url: String,
    pub api_key: String,
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.session_storage().ok().flatten())
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn read(storage: &Option<web_sys::Storage>, key: &str) -> Option<String> {
    storage
        .as_ref()
        .and_then(|s| s.get_item(key).ok().flatten())
        .filter(|v| !v.trim().is_empty())
}

impl Settings {
    /// This tab's settings, else the remembered ones, else the server that
    /// serves this page and its public demo key.
    pub fn load() -> Self {
        let (session, local) = (session(), local());
        let stored = |key: &str| read(&session, key).or_else(|| read(&local, key));
        Self {
            base_url: stored(BASE_URL_KEY).unwrap_or_else(default_base_url),
            api_key: stored(API_KEY_KEY)
                .unwrap_or_else(|| predmarket_client::core::DEMO_API_KEY.to_owned()),
        }
    }

    pub fn defaults() -> Self {
        Self {
            base_url: default_base_url(),
            api_key: predmarket_client::core::DEMO_API_KEY.to_owned(),
        }
    }

    /// Whether settings are kept beyond this tab.
    pub fn remembered() -> bool {
        let local = local();
        read(&local, BASE_URL_KEY).is_some() || read(&local, API_KEY_KEY).is_some()
    }

    /// Stores the settings for this tab, and on this device only when the
    /// user asked for it: a key in localStorage outlives the session.
    pub fn save(&self, remember: bool) -> Result<(), String> {
        let write = |storage: Option<web_sys::Storage>| -> Result<(), String> {
            let storage = storage.ok_or("this browser gives no storage")?;
            storage
                .set_item(BASE_URL_KEY, &self.base_url)
                .map_err(|_| "storage refused the value")?;
            storage
                .set_item(API_KEY_KEY, &self.api_key)
                .map_err(|_| "storage refused the value")?;
            Ok(())
        };
        write(session())?;
        if remember {
            write(local())?;
        } else {
            forget(local());
        }
        Ok(())
    }

    /// Drops stored settings everywhere: the defaults apply again.
    pub fn clear() {
        forget(session());
        forget(local());
    }

    /// A client for these settings (checks the URL and key): its budget
    /// shared with the other tabs of this key, its answers kept across
    /// reloads when the settings may be kept ([`Settings::may_persist`]).
    pub fn client(&self) -> Result<FetchClient, Error> {
        let mut config = ClientConfig::new(self.base_url.clone(), self.api_key.clone());
        config.shared_budget = TabsBudget::new(&self.base_url, &self.api_key)
            .map(|b| Rc::new(SharedTabsBudget(b)) as Rc<dyn predmarket_client::SharedBudget>);
        if Self::may_persist() {
            config.store = IdbStore::open(&self.store_name(), STORE_MAX_ENTRIES, STORE_MAX_BYTES)
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

    /// Whether answers may be kept on this device: not when the user
    /// saved a key for this tab only (they chose not to remember it);
    /// yes with the defaults (the public demo key) or remembered settings.
    pub fn may_persist() -> bool {
        Self::remembered() || read(&session(), API_KEY_KEY).is_none()
    }

    /// The IndexedDB database of these settings, named by a hash (never
    /// the key itself).
    fn store_name(&self) -> String {
        let digest = predmarket_client::core::ledger::sha256(
            format!("{}\n{}", self.base_url, self.api_key).as_bytes(),
        );
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        format!("predmarket-cache-{hex}")
    }

    /// Deletes what is kept on this device for these settings.
    pub fn forget_store(&self) {
        IdbStore::delete(&self.store_name());
    }
}

/// Answers kept across reloads, at most (the oldest go first).
const STORE_MAX_ENTRIES: u32 = 400;
/// No single answer larger than this is kept.
const STORE_MAX_BYTES: usize = 512 * 1024;

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

fn forget(storage: Option<web_sys::Storage>) {
    if let Some(s) = storage {
        let _ = s.remove_item(BASE_URL_KEY);
        let _ = s.remove_item(API_KEY_KEY);
    }
}

fn default_base_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .filter(|o| o.starts_with("http"))
        .unwrap_or_else(|| predmarket_client::DEFAULT_BASE_URL.to_owned())
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
        let client = Rc::new(settings.client()?);
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
/// brought a fresh answer.
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

/// What the service says it has: its platforms (`GET /platforms`, loaded
/// with the app, for names, filters and features) and its leagues (`GET
/// /league-info`, loaded the first time a page asks, then kept). Every
/// filter, tab and display name of the demo comes from here, never from
/// the labels of service.md (docs/spec/public-service-facts.md:
/// "Identifiers are not the labels").
#[derive(Clone, Copy)]
pub struct Directory {
    pub resource: LocalResource<Result<PlatformsResponse, Error>>,
    platforms: Memo<Vec<Platform>>,
    leagues_wanted: RwSignal<bool>,
    leagues: LocalResource<Result<Vec<LeagueInfo>, Error>>,
    /// The leagues once loaded, as a plain signal: a display name read
    /// from it inside a page's `<Transition>` must not suspend the page
    /// on the league request (a direct load of a future's page waited
    /// forever on it).
    known_leagues: RwSignal<Vec<LeagueInfo>>,
}

/// How long kept platforms and leagues are used without asking again.
const DIRECTORY_MAX_AGE_MS: f64 = 10.0 * 60.0 * 1000.0;

impl Directory {
    pub fn provide() -> Self {
        // Platforms and leagues change rarely: what this device kept in
        // the last ten minutes is used without asking (one request a visit).
        let resource = LocalResource::new(|| async {
            send_swr(
                &ListPlatforms,
                &CancelToken::new(),
                DIRECTORY_MAX_AGE_MS,
                || (),
            )
            .await
        });
        let platforms = Memo::new(move |_| {
            resource
                .read()
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|r| r.platforms.clone())
                .unwrap_or_default()
        });
        let leagues_wanted = RwSignal::new(false);
        // Until a page asks, the first fetch waits (the market list costs
        // no league request), and it must end when asked: the resource's
        // task awaits its current future before it looks at any change, so
        // a future pending for ever held every later fetch back (a page
        // built after that task started, from a link or a split module,
        // waited for ever).
        let (asked, on_ask) = futures::channel::oneshot::channel::<()>();
        let on_ask = std::cell::Cell::new(Some(on_ask));
        let asked = std::cell::Cell::new(Some(asked));
        Effect::new(move |_| {
            if leagues_wanted.get()
                && let Some(asked) = asked.take()
            {
                let _ = asked.send(());
            }
        });
        let leagues = LocalResource::new(move || {
            let wait = (!leagues_wanted.get_untracked()).then(|| on_ask.take());
            async move {
                if let Some(Some(on_ask)) = wait {
                    let _ = on_ask.await;
                }
                let response = send_swr(
                    &GetLeagueInfo::default(),
                    &CancelToken::new(),
                    DIRECTORY_MAX_AGE_MS,
                    || (),
                )
                .await?;
                Ok(response.data.leagues().to_vec())
            }
        });
        let known_leagues = RwSignal::new(Vec::new());
        Effect::new(move |_| {
            if let Some(Ok(list)) = leagues.read().as_ref() {
                known_leagues.set(list.clone());
            }
        });
        let directory = Self {
            resource,
            platforms,
            leagues_wanted,
            leagues,
            known_leagues,
        };
        provide_context(directory);
        directory
    }

    /// The directory of the app, if there is one (component tests mount
    /// pieces without it).
    pub fn get() -> Option<Self> {
        use_context::<Self>()
    }

    /// Asks the service again (after the settings changed).
    pub fn refetch(&self) {
        self.resource.refetch();
        if self.leagues_wanted.get_untracked() {
            self.leagues.refetch();
        }
    }

    /// The display name of a platform (reactive): its `name` in the
    /// directory, else its id as the service spells it.
    pub fn name(&self, id: &str) -> String {
        self.platforms
            .with(|all| all.iter().find(|p| p.id == id).and_then(|p| p.name.clone()))
            .unwrap_or_else(|| id.to_owned())
    }

    /// The platforms that serve an endpoint (`markets`, `events`, …), as
    /// (id, name) in the directory's order (reactive). A platform that
    /// lists no such endpoint is offered: only the service knows, and it
    /// answers with an error the page shows.
    pub fn platforms_serving(&self, endpoint: &str) -> Vec<(String, String)> {
        self.platforms.with(|all| {
            all.iter()
                .filter(|p| {
                    p.endpoints
                        .as_ref()
                        .and_then(|e| e.is_available(endpoint))
                        .unwrap_or(true)
                })
                .map(|p| (p.id.clone(), p.name.clone().unwrap_or_else(|| p.id.clone())))
                .collect()
        })
    }

    /// Whether a platform offers a feature. Waits for the directory; when
    /// it failed or does not say, the answer is yes and the service judges.
    pub async fn supports(&self, platform: &str, feature: Feature) -> bool {
        if is_gone(self.resource) {
            return true;
        }
        let Ok(directory) = self.resource.await else {
            return true;
        };
        let features = directory
            .platforms
            .iter()
            .find(|p| p.id == platform)
            .and_then(|p| p.features.clone())
            .unwrap_or_default();
        let flag = match feature {
            Feature::Orderbook => features.orderbook,
            Feature::Trades => features.trades,
            Feature::History => features.historical_data,
            Feature::Profiles => features.user_profiles,
        };
        flag.unwrap_or(true)
    }

    /// The leagues of the service, in its order (loads them on first use).
    pub fn leagues(&self) -> LocalResource<Result<Vec<LeagueInfo>, Error>> {
        if !self.leagues_wanted.get_untracked() {
            self.leagues_wanted.set(true);
        }
        self.leagues
    }

    /// A league's short name (abbreviation, else name) once the leagues
    /// are known (reactive).
    pub fn league_name(&self, id: &str) -> Option<String> {
        self.leagues();
        self.known_leagues.with(|all| {
            let league = all.iter().find(|l| l.id == id)?;
            league.abbreviation.clone().or_else(|| league.name.clone())
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    Orderbook,
    Trades,
    History,
    Profiles,
}

/// The display name of a platform, from the directory when the app has one.
pub fn platform_name(id: &str) -> String {
    match Directory::get() {
        Some(d) => d.name(id),
        None => id.to_owned(),
    }
}

/// A league's short name from the directory, once it knows the leagues
/// (reactive; asks for them the first time).
pub fn league_name(id: &str) -> Option<String> {
    Directory::get().and_then(|d| d.league_name(id))
}

/// A 404 for an answer that came back without the item asked for.
pub fn missing(what: &str, id: &str) -> Error {
    Error::from_failure(predmarket_client::core::ApiFailure {
        status: 404,
        code: "NOT_FOUND".into(),
        message: format!("no {what} {id:?}"),
        details: None,
        retry_after_ms: None,
    })
}

/// The resource of a page about one item: sends `request(id)` (again
/// only on a retry; the page is rebuilt when the id changes), cancelled
/// when the page is left, and takes the item out of the answer, a 404
/// when it has none.
pub fn item_by_id<R, T, I>(
    id: String,
    what: &'static str,
    request: impl Fn(String) -> R + 'static,
    take: impl Fn(R::Response) -> I + Copy + 'static,
) -> LocalResource<Result<T, Error>>
where
    R: Request + Clone + 'static,
    I: IntoIterator<Item = T>,
    T: 'static,
{
    item_by_id_every(id, what, request, take, None)
}

/// [`item_by_id`], kept live: asked again about every `every_ms` (when
/// given), as the page's watch scheduler and the rate budget allow.
pub fn item_by_id_every<R, T, I>(
    id: String,
    what: &'static str,
    request: impl Fn(String) -> R + 'static,
    take: impl Fn(R::Response) -> I + Copy + 'static,
    every_ms: Option<f64>,
) -> LocalResource<Result<T, Error>>
where
    R: Request + Clone + 'static,
    I: IntoIterator<Item = T>,
    T: 'static,
{
    let inflight = Inflight::new();
    let revalidate = Revalidate::new();
    if let Some(every) = every_ms {
        crate::components::watch(every, revalidate);
    }
    LocalResource::new(move || {
        revalidate.track();
        let request = request(id.clone());
        let id = id.clone();
        let token = inflight.next();
        async move {
            take(send_swr(&request, &token, 0.0, revalidate.trigger()).await?)
                .into_iter()
                .next()
                .ok_or_else(|| missing(what, &id))
        }
    })
}

/// What a list shows beside its items, from its first page: the total
/// count and the platforms that failed (the rest of the page is served);
/// from every page (`Skipped`): the items that could not be read.
pub trait Listing: Skipped {
    fn total(&self) -> Option<f64>;
    fn platform_errors(&self) -> Option<BTreeMap<String, PlatformError>>;
}

macro_rules! listing {
    ($($response:ty: |$r:ident| $total:expr, $errors:expr;)*) => {$(
        #[allow(unused_variables)]
        impl Listing for $response {
            fn total(&self) -> Option<f64> {
                let $r = self;
                $total
            }
            fn platform_errors(&self) -> Option<BTreeMap<String, PlatformError>> {
                let $r = self;
                $errors
            }
        }
    )*};
}

listing! {
    MarketsResponse: |r| r.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    EventsResponse: |r| r.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    SeriesResponse: |r| r.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    TradesResponse: |r| r.pagination.as_ref().and_then(|p| p.total), None;
    ProfileTradesResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    ListGamesResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    ListFuturesResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    ListAwardsResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
}

/// A list item the service sent that could not be read, and the page
/// (1-based) it came in: item indices restart on every page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub page: usize,
    pub item: SkippedItem,
}

/// Hands a page to the pager: the items to show and those of the page
/// that could not be read, numbered with the page.
pub fn take_page<R: Paged>(
    pager: &mut Pager<R>,
    page: R::Response,
) -> Result<(Vec<R::Item>, Vec<Unread>), Error>
where
    R::Response: Skipped,
{
    // Copied before the pager takes the items out of the page; the pager
    // numbers the page as it takes it.
    let skipped: Vec<SkippedItem> = page.skipped().to_vec();
    let items = pager.on_page(page)?;
    let number = pager.pages();
    let unread = skipped
        .into_iter()
        .map(|item| Unread { page: number, item })
        .collect();
    Ok((items, unread))
}

/// The first pages of a list and the pager to go on with.
#[derive(Clone)]
pub struct Loaded<R: Paged>
where
    R::Item: Clone,
    R::Response: Clone,
{
    pub items: Vec<R::Item>,
    pub pager: Pager<R>,
    /// The first page as the service sent it (for totals, meta, warnings).
    pub first: R::Response,
    /// The items of those pages that could not be read (the rest is shown).
    pub unread: Vec<Unread>,
}

/// Loads the first `pages` pages of a list (at least one).
pub async fn load_pages<R: Paged>(
    request: R,
    pages: usize,
    cancel: &CancelToken,
) -> Result<Loaded<R>, Error>
where
    R::Item: Clone,
    R::Response: Clone + Skipped,
{
    let mut pager = Pager::new(request);
    let mut items = Vec::new();
    let mut unread = Vec::new();
    let mut first = None;
    while first.is_none() || pager.pages() < pages.max(1) {
        let Some(request) = pager.next_request()? else {
            break;
        };
        let response = match send(&request, cancel).await {
            Ok(r) => r,
            // An expired cursor restarts the session once; anything else
            // ends the load.
            Err(e) => match pager.on_error(e) {
                Ok(()) => continue,
                Err(e) if first.is_some() => {
                    leptos::logging::warn!("stopped loading earlier pages: {e}");
                    break;
                }
                Err(e) => return Err(e),
            },
        };
        if first.is_none() {
            first = Some(response.clone());
        }
        let (page_items, page_unread) = take_page(&mut pager, response)?;
        items.extend(page_items);
        unread.extend(page_unread);
    }
    let first = first.ok_or_else(|| Error::Decode {
        status: None,
        message: "the list answered no page".into(),
        body_snippet: String::new(),
    })?;
    Ok(Loaded {
        items,
        pager,
        first,
        unread,
    })
}

/// What "load more" is doing.
#[derive(Debug, Clone, PartialEq)]
pub enum More {
    Idle,
    Loading,
    Failed(Error),
}

/// A list on screen that grows page by page.
pub struct PagedList<R: Paged + Send + Sync + 'static>
where
    R::Item: Clone + Send + Sync + 'static,
{
    pub items: RwSignal<Vec<R::Item>>,
    /// The items of the pages on screen that could not be read.
    pub unread: RwSignal<Vec<Unread>>,
    pub state: RwSignal<More>,
    pager: StoredValue<Pager<R>>,
    pub done: RwSignal<bool>,
}

impl<R: Paged + Send + Sync + 'static> Clone for PagedList<R>
where
    R::Item: Clone + Send + Sync + 'static,
{
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Paged + Send + Sync + 'static> Copy for PagedList<R> where
    R::Item: Clone + Send + Sync + 'static
{
}

impl<R: Paged + Send + Sync + 'static> PagedList<R>
where
    R::Item: Clone + Send + Sync + 'static,
    R::Response: Clone + Skipped,
{
    pub fn new(items: Vec<R::Item>, pager: Pager<R>, unread: Vec<Unread>) -> Self {
        let done = pager.is_done();
        Self {
            items: RwSignal::new(items),
            unread: RwSignal::new(unread),
            state: RwSignal::new(More::Idle),
            pager: StoredValue::new(pager),
            done: RwSignal::new(done),
        }
    }

    pub fn pages(&self) -> usize {
        self.pager.with_value(|p| p.pages())
    }

    /// Fetches the next page and appends it; `then` runs after a page
    /// arrived (e.g. to record the page count in the URL).
    pub fn more(&self, cancel: CancelToken, then: impl Fn(usize) + 'static) {
        if self.state.get_untracked() == More::Loading || self.done.get_untracked() {
            return;
        }
        self.state.set(More::Loading);
        let this = *self;
        leptos::task::spawn_local(async move {
            let mut pager = this.pager.get_value();
            let result = loop {
                let request = match pager.next_request() {
                    Ok(Some(r)) => r,
                    Ok(None) => break Ok((Vec::new(), Vec::new())),
                    Err(e) => break Err(e),
                };
                match send(&request, &cancel).await {
                    Ok(page) => break take_page(&mut pager, page),
                    Err(e) => {
                        if let Err(e) = pager.on_error(e) {
                            break Err(e);
                        }
                    }
                }
            };
            if cancel.is_cancelled() {
                return;
            }
            match result {
                Ok((items, unread)) => {
                    let pages = pager.pages();
                    this.done.set(pager.is_done());
                    this.pager.set_value(pager);
                    this.items.update(|all| all.extend(items));
                    if !unread.is_empty() {
                        this.unread.update(|all| all.extend(unread));
                    }
                    this.state.set(More::Idle);
                    then(pages);
                }
                Err(e) => {
                    this.done.set(pager.is_done());
                    this.pager.set_value(pager);
                    this.state.set(More::Failed(e));
                }
            }
        });
    }
}
