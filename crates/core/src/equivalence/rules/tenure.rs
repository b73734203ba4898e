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
use super::super::facts::Facts;
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
    let leaving = one_sided_complement(p.fa, p.fb)
        .filter(|&(_, _, positive)| positive == "remain")
        .map(|(_, first, _)| first);
    let (end_first, by_ceasing) = match leaving {
        Some(first) => (first, false),
        None if ceases(p.fa) != ceases(p.fb) => (ceases(p.fa), true),
        None => return None,
    };
    let (end, state) = if end_first {
        (p.fa, p.fb)
    } else {
        (p.fb, p.fa)
    };
    let (Some(window), Some(day)) = (&end.date, &state.date) else {
        return None;
    };
    let whole_year = {
        let (y, m, d) = crate::time::civil_from_days(window.first_day);
        (m, d) == (1, 1) && crate::time::civil_from_days(window.last_day) == (y, 12, 31)
    };
    let one_day = day.first_day == day.last_day && !day.deadline;
    let at_its_end = day.first_day == window.last_day || day.first_day == window.last_day + 1;
    ((window.deadline || whole_year) && one_day && at_its_end && !state.negated)
        .then_some(End { by_ceasing })
}
