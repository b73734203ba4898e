//! A state held on a day against its end by then: "Tusk PM on December
//! 31, 2027" and "Tusk out as PM before 2028" (or "Sánchez still PM on
//! December 31, 2027" and "Sánchez ceases to be PM in 2027") ask one
//! question from either side. A market on leaving an office is written
//! about its holder, so the holder on the last day of the window (or the
//! first day after it: "before 2028" and "on January 1, 2028" are one
//! instant to the platforms, a day apart at most) is the negation of
//! leaving it within the window. The window rule accepts the two dates
//! as one window; the negation is the antonym rule's (a leaving word) or
//! the negation rule's ("cease").

use super::super::engine::Pair;
use super::super::facts::{DateFact, Facts};
use super::super::lexicon::ANTONYMS;
use super::predicate::one_sided_complement;

/// How the end side writes the end.
pub(crate) struct End {
    /// "cease to be", which the negation rule reads; else a leaving word
    /// ("out", "leave") of the antonym table.
    pub(crate) by_ceasing: bool,
}

fn ceases(f: &Facts) -> bool {
    f.raw.contains("cease") || f.raw.contains("ceases")
}

/// The pair asks a state on a day against its end by then (see the module
/// doc), and how the end is written.
pub(crate) fn state_against_its_end(p: &Pair<'_>) -> Option<End> {
    // The dates first: asked of every pair, and most have no such two.
    let end_first = match (&p.fa.date, &p.fb.date) {
        (Some(x), Some(y)) if ends_on(x, y) => true,
        (Some(x), Some(y)) if ends_on(y, x) => false,
        _ => return None,
    };
    let (end, state) = if end_first {
        (p.fa, p.fb)
    } else {
        (p.fb, p.fa)
    };
    if state.negated {
        return None;
    }
    let leaving = one_sided_complement(p.fa, p.fb)
        .filter(|&(_, first, positive)| positive == "remain" && first == end_first);
    if leaving.is_some() {
        Some(End { by_ceasing: false })
    } else if ceases(end) && !ceases(state) {
        Some(End { by_ceasing: true })
    } else {
        None
    }
}

/// `window` is a deadline or a whole year, and `day` one day (not a
/// deadline) that is its last day or the day after.
fn ends_on(window: &DateFact, day: &DateFact) -> bool {
    let whole_year = {
        let (y, m, d) = crate::time::civil_from_days(window.first_day);
        (m, d) == (1, 1) && crate::time::civil_from_days(window.last_day) == (y, 12, 31)
    };
    let one_day = day.one_day();
    let at_its_end = day.first_day == window.last_day || day.first_day == window.last_day + 1;
    (window.deadline || whole_year) && one_day && at_its_end
}

/// `f` asks the end of a state: a leaving word of the antonym table
/// ("out", "leave") or "cease". `find_pairs` files such a question about
/// a year under the year's last day too, where the state is asked.
pub(crate) fn asks_an_end(f: &Facts) -> bool {
    ceases(f)
        || ANTONYMS
            .iter()
            .zip(&f.predicates)
            .any(|((xs, _, _), (_, leaving))| xs.contains(&"remain") && leaving.is_some())
}
