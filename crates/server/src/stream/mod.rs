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
//! Where a topic's events are kept and from where it reads others' is its
//! hub's broker (`broker`), one trait with two implementations: this
//! process (`broker::memory`), or, with `--redis` in proxy mode, Redis
//! (`broker::redis`), through which replicas share the pollers: one
//! replica holds a resource's lease and polls it, the others take its
//! events from the broker, with the same numbers, so a client may
//! reconnect to any replica (`replicate`). The poll loop is `poller`.
//!
//! A topic belongs to its audience (`audience`): every stream is opened
//! by a viewer (its key, or its client address as public mode counts
//! visitors), and what the streams spend is charged to viewers. The
//! pollers' share of the budget is divided per viewer, not per topic
//! (`share`); a topic's first poll waits in its opener's budget lane; a
//! viewer has a quota of topics (those in their grace period included);
//! at the cap of topics in all, topics nobody watches are evicted first.
//! In public mode an open is admitted as a request of its visitor, each
//! topic it creates as one of its misses, and opens from other sites'
//! pages are refused (`admission`).
//!
//! Bounded: streams per viewer and in all, resources per stream, per
//! viewer and in all, the replay buffer; a client that does not read falls
//! behind its buffer and is dropped, and the connection's write deadline
//! (which for a stream runs only while the socket is full) closes one that
//! stalls. An answer is held once for all its subscribers (`body`).

pub mod admission;
pub mod audience;
mod body;
pub mod broker;
pub mod frame;
mod open;
mod poller;
pub mod replicate;
pub mod share;
pub mod source;
pub mod topic;

pub use open::{open, parse_watches};

use admission::{Admitted, Door};
use audience::{Audience, Viewer};
use broker::Broker;
use poller::{InLane, poller};
use predmarket_core::change::WatchKind;
use predmarket_core::schedule::{self, Watch};
use source::Source;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use topic::{Mode, Topic};

/// What bounds and paces the streams (`--stream-*`).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Open streams in all.
    pub max_streams: usize,
    /// Open streams of one viewer (`audience::Viewer`).
    pub max_streams_per_address: usize,
    /// Topics one viewer may hold, those in their grace period after it
    /// left included.
    pub max_topics_per_visitor: usize,
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
    /// How long a replica's lease on a resource lasts unless renewed (with
    /// `--redis`, how soon another replica takes over its polls).
    pub lease: Duration,
}

impl Settings {
    /// How the hub's broker keeps events: as many per resource as the
    /// replay buffer, none larger than a poll reads.
    pub fn limits(&self) -> broker::Limits {
        broker::Limits {
            lease: self.lease,
            max_events: self.replay,
            max_event_bytes: broker::MAX_KEPT_EVENT_BYTES,
        }
    }

    /// The broker of a hub alone in its process: events kept as long as
    /// their topic lives.
    pub fn local_broker(&self) -> Arc<dyn Broker> {
        broker::memory::Memory::new(self.limits(), Duration::ZERO).replica()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            max_streams: 10_000,
            max_streams_per_address: 16,
            max_topics_per_visitor: 64,
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

/// A topic and who watches it.
struct Watched {
    topic: Arc<Topic>,
    audience: Audience,
}

/// Why a viewer gets no topic for a resource.
enum Refused {
    /// The viewer holds its quota of topics.
    Quota,
    /// The hub watches as many resources as it polls, all of them watched.
    Full,
    /// Public mode: the visitor's misses are spent.
    Visitor(crate::proxy::visitors::Refusal),
}

/// The streams' shared state: the topics and the caps.
pub struct Hub {
    source: Arc<dyn Source>,
    settings: Settings,
    topics: Mutex<HashMap<String, Watched>>,
    streams: AtomicUsize,
    per_viewer: Mutex<HashMap<Viewer, usize>>,
    door: Door,
    pub stats: Stats,
    /// Set once the scheduler task runs.
    scheduler: Mutex<Option<crate::proxy::AbortOnDrop>>,
    /// Where the topics' events are kept, and other replicas' read.
    broker: Arc<dyn Broker>,
    /// Resources this replica took over after their polls stopped for
    /// longer than their interval (`/metrics`).
    failovers: Arc<AtomicU64>,
    /// The runtime `start` ran on, where the pollers run, whichever
    /// runtime the stream that started one came in on (`crate::runtimes`).
    runtime: Option<tokio::runtime::Handle>,
}

/// How many topics are polled how (`/metrics`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Modes {
    /// Polled here, for this replica alone (a broker of this process).
    pub alone: usize,
    /// Polled here under a lease, for every replica.
    pub leading: usize,
    /// Polled by another replica.
    pub following: usize,
    /// Polled here for this replica alone because the broker failed.
    pub degraded: usize,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    /// A hub over `source`; its scheduler runs until the hub is dropped.
    /// Its topics' events are kept by `broker` (`Settings::local_broker`,
    /// or one shared with other replicas); opens are admitted by `door`.
    pub fn start(
        source: Arc<dyn Source>,
        settings: Settings,
        broker: Arc<dyn Broker>,
        door: Door,
    ) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            source,
            settings,
            topics: Mutex::new(HashMap::new()),
            streams: AtomicUsize::new(0),
            per_viewer: Mutex::new(HashMap::new()),
            door,
            stats: Stats::default(),
            scheduler: Mutex::new(None),
            broker,
            failovers: Arc::new(AtomicU64::new(0)),
            runtime: tokio::runtime::Handle::try_current().ok(),
        });
        // Built outside a runtime (a router made for inspection), the
        // pollers run at the intervals their kinds want.
        let Some(runtime) = &hub.runtime else {
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
        let shared = self.broker.shared();
        for watched in lock(&self.topics).values() {
            match watched.topic.mode() {
                Mode::Alone => modes.alone += 1,
                Mode::Leader if !shared => modes.alone += 1,
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
        self.failovers.load(Ordering::Relaxed)
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
        if self.broker.shared() {
            let _ = write!(
                out,
                "# HELP predmarket_proxy_stream_topics_redis_down Resources polled locally because Redis failed.\n\
                 # TYPE predmarket_proxy_stream_topics_redis_down gauge\n\
                 predmarket_proxy_stream_topics_redis_down {}\n",
                modes.degraded
            );
        }
        let failover_help = format!(
            "Resources this replica took over after their polls stopped for longer than their \
             interval (a stale event with code {}).",
            predmarket_core::live::FAILOVER_CODE
        );
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
                failover_help.as_str(),
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

    /// Grants every watched poller of this replica its interval: what its
    /// kind wants, lengthened so that each viewer's topics fit that
    /// viewer's part of the budget's share (`share`), and all of them the
    /// share. Topics nobody watches or that the upstream refuses (polled
    /// again only with backoff) take no part. With `--redis` the topics other replicas poll count too:
    /// the budget is shared, and replicas whose clients watch the same
    /// resources then grant the same intervals, so together they keep to
    /// the share rather than each spending it whole.
    fn schedule(&self) {
        let watched: Vec<(Arc<Topic>, Vec<Viewer>)> = lock(&self.topics)
            .values()
            .filter(|w| !w.audience.is_empty())
            .map(|w| (w.topic.clone(), w.audience.viewers().copied().collect()))
            .filter(|(topic, _)| !topic.refused())
            .collect();
        let Some(budget) = self.source.budget() else {
            for (topic, _) in &watched {
                topic.set_interval_ms(topic.wanted_ms);
            }
            return;
        };
        let demands: Vec<share::Demand<'_, Viewer>> = watched
            .iter()
            .map(|(topic, viewers)| share::Demand {
                wanted_ms: topic.wanted_ms,
                viewers,
            })
            .collect();
        let share = self.settings.budget_share.clamp(0.01, 1.0);
        let per_visitor = share::per_visitor(&demands, f64::from(budget.limit_per_minute) * share);
        let watches: Vec<Watch> = per_visitor
            .iter()
            .map(|&interval_ms| Watch {
                interval_ms,
                visible: true,
            })
            .collect();
        let granted = schedule::intervals_with_share(
            &watches,
            budget.limit_per_minute,
            budget.remaining,
            share,
        );
        for ((topic, _), ms) in watched.iter().zip(granted) {
            topic.set_interval_ms(ms);
        }
    }

    /// The topic of `key` for `opener`, started if new (a miss of the
    /// opener's visitor, within its quota; at the cap of topics, one
    /// nobody watches is evicted to make room). Joined under the map's
    /// lock, so a poller that is about to stop sees the newcomer.
    fn join(
        self: &Arc<Self>,
        opener: &Admitted,
        key: &str,
        kind: WatchKind,
        id: &str,
    ) -> Result<Arc<Topic>, Refused> {
        let mut topics = lock(&self.topics);
        if let Some(watched) = topics.get_mut(key) {
            watched.audience.add(opener.viewer);
            watched.topic.join();
            return Ok(watched.topic.clone());
        }
        let held = topics
            .values()
            .filter(|w| w.audience.charges(opener.viewer))
            .count();
        if held >= self.settings.max_topics_per_visitor {
            return Err(Refused::Quota);
        }
        if topics.len() >= self.settings.max_topics {
            let unwatched = topics
                .iter()
                .find(|(_, w)| w.audience.is_empty())
                .map(|(k, _)| k.clone());
            let evicted = unwatched
                .and_then(|k| topics.remove(&k))
                .ok_or(Refused::Full)?;
            // Its poller, waiting out the grace, stops now.
            evicted.topic.audience.notify_one();
        }
        opener.charge_topic().map_err(Refused::Visitor)?;
        let http = kind.request(id).map_err(|_| Refused::Full)?;
        let wanted = kind.default_interval_ms() * self.settings.interval_scale;
        let topic = Arc::new(Topic::new(
            key.to_owned(),
            kind,
            http,
            wanted.max(1.0),
            self.settings.replay,
            self.settings.heartbeat,
        ));
        if self.broker.up() {
            topic.brokered();
        } else {
            topic.degrade();
        }
        topic.join();
        let mut audience = Audience::default();
        audience.add(opener.viewer);
        topics.insert(
            key.to_owned(),
            Watched {
                topic: topic.clone(),
                audience,
            },
        );
        drop(topics);
        // Granted before its first poll ends: a topic still at the interval
        // its kind wants would poll again at once, while the others' first
        // polls wait for their slots, and queue behind them.
        self.schedule();
        let first = InLane {
            source: self.source.clone(),
            lane: opener.lane,
        };
        let poller = poller(Arc::downgrade(self), topic.clone(), first);
        match &self.runtime {
            Some(runtime) => drop(runtime.spawn(poller)),
            None => drop(tokio::spawn(poller)),
        }
        Ok(topic)
    }

    /// One stream of `viewer` watches `topic` no more.
    fn leave(&self, viewer: Viewer, topic: &Arc<Topic>) {
        let mut topics = lock(&self.topics);
        if let Some(watched) = topics
            .get_mut(&topic.key)
            .filter(|w| Arc::ptr_eq(&w.topic, topic))
        {
            watched.audience.remove(viewer);
        }
        drop(topics);
        topic.leave();
    }

    /// Whether `topic` is still the hub's (not evicted).
    fn holds(&self, topic: &Arc<Topic>) -> bool {
        lock(&self.topics)
            .get(&topic.key)
            .is_some_and(|w| Arc::ptr_eq(&w.topic, topic))
    }

    /// Stops a poller whose grace ran out with nobody watching.
    fn retire(&self, topic: &Arc<Topic>) -> bool {
        let mut topics = lock(&self.topics);
        if topic.subscribers.load(Ordering::SeqCst) > 0 {
            return false;
        }
        if topics
            .get(&topic.key)
            .is_some_and(|w| Arc::ptr_eq(&w.topic, topic))
        {
            topics.remove(&topic.key);
        }
        true
    }
}
