//! A topic replicated through its broker, whichever it is (`broker`):
//! the topic follows the resource's events as the broker delivers them,
//! and holds (or tries for) the resource's lease every third of its
//! lifetime while it has viewers. The replica holding the lease polls;
//! its events reach its own subscribers only once the broker took them,
//! as they reach the other replicas'.
//!
//! When the holder dies its lease runs out, another replica with viewers
//! takes it within a third of its lifetime, goes on numbering from the
//! last event, and, if the data went unpolled for longer than its
//! interval, says `stale` and polls at once; its first answer brings
//! `live`. A resource not yet due is polled when it is, from the last
//! answer published (a taking-over replica would otherwise queue the
//! polls of all it took over on the budget together).
//!
//! When the broker fails, the topic polls for its own subscribers in a
//! numbering of its own (`Topic::degrade`) until the broker answers again.

use super::broker::{self, Broker, Follower, Following, Lease, Published};
use super::frame::{Frame, Kind};
use super::topic::{Mode, Topic};
use crate::proxy::AbortOnDrop;
use predmarket_core::live::{Body, StaleReason, TOO_LARGE_CODE};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use tokio::sync::mpsc;

impl Follower for Topic {
    fn following_from(&self) -> Option<u64> {
        (self.mode() == Mode::Follower).then(|| self.seq())
    }

    fn deliver(&self, frame: Arc<Frame>) {
        self.ingest(frame);
    }
}

/// A topic's replication: stops when dropped.
pub struct Replication {
    _following: Following,
    _lease: AbortOnDrop,
}

/// Replicates `topic` through `broker`; a takeover of an overdue resource
/// is counted in `failovers`.
pub fn start(
    broker: &Arc<dyn Broker>,
    topic: &Arc<Topic>,
    failovers: &Arc<AtomicU64>,
) -> Replication {
    let follower: Weak<dyn Follower> = Arc::downgrade(topic) as Weak<dyn Follower>;
    let following = broker.follow(&topic.key, follower);
    let lease = tokio::spawn(keep_lease(broker.clone(), topic.clone(), failovers.clone()));
    Replication {
        _following: following,
        _lease: AbortOnDrop(lease),
    }
}

/// Holds (or tries for) `topic`'s lease every third of its lifetime while
/// the topic lives: a follower with viewers takes it when it is free; a
/// leader renews it, and publishes its events (`write`).
async fn keep_lease(broker: Arc<dyn Broker>, topic: Arc<Topic>, failovers: Arc<AtomicU64>) {
    let mut writer: Option<AbortOnDrop> = None;
    loop {
        let mode = topic.mode();
        if mode == Mode::Degraded {
            return;
        }
        let watched = topic.subscribers.load(Ordering::SeqCst) > 0;
        if mode == Mode::Leader || watched {
            match broker.hold(&topic.key).await {
                None => {
                    drop(writer.take());
                    topic.degrade();
                    return;
                }
                Some(Lease::Held { .. }) if mode == Mode::Leader && writer.is_some() => {}
                Some(Lease::Held { .. }) => {
                    // Whatever was published before this replica led is
                    // taken in first, so its numbers go on from there.
                    let Some(missed) = broker.since(&topic.key, topic.seq()).await else {
                        topic.degrade();
                        return;
                    };
                    for frame in missed {
                        topic.ingest(frame);
                    }
                    if topic.seq() == 0 && broker.clear(&topic.key).await.is_none() {
                        topic.degrade();
                        return;
                    }
                    let (outbox, inbox) = mpsc::unbounded_channel();
                    writer = Some(AbortOnDrop(tokio::spawn(write(
                        broker.clone(),
                        topic.clone(),
                        inbox,
                    ))));
                    topic.lead(outbox);
                    if topic.took_over(super::topic::unix_ms()) {
                        failovers.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Some(Lease::Other) => {
                    if mode == Mode::Leader {
                        topic.follow();
                    }
                    drop(writer.take());
                }
            }
        }
        tokio::time::sleep(broker::renew_every(broker.as_ref())).await;
    }
}

/// Publishes the leader's events in order until it stops leading; each
/// reaches the leader's own subscribers once the broker took it, as it
/// reaches the other replicas'.
async fn write(
    broker: Arc<dyn Broker>,
    topic: Arc<Topic>,
    mut inbox: mpsc::UnboundedReceiver<Arc<Frame>>,
) {
    while let Some(frame) = inbox.recv().await {
        let mut frame = frame;
        let mut published = broker.publish(&topic.key, &frame).await;
        if published == Some(Published::TooLarge) {
            // What every replica shows at its number instead.
            frame = too_large(&topic.key, &frame);
            topic.stand_in(&frame);
            published = broker.publish(&topic.key, &frame).await;
        }
        match published {
            // Only now do this replica's subscribers see it.
            Some(Published::Done) => topic.ingest(frame),
            Some(Published::Refused | Published::TooLarge) => {
                tracing::info!(
                    // Escaped: a watched id is the visitor's text.
                    resource = ?topic.key,
                    "another replica polls this resource now; this one follows it"
                );
                topic.follow();
                return;
            }
            None => {
                topic.degrade();
                return;
            }
        }
    }
}

/// The `stale` published at the number of `frame`, which the broker
/// would not keep: the data is as old as it was.
fn too_large(resource: &str, frame: &Frame) -> Arc<Frame> {
    let mut body = Body::<Value>::new(resource, frame.seq);
    body.reason = Some(StaleReason::PollFailed.name().to_owned());
    body.code = Some(TOO_LARGE_CODE.to_owned());
    body.message = Some(format!(
        "this answer ({} bytes of event) is larger than replicas share",
        frame.json().len()
    ));
    Arc::new(Frame::new(Kind::Stale, frame.epoch, &body))
}
