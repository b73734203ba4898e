//! The time of day a market's rules state, told apart as a window's end:
//! "on or before June 30, 2029, 11:59 PM ET" and "before July 1, 2029,
//! 12:00 AM ET" close one window, one minute written apart. A time that
//! closes a window at 23:59 is also read as the next midnight, the end of
//! its day, which `rules::window::time_of_day_differs` compares where both
//! sides' rules close their windows so; any other time (a price read at
//! noon, a candle at 12:00 UTC, a window's start) is the instant as
//! written.

use super::super::lex::{Tok, word_at};
use super::{find_instant_at, is_deadline_word};

/// How far back, in tokens, a deadline word may stand before the time
/// it closes ("before June 30, 2029, 11:59 PM": the date between).
const DEADLINE_REACH: usize = 8;

/// The time of day `tokens` (a rules text) state, in minutes after
/// midnight UTC, and again where it closes a window, 23:59 read as the
/// next midnight (the end of its day).
pub(crate) fn rules_time(tokens: &[Tok], day: Option<i64>) -> (Option<i64>, Option<i64>) {
    let Some(read) = find_instant_at(tokens, &mut vec![false; tokens.len()], day) else {
        return (None, None);
    };
    let end_of_day = i64::from(read.local == 23 * 60 + 59);
    let close =
        closes_a_window(tokens, read.at).then(|| (read.utc + end_of_day).rem_euclid(24 * 60));
    (Some(read.utc), close)
}

/// A deadline word ("before", "by", "through", "up to") stands in the
/// clause before `at`, within [`DEADLINE_REACH`] tokens.
fn closes_a_window(tokens: &[Tok], at: usize) -> bool {
    let from = at.saturating_sub(DEADLINE_REACH);
    for k in (from..at).rev() {
        if matches!(tokens.get(k), Some(Tok::Sym('.' | ';'))) {
            return false;
        }
        let w = word_at(tokens, k);
        if w.is_some_and(is_deadline_word)
            || (w == Some("to") && word_at(tokens, k.wrapping_sub(1)) == Some("up"))
        {
            return true;
        }
    }
    false
}
