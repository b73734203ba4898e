//! Two comparisons of the same two named subjects (`Facts::ranked`): the
//! same one put higher with the same tie is one question; the other one
//! put higher with the other tie ("A at least as large as B" / "B larger
//! than A") is its complement; any other pairing is two questions, since
//! a tie or the order decides them apart.

use super::super::engine::{Pair, Verdict};
use super::super::ranked::Ranked;
use super::super::{Field, Finding};

/// Compares the two sides' comparisons of two subjects where both write
/// one over the same two names; says nothing otherwise.
pub fn ranked_order_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (Some(x), Some(y)) = (&p.fa.ranked, &p.fb.ranked) else {
        return;
    };
    let in_order = x.higher == y.higher && x.lower == y.lower;
    let swapped = x.higher == y.lower && x.lower == y.higher;
    if !in_order && !swapped {
        return;
    }
    let show = |r: &Ranked| {
        let sign = if r.tie_is_yes { ">=" } else { ">" };
        Some(format!("{} {sign} {}", r.higher, r.lower))
    };
    let same_tie = x.tie_is_yes == y.tie_is_yes;
    let (finding, note) = match (swapped, same_tie) {
        (false, true) => (Finding::Agrees, "the same subject put higher, the same tie"),
        (true, false) => (
            Finding::Opposite,
            "each puts the other subject higher and a tie is YES on one only: complements",
        ),
        (false, false) => (Finding::Conflicts, "a tie is YES on one side only"),
        (true, true) => (
            Finding::Conflicts,
            "each puts the other subject higher and a tie falls alike on both: not complements",
        ),
    };
    v.say(|| (Field::Wording, finding, show(x), show(y), note.into()));
    match finding {
        Finding::Opposite => v.flip(),
        Finding::Conflicts => v.veto(),
        _ => {}
    }
}
