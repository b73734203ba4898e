//! One resource's poll loop. It starts from what the hub's broker holds
//! of the resource and replicates the topic through it (`replicate`);
//! while this replica holds the lease it polls: at once (in its opener's
//! budget lane), then every granted interval while anyone watches, until
//! the grace period after the last one left, or until the hub evicted it
//! while nobody watched. A resource the upstream refuses is polled again
//! with backoff (`Topic::refused_due`).

use super::Hub;
use super::replicate::{self, Replication};
use super::source::{Answer, BudgetView, Source};
use super::topic::{self, Mode, Topic};
use futures::future::BoxFuture;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// A source read in one budget lane: a topic's first poll waits in its
/// opener's (its later ones in the pollers' own).
pub(super) struct InLane {
    pub source: Arc<dyn Source>,
    pub lane: u64,
}

impl Source for InLane {
    fn fetch(
        &self,
        op: predmarket_core::request::Operation,
        http: predmarket_core::HttpRequest,
    ) -> BoxFuture<'static, Answer> {
        self.source.fetch_in_lane(op, http, self.lane)
    }

    fn budget(&self) -> Option<BudgetView> {
        self.source.budget()
    }
}

/// Reads what the broker holds of `topic` (a new one, or one degraded
/// while the broker failed) and starts replicating it; `None` when the
/// broker failed (a new topic degrades; a degraded one stays so).
async fn replicated(hub: &Hub, topic: &Arc<Topic>) -> Option<Replication> {
    let history = hub.broker.history(&topic.key, hub.settings.replay).await;
    match history {
        Some(history) if topic.mode() == Mode::Degraded => {
            topic.rejoin(history.last, history.events);
        }
        Some(history) => topic.seed(history.last, history.events),
        None => {
            if topic.mode() != Mode::Degraded {
                topic.degrade();
            }
            return None;
        }
    }
    Some(replicate::start(&hub.broker, topic, &hub.failovers))
}

/// The poll loop of `topic` (see the module's doc); `first` is its first
/// poll's source.
pub(super) async fn poller(hub: Weak<Hub>, topic: Arc<Topic>, first: InLane) {
    let mut first = Some(first);
    let mut replication = None;
    if let Some(strong) = hub.upgrade()
        && topic.mode() == Mode::Follower
    {
        replication = replicated(&strong, &topic).await;
    }
    topic.set_ready();
    // Set while another replica polls: on taking over, this one polls when
    // the resource is due, not at once (a replica taking over many
    // resources would queue all their polls on the budget together).
    let mut following = false;
    loop {
        let Some(strong) = hub.upgrade() else { return };
        // Polled here alone while the broker failed: shared again once it
        // answers.
        if topic.mode() == Mode::Degraded && strong.broker.up() {
            replication = replicated(&strong, &topic).await;
        }
        if let Some(idle) = topic.idle_for() {
            if idle >= strong.settings.grace || !strong.holds(&topic) {
                if strong.retire(&topic) {
                    drop(replication);
                    if topic.mode() == Mode::Leader {
                        strong.broker.release(&topic.key).await;
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
        if !topic.polls_here() {
            drop(strong);
            following = true;
            // Another replica polls; woken when this one takes over.
            let _ = tokio::time::timeout(Duration::from_secs(1), topic.leadership.notified()).await;
            continue;
        }
        if let Some(wait) = topic.refused_due(topic::unix_ms())
            && !wait.is_zero()
        {
            drop(strong);
            // Woken early when someone joins (who may not be told an old
            // refusal: then it is due at once).
            let _ = tokio::time::timeout(wait, topic.audience.notified()).await;
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
        match first.take() {
            Some(first) => topic.poll(&first).await,
            None => topic.poll(source.as_ref()).await,
        }
        if !topic.refused() {
            rest(&topic, Some(tokio::time::Instant::now())).await;
        }
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
