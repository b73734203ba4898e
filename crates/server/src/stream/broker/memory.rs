//! The broker of one process: events kept in memory (the topics' own
//! `Arc`s, not copies), leases with the same lifetimes as on Redis, and
//! each event delivered to the other replicas' followers as it is
//! published. Every hub without `--redis` has one of its own; hubs of one
//! process that share one are replicas as `--redis` makes them, which is
//! how the broker suite tests both implementations alike.

use super::{Broker, Follower, Following, History, Lease, Limits, Published};
use crate::stream::frame::{Frame, Kind};
use futures::future::BoxFuture;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// The resources of one store, shared by its replicas' brokers.
pub struct Memory {
    resources: Mutex<Store>,
    lease: Duration,
    /// How long a resource's events stay after its lease was last held.
    keep: Duration,
    /// Events kept per resource.
    max_events: usize,
    /// The largest event kept (its JSON whole, bytes).
    max_event_bytes: usize,
    next_replica: AtomicU64,
    /// Numbers the followers' registrations, so one is dropped alone.
    next_follower: AtomicU64,
}

#[derive(Default)]
struct Store {
    by_key: HashMap<String, Resource>,
    /// When expired resources were last dropped.
    swept: Option<Instant>,
}

#[derive(Default)]
struct Resource {
    holder: Option<(u64, Instant)>,
    /// Until then the events are kept.
    kept_until: Option<Instant>,
    events: VecDeque<Arc<Frame>>,
    /// The highest number published (a number is never given twice).
    top: u64,
    last: Option<Arc<Frame>>,
    followers: Vec<(u64, u64, Weak<dyn Follower>)>,
}

/// One replica's broker over a [`Memory`] store.
pub struct Replica {
    store: Arc<Memory>,
    me: u64,
}

impl Memory {
    /// A store whose leases last `limits.lease`, keeping its events for
    /// `keep` after a resource's lease was last held.
    pub fn new(limits: Limits, keep: Duration) -> Arc<Memory> {
        Arc::new(Memory {
            resources: Mutex::new(Store::default()),
            lease: limits.lease,
            keep,
            max_events: limits.max_events.max(1),
            max_event_bytes: limits.max_event_bytes,
            next_replica: AtomicU64::new(1),
            next_follower: AtomicU64::new(1),
        })
    }

    /// A broker of this store for one more replica.
    pub fn replica(self: &Arc<Self>) -> Arc<Replica> {
        Arc::new(Replica {
            store: self.clone(),
            me: self.next_replica.fetch_add(1, Ordering::Relaxed),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        self.resources
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Resources held now (a test sees what a released one leaves).
    pub fn resources(&self) -> usize {
        self.lock().by_key.len()
    }
}

impl Store {
    /// Drops resources nobody holds or follows whose keeping ran out, at
    /// most once a second (a scan of every resource).
    fn sweep(&mut self, now: Instant) {
        if self
            .swept
            .is_some_and(|at| now.duration_since(at) < Duration::from_secs(1))
        {
            return;
        }
        self.swept = Some(now);
        self.by_key.retain(|_, r| !r.forgotten(now));
    }
}

impl Resource {
    fn holder(&self, now: Instant) -> Option<u64> {
        self.holder
            .filter(|&(_, until)| until > now)
            .map(|(who, _)| who)
    }

    fn forgotten(&self, now: Instant) -> bool {
        self.holder(now).is_none()
            && self.followers.iter().all(|(_, _, f)| f.strong_count() == 0)
            && self.kept_until.is_none_or(|until| until <= now)
    }
}

impl Replica {
    /// Delivers `frame` to the followers of `key` in other replicas,
    /// outside the store's lock (a follower takes its topic's).
    fn deliver(&self, followers: Vec<Weak<dyn Follower>>, frame: &Arc<Frame>) {
        for follower in followers.iter().filter_map(Weak::upgrade) {
            follower.deliver(frame.clone());
        }
    }
}

impl Broker for Replica {
    fn up(&self) -> bool {
        true
    }

    fn shared(&self) -> bool {
        false
    }

    fn lease(&self) -> Duration {
        self.store.lease
    }

    fn hold<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<Lease>> {
        let now = Instant::now();
        let mut store = self.store.lock();
        store.sweep(now);
        let resource = store.by_key.entry(key.to_owned()).or_default();
        let got = match resource.holder(now) {
            Some(who) if who == self.me => Lease::Held { taken: false },
            Some(_) => Lease::Other,
            None => Lease::Held { taken: true },
        };
        if got != Lease::Other {
            resource.holder = Some((self.me, now + self.store.lease));
            resource.kept_until = Some(now + self.store.keep);
        }
        Box::pin(async move { Some(got) })
    }

    fn release<'a>(&'a self, key: &'a str) -> BoxFuture<'a, ()> {
        let now = Instant::now();
        let mut store = self.store.lock();
        if let Some(resource) = store.by_key.get_mut(key)
            && resource.holder(now) == Some(self.me)
        {
            resource.holder = None;
            if resource.forgotten(now) {
                store.by_key.remove(key);
            }
        }
        Box::pin(async {})
    }

    fn publish<'a>(
        &'a self,
        key: &'a str,
        frame: &'a Arc<Frame>,
    ) -> BoxFuture<'a, Option<Published>> {
        if frame.json().len() > self.store.max_event_bytes {
            return Box::pin(async { Some(Published::TooLarge) });
        }
        let now = Instant::now();
        let mut store = self.store.lock();
        let max_events = self.store.max_events;
        let got = match store.by_key.get_mut(key) {
            Some(resource) if resource.holder(now) == Some(self.me) && frame.seq > resource.top => {
                resource.top = frame.seq;
                if resource.events.len() == max_events {
                    resource.events.pop_front();
                }
                resource.events.push_back(frame.clone());
                if matches!(frame.kind, Kind::Snapshot | Kind::Change) {
                    resource.last = Some(frame.clone());
                }
                let followers = resource
                    .followers
                    .iter()
                    .filter(|(replica, _, _)| *replica != self.me)
                    .map(|(_, _, f)| f.clone())
                    .collect();
                Some(followers)
            }
            _ => None,
        };
        drop(store);
        let published = match got {
            Some(followers) => {
                self.deliver(followers, frame);
                Published::Done
            }
            None => Published::Refused,
        };
        Box::pin(async move { Some(published) })
    }

    fn history<'a>(&'a self, key: &'a str, count: usize) -> BoxFuture<'a, Option<History>> {
        let store = self.store.lock();
        let history = store
            .by_key
            .get(key)
            .map(|r| History {
                last: r.last.clone(),
                events: r
                    .events
                    .iter()
                    .skip(r.events.len().saturating_sub(count))
                    .cloned()
                    .collect(),
            })
            .unwrap_or_default();
        Box::pin(async move { Some(history) })
    }

    fn since<'a>(&'a self, key: &'a str, seq: u64) -> BoxFuture<'a, Option<Vec<Arc<Frame>>>> {
        let store = self.store.lock();
        let events = store.by_key.get(key).map_or_else(Vec::new, |r| {
            r.events.iter().filter(|f| f.seq > seq).cloned().collect()
        });
        Box::pin(async move { Some(events) })
    }

    fn clear<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<()>> {
        let mut store = self.store.lock();
        if let Some(resource) = store.by_key.get_mut(key) {
            resource.events.clear();
            resource.last = None;
            resource.top = 0;
        }
        Box::pin(async { Some(()) })
    }

    fn follow(&self, key: &str, follower: Weak<dyn Follower>) -> Following {
        let id = self.store.next_follower.fetch_add(1, Ordering::Relaxed);
        let mut store = self.store.lock();
        let resource = store.by_key.entry(key.to_owned()).or_default();
        resource.followers.push((self.me, id, follower.clone()));
        // What was published since the follower's number, so that nothing
        // between its history and this registration is missed.
        let missed: Vec<Arc<Frame>> = match follower.upgrade().and_then(|f| f.following_from()) {
            Some(seq) => resource
                .events
                .iter()
                .filter(|f| f.seq > seq)
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        drop(store);
        if let Some(follower) = follower.upgrade() {
            for frame in missed {
                follower.deliver(frame);
            }
        }
        Box::new(Unfollow {
            store: self.store.clone(),
            key: key.to_owned(),
            id,
        })
    }
}

/// Drops a follower's registration.
struct Unfollow {
    store: Arc<Memory>,
    key: String,
    id: u64,
}

impl Drop for Unfollow {
    fn drop(&mut self) {
        let now = Instant::now();
        let mut store = self.store.lock();
        if let Some(resource) = store.by_key.get_mut(&self.key) {
            resource.followers.retain(|(_, id, _)| *id != self.id);
            if resource.forgotten(now) {
                store.by_key.remove(&self.key);
            }
        }
    }
}
