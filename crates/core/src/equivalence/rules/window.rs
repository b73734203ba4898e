//! The window: the day, period or deadline each question is about, and
//! the time of day a price is read at.

use super::super::engine::{Aspect, Pair, Verdict, Vote};
use super::super::facts::{DateFact, Facts};
use super::super::lexicon::{closed_on_december_31, last_trading_day};
use super::super::{Field, Finding, day_of};
use crate::time::{civil_from_days, format_rfc3339};

/// A whole calendar year ("in 2026").
fn is_year(d: &DateFact) -> bool {
    let (y, m, dd) = civil_from_days(d.first_day);
    (m, dd) == (1, 1) && civil_from_days(d.last_day) == (y, 12, 31)
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
            Vote::Unknown,
        )
    } else {
        (
            Finding::Nested,
            "a deadline inside the other's period: YES by it implies YES in the period",
            narrower(true),
        )
    }
}

/// A year's last close against a day: the same window when the day is
/// the year's last trading day on the exchange named.
/// Where the day is not December 31 itself, both must close on one day:
/// a quantity that trades every day (a coin) has no last trading day.
fn year_end_close_on(
    x: &DateFact,
    y: &DateFact,
    closed_on_the_31st: bool,
    close_together: bool,
) -> bool {
    let (close, day) = match (x.year_end_close, y.year_end_close) {
        (true, false) => (x, y),
        (false, true) => (y, x),
        _ => return false,
    };
    !day.deadline
        && !close.deadline
        && day.first_day == day.last_day
        && day.first_day == last_trading_day(close.last_day, closed_on_the_31st)
        && (day.first_day == close.last_day || close_together)
}

/// Two named dates; `closed_on_the_31st`: an index named trades on an
/// exchange closed on December 31.
fn both_dated(
    x: &DateFact,
    y: &DateFact,
    closed_on_the_31st: bool,
    close_together: bool,
) -> (Finding, &'static str, Vote) {
    if year_end_close_on(x, y, closed_on_the_31st, close_together) {
        return (
            Finding::Agrees,
            "a year's last close and its last trading day: the same day",
            Vote::Same,
        );
    }
    let same = x.first_day == y.first_day && x.last_day == y.last_day;
    // Two deadlines are one window when they end together ("through
    // 2027" / "before 2028").
    if (same && x.deadline == y.deadline) || (x.deadline && y.deadline && x.last_day == y.last_day)
    {
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
        (Finding::Conflicts, "different dates", Vote::Unknown)
    } else {
        (
            Finding::Missing,
            "dates of different precision",
            Vote::Unknown,
        )
    }
}

/// One names a date; the other's close time stands in for its own.
fn one_dated(p: &Pair<'_>, v: &mut Verdict, d: &DateFact) -> Vote {
    let (fa, fb) = (p.fa, p.fb);
    let show = |f: &Facts| f.date.as_ref().map(ToString::to_string);
    let close = |f: &Facts| f.close_ms.map(format_rfc3339);
    let (other, a, b) = if fa.date.is_some() {
        (fb.close_ms, show(fa), close(fb))
    } else {
        (fa.close_ms, close(fa), show(fb))
    };
    let (finding, note, vote) = match other.map(day_of) {
        Some(day) if day + 2 >= d.first_day && day <= d.last_day + 2 => (
            Finding::Agrees,
            "one names the date, the other closes on it",
            Vote::Same,
        ),
        Some(_) => (
            Finding::Missing,
            "one names a date the other does not close on",
            Vote::Unknown,
        ),
        None => (Finding::Missing, "only one names a date", Vote::Unknown),
    };
    v.say(|| (Field::Date, finding, a, b, note.into()));
    vote
}

/// Neither names a date: the close times are the window.
fn undated(p: &Pair<'_>, v: &mut Verdict) -> (Finding, Vote) {
    let (Some(x), Some(y)) = (p.fa.close_ms, p.fb.close_ms) else {
        v.say(|| (Field::Date, Finding::Missing, None, None, "no dates".into()));
        return (Finding::Missing, Vote::Unknown);
    };
    let days = (day_of(x) - day_of(y)).abs();
    let (finding, vote) = if days <= 2 {
        (Finding::Agrees, Vote::Same)
    } else if days > 7 {
        (Finding::Conflicts, Vote::Unknown)
    } else {
        (Finding::Missing, Vote::Unknown)
    };
    v.say(|| {
        (
            Field::Date,
            finding,
            Some(format_rfc3339(x)),
            Some(format_rfc3339(y)),
            if days <= 2 {
                "no dates named; they close within two days".into()
            } else {
                format!("no dates named; they close {days} days apart")
            },
        )
    });
    (finding, vote)
}

/// The dates, periods and deadlines: the same window is evidence, a
/// window that cannot be the other's is a veto, a nested one a vote.
pub fn cutoff_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    if super::tenure::state_against_its_end(p).is_some() {
        v.say(|| {
            let show = |f: &Facts| f.date.as_ref().map(ToString::to_string);
            (
                Field::Date,
                Finding::Agrees,
                show(fa),
                show(fb),
                "a state on the last day of the other's window, against its end in it: one window"
                    .into(),
            )
        });
        v.evidence(Aspect::Window);
        v.vote(Vote::Same);
        return;
    }
    let (finding, vote) = match (&fa.date, &fb.date) {
        (Some(x), Some(y)) => {
            // Read only for a year's last close: most pairs name none.
            let closed = (x.year_end_close || y.year_end_close)
                && closed_on_december_31(|w| fa.mentions(w) || fb.mentions(w));
            let close_together = matches!((fa.close_ms, fb.close_ms),
                (Some(c), Some(d)) if day_of(c) == day_of(d));
            let (finding, note, vote) = super::window_otherwise::written_otherwise(p, x, y)
                .unwrap_or_else(|| both_dated(x, y, closed, close_together));
            let show = |d: &DateFact| Some(d.to_string());
            v.say(|| (Field::Date, finding, show(x), show(y), note.into()));
            (finding, vote)
        }
        (Some(d), None) | (None, Some(d)) => {
            let vote = one_dated(p, v, d);
            let finding = if vote == Vote::Same {
                Finding::Agrees
            } else {
                Finding::Missing
            };
            (finding, vote)
        }
        (None, None) => undated(p, v),
    };
    match finding {
        Finding::Agrees | Finding::Opposite => v.evidence(Aspect::Window),
        Finding::Conflicts => v.veto(),
        _ => {}
    }
    if finding != Finding::Conflicts {
        v.vote(vote);
    }
}

/// The time of day a price is read at, in UTC: "5pm EST" and "22:00 UTC"
/// are one instant, "12pm ET" and "12:00 UTC" are not. A title that
/// states none is read at the time its rules state, if they do.
pub fn time_of_day_differs(p: &Pair<'_>, v: &mut Verdict) {
    let time = |f: &Facts| f.time_of_day.or(f.criteria_time);
    // Two rules texts that close their windows at the end of a day ("by
    // June 30, 11:59 PM ET" / "before July 1, 12:00 AM ET") close them at
    // one instant.
    let close = |f: &Facts| {
        f.time_of_day
            .is_none()
            .then_some(f.criteria_close)
            .flatten()
    };
    let (x, y) = match (close(p.fa), close(p.fb)) {
        (Some(x), Some(y)) => (x, y),
        _ => match (time(p.fa), time(p.fb)) {
            (Some(x), Some(y)) => (x, y),
            _ => return,
        },
    };
    let show = |m: i64| Some(format!("{:02}:{:02} UTC", m / 60, m % 60));
    if x == y {
        v.say(|| {
            (
                Field::Date,
                Finding::Agrees,
                show(x),
                show(y),
                "the same time of day".into(),
            )
        });
    } else {
        v.say(|| {
            (
                Field::Date,
                Finding::Conflicts,
                show(x),
                show(y),
                "read at different times of day".into(),
            )
        });
        v.veto();
    }
}
