//! What a topic knows of its resource: its numbering, the last answer,
//! whether it is fresh or refused, and the replay buffer; and how an
//! event published by the broker (this replica's or another's) changes
//! it (`absorb`, `seed`).

use crate::stream::frame::{Frame, Kind};
use predmarket_core::live::StaleReason;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::VecDeque;
use std::sync::{Arc, Weak};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The upstream refused the resource (`error`): told once, polled again
/// with backoff (`Topic::refused_due`), and a `snapshot` when it appears.
pub(super) struct Refusal {
    pub frame: Arc<Frame>,
    /// Unix ms when a poll last found it refused.
    pub at_ms: u64,
    /// Polls that found it refused since it was first.
    pub attempts: u32,
    /// A viewer came after the refusal grew older than the negative
    /// cache's lifetime and was not told it: the next poll is due at once,
    /// and a refusal it finds is told again.
    pub asked: bool,
}

#[derive(Default)]
pub(super) struct State {
    /// This numbering of the resource's events (a topic with no history
    /// anywhere draws a new one, so old positions are told apart).
    pub epoch: u32,
    pub seq: u64,
    /// The last good answer where polls build on it (this replica polls),
    /// and the same written as JSON (for snapshots; written when first
    /// needed). Taken from the broker, only the text is held.
    pub data: Option<Value>,
    pub data_text: Option<Arc<RawValue>>,
    pub as_of: Option<String>,
    /// Unix ms when the last good answer arrived, and how old it was then.
    pub polled_ms: u64,
    pub age_at_poll_ms: u64,
    /// Set while the data is not fresh.
    pub stale: Option<StaleReason>,
    pub stale_frame: Option<Arc<Frame>>,
    /// Set while the upstream refuses the resource.
    pub refused: Option<Refusal>,
    /// The snapshot last built for a subscriber, and when (Unix ms): the
    /// next ones within a second share it while any stream still holds
    /// it (a weak reference: it costs nothing once all have sent it).
    pub snapshot: Option<(u64, Weak<Frame>)>,
    pub replay: VecDeque<Arc<Frame>>,
    /// When the last subscriber left.
    pub idle_since: Option<Instant>,
    /// In a leader's draft: where its events go to be published (they
    /// reach its own subscribers only once the broker took them).
    pub outbox: Option<mpsc::UnboundedSender<Arc<Frame>>>,
    /// While this replica leads: the state its polls build on, ahead of
    /// what its subscribers see by the events the broker has not taken
    /// yet. Subscribers see only what the broker took, so no replica ever
    /// shows an event under a number another replica uses for something
    /// else.
    pub draft: Option<Box<State>>,
}

impl State {
    /// What a leader's polls start from: this state, publishing into
    /// `outbox`.
    pub fn draft(&self, outbox: mpsc::UnboundedSender<Arc<Frame>>) -> State {
        State {
            epoch: self.epoch,
            seq: self.seq,
            data: self.value(),
            data_text: self.data_text.clone(),
            as_of: self.as_of.clone(),
            polled_ms: self.polled_ms,
            age_at_poll_ms: self.age_at_poll_ms,
            stale: self.stale,
            stale_frame: self.stale_frame.clone(),
            refused: self.refused.as_ref().map(|r| Refusal {
                frame: r.frame.clone(),
                ..*r
            }),
            snapshot: None,
            replay: VecDeque::new(),
            idle_since: None,
            outbox: Some(outbox),
            draft: None,
        }
    }

    /// The state polls build on: the draft while leading, else this.
    pub fn working(&mut self) -> &mut State {
        match self.draft {
            Some(ref mut draft) => draft,
            None => self,
        }
    }

    pub fn has_data(&self) -> bool {
        self.data.is_some() || self.data_text.is_some()
    }

    /// The last good answer as a value (read from its text when only
    /// that is held).
    pub fn value(&self) -> Option<Value> {
        match (&self.data, &self.data_text) {
            (Some(data), _) => Some(data.clone()),
            (None, Some(text)) => serde_json::from_str(text.get()).ok(),
            (None, None) => None,
        }
    }

    /// What an event published by the broker says about the resource,
    /// taken in at `now_ms` (not kept, not sent).
    pub fn absorb(&mut self, frame: &Arc<Frame>, now_ms: u64) {
        let Some(body) = frame.raw_body() else {
            return;
        };
        match frame.kind {
            Kind::Snapshot | Kind::Change => {
                self.polled_ms = body.polled_ms.unwrap_or(self.polled_ms);
                // A snapshot's age was taken when it was sent.
                let age = body.age_ms.unwrap_or(0);
                self.age_at_poll_ms = if frame.kind == Kind::Snapshot {
                    age.saturating_sub(now_ms.saturating_sub(self.polled_ms))
                } else {
                    age
                };
                self.as_of = body.as_of;
                self.data = None;
                self.data_text = body.data.map(Arc::from);
                self.refused = None;
            }
            Kind::Stale => {
                let reason = body.stale_reason().unwrap_or(StaleReason::PollFailed);
                self.stale = Some(reason);
                self.stale_frame = Some(frame.clone());
            }
            Kind::Live => {
                // A fresh answer with nothing changed: when it was polled
                // is what a replica taking over counts its interval from.
                if let Some(polled) = body.polled_ms {
                    self.polled_ms = polled;
                    self.age_at_poll_ms = body.age_ms.unwrap_or(0);
                }
                if body.as_of.is_some() {
                    self.as_of = body.as_of;
                }
                self.stale = None;
                self.stale_frame = None;
            }
            Kind::Error => {
                self.refused = Some(Refusal {
                    frame: frame.clone(),
                    at_ms: now_ms,
                    attempts: 0,
                    asked: false,
                });
            }
            Kind::Resync => {}
        }
        self.seq = frame.seq;
    }

    /// Starts from what the broker holds of the resource: its last answer
    /// (`last`, a snapshot or change event) and its latest events, oldest
    /// first (into the replay buffer, at most `replay_cap`), at `now_ms`.
    /// Whether the broker held anything of it.
    pub fn seed(
        &mut self,
        replay_cap: usize,
        last: Option<Arc<Frame>>,
        events: Vec<Arc<Frame>>,
        now_ms: u64,
    ) -> bool {
        let Some(epoch) = last.as_ref().or(events.last()).map(|f| f.epoch) else {
            return false;
        };
        self.epoch = epoch;
        if let Some(last) = &last {
            self.absorb(last, now_ms);
        }
        for frame in events.into_iter().filter(|f| f.epoch == epoch) {
            if frame.seq > self.seq {
                self.absorb(&frame, now_ms);
            }
            if self.replay.len() == replay_cap {
                self.replay.pop_front();
            }
            self.replay.push_back(frame);
        }
        true
    }
}
