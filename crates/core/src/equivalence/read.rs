//! Reading the facts a comparison needs out of the tokens: the first date
//! (a day, a month, a quarter, a year, a deadline), the time of day with
//! its zone, the threshold with its comparator, and what the rules say
//! happens when the event is void.

use super::facts::{Comparator, DAY_MS, DateFact, Threshold, month};
use super::lex::{Tok, bare_int_at, word_at};
use crate::time::{civil_from_days, days_from_civil};

mod around;
mod zones;
pub(crate) use zones::zone_offset;
mod window_end;
mod windows;
pub(crate) use window_end::rules_time;

/// The first date of the text and the time of day it is read at (see
/// [`find_date`], [`find_instant`]): a day read at a time whose zone moves
/// it across midnight is the UTC day ("7pm EST, Dec 31" is January 1 in
/// UTC).
pub(crate) fn find_date_and_time(
    tokens: &[Tok],
    used: &mut [bool],
    close_ms: Option<i64>,
) -> (Option<DateFact>, Option<i64>) {
    let mut date = find_date(tokens, used, close_ms);
    let day = date.as_ref().map(|d| d.first_day);
    let instant = find_instant(tokens, used, day);
    if let (Some(d), Some((_, shift))) = (date.as_mut(), instant)
        && shift != 0
        && d.one_day()
    {
        d.first_day += shift;
        d.last_day += shift;
    }
    (date, instant.map(|(minutes, _)| minutes))
}

/// A time of day with its zone ("5pm EST", "12:00 UTC", "4 PM ET",
/// "noon ET") as minutes after midnight UTC, its tokens used up, with
/// the days the zone moves the date by in UTC: "7pm
/// EST on Dec 31" is 00:00 UTC on January 1 (1), "1am CET" the day before
/// (-1 where such a zone is read).
pub(crate) fn find_instant(
    tokens: &[Tok],
    used: &mut [bool],
    day: Option<i64>,
) -> Option<(i64, i64)> {
    find_instant_at(tokens, used, day).map(|t| (t.utc, t.day_shift))
}

/// A time of day read by [`find_instant_at`].
pub(crate) struct TimeRead {
    /// Minutes after midnight UTC.
    pub utc: i64,
    /// The days the zone moves the date by in UTC.
    pub day_shift: i64,
    /// Minutes after midnight in the zone written.
    pub local: i64,
    /// The index of its first token.
    pub at: usize,
}

/// [`find_instant`], with the time as written in its zone and where.
pub(crate) fn find_instant_at(
    tokens: &[Tok],
    used: &mut [bool],
    day: Option<i64>,
) -> Option<TimeRead> {
    for i in 0..tokens.len() {
        // "noon" is 12:00; "midnight" is left alone (which day's is not
        // said the same way by every platform).
        let noon = word_at(tokens, i) == Some("noon");
        let Some(hour) = bare_int_at(tokens, i)
            .filter(|h| (0..=24).contains(h))
            .or(noon.then_some(12))
        else {
            continue;
        };
        let mut j = i + 1;
        let mut minute = 0;
        if tokens.get(j) == Some(&Tok::Sym(':'))
            && let Some(m) = bare_int_at(tokens, j + 1).filter(|m| (0..60).contains(m))
        {
            minute = m;
            j += 2;
        }
        let mut hour = hour;
        match word_at(tokens, j) {
            Some("pm") if hour < 12 => {
                hour += 12;
                j += 1;
            }
            Some("am") if hour == 12 => {
                hour = 0;
                j += 1;
            }
            Some("am" | "pm") => j += 1,
            _ => {}
        }
        // A city's time of two words ("5:00 PM New York time") is its
        // zone's.
        let zone = match (word_at(tokens, j), word_at(tokens, j + 1)) {
            (Some("new"), Some("york")) => {
                j += 1;
                Some("et")
            }
            // "12:00 in the ET timezone", as Polymarket's rules write it.
            (Some("in"), Some("the"))
                if matches!(word_at(tokens, j + 3), Some("timezone" | "time")) =>
            {
                j += 3;
                word_at(tokens, j - 1)
            }
            (zone, _) => zone,
        };
        let Some(offset) = zone.and_then(|z| zone_offset(z, day)) else {
            continue;
        };
        if let Some(span) = used.get_mut(i..=j) {
            span.fill(true);
        }
        let utc = (hour - offset) * 60 + minute;
        return Some(TimeRead {
            utc: utc.rem_euclid(24 * 60),
            day_shift: utc.div_euclid(24 * 60),
            local: hour * 60 + minute,
            at: i,
        });
    }
    None
}

/// What the rules say the market resolves to when its event is cancelled,
/// postponed or not held ("resolves No", "resolves 50-50"), if they say.
pub(crate) fn void_outcome(criteria: &str) -> Option<String> {
    let text = criteria.to_lowercase();
    let at = ["postpone", "cancel", "not held", "no fomc meeting", "void"]
        .iter()
        .filter_map(|k| text.find(k))
        .min()?;
    let rest = &text[at..];
    let after = rest.find("resolve")?;
    rest[after..]
        .split_whitespace()
        .skip(1)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .find(|w| !matches!(*w, "to" | "as" | "the" | "market" | ""))
        .map(str::to_owned)
}

/// "Month [day][,] [year]" at `i` ("May" only with a number after it):
/// its days, and whether the year was taken from the close time.
pub(crate) fn month_date(
    tokens: &[Tok],
    i: usize,
    (m, w): (i64, &str),
    close_ms: Option<i64>,
    span: &mut Vec<usize>,
) -> Option<((i64, i64), bool)> {
    let close_year = close_ms.map(|ms| civil_from_days(ms.div_euclid(DAY_MS)).0);
    let year_of = |t: Option<i64>| t.filter(|y| (1900..=2100).contains(y));
    // Month [day][,] [year] — "May" only with a number after it.
    let mut j = i + 1;
    let day = bare_int_at(tokens, j).filter(|d| (1..=31).contains(d));
    if day.is_some() {
        span.push(j);
        j += 1;
    }
    if matches!(tokens.get(j), Some(Tok::Sym(','))) && year_of(bare_int_at(tokens, j + 1)).is_some()
    {
        j += 1;
    }
    let year = year_of(bare_int_at(tokens, j));
    if year.is_some() {
        span.push(j);
    }
    if day.is_none() && year.is_none() && w.starts_with("may") {
        return None;
    }
    let (y, was_inferred) = match (year, close_year) {
        (Some(y), _) => (y, false),
        (None, Some(cy)) => (cy, true),
        (None, None) => return None,
    };
    let inferred = was_inferred;
    let range = match day {
        Some(d) => {
            let mut first = days_from_civil(y, m, d);
            // "Dec 31" closing on Jan 2: the year before.
            if let Some(ms) = close_ms.filter(|_| inferred)
                && first - ms.div_euclid(DAY_MS) > 60
            {
                first = days_from_civil(y - 1, m, d);
            }
            (first, first)
        }
        None => {
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            (days_from_civil(y, m, 1), days_from_civil(ny, nm, 1) - 1)
        }
    };
    Some((range, inferred))
}

/// A word that makes the date after it a deadline ("by June 30",
/// "through 2027").
pub(crate) fn is_deadline_word(w: &str) -> bool {
    matches!(w, "before" | "by" | "until" | "through" | "thru")
}

/// The first date of the text, with "before"/"by" read as a deadline.
/// The day `m`/`d` of the year written, else of the close's year (then
/// inferred).
fn one_day(year: Option<i64>, close_year: Option<i64>, m: i64, d: i64) -> Option<(i64, bool)> {
    let y = year.or(close_year)?;
    Some((days_from_civil(y, m, d), year.is_none()))
}

/// The year after a "/" at `at` ("12/31/2026", "12/31/26").
fn slash_year(tokens: &[Tok], at: usize) -> Option<i64> {
    (tokens.get(at) == Some(&Tok::Sym('/')))
        .then(|| bare_int_at(tokens, at + 1))
        .flatten()
        .map(|y| if y < 100 { 2000 + y } else { y })
}

/// The month and day of a date written with slashes at `at`: M/D as US
/// platforms write it ("12/31/2026", "3/4/28" is March 4), or D/M/YY as
/// European books do where the day cannot be a month and a year follows
/// ("18/12/27" is December 18).
fn slash_month_day(tokens: &[Tok], at: usize) -> Option<(i64, i64)> {
    let first = bare_int_at(tokens, at)?;
    let second =
        bare_int_at(tokens, at + 2).filter(|_| tokens.get(at + 1) == Some(&Tok::Sym('/')))?;
    if (1..=12).contains(&first) && (1..=31).contains(&second) {
        Some((first, second))
    } else if (13..=31).contains(&first)
        && (1..=12).contains(&second)
        && slash_year(tokens, at + 3).is_some()
    {
        Some((second, first))
    } else {
        None
    }
}

pub(crate) fn find_date(
    tokens: &[Tok],
    used: &mut [bool],
    close_ms: Option<i64>,
) -> Option<DateFact> {
    let close_year = close_ms.map(|ms| civil_from_days(ms.div_euclid(DAY_MS)).0);
    let year_of = |t: Option<i64>| t.filter(|y| (1900..=2100).contains(y));
    for i in 0..tokens.len() {
        if used[i] {
            continue;
        }
        let mut span = vec![i];
        let mut range: Option<(i64, i64)> = None;
        let mut inferred = false;
        if let Some((day, named, was_inferred)) = windows::named_day(tokens, i, close_ms) {
            span = named;
            inferred = was_inferred;
            range = Some((day, day));
        } else if let Tok::Iso(day) = tokens[i] {
            range = Some((day, day));
        } else if let Some(w) = word_at(tokens, i) {
            if let Some(m) = month(w) {
                let Some((days, was_inferred)) = month_date(tokens, i, (m, w), close_ms, &mut span)
                else {
                    continue;
                };
                inferred = was_inferred;
                range = Some(days);
                let next = span.iter().max().map_or(i + 1, |&k| k + 1);
                let end = if days.0 == days.1 {
                    windows::day_span_end(tokens, i, next, days.0)
                } else {
                    None
                };
                if let Some((last, year, end)) =
                    end.or_else(|| windows::span_end(tokens, i, next, close_ms))
                {
                    // "January-March 2030": the start takes the end's year.
                    let first = match year {
                        Some(y) if inferred => windows::in_year(days.0, y),
                        _ => days.0,
                    };
                    if first <= last {
                        range = Some((first, last));
                        inferred &= year.is_none();
                        span.extend(end);
                    }
                }
            } else if let Some(q) = w
                .strip_prefix('q')
                .and_then(|q| q.parse::<i64>().ok())
                .filter(|q| (1..=4).contains(q))
            {
                let year = year_of(bare_int_at(tokens, i + 1));
                let Some(y) = year.or(close_year) else {
                    continue;
                };
                inferred = year.is_none();
                if year.is_some() {
                    span.push(i + 1);
                }
                let m = (q - 1) * 3 + 1;
                let (ny, nm) = if q == 4 { (y + 1, 1) } else { (y, m + 3) };
                range = Some((days_from_civil(y, m, 1), days_from_civil(ny, nm, 1) - 1));
            }
        } else if let Some(d) = bare_int_at(tokens, i).filter(|d| (1..=31).contains(d))
            && let Some(m) = word_at(tokens, i + 1).and_then(month)
        {
            // Day Month [year].
            span.push(i + 1);
            let year = year_of(bare_int_at(tokens, i + 2));
            if year.is_some() {
                span.push(i + 2);
            }
            let Some((day, was_inferred)) = one_day(year, close_year, m, d) else {
                continue;
            };
            inferred = was_inferred;
            range = Some((day, day));
        } else if let Some((m, d)) = slash_month_day(tokens, i) {
            // M/D[/YYYY], as US platforms write it (or D/M/YY, see there).
            span.push(i + 2);
            let year = year_of(slash_year(tokens, i + 3));
            if year.is_some() {
                span.push(i + 4);
            }
            let Some((day, was_inferred)) = one_day(year, close_year, m, d) else {
                continue;
            };
            inferred = was_inferred;
            range = Some((day, day));
        } else if let Some(y) = year_of(bare_int_at(tokens, i)) {
            // A season written "2025-26" is decided in its second year.
            let second = bare_int_at(tokens, i + 2)
                .filter(|_| matches!(tokens.get(i + 1), Some(Tok::Sym('-' | '–' | '/'))))
                .filter(|&z| z == (y + 1) % 100 || z == y + 1);
            let y = if second.is_some() {
                span.push(i + 2);
                y + 1
            } else if around::names_nfl_season(tokens, i) {
                y + 1
            } else {
                y
            };
            range = Some((days_from_civil(y, 1, 1), days_from_civil(y + 1, 1, 1) - 1));
        }
        let Some(range) = range else {
            continue;
        };
        return Some(around::shape(tokens, used, i, &span, range, inferred));
    }
    None
}

/// A comparator written after the number at `i` ("50 bps or more",
/// "100+"), or a range ("$96,000 to $97,999.99").
pub(crate) fn postfix_threshold(tokens: &[Tok], i: usize, used: &mut [bool]) -> Option<Threshold> {
    let num = |i: usize, used: &[bool]| -> Option<(f64, String)> {
        match tokens.get(i) {
            Some(Tok::Num { value, unit, .. }) if !used[i] => Some((*value, unit.clone())),
            _ => None,
        }
    };
    // Postfix: "50 bps or more", "100+".
    if let Some(Tok::Num {
        value, unit, plus, ..
    }) = tokens.get(i)
        && !used[i]
    {
        let post = match (word_at(tokens, i + 1), word_at(tokens, i + 2)) {
            (Some("or"), Some("more" | "higher" | "above" | "greater")) => {
                Some(Comparator::AtLeast)
            }
            (Some("or"), Some("less" | "lower" | "below" | "fewer")) => Some(Comparator::AtMost),
            _ if *plus => Some(Comparator::AtLeast),
            _ => None,
        };
        if let Some(cmp) = post {
            used[i] = true;
            return Some(Threshold {
                comparator: cmp,
                value: *value,
                upper: None,
                unit: unit.clone(),
                plus_written: *plus,
            });
        }
        // A range written "$96,000 to $97,999.99".
        if word_at(tokens, i + 1) == Some("to")
            && !unit.is_empty()
            && let Some((upper, _)) = num(i + 2, used)
        {
            used[i] = true;
            used[i + 2] = true;
            return Some(Threshold {
                comparator: Comparator::Between,
                value: value.min(upper),
                upper: Some(value.max(upper)),
                unit: unit.clone(),
                plus_written: false,
            });
        }
    }
    None
}

/// The first comparator with a number after it (or `N or more`, `N+`).
pub(crate) fn find_threshold(tokens: &[Tok], used: &mut [bool]) -> Option<Threshold> {
    let num = |i: usize, used: &[bool]| -> Option<(f64, String)> {
        match tokens.get(i) {
            Some(Tok::Num { value, unit, .. }) if !used[i] => Some((*value, unit.clone())),
            _ => None,
        }
    };
    for i in 0..tokens.len() {
        // Prefix comparators: the word(s), then the number.
        let w = word_at(tokens, i);
        if let Some((cmp, skip)) = prefix_comparator(tokens, i) {
            // A negative value ("net approval above -10").
            let negative = tokens.get(i + skip) == Some(&Tok::Sym('-'))
                && matches!(tokens.get(i + skip + 1), Some(Tok::Num { .. }));
            let j = i + skip + usize::from(negative);
            let Some((value, unit)) = num(j, used) else {
                continue;
            };
            let value = if negative { -value } else { value };
            if cmp == Comparator::Between {
                let k = if matches!(word_at(tokens, j + 1), Some("and" | "to"))
                    || matches!(tokens.get(j + 1), Some(Tok::Sym('-' | '–')))
                {
                    j + 2
                } else {
                    continue;
                };
                let Some((upper, unit2)) = num(k, used) else {
                    continue;
                };
                used[j] = true;
                used[k] = true;
                return Some(Threshold {
                    comparator: cmp,
                    value: value.min(upper),
                    upper: Some(value.max(upper)),
                    unit: if unit.is_empty() { unit2 } else { unit },
                    plus_written: false,
                });
            }
            used[j] = true;
            // "top" as a comparator is no word of the predicate (as a
            // rank it is: "top the chart").
            if matches!(w, Some("top" | "tops" | "topped")) {
                used[i] = true;
            }
            return Some(Threshold {
                comparator: cmp,
                value,
                upper: None,
                unit,
                plus_written: false,
            });
        }
        if let Some(t) = postfix_threshold(tokens, i, used) {
            return Some(t);
        }
    }
    stated_alone(tokens, used)
}

/// A comparator written before its number at `i` ("at least", "more
/// than", "above", "top $5T", "≥"), with how many tokens it takes.
fn prefix_comparator(tokens: &[Tok], i: usize) -> Option<(Comparator, usize)> {
    let w = word_at(tokens, i);
    let next = word_at(tokens, i + 1);
    let prev = if i >= 2 {
        (word_at(tokens, i - 2), word_at(tokens, i - 1))
    } else {
        (None, None)
    };
    let comparator = match (w, next) {
        (Some("at"), Some("least")) => (Comparator::AtLeast, 2),
        (Some("at"), Some("most")) => (Comparator::AtMost, 2),
        (Some("more" | "greater" | "higher"), Some("than")) => (Comparator::Above, 2),
        (Some("less" | "fewer" | "lower"), Some("than")) => (Comparator::Below, 2),
        // "top $5T", "top 3%": above a value with a unit (without one,
        // "top the Hot 100" is a rank).
        (Some("top" | "tops" | "topped"), _) if matches!(tokens.get(i + 1), Some(Tok::Num { unit, .. }) if !unit.is_empty()) => {
            (Comparator::Above, 1)
        }
        (Some("above" | "over" | "exceed" | "exceeds" | "exceeding" | "beat"), _) => {
            if prev == (Some("at"), Some("or")) {
                (Comparator::AtLeast, 1)
            } else {
                (Comparator::Above, 1)
            }
        }
        (Some("below" | "under"), _) => {
            if prev == (Some("at"), Some("or")) {
                (Comparator::AtMost, 1)
            } else {
                (Comparator::Below, 1)
            }
        }
        (Some("reach" | "reaches" | "hit" | "hits"), _) => (Comparator::AtLeast, 1),
        (Some("between"), _) => (Comparator::Between, 1),
        _ => match tokens.get(i) {
            Some(Tok::Sym('>')) if tokens.get(i + 1) == Some(&Tok::Sym('=')) => {
                (Comparator::AtLeast, 2)
            }
            Some(Tok::Sym('<')) if tokens.get(i + 1) == Some(&Tok::Sym('=')) => {
                (Comparator::AtMost, 2)
            }
            Some(Tok::Sym('>')) => (Comparator::Above, 1),
            Some(Tok::Sym('<')) => (Comparator::Below, 1),
            Some(Tok::Sym('≥')) => (Comparator::AtLeast, 1),
            Some(Tok::Sym('≤')) => (Comparator::AtMost, 1),
            _ => return None,
        },
    };
    Some(comparator)
}

/// No comparator: a size stated alone ("cut 25 bps" is exactly 25), or a
/// sign ("growth be negative" is below 0).
fn stated_alone(tokens: &[Tok], used: &mut [bool]) -> Option<Threshold> {
    for (i, tok) in tokens.iter().enumerate() {
        let (comparator, value, unit) = match tok {
            Tok::Num { value, unit, .. } if !used[i] && unit == "bps" => {
                (Comparator::Exactly, *value, unit.clone())
            }
            Tok::Word { lower, .. } if lower == "negative" => {
                (Comparator::Below, 0.0, String::new())
            }
            Tok::Word { lower, .. } if lower == "positive" => {
                (Comparator::Above, 0.0, String::new())
            }
            _ => continue,
        };
        used[i] = true;
        return Some(Threshold {
            comparator,
            value,
            upper: None,
            unit,
            plus_written: false,
        });
    }
    None
}
