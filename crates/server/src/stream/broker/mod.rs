//! Where a topic's events are kept, and from where it reads the events
//! another replica publishes: the seam between a topic (its poller, replay
//! buffer and numbering, `topic`) and replication (`replicate`), as
//! centrifuge's `Broker` is between its hub and its engines.
//!
//! A broker keeps, per resource, a lease (which replica polls it), the
//! latest events (bounded) and the last answer (the last `snapshot` or
//! `change`), and delivers the events one replica publishes to the topics
//! of the others that follow the resource. Two implementations, tested
//! alike by one suite (`crates/server/tests/stream_broker.rs`):
//!
//! - [`memory::Memory`]: this process. Every hub has one; several hubs of
//!   one process may share one (as replicas share Redis).
//! - [`redis::Redis`]: `--redis`, shared by every replica of an upstream.
//!
//! A topic never learns which one it runs on: it numbers its events,
//! hands them to the broker through `replicate`, and shows its
//! subscribers only what the broker took.

mod follow;
pub mod memory;
pub mod redis;

use super::frame::Frame;
pub use follow::{Follower, Following};
use futures::future::BoxFuture;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// The largest event a broker keeps (its JSON whole, bytes): one answer as
/// large as a poll reads, and its changes. With `--redis` this is what
/// replicas share; a larger event is told as a `stale`
/// ([`predmarket_core::live::TOO_LARGE_CODE`]) at its number.
pub const MAX_KEPT_EVENT_BYTES: usize = 2 * super::source::MAX_BODY_BYTES;

// The server never keeps (so never sends) an event its readers refuse.
const _: () = assert!(MAX_KEPT_EVENT_BYTES <= predmarket_core::live::MAX_READ_EVENT_BYTES);

/// What asking for a resource's lease came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lease {
    /// This replica holds it; `taken`: it did not before this call.
    Held { taken: bool },
    /// Another replica holds it.
    Other,
}

/// What a publish came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    Done,
    /// The lease is another replica's, or the event's number was taken
    /// (another replica published it).
    Refused,
    /// The event is larger than the broker keeps (`replicate` publishes a
    /// `stale` at its number instead).
    TooLarge,
}

/// What a broker holds of a resource.
#[derive(Debug, Default, Clone)]
pub struct History {
    /// The last answer (a `snapshot` or `change`).
    pub last: Option<Arc<Frame>>,
    /// The latest events, oldest first.
    pub events: Vec<Arc<Frame>>,
}

/// How a broker keeps events.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// How long a lease lasts unless renewed.
    pub lease: Duration,
    /// Events kept per resource.
    pub max_events: usize,
    /// The largest event kept (its JSON whole, bytes): one answer whole
    /// is in each, and with `--redis` every replica's Redis keeps it.
    pub max_event_bytes: usize,
}

/// Where events are kept and read (see the module's doc). Every call that
/// can fail answers `None` when the broker failed; a topic then polls for
/// its own subscribers in a numbering of its own until [`Broker::up`].
pub trait Broker: Send + Sync + 'static {
    /// Whether the broker answers (not marked down).
    fn up(&self) -> bool;
    /// Whether replicas in other processes read these events (`/metrics`
    /// counts topics of a broker of this process alone as `local`).
    fn shared(&self) -> bool;
    /// How long a lease lasts unless renewed.
    fn lease(&self) -> Duration;
    /// Takes or renews the lease of `key` (`kind:id`); renewing it keeps
    /// the resource's events too.
    fn hold<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<Lease>>;
    /// Gives the lease up, if it is still this replica's.
    fn release<'a>(&'a self, key: &'a str) -> BoxFuture<'a, ()>;
    /// Keeps one event and delivers it to the followers, if this replica
    /// holds the lease and its number is free.
    fn publish<'a>(
        &'a self,
        key: &'a str,
        frame: &'a Arc<Frame>,
    ) -> BoxFuture<'a, Option<Published>>;
    /// The last answer and the latest `count` events.
    fn history<'a>(&'a self, key: &'a str, count: usize) -> BoxFuture<'a, Option<History>>;
    /// The events after number `seq`, oldest first.
    fn since<'a>(&'a self, key: &'a str, seq: u64) -> BoxFuture<'a, Option<Vec<Arc<Frame>>>>;
    /// Forgets the resource's events: its numbering starts anew.
    fn clear<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<()>>;
    /// Delivers the events of `key` to `follower` while it follows, from
    /// the number it holds on, until the registration is dropped.
    fn follow(&self, key: &str, follower: Weak<dyn Follower>) -> Following;
}

/// How often a holder renews its lease and a follower tries for it.
pub fn renew_every(broker: &dyn Broker) -> Duration {
    broker.lease() / 3
}
