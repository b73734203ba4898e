//! Live views: where the server streams (`GET /stream`: the local server
//! and the proxy), one stream per tab carries every resource on screen,
//! at no cost to the key's budget however many tabs show it; elsewhere
//! (the public service), or while the stream is down, every view that
//! keeps itself fresh asks the page's one scheduler, which fits them all
//! into the rate budget together (one timer, not one per view). Either
//! way each view has a [`Freshness`] its indicator shows.

use super::session::{Revalidate, client};
use leptos::prelude::*;

/// Every live view of the page, fitted into the rate budget together by
/// the core's scheduler ([`intervals`]): one timer, not one per view.
///
/// [`intervals`]: predmarket_client::core::schedule::intervals
#[derive(Default)]
struct Watches {
    next_id: u64,
    active: Vec<Active>,
    timer: Option<leptos::leptos_dom::helpers::IntervalHandle>,
}

struct Active {
    id: u64,
    interval_ms: f64,
    last_ms: f64,
    fresh: Revalidate,
    /// The view's resource on the tab's stream: not polled while the
    /// stream carries it (or is being opened).
    feed: Option<Feed>,
}

thread_local! {
    static WATCHES: std::cell::RefCell<Watches> = std::cell::RefCell::new(Watches::default());
}

/// The scheduler's tick: which views are due now, by the intervals the
/// budget affords every active view together (slower while the page is
/// hidden or the budget, shared by every tab of the key, runs low; never
/// faster than asked).
fn tick() {
    use predmarket_client::core::schedule::{Watch, intervals};
    let visible = web_sys::window()
        .and_then(|w| w.document())
        .is_none_or(|d| !d.hidden());
    let Ok(client) = client() else {
        return;
    };
    let (limit, remaining) = (
        client.config().rate_limit_per_minute,
        client.rate_budget_remaining(),
    );
    let now = js_sys::Date::now();
    let due: Vec<Revalidate> = WATCHES.with(|w| {
        let mut w = w.borrow_mut();
        // Only the views that poll share the budget.
        let polling: Vec<&mut Active> = w
            .active
            .iter_mut()
            .filter(|a| !a.feed.is_some_and(|f| f.streamed()))
            .collect();
        let wanted: Vec<Watch> = polling
            .iter()
            .map(|a| Watch {
                interval_ms: a.interval_ms,
                visible,
            })
            .collect();
        let every = intervals(&wanted, limit, remaining);
        polling
            .into_iter()
            .zip(every)
            .filter(|(a, every)| now - a.last_ms >= *every)
            .map(|(a, _)| {
                a.last_ms = now;
                a.fresh
            })
            .collect()
    });
    // Outside the borrow: a reload may build or drop views (and watches).
    for fresh in due {
        (fresh.trigger())();
    }
}

/// Keeps a view live: asks `fresh` to reload about every `interval_ms`, as
/// the page's one scheduler allows it, until the view goes away; while
/// `feed`'s stream carries the view's data, the stream keeps it live
/// instead and the view is not asked.
pub fn watch(interval_ms: f64, fresh: Revalidate, feed: Option<Feed>) {
    let id = WATCHES.with(|w| {
        let mut w = w.borrow_mut();
        w.next_id += 1;
        let id = w.next_id;
        w.active.push(Active {
            id,
            interval_ms,
            last_ms: js_sys::Date::now(),
            fresh,
            feed,
        });
        if w.timer.is_none() {
            w.timer = set_interval_with_handle(tick, std::time::Duration::from_millis(500)).ok();
        }
        id
    });
    on_cleanup(move || {
        WATCHES.with(|w| {
            let mut w = w.borrow_mut();
            w.active.retain(|a| a.id != id);
            if w.active.is_empty()
                && let Some(timer) = w.timer.take()
            {
                timer.clear();
            }
        });
    });
}

/// How fresh a live view's data is, as its indicator says.
#[derive(Debug, Clone, PartialEq)]
pub enum Freshness {
    /// Nothing yet (the stream is opening).
    Waiting,
    /// Through the server's stream, vouched for: the data was `age_ms`
    /// old when heard, at `at_ms` (wall clock).
    Live { age_ms: f64, at_ms: f64 },
    /// The server's poll failed or waits (`reason`, as the server says),
    /// or the stream dropped (`disconnected`).
    Stale {
        reason: String,
        age_ms: f64,
        at_ms: f64,
    },
    /// Asked by this tab (the server has no stream, or it is down), the
    /// answer arrived at `at_ms`.
    Polled { at_ms: f64 },
    /// What this device kept (the stream's last data before a reload),
    /// shown while the stream opens: `age_ms` old at `at_ms`.
    Cached { age_ms: f64, at_ms: f64 },
    /// The server refused to watch it (`code`); the view asks on its own.
    Refused { code: String },
}

impl Freshness {
    /// The data's age at `now_ms` (wall clock), when known.
    pub fn age_ms(&self, now_ms: f64) -> Option<f64> {
        match self {
            Freshness::Live { age_ms, at_ms }
            | Freshness::Stale { age_ms, at_ms, .. }
            | Freshness::Cached { age_ms, at_ms } => Some(age_ms + (now_ms - at_ms).max(0.0)),
            Freshness::Polled { at_ms } => Some((now_ms - at_ms).max(0.0)),
            Freshness::Waiting | Freshness::Refused { .. } => None,
        }
    }
}

/// Where a live view takes its data from now.
#[derive(Debug, Clone)]
pub enum Source {
    /// The stream carries it: its last answer whole.
    Stream(std::sync::Arc<serde_json::Value>),
    /// The stream is opening (or has not sent this resource yet): wait,
    /// showing what the device kept.
    Wait,
    /// Ask the service (no stream here, it is down, or it refused).
    Poll,
}

/// One resource of the tab's stream, shared by the views that show it.
struct Topic {
    resource: String,
    users: usize,
    /// The stream carries it now (opened with it, not dropped since).
    covered: ArcRwSignal<bool>,
    data: ArcRwSignal<Option<std::sync::Arc<serde_json::Value>>>,
    freshness: ArcRwSignal<Freshness>,
    refused: bool,
    /// Where the device keeps the answers of the views' ordinary requests
    /// for it: the stream's data is kept there too, so a reload shows it
    /// at once while the stream reopens.
    keep: Vec<String>,
}

/// The tab's one stream (`GET /stream`) of every resource on screen,
/// for the settings it was opened with.
struct Hub {
    settings: super::settings::Settings,
    stream: predmarket_client::live::LiveStream,
    /// Whether the server streams, as far as the tab knows.
    mode: ArcRwSignal<predmarket_client::live::Mode>,
    /// The stream is down (since it failed, until it opens again).
    down: ArcRwSignal<bool>,
    topics: Vec<Topic>,
    /// The client's answer store (bounded), when answers may be kept.
    store: Option<std::rc::Rc<dyn predmarket_client::Store>>,
}

thread_local! {
    static HUB: std::cell::RefCell<Option<Hub>> = const { std::cell::RefCell::new(None) };
}

/// What the stream said, applied to the topics (outside any borrow of
/// the hub when signals are set: their effects may add or drop views).
fn on_notice(notice: predmarket_client::live::Notice) {
    use predmarket_client::core::live::{Kind, StaleReason};
    use predmarket_client::live::Notice;
    let now = js_sys::Date::now();
    let mut updates: Vec<Box<dyn FnOnce()>> = Vec::new();
    HUB.with(|hub| {
        let mut hub = hub.borrow_mut();
        let Some(hub) = hub.as_mut() else { return };
        updates.push({
            let (mode, current) = (hub.mode.clone(), hub.stream.mode());
            Box::new(move || mode.set(current))
        });
        match notice {
            Notice::Opened(resources) => {
                let down = hub.down.clone();
                updates.push(Box::new(move || down.set(false)));
                for topic in &hub.topics {
                    let on = resources.contains(&topic.resource) && !topic.refused;
                    let covered = topic.covered.clone();
                    updates.push(Box::new(move || covered.set(on)));
                }
            }
            Notice::Down | Notice::NoStreams => {
                let down = hub.down.clone();
                updates.push(Box::new(move || down.set(true)));
                for topic in &hub.topics {
                    let (covered, freshness) = (topic.covered.clone(), topic.freshness.clone());
                    updates.push(Box::new(move || {
                        covered.set(false);
                        freshness.update(|f| {
                            // Vouched for until now; its age grows from here.
                            if let Freshness::Live { age_ms, at_ms } = *f {
                                *f = Freshness::Stale {
                                    reason: StaleReason::Disconnected.name().into(),
                                    age_ms: age_ms + (now - at_ms).max(0.0),
                                    at_ms: now,
                                };
                            }
                        });
                    }));
                }
            }
            Notice::Event(kind, event) => {
                let Some(topic) = hub.topics.iter_mut().find(|t| t.resource == event.resource)
                else {
                    return;
                };
                let age_ms = event.age_ms.map_or(0.0, |ms| ms as f64);
                let (data, freshness, covered) = (
                    topic.data.clone(),
                    topic.freshness.clone(),
                    topic.covered.clone(),
                );
                match kind {
                    Kind::Snapshot | Kind::Change => {
                        let Some(value) = event.data else { return };
                        if let Some(store) = &hub.store
                            && !topic.keep.is_empty()
                        {
                            // The answer whole, as the ordinary request
                            // would have kept it (the store's bounds hold).
                            let text = value.to_string();
                            for url in &topic.keep {
                                store.put(url, &text);
                            }
                        }
                        let snapshot = kind == Kind::Snapshot;
                        updates.push(Box::new(move || {
                            data.set(Some(std::sync::Arc::new(value)));
                            freshness.update(|f| match f {
                                // The server tells `stale` again after a
                                // snapshot if it still is; a change alone
                                // does not end its word on staleness (the
                                // core's rule, `sse::Watching::after`).
                                Freshness::Stale { reason, .. }
                                    if !snapshot && StaleReason::told_by_server(reason) =>
                                {
                                    *f = Freshness::Stale {
                                        reason: reason.clone(),
                                        age_ms,
                                        at_ms: now,
                                    }
                                }
                                _ => *f = Freshness::Live { age_ms, at_ms: now },
                            });
                        }));
                    }
                    Kind::Stale => {
                        let reason = event
                            .reason
                            .unwrap_or_else(|| StaleReason::PollFailed.name().into());
                        updates.push(Box::new(move || {
                            freshness.set(Freshness::Stale {
                                reason,
                                age_ms,
                                at_ms: now,
                            })
                        }));
                    }
                    Kind::Live => {
                        updates.push(Box::new(move || {
                            freshness.set(Freshness::Live { age_ms, at_ms: now })
                        }));
                    }
                    Kind::Resync => {}
                    Kind::Error => {
                        let code = event.code.unwrap_or_else(|| {
                            predmarket_client::core::ErrorCode::InternalError
                                .as_str()
                                .to_owned()
                        });
                        // Only the upstream's own typed refusal ends the
                        // watch (the core's rule, `sse::Watching::after`);
                        // any other error is a failed poll: data held is
                        // stale and the stream goes on.
                        if predmarket_client::core::change::ends_watch(event.status, &code) {
                            topic.refused = true;
                            updates.push(Box::new(move || {
                                covered.set(false);
                                freshness.set(Freshness::Refused { code });
                            }));
                        } else {
                            let reason = StaleReason::PollFailed.name().to_owned();
                            updates.push(Box::new(move || {
                                freshness.set(Freshness::Stale {
                                    reason,
                                    age_ms,
                                    at_ms: now,
                                })
                            }));
                        }
                    }
                }
            }
        }
    });
    for update in updates {
        update();
    }
}

/// The resources the stream should carry now.
fn wanted(hub: &Hub) -> Vec<String> {
    hub.topics
        .iter()
        .filter(|t| !t.refused)
        .map(|t| t.resource.clone())
        .collect()
}

/// A live view's data source and freshness: one resource of the tab's
/// stream, shared with the other views of it on screen.
#[derive(Clone, Copy)]
pub struct Feed {
    covered: RwSignal<bool>,
    data: RwSignal<Option<std::sync::Arc<serde_json::Value>>>,
    freshness: RwSignal<Freshness>,
    mode: RwSignal<predmarket_client::live::Mode>,
    /// The stream failed before it ever answered: poll meanwhile.
    down: RwSignal<bool>,
    /// The kind's polling interval.
    interval_ms: f64,
}

impl Feed {
    /// Where the view takes its data from now (tracked: the view's
    /// resource runs again when it changes).
    pub fn source(&self) -> Source {
        use predmarket_client::live::Mode;
        if self.covered.get() {
            return match self.data.get() {
                Some(value) => Source::Stream(value),
                None => Source::Wait,
            };
        }
        // Not tracked: the view itself sets the freshness (kept, polled),
        // which would run its resource again, and again. A refusal also
        // clears `covered`, which is tracked.
        if self
            .freshness
            .with_untracked(|f| matches!(f, Freshness::Refused { .. }))
        {
            return Source::Poll;
        }
        match self.mode.get() {
            Mode::Discover if !self.down.get() => Source::Wait,
            Mode::Discover => Source::Poll,
            Mode::Stream | Mode::Poll => Source::Poll,
        }
    }

    /// The view's own request answered (polling).
    pub fn polled(&self) {
        self.freshness.try_update(|f| {
            if !matches!(f, Freshness::Refused { .. }) {
                *f = Freshness::Polled {
                    at_ms: js_sys::Date::now(),
                };
            }
        });
    }

    /// The view shows what the device kept, `age_ms` old, while the
    /// stream opens: said so until the stream's data comes.
    pub fn kept(&self, age_ms: f64) {
        self.freshness.try_update(|f| {
            if matches!(f, Freshness::Waiting | Freshness::Cached { .. }) {
                *f = Freshness::Cached {
                    age_ms,
                    at_ms: js_sys::Date::now(),
                };
            }
        });
    }

    pub fn freshness(&self) -> RwSignal<Freshness> {
        self.freshness
    }

    /// Whether the tab's polls may leave this view out: the stream
    /// carries it, or is being opened.
    fn streamed(&self) -> bool {
        matches!(self.source_untracked(), Source::Stream(_) | Source::Wait)
    }

    fn source_untracked(&self) -> Source {
        untrack(|| self.source())
    }

    /// Waits until the feed has the stream's data or says to poll (the
    /// view gone, it says to poll), two of its kind's intervals at most:
    /// a stream that has not brought the data by then is not waited for
    /// (the view asks once itself, as the npm package's watches do).
    pub async fn settled(&self) -> Source {
        let deadline = js_sys::Date::now() + 2.0 * self.interval_ms;
        loop {
            if self.covered.try_with_untracked(|_| ()).is_none() {
                return Source::Poll;
            }
            // What the stream brought wins over a passed deadline: a busy
            // tab wakes late, and its data may have come meanwhile.
            let now = self.source_untracked();
            if !matches!(now, Source::Wait) {
                return now;
            }
            if js_sys::Date::now() > deadline {
                return Source::Poll;
            }
            gloo_timers::future::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
}

/// Follows `kind:id` through the tab's stream while the calling view is
/// on screen (one stream per tab, of every resource shown: reopened with
/// the new list as views come and go). Where the server has no stream
/// (found out by the first view, remembered) the feed says `Poll`, and
/// the view asks on its own, as it did before streams. What the stream
/// brings is kept on the device as the answer to `request`, the view's
/// ordinary request for it, so a reload paints it at once.
pub fn follow<R: predmarket_client::core::request::Request>(
    kind: predmarket_client::core::change::WatchKind,
    id: &str,
    request: &R,
) -> Feed {
    use predmarket_client::live::{LiveStream, Mode};
    let resource = kind.resource(id);
    let settings = super::settings::Settings::load();
    let client = client().ok();
    let keep = client.as_ref().and_then(|c| {
        let http = request.to_http().ok()?;
        Some(http.url(&c.config().base_url))
    });
    let (feed, list) = HUB.with(|cell| {
        let mut cell = cell.borrow_mut();
        // A new stream for new settings (another service or key).
        if cell.as_ref().is_some_and(|h| h.settings != settings)
            && let Some(old) = cell.take()
        {
            old.stream.set(Vec::new());
        }
        let hub = cell.get_or_insert_with(|| {
            let config = client.as_ref().map(|c| c.config());
            let base = config.map(|c| c.base_url.clone()).unwrap_or_default();
            let key = config.map(|c| c.api_key.clone());
            // Opening a stream is one request of the key's budget, which
            // the tabs share: taken like any call's.
            let budget = client.clone().map(|client| {
                Box::new(move || {
                    let client = client.clone();
                    Box::pin(async move {
                        client
                            .acquire_budget(predmarket_client::core::live::PATH)
                            .await
                    }) as futures::future::LocalBoxFuture<'static, ()>
                }) as predmarket_client::live::Budget
            });
            Hub {
                settings: settings.clone(),
                stream: LiveStream::new(&base, key.as_deref(), budget, on_notice),
                mode: ArcRwSignal::new(if client.is_some() {
                    Mode::Discover
                } else {
                    Mode::Poll
                }),
                down: ArcRwSignal::new(false),
                topics: Vec::new(),
                store: client.as_ref().and_then(|c| c.config().store.clone()),
            }
        });
        let i = match hub.topics.iter().position(|t| t.resource == resource) {
            Some(i) => i,
            None => {
                let covered = hub.stream.covers(&resource);
                hub.topics.push(Topic {
                    resource: resource.clone(),
                    users: 0,
                    covered: ArcRwSignal::new(covered),
                    data: ArcRwSignal::new(None),
                    freshness: ArcRwSignal::new(Freshness::Waiting),
                    refused: false,
                    keep: Vec::new(),
                });
                hub.topics.len() - 1
            }
        };
        let topic = &mut hub.topics[i];
        topic.users += 1;
        if let Some(url) = keep
            && !topic.keep.contains(&url)
        {
            topic.keep.push(url);
        }
        let feed = Feed {
            covered: RwSignal::from(topic.covered.clone()),
            data: RwSignal::from(topic.data.clone()),
            freshness: RwSignal::from(topic.freshness.clone()),
            mode: RwSignal::from(hub.mode.clone()),
            down: RwSignal::from(hub.down.clone()),
            interval_ms: kind.default_interval_ms(),
        };
        let hub = &*hub;
        let list = (client.is_some()).then(|| (hub.stream.clone(), wanted(hub)));
        (feed, list)
    });
    if let Some((stream, list)) = list {
        stream.set(list);
    }
    on_cleanup(move || {
        let list = HUB.with(|cell| {
            let mut cell = cell.borrow_mut();
            let hub = cell.as_mut()?;
            let i = hub.topics.iter().position(|t| t.resource == resource)?;
            hub.topics[i].users -= 1;
            if hub.topics[i].users > 0 {
                return None;
            }
            hub.topics.remove(i);
            Some((hub.stream.clone(), wanted(hub)))
        });
        if let Some((stream, list)) = list {
            stream.set(list);
        }
    });
    feed
}
