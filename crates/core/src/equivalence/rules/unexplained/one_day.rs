//! Words that restate what a window of one day already says, read for
//! `unexplained_difference` (the eighteenth round's readings): staying
//! at or under a temperature for a day is the day's high being at or
//! under it, and a year's "last close" named on one side is the one day
//! the other side names.

use super::super::super::facts::Facts;

/// Both sides' windows are the same single day (not a deadline).
fn one_same_day(x: &Facts, y: &Facts) -> bool {
    match (&x.date, &y.date) {
        (Some(a), Some(b)) => a.one_day() && b.one_day() && a.first_day == b.first_day,
        _ => false,
    }
}

/// "stay"/"remain" of a side whose threshold is a temperature at or
/// under a level on one day, against the other side's temperature on
/// that same day ("NYC's high stays below 90°F on August 1" / "NYC high
/// on Aug 1: 90° or above"): the temperature stays under a level all day
/// exactly when the day's high is under it, which the threshold rule
/// compared. Upward ("stays above 60°F") is the day's low, another
/// quantity, and neither side may name a low.
pub(super) fn stays_under_the_days_high(word: &str, x: &Facts, y: &Facts) -> bool {
    use super::super::super::facts::Comparator::{AtMost, Below};
    if !matches!(word, "stay" | "remain") {
        return false;
    }
    let degrees = |f: &Facts| {
        f.threshold
            .as_ref()
            .is_some_and(|t| t.unit.starts_with('°'))
    };
    let names_a_low = |f: &Facts| f.raw.contains("low") || f.raw.contains("lowest");
    x.threshold
        .as_ref()
        .is_some_and(|t| matches!(t.comparator, Below | AtMost))
        && degrees(x)
        && degrees(y)
        && !names_a_low(x)
        && !names_a_low(y)
        && one_same_day(x, y)
}

/// "last"/"final" of a side that asks about a close ("at the last close
/// of 2028", read as December 31, 2028) against the other side's one day
/// ("close on December 29, 2028"): this rule runs only once the window
/// rule has found the two one day (a year's last close is its last
/// trading day) or vetoed them, so the word restates the day. A last
/// place ("finish last") or a final reading (a flash estimate's) names
/// no close; a deadline or a period names no one close.
pub(super) fn last_close_of_one_day(word: &str, x: &Facts, y: &Facts) -> bool {
    let one_day = |f: &Facts| f.date.as_ref().is_some_and(|d| d.one_day());
    matches!(word, "last" | "final") && x.raw.contains("close") && one_day(x) && one_day(y)
}
