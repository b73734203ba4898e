//! Windows the window rule reads beyond two dates: a window open at its
//! end ("in 2029 or later") against the deadline before it ("before
//! 2029"), and a year that names an event held in one month against that
//! month ("Super Bowl LXIV" against "February 2030").

use super::super::Finding;
use super::super::engine::{Pair, Vote};
use super::super::facts::{DateFact, Facts};
use super::super::lexicon::EVENT_MONTHS;
use crate::time::civil_from_days;

/// Words that make a question about when an occurrence that will happen
/// happens (the next election): "before 2029" and "in 2029 or later"
/// then split every outcome. Without one, a thing that may happen twice
/// or never ("hit $100k") or be called off ("delayed to 2028 or later"
/// against "released before 2028": a cancelled game is No on both) is
/// not split, and the two windows, which do not meet, are different.
const ONE_OCCURRENCE: &[&str] = &["next"];

/// A whole calendar year.
fn is_year(d: &DateFact) -> bool {
    let (y, m, dd) = civil_from_days(d.first_day);
    (m, dd) == (1, 1) && civil_from_days(d.last_day) == (y, 12, 31)
}

/// A whole month.
fn is_month(d: &DateFact) -> bool {
    let (y, m, dd) = civil_from_days(d.first_day);
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    dd == 1 && d.last_day == crate::time::days_from_civil(ny, nm, 1) - 1
}

/// One window open at its end against the other's.
fn open_ended(p: &Pair<'_>, o: &DateFact, r: &DateFact) -> (Finding, &'static str, Vote) {
    if r.open_ended {
        return if r.first_day == o.first_day {
            (Finding::Agrees, "the same date", Vote::Same)
        } else {
            (
                Finding::Missing,
                "two windows open at their ends",
                Vote::Unknown,
            )
        };
    }
    let once = ONE_OCCURRENCE
        .iter()
        .any(|w| p.fa.mentions(w) || p.fb.mentions(w));
    if r.deadline && r.last_day + 1 == o.first_day && once {
        (
            Finding::Opposite,
            "a deadline and the time after it, for the next occurrence: YES on one is NO on the other",
            Vote::Opposite,
        )
    } else if r.last_day < o.first_day {
        (
            Finding::Conflicts,
            "a date before the other's window",
            Vote::Unknown,
        )
    } else {
        (
            Finding::Missing,
            "a window open at its end against a date",
            Vote::Unknown,
        )
    }
}

/// The month of the event a year's question names ("Super Bowl LXII":
/// February 2028), as its first day: `find_pairs` files the question
/// under it too, so it meets the questions on that month.
pub(crate) fn event_month_of(f: &Facts) -> Option<i64> {
    let d = f
        .date
        .as_ref()
        .filter(|d| is_year(d) && !d.deadline && !d.open_ended)?;
    let (year, _, _) = civil_from_days(d.first_day);
    EVENT_MONTHS
        .iter()
        .find(|(words, _)| words.iter().all(|w| f.mentions(w)))
        .map(|&(_, month)| crate::time::days_from_civil(year, month, 1))
}

/// A year naming an event held in one month, against that month.
fn event_month(p: &Pair<'_>, x: &DateFact, y: &DateFact) -> bool {
    let (year_side, month_side, names) = if is_year(x) && is_month(y) {
        (x, y, p.fa)
    } else if is_year(y) && is_month(x) {
        (y, x, p.fb)
    } else {
        return false;
    };
    if x.deadline || y.deadline {
        return false;
    }
    let (year, _, _) = civil_from_days(year_side.first_day);
    let (month_year, month, _) = civil_from_days(month_side.first_day);
    year == month_year
        && EVENT_MONTHS
            .iter()
            .any(|(words, m)| *m == month && words.iter().all(|w| names.mentions(w)))
}

/// What the window rule finds of two dates read otherwise, if they are.
pub(super) fn written_otherwise(
    p: &Pair<'_>,
    x: &DateFact,
    y: &DateFact,
) -> Option<(Finding, &'static str, Vote)> {
    if x.open_ended {
        return Some(open_ended(p, x, y));
    }
    if y.open_ended {
        return Some(open_ended(p, y, x));
    }
    event_month(p, x, y).then_some((
        Finding::Agrees,
        "a year naming an event held in one month, and that month: the same window",
        Vote::Same,
    ))
}
