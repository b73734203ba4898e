//! What a poll's answer publishes: `snapshot`, `change`, `stale`/`live`
//! as freshness comes and goes, and `error` when the upstream refuses the
//! resource. A refusal has a lifetime: the resource is polled again with
//! backoff (`refused_due`), a viewer coming after the refusal grew older
//! than the proxy's negative cache keeps one is not told it (the next
//! poll is due at once and tells it afresh), and an answer brings a
//! `snapshot` when the resource appears.

use super::state::{Refusal, State};
use super::{Topic, unix_ms};
use crate::stream::frame::Kind;
use crate::stream::source::{Answer, Source, StaleReason};
use predmarket_core::change::{WatchKind, book_changes, value_changes};
use predmarket_core::live::{self, FAILOVER_CODE};
use predmarket_core::models::Orderbook;
use serde_json::Value;
use std::time::Duration;

/// The longest wait between two polls of a refused resource.
pub const REFUSED_MAX_WAIT: Duration = Duration::from_secs(60);

/// How long a refusal is told to a new viewer: as long as the proxy's
/// negative cache keeps one.
pub fn refusal_told_ms() -> u64 {
    crate::proxy::cache::NEGATIVE_TTL.as_millis() as u64
}

/// The wait after the `attempts`-th poll that found the resource refused:
/// the negative cache's lifetime, doubled each time, at most
/// [`REFUSED_MAX_WAIT`].
pub fn refused_backoff(attempts: u32) -> Duration {
    let wait = crate::proxy::cache::NEGATIVE_TTL.saturating_mul(1 << attempts.min(16));
    wait.min(REFUSED_MAX_WAIT)
}

/// A failed poll's answer, as a `stale` event tells it.
struct Failure {
    status: Option<u16>,
    code: String,
    message: String,
}

impl Topic {
    /// This replica takes over the polls: when the data has gone without
    /// a poll for longer than its interval (the replica that polled
    /// stopped), subscribers are told at once. Otherwise nothing is told:
    /// the takeover made the data no older, and no fresher either, so a
    /// `stale` the subscribers hold stays until this replica's first
    /// answer (`due_in`).
    pub fn took_over(&self, now_ms: u64) -> bool {
        let mut guard = self.lock();
        let Some(state) = Self::polling(&mut guard, self.mode()) else {
            return false;
        };
        let late = now_ms.saturating_sub(state.polled_ms) as f64 > self.interval_ms();
        if state.refused.is_none() && state.has_data() && late {
            let failure = Failure {
                status: None,
                code: FAILOVER_CODE.into(),
                message: "the replica that polled this resource stopped; another took over".into(),
            };
            self.mark_stale(state, StaleReason::PollFailed, Some(failure), now_ms);
            return true;
        }
        false
    }

    /// A poll's answer: `snapshot` the first time (and when a refused
    /// resource appears), then `change` when something changed,
    /// `stale`/`live` as freshness comes and goes, and `error` when the
    /// upstream refuses the resource (once, and again only for a viewer
    /// who came after it was told).
    pub fn apply(&self, answer: Answer, now_ms: u64) {
        let mut guard = self.lock();
        let Some(state) = Self::polling(&mut guard, self.mode()) else {
            return;
        };
        match answer {
            Answer::Fresh { body, age_ms } => {
                let as_of = self.kind.as_of(&body).unwrap_or_else(|| {
                    crate::data::time::iso8601(
                        i64::try_from(now_ms.saturating_sub(age_ms) / 1000).unwrap_or(0),
                    )
                });
                state.polled_ms = now_ms;
                state.age_at_poll_ms = age_ms;
                state.as_of = Some(as_of.clone());
                if state.data.is_none() {
                    state.data = state.value();
                }
                // A resource that appears after a refusal starts again.
                let appeared = state.refused.take().is_some();
                let changes = state
                    .data
                    .as_ref()
                    .filter(|_| !appeared)
                    .map(|before| changes(self.kind, before, &body));
                // Only what is published becomes the topic's data, so that
                // every replica holds the same.
                let (kind, changes) = match changes {
                    // The first answer: the snapshot every subscriber
                    // waiting for it receives.
                    None => (Some(Kind::Snapshot), None),
                    Some(changes) if changes.as_array().is_some_and(|c| !c.is_empty()) => {
                        (Some(Kind::Change), Some(changes))
                    }
                    Some(_) => (None, None),
                };
                if let Some(kind) = kind {
                    state.data_text = None;
                    let mut event = self.body();
                    event.as_of = Some(as_of.clone());
                    event.age_ms = Some(age_ms);
                    event.polled_ms = Some(now_ms);
                    event.changes = changes;
                    event.data = Some(body.clone());
                    state.data = Some(body);
                    self.publish(state, kind, event);
                }
                // Fresh whatever the interval: a stretched resource is
                // told stale again only once this answer grows older than
                // wanted (`tell_stretched`).
                if state.stale.take().is_some() {
                    state.stale_frame = None;
                    let mut event = self.body();
                    event.as_of = Some(as_of);
                    event.age_ms = Some(age_ms);
                    event.polled_ms = Some(now_ms);
                    self.publish(state, Kind::Live, event);
                }
            }
            Answer::Failed {
                reason,
                status,
                code,
                message,
            } => {
                let failure = Failure {
                    status,
                    code,
                    message,
                };
                self.mark_stale(state, reason, Some(failure), now_ms);
            }
            Answer::Refused {
                status,
                code,
                message,
            } => {
                if let Some(refused) = state.refused.as_mut()
                    && !refused.asked
                {
                    refused.at_ms = now_ms;
                    refused.attempts = refused.attempts.saturating_add(1);
                    return;
                }
                let attempts = state.refused.as_ref().map_or(0, |r| r.attempts + 1);
                let mut event = self.body();
                event.status = Some(status);
                event.code = Some(code);
                event.message = Some(message);
                let frame = self.publish(state, Kind::Error, event);
                state.refused = Some(Refusal {
                    frame,
                    at_ms: now_ms,
                    attempts,
                    asked: false,
                });
            }
        }
    }

    /// The poll is taking longer than the interval: told at once.
    pub fn delayed(&self, reason: StaleReason, now_ms: u64) {
        let mut guard = self.lock();
        let Some(state) = Self::polling(&mut guard, self.mode()) else {
            return;
        };
        if state.refused.is_none() && state.has_data() {
            self.mark_stale(state, reason, None, now_ms);
        }
    }

    /// Between polls of a resource whose interval the budget stretched:
    /// once its data is older than wanted (`overdue_after_ms` since the
    /// poll), subscribers are told `stale` (`interval_stretched`), once
    /// per poll; the next answer brings `live`. Returns how long until
    /// that moment, when it is still to come.
    pub fn tell_stretched(&self, now_ms: u64) -> Option<Duration> {
        let mut guard = self.lock();
        let state = Self::polling(&mut guard, self.mode())?;
        if state.refused.is_some()
            || !state.has_data()
            || state.stale.is_some()
            || !self.stretched()
        {
            return None;
        }
        let since = now_ms.saturating_sub(state.polled_ms) as f64;
        let after = self.overdue_after_ms();
        if since < after {
            return Some(Duration::from_secs_f64((after - since) / 1000.0));
        }
        self.mark_stale(state, StaleReason::IntervalStretched, None, now_ms);
        None
    }

    /// How long until the resource is due for a poll, from the last answer
    /// this replica knows of (its own, or, after taking over, the one the
    /// last event published) and the interval granted now. Due at once
    /// when nothing was answered yet.
    pub fn due_in(&self, now_ms: u64) -> Duration {
        let mut guard = self.lock();
        let state = guard.working();
        if !state.has_data() || state.polled_ms == 0 {
            return Duration::ZERO;
        }
        let due = state.polled_ms as f64 + self.interval_ms();
        Duration::from_secs_f64((due - now_ms as f64).max(0.0) / 1000.0)
    }

    /// While the upstream refuses the resource: how long until it is
    /// polled again (its backoff after the last refusal, or at once when a
    /// viewer came after the refusal was no longer told); `None` when it
    /// is not refused.
    pub fn refused_due(&self, now_ms: u64) -> Option<Duration> {
        let mut guard = self.lock();
        let refused = guard.working().refused.as_ref()?;
        if refused.asked {
            return Some(Duration::ZERO);
        }
        let due = refused.at_ms + refused_backoff(refused.attempts).as_millis() as u64;
        Some(Duration::from_millis(due.saturating_sub(now_ms)))
    }

    fn mark_stale(
        &self,
        state: &mut State,
        reason: StaleReason,
        failure: Option<Failure>,
        now_ms: u64,
    ) {
        if state.stale == Some(reason) {
            return;
        }
        state.stale = Some(reason);
        let mut event = self.body();
        event.reason = Some(reason.name().to_owned());
        event.as_of = state.as_of.clone();
        event.age_ms = state
            .has_data()
            .then(|| now_ms.saturating_sub(state.polled_ms) + state.age_at_poll_ms);
        event.interval_ms = Some(self.interval_ms().round());
        event.wanted_ms = Some(self.wanted_ms.round());
        if let Some(failure) = failure {
            event.status = failure.status;
            event.code = Some(failure.code);
            event.message = Some(failure.message);
        }
        let frame = self.publish(state, Kind::Stale, event);
        state.stale_frame = Some(frame);
    }

    /// Reads the resource once from `source`, telling subscribers `stale`
    /// if the answer takes longer than the interval wanted.
    pub async fn poll(&self, source: &dyn Source) {
        let op = self.kind.operation();
        let fetch = source.fetch(op, self.http.clone());
        tokio::pin!(fetch);
        // Told when the poll takes longer than the interval wanted, but not
        // for the blink of a busy machine when intervals are short.
        let patience = Duration::from_secs_f64(live::patience_ms(self.wanted_ms) / 1000.0);
        let answer = tokio::select! {
            answer = &mut fetch => answer,
            () = tokio::time::sleep(patience) => {
                let reason = if source.budget().is_some() {
                    StaleReason::Budget
                } else {
                    StaleReason::PollFailed
                };
                self.delayed(reason, unix_ms());
                fetch.await
            }
        };
        self.apply(answer, unix_ms());
    }
}

/// What changed, by the core's rules: price levels for a book, values by
/// path for the rest (and for a book whose shape the model cannot read).
fn changes(kind: WatchKind, before: &Value, after: &Value) -> Value {
    if kind == WatchKind::Orderbook {
        let book = |v: &Value| {
            v.pointer(kind.payload_pointer())
                .and_then(|d| serde_json::from_value::<Orderbook>(d.clone()).ok())
        };
        if let (Some(a), Some(b)) = (book(before), book(after)) {
            return serde_json::to_value(book_changes(&a, &b)).unwrap_or(Value::Null);
        }
    }
    serde_json::to_value(value_changes(before, after)).unwrap_or(Value::Null)
}
