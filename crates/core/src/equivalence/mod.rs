//! Is this market on one platform the same question as that one on
//! another? [`classify`] compares two markets and says `same`,
//! `inverted` (YES here is NO there), `subset`/`superset` (one question
//! is narrower), `different` or `unsure`, with the reasons a person can
//! check: the names, the dates and deadlines, the threshold and its
//! comparator, the outcome mapping, and the fields that disagree
//! (resolution source or criteria, close time). Never a score: where the
//! text cannot tell, the answer is `unsure`.
//!
//! [`find_pairs`] finds the candidates in a list without comparing every
//! pair: markets are grouped by (name, day) — the names they mention and
//! the day their question is about, or their close day; deadlines,
//! periods and undated questions also by year — and only markets of
//! different platforms sharing a group are compared.
//!
//! Everything is deterministic: the same markets give the same pairs, in
//! the same order, with the same reasons.

pub mod facts;

use crate::models::Market;
pub use facts::{Comparator, DateFact, Facts, Threshold};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

const DAY_MS: i64 = 86_400_000;
/// Where the year buckets of deadlines start among the day buckets of
/// [`find_pairs`] (far beyond any day number).
const DEADLINE_BUCKETS: i64 = 1 << 40;
/// A period at least this long (a half year, a year, a season) is also
/// filed under its year by [`find_pairs`].
const LONG_PERIOD_DAYS: i64 = 180;
/// Close times further apart than this are reported as disagreeing.
const CLOSE_TOLERANCE_MS: i64 = 3_600_000;

/// How two questions relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// YES on one is YES on the other.
    Same,
    /// YES on one is NO on the other.
    Inverted,
    /// YES on the first implies YES on the second (the first is narrower).
    Subset,
    /// YES on the second implies YES on the first.
    Superset,
    Different,
    /// The data cannot tell.
    Unsure,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Same => "same",
            Self::Inverted => "inverted",
            Self::Subset => "subset",
            Self::Superset => "superset",
            Self::Different => "different",
            Self::Unsure => "unsure",
        }
    }
}

/// What a reason is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    MarketType,
    Platform,
    Entities,
    Date,
    Threshold,
    Numbers,
    Wording,
    Negation,
    OutcomeMapping,
    ResolutionSource,
    ResolutionCriteria,
    CloseTime,
}

/// What was found about a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// Both say the same.
    Agrees,
    /// They say different things: the questions differ.
    Conflicts,
    /// One is narrower than the other.
    Nested,
    /// One is the opposite of the other.
    Opposite,
    /// A field that disagrees without making the questions different
    /// (close time, resolution source): a risk to check.
    Disagrees,
    /// One side or both do not say.
    Missing,
}

/// One checkable reason: the field, what each market says, and what that
/// means.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    pub field: Field,
    pub finding: Finding,
    /// What the first market says, as read.
    pub a: Option<String>,
    /// What the second market says, as read.
    pub b: Option<String>,
    pub note: String,
}

/// How YES of the first market maps onto the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeMapping {
    /// YES here is YES there.
    YesYes,
    /// YES here is NO there.
    YesNo,
}

/// The verdict on a pair of markets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classification {
    pub relation: Relation,
    /// For `same`, `inverted`, `subset` and `superset`.
    pub outcome_mapping: Option<OutcomeMapping>,
    pub reasons: Vec<Reason>,
    /// Fields that disagree without changing the relation (close time,
    /// resolution source or criteria).
    pub disagreements: Vec<Field>,
}

impl Classification {
    /// `same` or `inverted` with no disagreeing field: a price gap between
    /// the two is a gap on one question, not "if the two questions are the
    /// same".
    pub fn is_firm(&self) -> bool {
        matches!(self.relation, Relation::Same | Relation::Inverted)
            && self.disagreements.is_empty()
    }
}

/// Compares two markets (see the module doc).
pub fn classify(a: &Market, b: &Market) -> Classification {
    classify_facts(a, b, &Facts::of(a), &Facts::of(b), true)
}

/// One end of an interval of the measured quantity.
#[derive(Debug, Clone, Copy, PartialEq)]
struct End {
    at: f64,
    closed: bool,
}

/// The values for which a threshold question resolves YES.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Interval {
    lo: End,
    hi: End,
}

impl Interval {
    fn of(t: &Threshold) -> Self {
        let inf = |at: f64| End { at, closed: false };
        let at = |at: f64, closed: bool| End { at, closed };
        match t.comparator {
            Comparator::Above => Self {
                lo: at(t.value, false),
                hi: inf(f64::INFINITY),
            },
            Comparator::AtLeast => Self {
                lo: at(t.value, true),
                hi: inf(f64::INFINITY),
            },
            Comparator::Below => Self {
                lo: inf(f64::NEG_INFINITY),
                hi: at(t.value, false),
            },
            Comparator::AtMost => Self {
                lo: inf(f64::NEG_INFINITY),
                hi: at(t.value, true),
            },
            Comparator::Between => Self {
                lo: at(t.value, true),
                hi: at(t.upper.unwrap_or(t.value), true),
            },
            Comparator::Exactly => Self {
                lo: at(t.value, true),
                hi: at(t.value, true),
            },
        }
    }

    /// `self ⊆ other`.
    fn within(&self, other: &Self) -> bool {
        let lo_ok = self.lo.at > other.lo.at
            || (eq(self.lo.at, other.lo.at) && (other.lo.closed || !self.lo.closed));
        let hi_ok = self.hi.at < other.hi.at
            || (eq(self.hi.at, other.hi.at) && (other.hi.closed || !self.hi.closed));
        lo_ok && hi_ok
    }

    fn same(&self, other: &Self) -> bool {
        self.within(other) && other.within(self)
    }

    /// The complement, for one-sided intervals.
    fn complement(&self) -> Option<Self> {
        if self.hi.at == f64::INFINITY {
            Some(Self {
                lo: End {
                    at: f64::NEG_INFINITY,
                    closed: false,
                },
                hi: End {
                    at: self.lo.at,
                    closed: !self.lo.closed,
                },
            })
        } else if self.lo.at == f64::NEG_INFINITY {
            Some(Self {
                lo: End {
                    at: self.hi.at,
                    closed: !self.hi.closed,
                },
                hi: End {
                    at: f64::INFINITY,
                    closed: false,
                },
            })
        } else {
            None
        }
    }
}

fn eq(a: f64, b: f64) -> bool {
    a == b || (a.is_finite() && b.is_finite() && (a - b).abs() <= 1e-9 * a.abs().max(b.abs()))
}

/// How two thresholds relate, before negation.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Same,
    Opposite,
    /// Opposite but for the boundary value itself ("above x" / "below x").
    NearOpposite,
    Narrower,
    Wider,
    Apart,
}

fn compare_thresholds(a: &Threshold, b: &Threshold) -> Option<Shape> {
    let units = |u: &str| if u == "%" { "" } else { u }.to_owned();
    let (ua, ub) = (units(&a.unit), units(&b.unit));
    if !ua.is_empty() && !ub.is_empty() && ua != ub {
        return None;
    }
    let (ia, ib) = (Interval::of(a), Interval::of(b));
    Some(if ia.same(&ib) {
        Shape::Same
    } else if ia.complement().is_some_and(|c| c.same(&ib)) {
        Shape::Opposite
    } else if ia
        .complement()
        .is_some_and(|c| eq(c.lo.at, ib.lo.at) && eq(c.hi.at, ib.hi.at))
    {
        Shape::NearOpposite
    } else if ia.within(&ib) {
        Shape::Narrower
    } else if ib.within(&ia) {
        Shape::Wider
    } else {
        Shape::Apart
    })
}

fn reason(
    field: Field,
    finding: Finding,
    a: Option<String>,
    b: Option<String>,
    note: impl Into<String>,
) -> Reason {
    Reason {
        field,
        finding,
        a,
        b,
        note: note.into(),
    }
}

fn join(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| items.join(", "))
}

/// The reasons of one comparison, built only when asked for: a list of
/// thousands of pairs is classified without formatting a word.
struct Log {
    on: bool,
    items: Vec<Reason>,
}

impl Log {
    fn add(&mut self, make: impl FnOnce() -> Reason) {
        if self.on {
            self.items.push(make());
        }
    }
}

/// What the comparison of one aspect says about the relation.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Vote {
    Same,
    Narrower,
    Wider,
    Opposite,
    Apart,
    Unknown,
}

fn classify_facts(
    a: &Market,
    b: &Market,
    fa: &Facts,
    fb: &Facts,
    detailed: bool,
) -> Classification {
    let mut log = Log {
        on: detailed,
        items: Vec::new(),
    };
    let mut votes: Vec<Vote> = Vec::new();
    let mut disagreements = Vec::new();

    if fa.non_binary || fb.non_binary {
        log.add(|| {
            reason(
                Field::MarketType,
                Finding::Missing,
                a.market_type.as_ref().map(|t| t.as_str().to_owned()),
                b.market_type.as_ref().map(|t| t.as_str().to_owned()),
                "only binary markets are compared",
            )
        });
        return Classification {
            relation: Relation::Unsure,
            outcome_mapping: None,
            reasons: log.items,
            disagreements,
        };
    }
    if fa.no_yes_side || fb.no_yes_side {
        let names = |m: &Market| {
            m.outcomes.as_ref().map(|o| {
                o.iter()
                    .map(|x| x.name.clone().unwrap_or_else(|| x.id.clone()))
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
        };
        log.add(|| {
            reason(
                Field::OutcomeMapping,
                Finding::Missing,
                names(a),
                names(b),
                "outcomes not named yes/no: which one is YES is not said",
            )
        });
        return Classification {
            relation: Relation::Unsure,
            outcome_mapping: None,
            reasons: log.items,
            disagreements,
        };
    }
    if a.platform.is_some() && a.platform == b.platform {
        log.add(|| {
            reason(
                Field::Platform,
                Finding::Agrees,
                a.platform.as_ref().map(|p| p.as_str().to_owned()),
                b.platform.as_ref().map(|p| p.as_str().to_owned()),
                "both on one platform",
            )
        });
    }

    // Names: a name one side has that the other never mentions, on both
    // sides, is two subjects.
    let only_a: Vec<&str> = fa
        .entities
        .iter()
        .map(String::as_str)
        .filter(|e| !mentions_all(fb, e))
        .collect();
    let only_b: Vec<&str> = fb
        .entities
        .iter()
        .map(String::as_str)
        .filter(|e| !mentions_all(fa, e))
        .collect();
    // Two opposed names, and nothing else unmatched on one side ("a
    // Democrat ... US election" / "the Republican candidate").
    let opposed = |x: &[&str], y: &[&str]| {
        OPPOSED.iter().any(|&(p, q)| {
            [(p, q), (q, p)]
                .iter()
                .any(|&(p, q)| x.contains(&p) && y.contains(&q) && (x.len() == 1 || y.len() == 1))
        })
    };
    if opposed(&only_a, &only_b) {
        log.add(|| {
            reason(
                Field::Entities,
                Finding::Opposite,
                Some(only_a.join(", ")),
                Some(only_b.join(", ")),
                "the two sides of a two-way contest",
            )
        });
        votes.push(Vote::Opposite);
    } else if !only_a.is_empty() && !only_b.is_empty() {
        log.add(|| {
            reason(
                Field::Entities,
                Finding::Conflicts,
                Some(only_a.join(", ")),
                Some(only_b.join(", ")),
                "each names what the other does not",
            )
        });
        votes.push(Vote::Apart);
    } else if fa.entities.is_empty() && fb.entities.is_empty() {
        log.add(|| {
            reason(
                Field::Entities,
                Finding::Missing,
                None,
                None,
                "no names to compare",
            )
        });
    } else {
        let note = || {
            if only_a.is_empty() && only_b.is_empty() {
                "the same names".to_owned()
            } else {
                let extra: Vec<&str> = only_a.iter().chain(&only_b).copied().collect();
                format!("one also names {}", extra.join(", "))
            }
        };
        log.add(|| {
            reason(
                Field::Entities,
                Finding::Agrees,
                join(&fa.entities),
                join(&fb.entities),
                note(),
            )
        });
        let shared = fa.entities.iter().any(|e| mentions_all(fb, e))
            || fb.entities.iter().any(|e| mentions_all(fa, e));
        if !shared && (fa.entities.is_empty() || fb.entities.is_empty()) {
            votes.push(Vote::Unknown);
        }
    }

    // Who must win: "Celtics beat Lakers" against "Lakers beat Celtics"
    // names the same teams with YES on the other side.
    if let (Some(wa), Some(wb)) = (&fa.winner, &fb.winner) {
        let covers = |w: &str, f: &Facts| w.split(' ').any(|x| f.mentions(x));
        let agree = wa.split(' ').any(|x| wb.split(' ').any(|y| x == y));
        if agree {
            log.add(|| {
                reason(
                    Field::Entities,
                    Finding::Agrees,
                    Some(wa.clone()),
                    Some(wb.clone()),
                    "the same side must win",
                )
            });
        } else if covers(wa, fb) && covers(wb, fa) {
            log.add(|| {
                reason(
                    Field::Entities,
                    Finding::Opposite,
                    Some(wa.clone()),
                    Some(wb.clone()),
                    "each needs the other side to win",
                )
            });
            votes.push(Vote::Opposite);
        }
    }

    votes.push(compare_dates(fa, fb, &mut log));

    // Threshold.
    let mut threshold_shape = None;
    match (&fa.threshold, &fb.threshold) {
        (Some(ta), Some(tb)) => match compare_thresholds(ta, tb) {
            None => {
                log.add(|| {
                    reason(
                        Field::Threshold,
                        Finding::Missing,
                        Some(ta.to_string()),
                        Some(tb.to_string()),
                        "units differ",
                    )
                });
                votes.push(Vote::Unknown);
            }
            Some(shape) => {
                threshold_shape = Some(shape);
                let (finding, note, vote) = match shape {
                    Shape::Same => (Finding::Agrees, "the same threshold", Vote::Same),
                    Shape::Opposite => (
                        Finding::Opposite,
                        "complementary thresholds: YES here is NO there",
                        Vote::Opposite,
                    ),
                    Shape::NearOpposite => (
                        Finding::Opposite,
                        "complementary but for the boundary value itself, which is NO on both",
                        Vote::Opposite,
                    ),
                    Shape::Narrower => (
                        Finding::Nested,
                        "the first threshold is narrower",
                        Vote::Narrower,
                    ),
                    Shape::Wider => (
                        Finding::Nested,
                        "the second threshold is narrower",
                        Vote::Wider,
                    ),
                    Shape::Apart => (
                        Finding::Conflicts,
                        "thresholds that neither match nor nest",
                        Vote::Apart,
                    ),
                };
                log.add(|| {
                    reason(
                        Field::Threshold,
                        finding,
                        Some(ta.to_string()),
                        Some(tb.to_string()),
                        note,
                    )
                });
                votes.push(vote);
            }
        },
        (None, None) => {}
        // A move of a stated size against a move of any size: the sized
        // one is narrower ("cut 25 bps" / "cut rates").
        (Some(t), None) | (None, Some(t))
            if t.comparator == Comparator::Exactly
                && t.unit == "bps"
                && fa.numbers.is_empty()
                && fb.numbers.is_empty() =>
        {
            let first = fa.threshold.is_some();
            log.add(|| {
                reason(
                    Field::Threshold,
                    Finding::Nested,
                    fa.threshold.as_ref().map(ToString::to_string),
                    fb.threshold.as_ref().map(ToString::to_string),
                    "only one states the size of the move: it is the narrower",
                )
            });
            votes.push(if first { Vote::Narrower } else { Vote::Wider });
        }
        (ta, tb) => {
            log.add(|| {
                reason(
                    Field::Threshold,
                    Finding::Missing,
                    ta.as_ref().map(ToString::to_string),
                    tb.as_ref().map(ToString::to_string),
                    "only one states a threshold",
                )
            });
            votes.push(Vote::Unknown);
        }
    }

    // Other numbers ("25 bps", "#1").
    if !fa.numbers.is_empty() || !fb.numbers.is_empty() {
        if fa.numbers == fb.numbers {
            log.add(|| {
                reason(
                    Field::Numbers,
                    Finding::Agrees,
                    join(&fa.numbers),
                    join(&fb.numbers),
                    "the same numbers",
                )
            });
        } else if fa.numbers.is_empty() || fb.numbers.is_empty() {
            log.add(|| {
                reason(
                    Field::Numbers,
                    Finding::Missing,
                    join(&fa.numbers),
                    join(&fb.numbers),
                    "only one states these numbers",
                )
            });
        } else {
            log.add(|| {
                reason(
                    Field::Numbers,
                    Finding::Conflicts,
                    join(&fa.numbers),
                    join(&fb.numbers),
                    "different numbers",
                )
            });
            votes.push(Vote::Apart);
        }
    }

    // A stage short of the title ("reach the final") against winning it:
    // winning implies reaching every stage.
    let stage_only =
        |f: &Facts| STAGES.iter().any(|w| f.words.contains(*w)) && !f.words.contains("win");
    let win_only =
        |f: &Facts| f.words.contains("win") && !STAGES.iter().any(|w| f.words.contains(*w));
    let staged = if stage_only(fa) && win_only(fb) {
        Some(Vote::Wider)
    } else if win_only(fa) && stage_only(fb) {
        Some(Vote::Narrower)
    } else {
        None
    };
    if let Some(v) = staged {
        log.add(|| {
            reason(
                Field::Wording,
                Finding::Nested,
                None,
                None,
                "reaching a stage against winning: winning implies the stage",
            )
        });
        votes.push(v);
    }

    // Wording: opposite verbs, and how much the content words overlap.
    let antonym = facts::ANTONYMS.iter().find(|(x, y)| {
        (fa.words.contains(*x)
            && !fa.words.contains(*y)
            && fb.words.contains(*y)
            && !fb.words.contains(*x))
            || (fa.words.contains(*y)
                && !fa.words.contains(*x)
                && fb.words.contains(*x)
                && !fb.words.contains(*y))
    });
    let mut shared = fa.words.intersection(&fb.words).count();
    let mut union = (fa.words.len() + fb.words.len() - shared).max(1);
    if staged.is_some() {
        // The stage and "win" were compared above: one matched concept.
        shared += 1;
        union = union.saturating_sub(1).max(1);
    }
    let overlap = shared as f64 / union as f64;
    if let Some((x, y)) = antonym {
        log.add(|| {
            reason(
                Field::Wording,
                Finding::Conflicts,
                None,
                None,
                format!("opposite actions: {x} / {y}"),
            )
        });
        votes.push(Vote::Apart);
    } else {
        let note = || {
            let unmatched: Vec<&str> = fa
                .words
                .symmetric_difference(&fb.words)
                .map(String::as_str)
                .collect();
            if unmatched.is_empty() {
                format!("all {shared} content words shared")
            } else {
                format!(
                    "{shared} of {union} content words shared; unmatched: {}",
                    unmatched.join(", ")
                )
            }
        };
        let strong = overlap >= 0.5 || (threshold_shape.is_some() && overlap >= 0.25);
        log.add(|| {
            reason(
                Field::Wording,
                if strong {
                    Finding::Agrees
                } else {
                    Finding::Missing
                },
                None,
                None,
                note(),
            )
        });
        if !strong {
            votes.push(Vote::Unknown);
        }
    }

    // Combine: any conflict makes two questions; otherwise the nesting and
    // opposition found, with negation, decide.
    let mut relation = if votes.contains(&Vote::Apart) {
        Relation::Different
    } else if votes.contains(&Vote::Unknown) {
        Relation::Unsure
    } else {
        let narrower = votes.contains(&Vote::Narrower);
        let wider = votes.contains(&Vote::Wider);
        let opposite = votes.contains(&Vote::Opposite);
        match (narrower, wider, opposite) {
            (false, false, false) => Relation::Same,
            (false, false, true) => Relation::Inverted,
            (true, false, false) => Relation::Subset,
            (false, true, false) => Relation::Superset,
            // Narrower in one aspect and wider in another: overlapping
            // questions, neither implies the other.
            (true, true, _) => Relation::Different,
            _ => Relation::Unsure,
        }
    };
    if fa.negated != fb.negated {
        log.add(|| {
            reason(
                Field::Negation,
                Finding::Opposite,
                Some(fa.negated.to_string()),
                Some(fb.negated.to_string()),
                "one asks the negative",
            )
        });
        relation = match relation {
            Relation::Same => Relation::Inverted,
            Relation::Inverted => Relation::Same,
            Relation::Subset | Relation::Superset => Relation::Unsure,
            other => other,
        };
    }
    if threshold_shape == Some(Shape::NearOpposite) && relation == Relation::Inverted {
        disagreements.push(Field::Threshold);
    }

    // Fields that disagree without changing the relation.
    match (fa.close_ms, fb.close_ms) {
        (Some(x), Some(y)) if (x - y).abs() > CLOSE_TOLERANCE_MS => {
            let hours = (x - y).abs() as f64 / 3_600_000.0;
            log.add(|| {
                reason(
                    Field::CloseTime,
                    Finding::Disagrees,
                    a.trading_end_at.clone().or(a.resolution_date.clone()),
                    b.trading_end_at.clone().or(b.resolution_date.clone()),
                    format!("close times {hours:.1} h apart"),
                )
            });
            disagreements.push(Field::CloseTime);
        }
        (Some(_), Some(_)) => log.add(|| {
            reason(
                Field::CloseTime,
                Finding::Agrees,
                a.trading_end_at.clone(),
                b.trading_end_at.clone(),
                "close within an hour",
            )
        }),
        _ => log.add(|| {
            reason(
                Field::CloseTime,
                Finding::Missing,
                None,
                None,
                "a close time is missing",
            )
        }),
    }
    match (&fa.source, &fb.source) {
        (Some(x), Some(y)) if x == y || x.contains(y.as_str()) || y.contains(x.as_str()) => log
            .add(|| {
                reason(
                    Field::ResolutionSource,
                    Finding::Agrees,
                    a.resolution_source.clone(),
                    b.resolution_source.clone(),
                    "the same source",
                )
            }),
        (Some(_), Some(_)) => {
            log.add(|| {
                reason(
                    Field::ResolutionSource,
                    Finding::Disagrees,
                    a.resolution_source.clone(),
                    b.resolution_source.clone(),
                    "different resolution sources",
                )
            });
            disagreements.push(Field::ResolutionSource);
        }
        _ => {
            log.add(|| {
                reason(
                    Field::ResolutionSource,
                    Finding::Missing,
                    a.resolution_source.clone(),
                    b.resolution_source.clone(),
                    "a resolution source is missing",
                )
            });
            disagreements.push(Field::ResolutionSource);
        }
    }
    // The criteria's own threshold must tell the same story as the titles.
    let from_criteria = match (&fa.criteria_threshold, &fb.criteria_threshold) {
        (Some(x), Some(y)) => compare_thresholds(x, y),
        _ => None,
    };
    if let (Some(t), Some(c)) = (threshold_shape, from_criteria)
        && t != c
    {
        log.add(|| {
            reason(
                Field::ResolutionCriteria,
                Finding::Disagrees,
                fa.criteria_threshold.as_ref().map(ToString::to_string),
                fb.criteria_threshold.as_ref().map(ToString::to_string),
                "the criteria's thresholds relate otherwise than the titles'",
            )
        });
        disagreements.push(Field::ResolutionCriteria);
    }

    let outcome_mapping = match relation {
        Relation::Same | Relation::Subset | Relation::Superset => Some(OutcomeMapping::YesYes),
        Relation::Inverted => Some(OutcomeMapping::YesNo),
        _ => None,
    };
    if let Some(m) = outcome_mapping {
        let note = match (m, relation) {
            (OutcomeMapping::YesNo, _) => "YES on the first is NO on the second",
            (_, Relation::Subset) => "YES on the first implies YES on the second",
            (_, Relation::Superset) => "YES on the second implies YES on the first",
            _ => "YES on the first is YES on the second",
        };
        log.add(|| {
            reason(
                Field::OutcomeMapping,
                Finding::Agrees,
                Some("yes".into()),
                Some(
                    if m == OutcomeMapping::YesNo {
                        "no"
                    } else {
                        "yes"
                    }
                    .into(),
                ),
                note,
            )
        });
    }
    disagreements.sort();
    disagreements.dedup();
    Classification {
        relation,
        outcome_mapping,
        reasons: log.items,
        disagreements,
    }
}

/// Names that are the two sides of a two-way contest: a question on one
/// is the opposite of the same question on the other.
const OPPOSED: &[(&str, &str)] = &[("republican", "democrat")];

/// Stages of a competition short of winning it.
const STAGES: &[&str] = &["final", "semifinal", "quarterfinal", "playoff"];

/// Every word of a (possibly multi-word) name is mentioned by `f`.
fn mentions_all(f: &Facts, entity: &str) -> bool {
    entity.split(' ').all(|w| f.mentions(w)) || f.mentions(entity)
}

pub(crate) fn norm(text: Option<&str>) -> Option<String> {
    let t: String = text?
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!t.is_empty()).then_some(t)
}

fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// A whole calendar year ("in 2026").
fn is_year(d: &DateFact) -> bool {
    let (y, m, dd) = crate::time::civil_from_days(d.first_day);
    (m, dd) == (1, 1) && crate::time::civil_from_days(d.last_day) == (y, 12, 31)
}

/// One question has a deadline ("by June 30"), the other a day or a
/// period ("on June 30", "in June", "in 2026"). Something that happens on
/// a day or in a period before the deadline happens by the deadline; a
/// year's question ("in 2026") is asked during that year, so it is the
/// question "by the end of 2026".
fn deadline_against_date(x: &DateFact, y: &DateFact) -> (Finding, &'static str, Vote) {
    let (d, r, first_is_deadline) = if x.deadline {
        (x, y, true)
    } else {
        (y, x, false)
    };
    // Which side is narrower, as a vote on the first.
    let narrower = |deadline_side: bool| {
        if deadline_side == first_is_deadline {
            Vote::Narrower
        } else {
            Vote::Wider
        }
    };
    if is_year(r) && (d.last_day == r.last_day || d.last_day == r.last_day + 1) {
        (
            Finding::Agrees,
            "a year and a deadline at its end: the same window",
            Vote::Same,
        )
    } else if r.last_day <= d.last_day {
        (
            Finding::Nested,
            "a date before the other's deadline: YES on it implies YES by the deadline",
            narrower(false),
        )
    } else if r.first_day > d.last_day {
        (
            Finding::Conflicts,
            "a date after the other's deadline",
            Vote::Apart,
        )
    } else {
        (
            Finding::Nested,
            "a deadline inside the other's period: YES by it implies YES in the period",
            narrower(true),
        )
    }
}

fn compare_dates(fa: &Facts, fb: &Facts, log: &mut Log) -> Vote {
    let show = |d: &Option<DateFact>| d.as_ref().map(ToString::to_string);
    match (&fa.date, &fb.date) {
        (Some(x), Some(y)) => {
            let same = x.first_day == y.first_day && x.last_day == y.last_day;
            let (finding, note, vote) = if same && x.deadline == y.deadline {
                (Finding::Agrees, "the same date", Vote::Same)
            } else if x.deadline && y.deadline {
                if x.last_day < y.last_day {
                    (
                        Finding::Nested,
                        "the first deadline is earlier: YES on it implies YES on the later one",
                        Vote::Narrower,
                    )
                } else {
                    (
                        Finding::Nested,
                        "the second deadline is earlier: YES on it implies YES on the later one",
                        Vote::Wider,
                    )
                }
            } else if x.deadline != y.deadline {
                deadline_against_date(x, y)
            } else if x.last_day < y.first_day || y.last_day < x.first_day {
                (Finding::Conflicts, "different dates", Vote::Apart)
            } else {
                (
                    Finding::Missing,
                    "dates of different precision",
                    Vote::Unknown,
                )
            };
            log.add(|| reason(Field::Date, finding, show(&fa.date), show(&fb.date), note));
            vote
        }
        (Some(d), None) | (None, Some(d)) => {
            let other = if fa.date.is_some() {
                fb.close_ms
            } else {
                fa.close_ms
            };
            let (a, b) = if fa.date.is_some() {
                (show(&fa.date), fb.close_ms.map(crate::time::format_rfc3339))
            } else {
                (fa.close_ms.map(crate::time::format_rfc3339), show(&fb.date))
            };
            match other.map(day_of) {
                Some(day) if day + 2 >= d.first_day && day <= d.last_day + 2 => {
                    log.add(|| {
                        reason(
                            Field::Date,
                            Finding::Agrees,
                            a,
                            b,
                            "one names the date, the other closes on it",
                        )
                    });
                    Vote::Same
                }
                Some(_) => {
                    log.add(|| {
                        reason(
                            Field::Date,
                            Finding::Missing,
                            a,
                            b,
                            "one names a date the other does not close on",
                        )
                    });
                    Vote::Unknown
                }
                None => {
                    log.add(|| {
                        reason(Field::Date, Finding::Missing, a, b, "only one names a date")
                    });
                    Vote::Unknown
                }
            }
        }
        (None, None) => match (fa.close_ms, fb.close_ms) {
            (Some(x), Some(y)) => {
                let days = (day_of(x) - day_of(y)).abs();
                let (a, b) = (
                    Some(crate::time::format_rfc3339(x)),
                    Some(crate::time::format_rfc3339(y)),
                );
                if days <= 2 {
                    log.add(|| {
                        reason(
                            Field::Date,
                            Finding::Agrees,
                            a,
                            b,
                            "no dates named; they close within two days",
                        )
                    });
                    Vote::Same
                } else if days > 7 {
                    log.add(|| {
                        reason(
                            Field::Date,
                            Finding::Conflicts,
                            a,
                            b,
                            format!("no dates named; they close {days} days apart"),
                        )
                    });
                    Vote::Apart
                } else {
                    log.add(|| {
                        reason(
                            Field::Date,
                            Finding::Missing,
                            a,
                            b,
                            format!("no dates named; they close {days} days apart"),
                        )
                    });
                    Vote::Unknown
                }
            }
            _ => {
                log.add(|| reason(Field::Date, Finding::Missing, None, None, "no dates"));
                Vote::Unknown
            }
        },
    }
}

/// Options of [`find_pairs`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairOptions {
    /// Also return pairs classified `different` (look-alikes), which are
    /// left out by default.
    pub include_different: bool,
    /// Also compare markets of one platform.
    pub same_platform: bool,
    /// Classify without the reasons (relation, outcome mapping and
    /// disagreeing fields only): for long lists, whose reasons are read
    /// one pair at a time with [`classify`].
    pub without_reasons: bool,
    /// Keep only the pairs of these relations (`include_different` is
    /// then not read). Each candidate is first classified without its
    /// reasons; those of the pairs kept are built afterwards, so the pairs
    /// left out cost no reasons.
    pub relations: Option<Vec<Relation>>,
}

/// A pair of markets found by [`find_pairs`]: indexes into the list given
/// and the classification of `a` against `b`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub classification: Classification,
}

/// Finds and classifies the candidate pairs of a list of markets (see
/// the module doc). Pairs come ordered by `a`, then `b`; `a < b`.
pub fn find_pairs(markets: &[Market], options: &PairOptions) -> Vec<Pair> {
    let facts: Vec<Facts> = markets.iter().map(Facts::of).collect();
    // (key word, day) → markets. A market is filed under each of its names
    // (or, with none, its three longest words) and its day: the first day
    // of the date it names, else its close day.
    // A hash map: only looked up, never walked, so its order cannot leak
    // into the result.
    let mut groups: HashMap<(&str, i64), Vec<usize>> = HashMap::new();
    let mut keys_of: Vec<Vec<(&str, i64)>> = Vec::with_capacity(markets.len());
    for (i, f) in facts.iter().enumerate() {
        let Some(day) = f
            .date
            .as_ref()
            .map(|d| d.first_day)
            .or(f.close_ms.map(day_of))
        else {
            keys_of.push(Vec::new());
            continue;
        };
        let mut words: Vec<&str> = f.entities.iter().flat_map(|e| e.split(' ')).collect();
        if words.is_empty() {
            let mut longest: Vec<&str> = f.words.iter().map(String::as_str).collect();
            longest.sort_by(|x, y| y.len().cmp(&x.len()).then(x.cmp(y)));
            longest.truncate(3);
            words = longest;
        }
        words.sort_unstable();
        words.dedup();
        // A deadline, a period and an undated question are also filed
        // under their year: an earlier deadline of the same question (a
        // narrower one), "in 2026" against "before 2027", "2026 Oscars"
        // against a title naming no date fall on other days. A deadline
        // is filed under its month too ("before July" / "in June"). Not
        // the questions about one day: a daily series' strikes would all
        // meet.
        let (year, month) = match &f.date {
            Some(d) if d.deadline => {
                let (y, m, _) = crate::time::civil_from_days(d.last_day);
                (
                    Some(DEADLINE_BUCKETS + y),
                    Some(crate::time::days_from_civil(y, m, 1)),
                )
            }
            // A month or a quarter meets its like on its first day; only
            // the long periods (a year, a season) are filed under a year,
            // or every monthly figure of a year would meet every other.
            Some(d) if d.last_day - d.first_day >= LONG_PERIOD_DAYS => (
                Some(DEADLINE_BUCKETS + crate::time::civil_from_days(d.last_day).0),
                None,
            ),
            Some(_) => (None, None),
            None => (
                Some(DEADLINE_BUCKETS + crate::time::civil_from_days(day).0),
                None,
            ),
        };
        let keys: Vec<(&str, i64)> = words
            .into_iter()
            .flat_map(|w| {
                std::iter::once((w, day))
                    .chain(year.map(|y| (w, y)))
                    .chain(month.filter(|&m| m != day).map(|m| (w, m)))
            })
            .collect();
        for k in &keys {
            groups.entry(*k).or_default().push(i);
        }
        keys_of.push(keys);
    }
    let mut candidates: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (i, keys) in keys_of.iter().enumerate() {
        for &(word, day) in keys {
            // A day either side: platforms close a day's question at its
            // end or at the next midnight. A year either side: "before
            // Jan 1, 2027" is read as ending in 2027, and a deadline a
            // year later is a wider question.
            for d in day - 1..=day + 1 {
                let Some(members) = groups.get(&(word, d)) else {
                    continue;
                };
                for &j in members {
                    if j <= i {
                        continue;
                    }
                    let same_platform =
                        markets[i].platform.is_some() && markets[i].platform == markets[j].platform;
                    if same_platform && !options.same_platform {
                        continue;
                    }
                    candidates.insert((i, j));
                }
            }
        }
    }
    let kept = |relation: Relation| match &options.relations {
        Some(wanted) => wanted.contains(&relation),
        None => options.include_different || relation != Relation::Different,
    };
    // With a filter, a pair's reasons are built only once it is kept.
    let reasons_later = options.relations.is_some() && !options.without_reasons;
    candidates
        .into_iter()
        .filter_map(|(i, j)| {
            let classify =
                |detailed| classify_facts(&markets[i], &markets[j], &facts[i], &facts[j], detailed);
            let mut classification = classify(!options.without_reasons && !reasons_later);
            if !kept(classification.relation) {
                return None;
            }
            if reasons_later {
                classification = classify(true);
            }
            Some(Pair {
                a: i,
                b: j,
                classification,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
