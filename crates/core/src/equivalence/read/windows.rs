//! Windows written otherwise than as a date: a day known by its name
//! ("Thanksgiving 2029", "New Year's Eve"), a span of months or days
//! ("January-March 2030", "between Oct 1 and Oct 31, 2029"), a window
//! open at its end ("in 2029 or later"), and a period's last trading day
//! ("the last trading day of June 2029"). Each is read in general form,
//! from the tables of `lexicon` where the fact is a table.

use super::super::facts::DAY_MS;
use super::super::lex::{Tok, bare_int_at, word_at};
use super::super::lexicon::{NAMED_DAYS, day_in};
use super::super::words::month;
use super::month_date;
use crate::time::{civil_from_days, days_from_civil};

fn year_of(t: Option<i64>) -> Option<i64> {
    t.filter(|y| (1900..=2100).contains(y))
}

/// A named day at `i` is read only where no capitalized name stands just
/// before it: "Canada's Thanksgiving", "Mexico's Independence Day",
/// "Orthodox Christmas" and "Chinese New Year's Eve" fall on other days.
/// The US itself may be named.
fn another_country_before(tokens: &[Tok], i: usize) -> bool {
    match i.checked_sub(1).and_then(|k| tokens.get(k)) {
        Some(Tok::Word { lower, cap, .. }) => {
            *cap && !matches!(
                lower.as_str(),
                "us" | "u.s" | "american" | "america" | "the" | "on"
            )
        }
        _ => false,
    }
}

/// A day known by its name at `i` (see `lexicon::named_days`), with the
/// year written after it or, where none is, the close's (then inferred):
/// its day, the tokens it spans, and whether the year was inferred.
pub(crate) fn named_day(
    tokens: &[Tok],
    i: usize,
    close_ms: Option<i64>,
) -> Option<(i64, Vec<usize>, bool)> {
    let named = NAMED_DAYS.iter().find(|d| {
        d.words
            .iter()
            .enumerate()
            .all(|(k, w)| word_at(tokens, i + k) == Some(*w))
    })?;
    if another_country_before(tokens, i) {
        return None;
    }
    let mut span: Vec<usize> = (i..i + named.words.len()).collect();
    let after = i + named.words.len();
    let written = year_of(bare_int_at(tokens, after));
    if written.is_some() {
        span.push(after);
    }
    let close_day = close_ms.map(|ms| ms.div_euclid(DAY_MS));
    let year = written.or_else(|| close_day.map(|d| civil_from_days(d).0))?;
    let mut day = day_in(named.falls, year);
    // "New Year's Eve" closing on January 1: the year before.
    if written.is_none()
        && let Some(close) = close_day
        && day - close > 60
    {
        day = day_in(named.falls, year - 1);
    }
    Some((day, span, written.is_none()))
}

/// The end of a span of months or days written after its start at `j`
/// ("January-March 2030", "June to August", "between Oct 1 and Oct 31,
/// 2029"; "and" only after "between" or "from" at `lead`): its last day,
/// its year if written, and the tokens it spans.
pub(crate) fn span_end(
    tokens: &[Tok],
    lead: usize,
    j: usize,
    close_ms: Option<i64>,
) -> Option<(i64, Option<i64>, Vec<usize>)> {
    let joined = match tokens.get(j) {
        Some(Tok::Sym('-' | '–' | '—')) => true,
        Some(Tok::Word { lower, .. }) => match lower.as_str() {
            "to" | "through" | "thru" => true,
            "and" => span_opened(tokens, lead),
            _ => false,
        },
        _ => false,
    };
    if !joined {
        return None;
    }
    let k = j + 1;
    let w = word_at(tokens, k)?;
    let m = month(w)?;
    let mut span = vec![j, k];
    let ((_, last), inferred) = month_date(tokens, k, (m, w), close_ms, &mut span)?;
    let year = (!inferred).then(|| civil_from_days(last).0);
    Some((last, year, span))
}

/// "between" or "from" before `lead`: an "and" after it ends a span.
fn span_opened(tokens: &[Tok], lead: usize) -> bool {
    lead.checked_sub(1)
        .and_then(|k| word_at(tokens, k))
        .is_some_and(|w| matches!(w, "between" | "from"))
}

/// The end of a span of days of one month written after its first day
/// at `j` ("Dec 1-7, 2027", "June 3 to 9", "between June 1 and 7";
/// `first` the first day, its month at `lead`): its last day, its year
/// if written, and the tokens it spans.
pub(crate) fn day_span_end(
    tokens: &[Tok],
    lead: usize,
    j: usize,
    first: i64,
) -> Option<(i64, Option<i64>, Vec<usize>)> {
    let joined = matches!(tokens.get(j), Some(Tok::Sym('-' | '–')))
        || matches!(word_at(tokens, j), Some("to" | "through" | "thru"))
        || (word_at(tokens, j) == Some("and") && span_opened(tokens, lead));
    let (y, m, d) = civil_from_days(first);
    let last = bare_int_at(tokens, j + 1).filter(|e| (d + 1..=31).contains(e))?;
    if !joined {
        return None;
    }
    let mut span = vec![j, j + 1];
    let mut k = j + 2;
    if matches!(tokens.get(k), Some(Tok::Sym(','))) && year_of(bare_int_at(tokens, k + 1)).is_some()
    {
        k += 1;
    }
    let year = year_of(bare_int_at(tokens, k));
    if year.is_some() {
        span.push(k);
    }
    let last_day = days_from_civil(year.unwrap_or(y), m, last);
    // A day past the month's end ("Feb 1-30") is no span.
    (civil_from_days(last_day).1 == m).then_some((last_day, year, span))
}

/// `first` moved to `year` (a span whose start was written without one:
/// "January-March 2030").
pub(crate) fn in_year(first: i64, year: i64) -> i64 {
    let (_, m, d) = civil_from_days(first);
    days_from_civil(year, m, d)
}

/// "or later", "or after", "or beyond" after a date at `j`: the window
/// runs on from it. The tokens it spans.
pub(crate) fn open_at_end(tokens: &[Tok], j: usize) -> Option<[usize; 2]> {
    (word_at(tokens, j) == Some("or")
        && matches!(word_at(tokens, j + 1), Some("later" | "after" | "beyond")))
    .then_some([j, j + 1])
}

/// "the last (final) trading day of" before `i`: where the words start.
pub(crate) fn last_trading_day_of(tokens: &[Tok], i: usize) -> Option<usize> {
    let lead = i.checked_sub(4)?;
    let words: Vec<Option<&str>> = (lead..i).map(|k| word_at(tokens, k)).collect();
    matches!(
        words.as_slice(),
        [
            Some("last" | "final"),
            Some("trading"),
            Some("day"),
            Some("of")
        ]
    )
    .then_some(lead)
}

/// The last weekday of the days up to `last_day`: a month's last trading
/// day, exchange holidays aside.
pub(crate) fn last_weekday(last_day: i64) -> i64 {
    let mut day = last_day;
    // 1970-01-01 was a Thursday: 0 is Sunday, 6 Saturday.
    while matches!((day + 4).rem_euclid(7), 0 | 6) {
        day -= 1;
    }
    day
}
