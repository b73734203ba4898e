//! The threshold: its value and comparator as an interval of the measured
//! quantity, compared as intervals (the same, complements, nested,
//! apart); a band against a tail and one value under two comparators are
//! rules of their own. Also the other numbers a title states.

use super::super::engine::{Aspect, Pair, Verdict, Vote};
use super::super::facts::{Comparator, Facts, Threshold};
use super::super::{Field, Finding};
use super::join;

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
    /// `counted`: the quantity is a whole number, so "more than 3" is
    /// "4 or more", and a sportsbook's half-point line "Over 221.5" is
    /// "222 or more" (a bare number only: a fractional percentage or
    /// price is not a line even where the title counts something).
    fn of(t: &Threshold, counted: bool) -> Self {
        let open = |at: f64| End { at, closed: false };
        let at = |at: f64, closed: bool| End { at, closed };
        // A temperature in °F is reported in whole degrees: "above 114°F"
        // is "115°F or higher".
        let whole_units =
            (counted || t.unit == "°F") && (t.value.fract() == 0.0 || t.unit.is_empty());
        match t.comparator {
            Comparator::Above | Comparator::AtLeast if whole_units => Self {
                lo: at(first_whole_above(t.value, t.comparator), true),
                hi: open(f64::INFINITY),
            },
            Comparator::Below | Comparator::AtMost if whole_units => Self {
                lo: open(f64::NEG_INFINITY),
                hi: at(last_whole_below(t.value, t.comparator), true),
            },
            Comparator::Above => Self {
                lo: at(t.value, false),
                hi: open(f64::INFINITY),
            },
            Comparator::AtLeast => Self {
                lo: at(t.value, true),
                hi: open(f64::INFINITY),
            },
            Comparator::Below => Self {
                lo: open(f64::NEG_INFINITY),
                hi: at(t.value, false),
            },
            Comparator::AtMost => Self {
                lo: open(f64::NEG_INFINITY),
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

    /// The complement, for one-sided intervals; for whole numbers the
    /// complement of "4 or more" is "3 or fewer".
    fn complement(&self, counted: bool) -> Option<Self> {
        let end = |at: f64, closed: bool| End { at, closed };
        let step = |e: End, by: f64| {
            if counted && e.at.fract() == 0.0 && e.closed {
                end(e.at + by, true)
            } else {
                end(e.at, !e.closed)
            }
        };
        if self.hi.at == f64::INFINITY {
            Some(Self {
                lo: end(f64::NEG_INFINITY, false),
                hi: step(self.lo, -1.0),
            })
        } else if self.lo.at == f64::NEG_INFINITY {
            Some(Self {
                lo: step(self.hi, 1.0),
                hi: end(f64::INFINITY, false),
            })
        } else {
            None
        }
    }
}

/// The least whole number a count "above" (or "at least") `value` can be.
fn first_whole_above(value: f64, comparator: Comparator) -> f64 {
    match comparator {
        Comparator::AtLeast => value.ceil(),
        _ => value.floor() + 1.0,
    }
}

/// The greatest whole number a count "below" (or "at most") `value` can be.
fn last_whole_below(value: f64, comparator: Comparator) -> f64 {
    match comparator {
        Comparator::AtMost => value.floor(),
        _ => value.ceil() - 1.0,
    }
}

fn eq(a: f64, b: f64) -> bool {
    a == b || (a.is_finite() && b.is_finite() && (a - b).abs() <= 1e-9 * a.abs().max(b.abs()))
}

/// How two thresholds relate, before negation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    Same,
    Opposite,
    /// Opposite but for the boundary value itself ("above x" / "below x"):
    /// both can be NO, so two questions.
    NearOpposite,
    Narrower,
    Wider,
    Apart,
}

/// `None` when the units differ.
/// A share ("%", otherwise read as a bare number beside a rate written
/// without it) against an amount of money: never one quantity
/// ("Tomatometer above 90%" / "a $90M opening", "Bitcoin dominance above
/// 60%" / "Bitcoin above $140,000").
fn share_against_money(a: &Threshold, b: &Threshold) -> bool {
    let money = |u: &str| matches!(u, "$" | "€" | "£" | "¥");
    (a.unit == "%" && money(&b.unit)) || (b.unit == "%" && money(&a.unit))
}

pub(crate) fn compare_thresholds(a: &Threshold, b: &Threshold, counted: bool) -> Option<Shape> {
    let units = |u: &str| if u == "%" { "" } else { u }.to_owned();
    let (ua, ub) = (units(&a.unit), units(&b.unit));
    if !ua.is_empty() && !ub.is_empty() && ua != ub {
        return None;
    }
    if share_against_money(a, b) {
        return None;
    }
    // A temperature in °F is reported in whole degrees: "above 114°F" is
    // "115°F or higher".
    let counted = counted || (ua == "°F" && ub == "°F");
    let (ia, ib) = (Interval::of(a, counted), Interval::of(b, counted));
    let complement = ia.complement(counted);
    Some(if ia.same(&ib) {
        Shape::Same
    } else if complement.is_some_and(|c| c.same(&ib)) {
        Shape::Opposite
    } else if complement.is_some_and(|c| eq(c.lo.at, ib.lo.at) && eq(c.hi.at, ib.hi.at)) {
        Shape::NearOpposite
    } else if ia.within(&ib) {
        Shape::Narrower
    } else if ib.within(&ia) {
        Shape::Wider
    } else {
        Shape::Apart
    })
}

/// Which threshold rule speaks for a pair of thresholds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Case {
    /// A band against a tail.
    BandTail,
    /// One value under two comparators that are not complements: one way
    /// ("above" / "at least"), or both ways with the boundary on neither
    /// or both sides ("above" / "below": the value itself is NO on both).
    Comparator,
    Other,
}

fn case_of(a: &Threshold, b: &Threshold) -> Case {
    let band = |t: &Threshold| t.comparator == Comparator::Between;
    let one_sided =
        |t: &Threshold| !matches!(t.comparator, Comparator::Between | Comparator::Exactly);
    if (band(a) && one_sided(b)) || (band(b) && one_sided(a)) {
        return Case::BandTail;
    }
    let upward = |c: Comparator| matches!(c, Comparator::Above | Comparator::AtLeast);
    let downward = |c: Comparator| matches!(c, Comparator::Below | Comparator::AtMost);
    let one_way = (upward(a.comparator) && upward(b.comparator))
        || (downward(a.comparator) && downward(b.comparator));
    let strict = |c: Comparator| matches!(c, Comparator::Above | Comparator::Below);
    let both_ways_one_boundary = !one_way
        && upward(a.comparator) != upward(b.comparator)
        && strict(a.comparator) == strict(b.comparator);
    if (one_way || both_ways_one_boundary) && a.comparator != b.comparator && eq(a.value, b.value) {
        Case::Comparator
    } else {
        Case::Other
    }
}

/// The quantity is counted in whole units ("times", "games", "home runs").
fn counted(p: &Pair<'_>) -> bool {
    p.fa.counted || p.fb.counted
}

/// A line read as a margin against the other side's margin: whole
/// numbers of points, runs or goals.
fn judge_margin(v: &mut Verdict, ta: Option<&Threshold>, tb: Option<&Threshold>) {
    if let (Some(ta), Some(tb)) = (ta, tb) {
        act_on(v, ta, tb, true);
    }
}

/// Acts on the shape of two thresholds, for the rule whose case it is.
fn judge(p: &Pair<'_>, v: &mut Verdict, case: Case) {
    let (Some(ta), Some(tb)) = (&p.fa.threshold, &p.fb.threshold) else {
        return;
    };
    if case_of(ta, tb) != case {
        return;
    }
    act_on(v, ta, tb, counted(p));
}

/// Compares two thresholds and records the shape.
fn act_on(v: &mut Verdict, ta: &Threshold, tb: &Threshold, counted: bool) {
    let Some(shape) = compare_thresholds(ta, tb, counted) else {
        // A share against money is two quantities; other units may be
        // one quantity written otherwise, which the text cannot tell.
        let two_quantities = share_against_money(ta, tb);
        v.say(|| {
            let (finding, note) = if two_quantities {
                (Finding::Conflicts, "a share against an amount of money")
            } else {
                (Finding::Missing, "units differ")
            };
            (
                Field::Threshold,
                finding,
                Some(ta.to_string()),
                Some(tb.to_string()),
                note.into(),
            )
        });
        if two_quantities {
            v.veto();
        } else {
            v.vote(Vote::Unknown);
        }
        return;
    };
    v.threshold_shape = Some(shape);
    let (finding, note) = match shape {
        Shape::Same => (Finding::Agrees, "the same threshold"),
        Shape::Opposite => (
            Finding::Opposite,
            "complementary thresholds: YES here is NO there",
        ),
        Shape::NearOpposite => (
            Finding::Conflicts,
            "opposite sides of one value, which is NO on both (or YES on both): not complements",
        ),
        Shape::Narrower => (Finding::Nested, "the first threshold is narrower"),
        Shape::Wider => (Finding::Nested, "the second threshold is narrower"),
        Shape::Apart => (Finding::Conflicts, "thresholds that neither match nor nest"),
    };
    v.say(|| {
        (
            Field::Threshold,
            finding,
            Some(ta.to_string()),
            Some(tb.to_string()),
            note.into(),
        )
    });
    match shape {
        Shape::Same => {
            v.vote(Vote::Same);
            v.evidence(Aspect::Threshold);
        }
        Shape::Opposite => {
            v.vote(Vote::Opposite);
            v.evidence(Aspect::Threshold);
        }
        Shape::Narrower => v.vote(Vote::Narrower),
        Shape::Wider => v.vote(Vote::Wider),
        Shape::NearOpposite | Shape::Apart => v.veto(),
    }
}

/// A team giving a half-point line ("Bengals -3.5") wins by at least
/// the next whole number ("by 4 or more"): the margin `line_side`'s line
/// asks, where `other` states a bare threshold and backs the same team to
/// win. Points taken ("+3.5") are no such margin.
pub(crate) fn line_as_margin(line_side: &Facts, other: &Facts) -> Option<Threshold> {
    let (None, Some(t), [number]) = (
        &line_side.threshold,
        &other.threshold,
        line_side.numbers.as_slice(),
    ) else {
        return None;
    };
    let (team, points) = line(number)?;
    let winner = other.winner.as_deref()?;
    let backs_team = winner.split(' ').any(|w| team.split(' ').any(|x| x == w));
    let bare = t.unit.is_empty() && matches!(t.comparator, Comparator::AtLeast | Comparator::Above);
    (points < 0.0 && points.fract().abs() == 0.5 && backs_team && bare).then(|| Threshold {
        comparator: Comparator::AtLeast,
        value: (-points).ceil(),
        upper: None,
        unit: String::new(),
        plus_written: false,
    })
}

/// A count of at least one ("1+ Home Runs", "at least one Grand Prix")
/// against a side that asks for one of a class with no number ("To Hit
/// A Home Run", "win a Grand Prix"): one or more is the event happening.
/// "the Grand Slam" (not "a") is one named thing, not one of a class.
pub(crate) fn at_least_one_against_a(t: &Threshold, other: &Facts) -> bool {
    let one_or_more = (t.comparator == Comparator::AtLeast && t.value == 1.0)
        || (t.comparator == Comparator::Above && t.value == 0.0);
    one_or_more
        && t.unit.is_empty()
        && other.threshold.is_none()
        && ["a", "an", "any"].iter().any(|w| other.raw.contains(*w))
}

/// Two thresholds (other than a band against a tail or one value under
/// two comparators), a line against the margin it asks, or one
/// threshold against none.
pub fn threshold_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    let margin = (line_as_margin(fa, fb), line_as_margin(fb, fa));
    match (&fa.threshold, &fb.threshold) {
        (Some(_), Some(_)) => judge(p, v, Case::Other),
        (None, Some(tb)) if margin.0.is_some() => {
            judge_margin(v, margin.0.as_ref(), Some(tb));
        }
        (Some(ta), None) if margin.1.is_some() => {
            judge_margin(v, Some(ta), margin.1.as_ref());
        }
        // Neither states a threshold: nothing on it can differ.
        (None, None) => v.evidence(Aspect::Threshold),
        // A move of a stated size against a move of any size: the sized
        // one is narrower ("cut 25 bps" / "cut rates").
        (Some(t), None) | (None, Some(t))
            if t.comparator == Comparator::Exactly
                && t.unit == "bps"
                && fa.numbers.is_empty()
                && fb.numbers.is_empty() =>
        {
            let first = fa.threshold.is_some();
            v.say(|| {
                (
                    Field::Threshold,
                    Finding::Nested,
                    fa.threshold.as_ref().map(ToString::to_string),
                    fb.threshold.as_ref().map(ToString::to_string),
                    "only one states the size of the move: it is the narrower".into(),
                )
            });
            v.vote(if first { Vote::Narrower } else { Vote::Wider });
        }
        (Some(t), None) | (None, Some(t))
            if at_least_one_against_a(t, if fa.threshold.is_some() { fb } else { fa }) =>
        {
            v.say(|| {
                (
                    Field::Threshold,
                    Finding::Agrees,
                    fa.threshold.as_ref().map(ToString::to_string),
                    fb.threshold.as_ref().map(ToString::to_string),
                    "at least one is the event happening".into(),
                )
            });
            v.evidence(Aspect::Threshold);
        }
        (ta, tb) => {
            v.say(|| {
                (
                    Field::Threshold,
                    Finding::Missing,
                    ta.as_ref().map(ToString::to_string),
                    tb.as_ref().map(ToString::to_string),
                    "only one states a threshold".into(),
                )
            });
            v.vote(Vote::Unknown);
        }
    }
}

/// One value under two comparators ("above 42%" / "at least 42%"): the
/// boundary value itself is YES on one only, so never the same question;
/// "above $3.50" / "below $3.50" are NO together at $3.50, so never
/// complements ("above $3.50" / "$3.50 or below" are).
pub fn comparator_differs(p: &Pair<'_>, v: &mut Verdict) {
    judge(p, v, Case::Comparator);
}

/// A band ("between 2.9% and 3.0%") against a tail ("above 2.9%"): nested
/// when the band lies inside the tail, else two questions.
pub fn band_vs_tail(p: &Pair<'_>, v: &mut Verdict) {
    judge(p, v, Case::BandTail);
}

/// Other numbers ("25 bps", "#1") that disagree make two questions.
pub fn numbers_differ(p: &Pair<'_>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    if fa.numbers.is_empty() && fb.numbers.is_empty() {
        return;
    }
    let (finding, note) = if fa.numbers == fb.numbers {
        (Finding::Agrees, "the same numbers")
    } else if opposite_lines(fa, fb) {
        (
            Finding::Opposite,
            "one line from each side of a game: a team giving the points against the other taking them",
        )
    } else if fa.numbers.is_empty() || fb.numbers.is_empty() {
        (Finding::Missing, "only one states these numbers")
    } else {
        (Finding::Conflicts, "different numbers")
    };
    v.say(|| {
        (
            Field::Numbers,
            finding,
            join(&fa.numbers),
            join(&fb.numbers),
            note.into(),
        )
    });
    match finding {
        Finding::Conflicts => v.veto(),
        Finding::Opposite => v.flip(),
        _ => {}
    }
}

/// A sportsbook line read as "team -6.5": the team and the signed points.
pub(crate) fn line(number: &str) -> Option<(&str, f64)> {
    let (team, points) = number.rsplit_once(' ')?;
    if !points.starts_with(['+', '-']) {
        return None;
    }
    crate::equivalence::lex::signed_number(points).map(|points| (team, points))
}

/// One half-point line on each side, the same points given by one team
/// and taken by the other, each team named by both sides ("Cavaliers -6.5
/// vs Magic" / "Magic +6.5 vs Cavaliers"): YES on one is NO on the other.
pub(crate) fn opposite_lines(fa: &Facts, fb: &Facts) -> bool {
    let ([a], [b]) = (fa.numbers.as_slice(), fb.numbers.as_slice()) else {
        return false;
    };
    let (Some((team_a, points_a)), Some((team_b, points_b))) = (line(a), line(b)) else {
        return false;
    };
    team_a != team_b
        && points_a.fract().abs() == 0.5
        && eq(points_a, -points_b)
        && fb.mentions(team_a)
        && fa.mentions(team_b)
}
