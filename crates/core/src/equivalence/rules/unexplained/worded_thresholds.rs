//! Words that restate what both sides' thresholds or comparisons
//! already say, read for `unexplained_difference` (the twelfth round's
//! readings): a move that crosses what the other side stays on, a coin
//! that flips another by market cap, a temperature reached as the day's
//! high.

use super::super::super::facts::Facts;
use super::super::super::lexicon::DIRECTION_VERBS;
use super::{moves_as_both_thresholds, stays_through_both_deadlines};

/// A verb of a move ([`DIRECTION_VERBS`]) the way its own side's
/// threshold points, against the other side staying on the other side of
/// it through the same window ("falls below $80,000 at any point in 2027"
/// / "stays at or above $80,000 for all of 2027"): crossing is what
/// staying rules out, which `stays_through_both_deadlines` reads of the
/// staying side.
pub(super) fn crosses_what_the_other_stays_on(word: &str, x: &Facts, y: &Facts) -> bool {
    let (up, down) = DIRECTION_VERBS;
    if !(up.contains(&word) || down.contains(&word))
        || !(y.words.contains("stay") || y.words.contains("remain"))
    {
        return false;
    }
    ["stay", "remain"]
        .iter()
        .any(|w| stays_through_both_deadlines(w, y, x))
        && moves_as_both_thresholds(word, x, x)
}

/// Both sides measure a market cap, `y` compares upward ("greater than",
/// "exceeds", "above") and neither side writes a downward comparison: a
/// side's "flips" then asks what `y` asks (`FLIP_WORDS`).
pub(super) fn market_caps_compared_upward(x: &Facts, y: &Facts) -> bool {
    let (up, down) = super::super::super::lexicon::COMPARATIVES;
    let cap = |f: &Facts| f.raw.contains("cap") || f.raw.contains("capitalization");
    let says_any = |f: &Facts, words: &[&str]| words.iter().any(|w| f.raw.contains(*w));
    cap(x)
        && cap(y)
        && (says_any(y, up) || says_any(y, &["greater", "higher", "larger", "bigger"]))
        && !says_any(x, down)
        && !says_any(y, down)
        && !says_any(y, &["less", "lower", "smaller"])
}

/// Both sides state an upward threshold in degrees ("reach 130°F", "95°
/// or above"): the temperature reached is the high, as a side that says
/// "high" says; a low says otherwise and stays a word of its own.
pub(super) fn both_reach_a_temperature(x: &Facts, y: &Facts) -> bool {
    use super::super::super::facts::Comparator::{Above, AtLeast};
    [x, y].iter().all(|f| {
        f.threshold
            .as_ref()
            .is_some_and(|t| t.unit.starts_with('°') && matches!(t.comparator, Above | AtLeast))
    })
}
