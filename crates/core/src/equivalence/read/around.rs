//! The words around a date that shape its window: "end of 2026" and
//! "year-end 2027" (its last day), a year's last close ("finish 2028",
//! "the last close of 2028"), a period's last trading day, a deadline
//! word before it ("by", "before"), "or later" after it, and the NFL's
//! seasons named by the year they start in. Moved out of `read.rs` when
//! the fifteenth round's readings took it past 600 lines.

use super::super::facts::DateFact;
use super::super::lex::{Tok, bare_int_at, word_at};
use super::super::lexicon::{NFL_ONLY_TEAMS, NFL_SHARED_NICKNAMES};
use super::{is_deadline_word, windows};

/// "end of" or "year-end" before the date at `i`: where the words start.
fn end_of(tokens: &[Tok], i: usize) -> Option<usize> {
    let before = |k: usize| i.checked_sub(k).and_then(|at| word_at(tokens, at));
    if before(1) == Some("of") && before(2) == Some("end") {
        return Some(i - 2);
    }
    // "year-end 2027" (the dash between), not "year-end 2027 close",
    // which is the year's last close (`year_end_close`).
    let dashed = matches!(tokens.get(i.wrapping_sub(2)), Some(Tok::Sym('-')));
    let (end, year) = if dashed { (1, 3) } else { (1, 2) };
    (before(end) == Some("end") && before(year) == Some("year")).then(|| i - year)
}

/// The window of the date read at `i` (its tokens `span`, its days
/// `range`), shaped by the words around it; its tokens (and the words
/// read with it) are used up.
pub(super) fn shape(
    tokens: &[Tok],
    used: &mut [bool],
    i: usize,
    span: &[usize],
    (mut first_day, mut last_day): (i64, i64),
    inferred: bool,
) -> DateFact {
    for &k in span {
        used[k] = true;
    }
    // "end of 2026" and "year-end 2027" are the last day.
    let end_words = end_of(tokens, i);
    let end_of = end_words.is_some();
    let lead = end_words.unwrap_or(i);
    let trading_day_of = windows::last_trading_day_of(tokens, i);
    let whole_year = last_day - first_day >= 364;
    // "at the end of 2028" is the year's last close where the
    // quantity has one (see `rules::window`).
    let year_end = whole_year && (end_of || trading_day_of.is_some() || year_end_close(tokens, i));
    if end_of || year_end {
        first_day = last_day;
    } else if trading_day_of.is_some() {
        // "the last trading day of June 2029": a month's last weekday.
        last_day = windows::last_weekday(last_day);
        first_day = last_day;
    }
    if let Some(start) = trading_day_of
        && let Some(words) = used.get_mut(start..i)
    {
        words.fill(true);
    }
    let lead = trading_day_of.unwrap_or(lead);
    let next = span.iter().max().map_or(i + 1, |&k| k + 1);
    let open_ended = windows::open_at_end(tokens, next);
    if let Some(end) = open_ended {
        for k in end {
            used[k] = true;
        }
    }
    let word_before = lead.checked_sub(1).and_then(|k| word_at(tokens, k));
    let before = word_before == Some("before");
    let deadline = word_before.is_some_and(is_deadline_word);
    // "before July 2026" is "by June 30, 2026"; a day keeps its
    // reading ("before June 1" and "by June 1" are one deadline to
    // most platforms, a day apart at most).
    if before && first_day != last_day {
        first_day -= 1;
        last_day = first_day;
    }
    DateFact {
        first_day,
        last_day,
        deadline,
        year_inferred: inferred,
        year_end_close: year_end,
        open_ended: open_ended.is_some() && !deadline,
    }
}

/// "the 2027 NFL season", "the 2026 AFC East", "2026 NFL MVP", "the
/// Titans' 2030 season": the NFL names a season by the year it starts
/// in, and it is decided in the next (the 2027 season is "2027-28", its
/// playoffs in January 2028); its draft is held in the year it names.
/// The Asian Football Confederation's AFC ("the 2027 AFC Asian Cup") is
/// not the NFL's conference.
pub(super) fn names_nfl_season(tokens: &[Tok], i: usize) -> bool {
    let after = |k: usize| word_at(tokens, i + k);
    let league = matches!(after(1), Some("nfl" | "nfc"))
        || (after(1) == Some("afc") && !matches!(after(2), Some("asian" | "champions" | "cup")));
    // "the 2030 season" of a text that names the NFL or one of its teams
    // (a shared nickname with its NFL city: "New York Jets").
    let nfl_word = |k: usize| match word_at(tokens, k) {
        Some("nfl") => true,
        Some(w) if NFL_ONLY_TEAMS.contains(&w) => true,
        Some(w) => k
            .checked_sub(1)
            .and_then(|c| word_at(tokens, c))
            .is_some_and(|city| NFL_SHARED_NICKNAMES.contains(&(city, w))),
        None => false,
    };
    let season = after(1) == Some("season") && (0..tokens.len()).any(nfl_word);
    (league && after(2) != Some("draft")) || season
}

/// A year written as its last close: "2027's final close", "the 2027
/// year-end close", "year-end 2027 close", "closes 2027 above".
fn year_end_close(tokens: &[Tok], i: usize) -> bool {
    // A season ("finish 2029-30 in the top four") ends in its second
    // year's spring, not at a year's last close.
    if matches!(tokens.get(i + 1), Some(Tok::Sym('-' | '–' | '/')))
        && bare_int_at(tokens, i + 2).is_some()
    {
        return false;
    }
    let next: Vec<&str> = tokens
        .iter()
        .skip(i + 1)
        .take(4)
        .filter_map(|t| match t {
            Tok::Word { lower, .. } if lower != "s" => Some(lower.as_str()),
            _ => None,
        })
        .take(2)
        .collect();
    let before = i.checked_sub(1).and_then(|k| word_at(tokens, k));
    // "year-end 2027 close": the words before the year, dashes skipped.
    let words_before: Vec<&str> = tokens[..i]
        .iter()
        .rev()
        .take(3)
        .filter_map(|t| match t {
            Tok::Word { lower, .. } => Some(lower.as_str()),
            _ => None,
        })
        .collect();
    matches!(next.as_slice(), ["final", ..] | ["year", "end"])
        || matches!(
            before,
            Some("close" | "closes" | "ends" | "finish" | "finishes" | "finished")
        )
        // "the last close of 2028", "its final close of 2027".
        || matches!(words_before.as_slice(), ["of", "close", "last" | "final", ..])
        || (matches!(words_before.as_slice(), ["end", "year", ..])
            && matches!(next.first(), Some(&"close")))
}
