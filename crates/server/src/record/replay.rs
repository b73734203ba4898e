//! Replay (`--replay DIR`): an archive as a timeline of each resource's
//! answers, read at a replay clock (`--at`, `--speed`). The state of a
//! resource at an instant is its last answer received by then; inside a
//! recorded gap (past the previous answer's wanted interval, before the
//! `gap` row) it is stale, and its stream is told so.

use super::archive::{self, ArchiveError, Filter};
use super::continuity::Continuity;
use super::schema::Stored;
use crate::stream::source::{Answer, BudgetView, Source, StaleReason};
use futures::future::BoxFuture;
use predmarket_core::change::WatchKind;
use predmarket_core::request::Operation;
use predmarket_core::{ErrorCode, HttpRequest};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// The replay's time: `at_ms` when it started, running `speed` times as
/// fast as the wall clock (0 holds it still).
#[derive(Debug, Clone)]
pub struct Clock {
    at_ms: i64,
    started: Instant,
    speed: f64,
}

impl Clock {
    pub fn new(at_ms: i64, speed: f64) -> Clock {
        Clock {
            at_ms,
            started: Instant::now(),
            speed: if speed.is_finite() {
                speed.max(0.0)
            } else {
                1.0
            },
        }
    }

    /// The replayed instant now (unix ms).
    pub fn now_ms(&self) -> i64 {
        let run = self.started.elapsed().as_secs_f64() * 1000.0 * self.speed;
        self.at_ms.saturating_add(run as i64)
    }
}

/// Where a resource stands at an instant.
#[derive(Debug, PartialEq)]
pub enum Moment<'a> {
    /// The archive holds nothing of it.
    Unknown,
    /// Recorded, but not yet at this instant.
    Before,
    /// Its last answer by then; `gap_ms` is set inside a recorded gap.
    Known {
        row: &'a Stored,
        gap_ms: Option<i64>,
    },
}

/// Every resource's rows, by time received.
#[derive(Debug, Default)]
pub struct Timeline {
    rows: HashMap<String, Vec<Stored>>,
    first_ms: Option<i64>,
}

impl Timeline {
    /// Reads the whole archive under `dir` into memory.
    pub fn load(dir: &std::path::Path) -> Result<Timeline, ArchiveError> {
        let mut timeline = Timeline::default();
        for recorded in archive::read(dir, &Filter::default(), usize::MAX)? {
            let key = super::continuity::key(recorded.kind, &recorded.row.id);
            timeline.first_ms = Some(timeline.first_ms.map_or(recorded.row.received_ms, |f| {
                f.min(recorded.row.received_ms)
            }));
            timeline.rows.entry(key).or_default().push(recorded.row);
        }
        Ok(timeline)
    }

    /// When the archive's first answer arrived.
    pub fn first_ms(&self) -> Option<i64> {
        self.first_ms
    }

    /// Answers held in all.
    pub fn len(&self) -> usize {
        self.rows.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// `kind` `id` at `at_ms`.
    pub fn at(&self, kind: WatchKind, id: &str, at_ms: i64) -> Moment<'_> {
        let Some(rows) = self.rows.get(&super::continuity::key(kind, id)) else {
            return Moment::Unknown;
        };
        let after = rows.partition_point(|r| r.received_ms <= at_ms);
        let Some(row) = after.checked_sub(1).and_then(|i| rows.get(i)) else {
            return Moment::Before;
        };
        // Inside a gap once the answer after this one was due.
        let due = row.received_ms + row.wanted_ms.unwrap_or(0);
        let gap_ms = rows.get(after).and_then(|next| match next.continuity {
            Continuity::Gap(ms) if at_ms >= due => Some(ms_since(ms, row, next)),
            Continuity::Resync if at_ms >= due => Some(ms_since(0, row, next)),
            _ => None,
        });
        Moment::Known { row, gap_ms }
    }
}

/// A gap's length as recorded, or for a `resync`, the time between rows.
fn ms_since(recorded: i64, before: &Stored, after: &Stored) -> i64 {
    if recorded > 0 {
        recorded
    } else {
        after.received_ms - before.received_ms
    }
}

/// The pollers' source in replay: the timeline at the replay clock.
pub struct Replayed {
    pub timeline: Arc<Timeline>,
    pub clock: Clock,
}

impl Replayed {
    /// The answer a poll of `op` `http` gets now.
    pub fn answer(&self, op: Operation, http: &HttpRequest) -> Answer {
        let Some((kind, id)) = super::resource::resource(op, http) else {
            return not_recorded("this operation");
        };
        let now = self.clock.now_ms();
        match self.timeline.at(kind, &id, now) {
            Moment::Unknown => not_recorded(&format!("{} {id}", kind.name())),
            Moment::Before => Answer::Failed {
                reason: StaleReason::PollFailed,
                status: Some(503),
                code: ErrorCode::PlatformUnavailable.as_str().into(),
                message: "the archive holds no answer of it yet at this instant".into(),
            },
            Moment::Known {
                gap_ms: Some(ms), ..
            } => Answer::Failed {
                reason: StaleReason::PollFailed,
                status: Some(503),
                code: ErrorCode::PlatformUnavailable.as_str().into(),
                message: format!("the archive has a gap of {} s here", ms / 1000),
            },
            Moment::Known { row, gap_ms: None } => match serde_json::from_str(&row.answer) {
                Ok(body) => Answer::Fresh {
                    body,
                    age_ms: u64::try_from(row.age_ms + (now - row.received_ms)).unwrap_or(0),
                },
                Err(error) => Answer::Failed {
                    reason: StaleReason::PollFailed,
                    status: Some(500),
                    code: ErrorCode::DecodeError.as_str().into(),
                    message: format!("the archived answer is not JSON: {error}"),
                },
            },
        }
    }
}

fn not_recorded(what: &str) -> Answer {
    Answer::Refused {
        status: 404,
        code: ErrorCode::NotFound.as_str().into(),
        message: format!("the archive holds no answers of {what}"),
    }
}

impl Source for Replayed {
    fn fetch(&self, op: Operation, http: HttpRequest) -> BoxFuture<'static, Answer> {
        let answer = self.answer(op, &http);
        Box::pin(async move { answer })
    }

    fn budget(&self) -> Option<BudgetView> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(received_ms: i64, continuity: Continuity) -> Stored {
        Stored {
            id: "b".into(),
            received_ms,
            age_ms: 0,
            wanted_ms: Some(1_000),
            seq: 0,
            continuity,
            answer: format!("{{\"t\":{received_ms}}}"),
        }
    }

    #[test]
    fn an_instant_reads_the_last_answer_and_a_gap_once_the_next_was_due() {
        let mut timeline = Timeline::default();
        timeline.rows.insert(
            "orderbook:b".into(),
            vec![
                row(10_000, Continuity::First),
                row(11_000, Continuity::Continues),
                row(20_000, Continuity::Gap(9_000)),
            ],
        );
        let at = |ms| timeline.at(WatchKind::Orderbook, "b", ms);
        assert_eq!(at(9_999), Moment::Before);
        assert!(
            matches!(at(10_000), Moment::Known { row, gap_ms: None } if row.received_ms == 10_000)
        );
        assert!(
            matches!(at(11_500), Moment::Known { row, gap_ms: None } if row.received_ms == 11_000)
        );
        assert!(matches!(
            at(12_000),
            Moment::Known {
                gap_ms: Some(9_000),
                ..
            }
        ));
        assert!(
            matches!(at(20_000), Moment::Known { row, gap_ms: None } if row.received_ms == 20_000)
        );
        assert_eq!(timeline.at(WatchKind::Game, "b", 10_000), Moment::Unknown);
    }
}
