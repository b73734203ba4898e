//! `GET /stream`: live data for every viewer from one poller per resource.
//!
//! A client names what it watches (`?watch=orderbook:ID&watch=game:ID`,
//! the kinds of the npm package's `watch*` iterators) and reads Server-Sent
//! Events over plain HTTP: per resource a `snapshot` first, then `change`
//! (book levels new, resized or gone, or values by path: the core's
//! `change` rules; each with the new answer whole), `stale` with a reason
//! the moment the data stops being fresh, `live` when it is again, and
//! `error` when the resource cannot be watched. Every event carries the
//! resource, its number (`seq`), `as_of`, `age_ms` and `polled_ms`; the
//! stream's `id:` holds its position in every resource, so a client that
//! reconnects with `Last-Event-ID` gets what it missed from a bounded
//! buffer, or `resync` and a fresh snapshot. A comment every few seconds
//! keeps proxies from cutting a quiet stream.
//!
//! However many watch a resource, one poller reads it (`topic`), through
//! the same path as an ordinary request (`source`): the local data, or the
//! proxy's cache and upstream budget. The pollers' intervals come from the
//! core's watch scheduler: what each kind wants, lengthened (never
//! shortened) so that all of them together spend at most their share of
//! the upstream budget; the rest stays for visitors' own requests.
//!
//! With `--redis` (proxy mode), replicas share the pollers (`relay`): one
//! replica holds a resource's lease and polls it, the others take its
//! events from Redis, with the same numbers, so a client may reconnect to
//! any replica.
//!
//! Bounded: streams per address and in all, resources per stream and in
//! all, the replay buffer; a client that does not read falls behind its
//! buffer and is dropped, and the connection's write deadline (which for a
//! stream runs only while the socket is full) closes one that stalls.

pub mod frame;
pub mod relay;
pub mod source;
pub mod topic;

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{ConnectInfo, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use frame::{Frame, Position};
use futures::StreamExt;
use futures::stream::{self, BoxStream};
use predmarket_core::ErrorCode;
use predmarket_core::change::WatchKind;
use predmarket_core::schedule::{self, Watch};
use serde_json::json;
use source::Source;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast;
use topic::{Mode, Topic};

/// What bounds and paces the streams (`--stream-*`).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Open streams in all.
    pub max_streams: usize,
    /// Open streams of one client address.
    pub max_streams_per_address: usize,
    /// Resources one stream may watch.
    pub max_resources_per_stream: usize,
    /// Resources watched at once in all (one poller each).
    pub max_topics: usize,
    /// Events kept per resource for clients that reconnect; also how far a
    /// client may fall behind before it is dropped.
    pub replay: usize,
    /// A comment this often on a quiet stream.
    pub heartbeat: Duration,
    /// How long a poller goes on after its last subscriber left (a reload
    /// finds it still warm).
    pub grace: Duration,
    /// Multiplies every kind's wanted interval (tests poll faster).
    pub interval_scale: f64,
    /// The share of the upstream budget pollers may use together.
    pub budget_share: f64,
    /// With `--redis`: how long a replica's lease on a resource lasts
    /// unless renewed (how soon another replica takes over its polls).
    pub lease: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            max_streams: 10_000,
            max_streams_per_address: 16,
            max_resources_per_stream: predmarket_core::live::MAX_RESOURCES,
            max_topics: 1_000,
            replay: 64,
            heartbeat: Duration::from_millis(predmarket_core::live::HEARTBEAT_MS),
            grace: Duration::from_secs(30),
            interval_scale: 1.0,
            budget_share: 0.5,
            lease: Duration::from_secs(4),
        }
    }
}

/// Counters of the streams (`Hub::stats`).
#[derive(Debug, Default)]
pub struct Stats {
    pub polls: AtomicU64,
    pub streams_opened: AtomicU64,
    /// Clients dropped for reading too slowly.
    pub dropped_slow: AtomicU64,
}

/// The streams' shared state: the topics and the caps.
pub struct Hub {
    source: Arc<dyn Source>,
    settings: Settings,
    topics: Mutex<HashMap<String, Arc<Topic>>>,
    streams: AtomicUsize,
    per_address: Mutex<HashMap<IpAddr, usize>>,
    pub stats: Stats,
    /// Set once the scheduler task runs.
    scheduler: Mutex<Option<crate::proxy::AbortOnDrop>>,
    /// With `--redis`: pollers shared with other replicas.
    relay: Option<Arc<relay::Relay>>,
}

/// How many topics are polled how (`/metrics`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Modes {
    /// Polled here, for this replica alone (no `--redis`).
    pub alone: usize,
    /// Polled here under a lease, for every replica.
    pub leading: usize,
    /// Polled by another replica.
    pub following: usize,
    /// Polled here for this replica alone because Redis failed.
    pub degraded: usize,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    /// A hub over `source`; its scheduler runs until the hub is dropped.
    /// With `relay`, its pollers are shared with other replicas.
    pub fn start(
        source: Arc<dyn Source>,
        settings: Settings,
        relay: Option<Arc<relay::Relay>>,
    ) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            source,
            settings,
            topics: Mutex::new(HashMap::new()),
            streams: AtomicUsize::new(0),
            per_address: Mutex::new(HashMap::new()),
            stats: Stats::default(),
            scheduler: Mutex::new(None),
            relay,
        });
        // Built outside a runtime (a router made for inspection), the
        // pollers run at the intervals their kinds want.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return hub;
        };
        let weak = Arc::downgrade(&hub);
        let task = runtime.spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let Some(hub) = weak.upgrade() else { return };
                hub.schedule();
            }
        });
        *lock(&hub.scheduler) = Some(crate::proxy::AbortOnDrop(task));
        hub
    }

    /// Resources watched now.
    pub fn topics(&self) -> usize {
        lock(&self.topics).len()
    }

    /// Streams open now.
    pub fn streams(&self) -> usize {
        self.streams.load(Ordering::SeqCst)
    }

    /// How many topics are polled how.
    pub fn modes(&self) -> Modes {
        let mut modes = Modes::default();
        for topic in lock(&self.topics).values() {
            match topic.mode() {
                Mode::Alone => modes.alone += 1,
                Mode::Leader => modes.leading += 1,
                Mode::Follower => modes.following += 1,
                Mode::Degraded => modes.degraded += 1,
            }
        }
        modes
    }

    /// Topics this replica took over after their polls stopped for
    /// longer than their interval (subscribers told `stale`).
    pub fn failovers(&self) -> u64 {
        self.relay
            .as_ref()
            .map_or(0, |r| r.failovers.load(Ordering::Relaxed))
    }

    /// The streams' part of `/metrics` (Prometheus text), after `out`.
    pub fn render_metrics(&self, out: &mut String) {
        use std::fmt::Write;
        let modes = self.modes();
        let _ = write!(
            out,
            "# HELP predmarket_proxy_stream_topics Resources watched, by who polls them: this replica \
             for all (leader), another replica (follower), this replica for its own clients (local: \
             without --redis, or while Redis fails).\n\
             # TYPE predmarket_proxy_stream_topics gauge\n\
             predmarket_proxy_stream_topics{{mode=\"leader\"}} {}\n\
             predmarket_proxy_stream_topics{{mode=\"follower\"}} {}\n\
             predmarket_proxy_stream_topics{{mode=\"local\"}} {}\n",
            modes.leading,
            modes.following,
            modes.alone + modes.degraded,
        );
        if self.relay.is_some() {
            let _ = write!(
                out,
                "# HELP predmarket_proxy_stream_topics_redis_down Resources polled locally because Redis failed.\n\
                 # TYPE predmarket_proxy_stream_topics_redis_down gauge\n\
                 predmarket_proxy_stream_topics_redis_down {}\n",
                modes.degraded
            );
        }
        let figures = [
            (
                "streams_open",
                "gauge",
                "Streams open now.",
                self.streams() as u64,
            ),
            (
                "streams_opened_total",
                "counter",
                "Streams opened.",
                self.stats.streams_opened.load(Ordering::Relaxed),
            ),
            (
                "stream_polls_total",
                "counter",
                "Polls made by this replica's stream pollers.",
                self.stats.polls.load(Ordering::Relaxed),
            ),
            (
                "stream_dropped_slow_total",
                "counter",
                "Streams dropped for reading too slowly.",
                self.stats.dropped_slow.load(Ordering::Relaxed),
            ),
            (
                "stream_failovers_total",
                "counter",
                "Resources this replica took over after their polls stopped for longer than their interval (a stale event with code REPLICA_FAILOVER).",
                self.failovers(),
            ),
        ];
        for (name, kind, help, value) in figures {
            let _ = write!(
                out,
                "# HELP predmarket_proxy_{name} {help}\n# TYPE predmarket_proxy_{name} {kind}\npredmarket_proxy_{name} {value}\n"
            );
        }
    }

    /// Grants every poller of this replica its interval: what its kind
    /// wants, lengthened so that all of them fit the budget's share. With
    /// `--redis` the topics other replicas poll count too: the budget is
    /// shared, and replicas whose clients watch the same resources then
    /// grant the same intervals, so together they keep to the share
    /// rather than each spending it whole.
    fn schedule(&self) {
        let topics: Vec<Arc<Topic>> = lock(&self.topics).values().cloned().collect();
        let Some(budget) = self.source.budget() else {
            for topic in &topics {
                topic.set_interval_ms(topic.wanted_ms);
            }
            return;
        };
        let watches: Vec<Watch> = topics
            .iter()
            .map(|t| Watch {
                interval_ms: t.wanted_ms,
                visible: true,
            })
            .collect();
        let granted = schedule::intervals_with_share(
            &watches,
            budget.limit_per_minute,
            budget.remaining,
            self.settings.budget_share,
        );
        for (topic, ms) in topics.iter().zip(granted) {
            topic.set_interval_ms(ms);
        }
    }

    /// The topic of `key`, started if new; `None` at the cap of topics.
    /// Joined under the map's lock, so a poller that is about to stop sees
    /// the newcomer.
    fn join(self: &Arc<Self>, key: &str, kind: WatchKind, id: &str) -> Option<Arc<Topic>> {
        let mut topics = lock(&self.topics);
        if let Some(topic) = topics.get(key) {
            topic.join();
            return Some(topic.clone());
        }
        if topics.len() >= self.settings.max_topics {
            return None;
        }
        let http = kind.request(id).ok()?;
        let wanted = kind.default_interval_ms() * self.settings.interval_scale;
        let topic = Arc::new(Topic::new(
            key.to_owned(),
            kind,
            http,
            wanted.max(1.0),
            self.settings.replay,
            self.settings.heartbeat,
        ));
        match &self.relay {
            Some(relay) if relay.up() => topic.relayed(),
            Some(_) => topic.degrade(),
            None => {}
        }
        topic.join();
        topics.insert(key.to_owned(), topic.clone());
        drop(topics);
        // Granted before its first poll ends: a topic still at the interval
        // its kind wants would poll again at once, while the others' first
        // polls wait for their slots, and queue behind them.
        self.schedule();
        tokio::spawn(poller(Arc::downgrade(self), topic.clone()));
        Some(topic)
    }

    /// Stops a poller whose grace ran out with nobody watching.
    fn retire(&self, topic: &Arc<Topic>) -> bool {
        let mut topics = lock(&self.topics);
        if topic.subscribers.load(Ordering::SeqCst) > 0 {
            return false;
        }
        if topics
            .get(&topic.key)
            .is_some_and(|t| Arc::ptr_eq(t, topic))
        {
            topics.remove(&topic.key);
        }
        true
    }
}

/// One resource's poll loop: at once, then every granted interval while
/// anyone watches, until the grace period after the last one left. With
/// `--redis` it starts from what Redis holds of the resource and polls
/// only while this replica holds the lease.
async fn poller(hub: Weak<Hub>, topic: Arc<Topic>) {
    let relay = hub.upgrade().and_then(|h| h.relay.clone());
    let replay = hub.upgrade().map_or(1, |h| h.settings.replay);
    let mut _relaying = Vec::new();
    if let Some(relay) = relay.as_ref().filter(|_| topic.mode() == Mode::Follower) {
        match relay.load(&topic.key, replay).await {
            Some((last, events)) => topic.seed(last, events),
            None => topic.degrade(),
        }
        _relaying = relaying(relay, &topic);
    }
    topic.set_ready();
    // Set while another replica polls: on taking over, this one polls when
    // the resource is due, not at once (a replica taking over many
    // resources would queue all their polls on the budget together).
    let mut following = false;
    loop {
        // Polled here alone while Redis failed: shared again once it
        // answers.
        if let Some(relay) = relay.as_ref().filter(|r| r.up())
            && topic.mode() == Mode::Degraded
            && let Some((last, events)) = relay.load(&topic.key, replay).await
        {
            topic.rejoin(last, events);
            _relaying = relaying(relay, &topic);
        }
        let Some(strong) = hub.upgrade() else { return };
        if let Some(idle) = topic.idle_for() {
            if idle >= strong.settings.grace {
                if strong.retire(&topic) {
                    drop(_relaying);
                    if let Some(relay) = relay.filter(|_| topic.mode() == Mode::Leader) {
                        relay.release(&topic.key).await;
                    }
                    return;
                }
                continue;
            }
            let rest = strong.settings.grace - idle;
            drop(strong);
            // Woken early when someone joins.
            let _ = tokio::time::timeout(rest, topic.audience.notified()).await;
            continue;
        }
        if topic.ended() {
            drop(strong);
            // Nothing more to poll: wait for the audience to go.
            topic.audience.notified().await;
            continue;
        }
        if !topic.polls_here() {
            drop(strong);
            following = true;
            // Another replica polls; woken when this one takes over.
            let _ = tokio::time::timeout(Duration::from_secs(1), topic.leadership.notified()).await;
            continue;
        }
        if following {
            following = false;
            drop(strong);
            // From the last answer the other replica published.
            rest(&topic, None).await;
            continue;
        }
        strong.stats.polls.fetch_add(1, Ordering::Relaxed);
        let source = strong.source.clone();
        drop(strong);
        topic.poll(source.as_ref()).await;
        rest(&topic, Some(tokio::time::Instant::now())).await;
    }
}

/// Waits until the topic is due for a poll: its interval after the poll
/// that ended at `polled`, or, with `None`, after the last answer it knows
/// of (taken over from another replica). The interval is read again at
/// least every second: topics joining meanwhile lengthen it, and a poller
/// that slept the interval granted when it fell asleep would poll early
/// and queue for the budget behind the newcomers' first polls. Meanwhile a
/// stretched topic's subscribers are told when its data grows older than
/// wanted. Ends early when another replica takes the polls.
async fn rest(topic: &Topic, polled: Option<tokio::time::Instant>) {
    loop {
        if !topic.polls_here() {
            return;
        }
        let now = tokio::time::Instant::now();
        let due = match polled {
            Some(polled) => polled + Duration::from_secs_f64(topic.interval_ms().max(1.0) / 1000.0),
            None => now + topic.due_in(topic::unix_ms()),
        };
        if now >= due {
            return;
        }
        let told_in = topic
            .tell_stretched(topic::unix_ms())
            .unwrap_or(Duration::MAX);
        let nap = (due - now).min(Duration::from_secs(1)).min(told_in);
        tokio::time::sleep(nap.max(Duration::from_millis(1))).await;
    }
}

/// The tasks that share `topic` through Redis: reading the leader's
/// events, and holding or trying for the lease.
fn relaying(relay: &Arc<relay::Relay>, topic: &Arc<Topic>) -> Vec<crate::proxy::AbortOnDrop> {
    let follow = tokio::spawn(relay::follow(relay.clone(), topic.clone()));
    let lease = tokio::spawn(relay::keep_lease(relay.clone(), topic.clone()));
    vec![
        crate::proxy::AbortOnDrop(follow),
        crate::proxy::AbortOnDrop(lease),
    ]
}

/// One stream's hold on its caps and topics, released when the client goes.
struct Subscription {
    hub: Arc<Hub>,
    address: IpAddr,
    topics: Vec<Arc<Topic>>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        for topic in &self.topics {
            topic.leave();
        }
        self.hub.streams.fetch_sub(1, Ordering::SeqCst);
        let mut per_address = lock(&self.hub.per_address);
        if let Some(count) = per_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                per_address.remove(&self.address);
            }
        }
    }
}

/// The resources a stream asks for: `watch=KIND:ID`, each checked as the
/// client checks a `watch*` call; repeats count once.
pub fn parse_watches(
    query: &str,
    max: usize,
) -> Result<Vec<(String, WatchKind, String)>, ApiError> {
    let mut out: Vec<(String, WatchKind, String)> = Vec::new();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name != "watch" {
            continue;
        }
        let invalid = |message: String| {
            ApiError::invalid("watch", message).with_details(json!({ "parameter": "watch" }))
        };
        let (kind, id) = value
            .split_once(':')
            .ok_or_else(|| invalid("each watch is KIND:ID".into()))?;
        let kind = WatchKind::from_name(kind).ok_or_else(|| {
            invalid(format!(
                "unknown kind; one of {}",
                WatchKind::ALL.map(WatchKind::name).join(", ")
            ))
        })?;
        kind.request(id).map_err(|e| invalid(e.to_string()))?;
        let key = format!("{}:{id}", kind.name());
        if !out.iter().any(|(k, _, _)| *k == key) {
            if out.len() == max {
                return Err(invalid(format!("at most {max} resources per stream")));
            }
            out.push((key, kind, id.to_owned()));
        }
    }
    if out.is_empty() {
        return Err(ApiError::invalid(
            "watch",
            "name at least one resource: watch=orderbook:MARKET_ID (kinds: orderbook, market, game, future, award)",
        ));
    }
    Ok(out)
}

/// The handler of `GET /stream` (the key, if any, is checked before it).
pub async fn open(
    State(hub): State<Arc<Hub>>,
    connect: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    streaming: Option<axum::Extension<crate::listen::Streaming>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let watches = match parse_watches(
        query.as_deref().unwrap_or_default(),
        hub.settings.max_resources_per_stream,
    ) {
        Ok(watches) => watches,
        Err(error) => return error.into_response(),
    };
    let address = connect.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0.ip());
    {
        let mut per_address = lock(&hub.per_address);
        let count = per_address.entry(address).or_insert(0);
        if *count >= hub.settings.max_streams_per_address {
            let mut response = ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "{} streams are open from this address, its limit; close one first",
                    hub.settings.max_streams_per_address
                ),
            )
            .with_details(json!({ "reason": "streams_per_address" }))
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return response;
        }
        if hub.streams.fetch_add(1, Ordering::SeqCst) >= hub.settings.max_streams {
            hub.streams.fetch_sub(1, Ordering::SeqCst);
            return crate::guard::shed(
                "the server has as many streams open as it serves; retry shortly",
            );
        }
        *count += 1;
    }
    let mut subscription = Subscription {
        hub: hub.clone(),
        address,
        topics: Vec::with_capacity(watches.len()),
    };
    for (key, kind, id) in &watches {
        match hub.join(key, *kind, id) {
            Some(topic) => {
                // With `--redis`, a new topic starts from what Redis holds,
                // so a position from another replica is known here.
                topic.ready(Duration::from_secs(3)).await;
                subscription.topics.push(topic);
            }
            // Dropping the subscription gives back what it took.
            None => {
                return crate::guard::shed(
                    "the server watches as many resources as it can poll; retry shortly",
                );
            }
        }
    }
    hub.stats.streams_opened.fetch_add(1, Ordering::Relaxed);
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|text| Position::parse(text.trim(), watches.len()));
    if let Some(axum::Extension(streaming)) = streaming {
        streaming.mark();
    }
    let body = events(hub.clone(), subscription, last);
    let mut response = Response::new(Body::from_stream(body));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Proxies in front (nginx) pass each event on at once.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    // The in-flight cap counts answers being written; a stream has caps of
    // its own.
    response.extensions_mut().insert(crate::guard::LongLived);
    response
}

/// One item of a stream: an event of resource `usize`, a sign that the
/// client fell too far behind, or a heartbeat.
enum Item {
    Event(usize, Arc<Frame>),
    Behind,
    Heartbeat,
}

/// The stream's bytes: the preamble, each resource's first events, then
/// live events and heartbeats, until the client goes or falls behind.
fn events(
    hub: Arc<Hub>,
    subscription: Subscription,
    last: Option<Position>,
) -> BoxStream<'static, Result<Bytes, Infallible>> {
    let mut first = Vec::new();
    let mut live: Vec<BoxStream<'static, Item>> = Vec::new();
    let mut position = Position(Vec::with_capacity(subscription.topics.len()));
    for (i, topic) in subscription.topics.iter().enumerate() {
        let from = last.as_ref().and_then(|p| p.0.get(i).copied());
        let start = topic.subscribe(from);
        // Positions start where the client was (replay) or at 0.
        position.0.push(match from {
            Some((epoch, seq)) if epoch == start.epoch => (epoch, seq),
            _ => (start.epoch, 0),
        });
        first.extend(start.frames.into_iter().map(|f| Item::Event(i, f)));
        live.push(receive(i, start.receiver));
    }
    let heartbeat = hub.settings.heartbeat.max(Duration::from_millis(100));
    let beats = stream::unfold((), move |()| async move {
        tokio::time::sleep(heartbeat).await;
        Some((Item::Heartbeat, ()))
    })
    .boxed();
    let merged = stream::select(stream::select_all(live), beats);
    let items = stream::iter(first).chain(merged);
    let preamble = stream::once(async { Ok(frame::preamble()) });
    let body = items
        .scan(
            (position, subscription),
            move |(position, subscription), item| {
                let out = match item {
                    Item::Event(i, frame) => {
                        if let Some(slot) = position.0.get_mut(i) {
                            *slot = (frame.epoch, frame.seq);
                        }
                        Some(Ok(frame::render(&frame, position)))
                    }
                    Item::Heartbeat => Some(Ok(Bytes::from_static(frame::HEARTBEAT))),
                    Item::Behind => {
                        subscription
                            .hub
                            .stats
                            .dropped_slow
                            .fetch_add(1, Ordering::Relaxed);
                        None
                    }
                };
                std::future::ready(out)
            },
        )
        .boxed();
    drop(hub);
    preamble.chain(body).boxed()
}

/// A topic's live events for stream resource `i`; `Behind` once the client
/// fell further behind than the channel holds (then the stream ends).
fn receive(i: usize, receiver: broadcast::Receiver<Arc<Frame>>) -> BoxStream<'static, Item> {
    stream::unfold(Some(receiver), move |receiver| async move {
        let mut receiver = receiver?;
        match receiver.recv().await {
            Ok(frame) => Some((Item::Event(i, frame), Some(receiver))),
            Err(broadcast::error::RecvError::Lagged(_)) => Some((Item::Behind, None)),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    })
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watches_are_checked_and_repeats_count_once() {
        let got = parse_watches(
            "watch=orderbook:a&watch=market%3Ab&watch=orderbook:a&x=1",
            4,
        )
        .expect("valid");
        let keys: Vec<&str> = got.iter().map(|(k, _, _)| k.as_str()).collect();
        assert_eq!(keys, ["orderbook:a", "market:b"]);
        for bad in [
            "",
            "x=1",
            "watch=orderbook",
            "watch=book:a",
            "watch=market:",
            "watch=market:..",
            "watch=market:%2e%2e",
            "watch=game:%20",
        ] {
            assert!(parse_watches(bad, 4).is_err(), "{bad}");
        }
        let five = "watch=market:1&watch=market:2&watch=market:3&watch=market:4&watch=market:5";
        assert!(parse_watches(five, 4).is_err());
        // An id with a colon is one id.
        let got = parse_watches("watch=game:A:B", 4).expect("valid");
        assert_eq!(got[0].2, "A:B");
    }
}
