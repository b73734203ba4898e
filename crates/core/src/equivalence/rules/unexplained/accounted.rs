//! Whether a word one side writes is accounted for by the other
//! ([`explained`]): said by it, a synonym, a word of the same quantity,
//! a team's city, a line read as a margin, a move both thresholds state.
//! Split from `unexplained.rs` (over 600 lines) as its own idea: what
//! accounts for a word, apart from what a word left over can change.

use super::super::super::facts::Facts;
use super::super::super::lexicon::{
    ANY_TIME_WORDS, BOTH_TEAMS_WORDS, COUNT_VERBS, DEFAULT_SCOPES, DIRECTION_VERBS, FILLER,
    FLIP_WORDS, GENERIC_MEMBER_WORDS, LINE_WORDS, NO_OP, OFFICE_RANKS, OPPOSED, OVERTIME_WORDS,
    QUANTITIES, SCOPES, SYNONYMS, US_GDP_BASIS, city_stands_for_team, entities, implied_by,
    names_a_division, nickname_lead, other_team_against_a_city, other_team_of_the_game,
    quantity_members_of, team_of_a_shared_city,
};
use super::super::super::words::{NEGATIONS, fold};
use super::super::threshold::{line, line_as_margin};
use super::chambers::names_another_chamber;
use super::one_day::{last_close_of_one_day, stays_under_the_days_high};
use super::worded_thresholds::{
    both_reach_a_temperature, crosses_what_the_other_stays_on, market_caps_compared_upward,
};

/// A sportsbook's half-point line on a count ("Over 44.5 Total Points")
/// or a team's line ("Bengals -3.5"): it counts overtime.
pub(super) fn sportsbook_line(f: &Facts) -> bool {
    let half_point = |v: f64| v.fract().abs() == 0.5;
    f.threshold
        .as_ref()
        .is_some_and(|t| f.counted && t.unit.is_empty() && half_point(t.value))
        || f.numbers.iter().any(|n| line(n).is_some())
}

/// `word` is a verb of a move ([`DIRECTION_VERBS`]) in the direction
/// both sides' thresholds state.
pub(super) fn moves_as_both_thresholds(word: &str, x: &Facts, y: &Facts) -> bool {
    use super::super::super::facts::Comparator::{Above, AtLeast, AtMost, Below};
    let (up, down) = DIRECTION_VERBS;
    let direction = |f: &Facts| match f.threshold.as_ref().map(|t| t.comparator) {
        Some(Above | AtLeast) => Some(true),
        Some(Below | AtMost) => Some(false),
        _ => None,
    };
    let upward = match (direction(x), direction(y)) {
        (Some(a), Some(b)) if a == b => a,
        _ => return false,
    };
    if upward {
        up.contains(&word)
    } else {
        down.contains(&word)
    }
}

/// "stay"/"remain" on a side that holds a threshold through a window
/// ("stays under $10 through 2027", "stays below 130°F throughout
/// 2027"), against crossing it in the same window ("reach $10 by
/// December 31, 2027", "hit 130°F in 2027"): staying on one side of a
/// value for the whole window is never crossing it in that window, which
/// the threshold and window rules compared. The window is a deadline on
/// both sides, or one period of days (a year, a month) on both; and the
/// thresholds point opposite ways ("stays above $1 all year" is not
/// "above $1 at some point"). With the verb, its "throughout" or "all".
pub(super) fn stays_through_both_deadlines(word: &str, x: &Facts, y: &Facts) -> bool {
    use super::super::super::facts::Comparator::{Above, AtLeast, AtMost, Below};
    let stays = |w: &str| matches!(w, "stay" | "remain");
    let staying_word = stays(word)
        || (matches!(word, "throughout" | "all")
            && (x.words.contains("stay") || x.words.contains("remain")));
    // Asked for every word a side leaves: nothing more is read for the
    // others.
    if !staying_word {
        return false;
    }
    let window = |f: &Facts| {
        f.date
            .as_ref()
            .filter(|d| d.deadline || d.first_day < d.last_day)
            .map(|d| {
                (
                    d.deadline,
                    if d.deadline { 0 } else { d.first_day },
                    d.last_day,
                )
            })
    };
    let upward = |f: &Facts| {
        f.threshold.as_ref().map(|t| match t.comparator {
            Above | AtLeast => Some(true),
            Below | AtMost => Some(false),
            _ => None,
        })
    };
    let opposite_ways = matches!(
        (upward(x), upward(y)),
        (Some(Some(a)), Some(Some(b))) if a != b
    );
    opposite_ways && window(x).is_some() && window(x) == window(y)
}

/// "fy2028", "fy28": a fiscal year by its short form.
fn is_fiscal_year(word: &str) -> bool {
    word.strip_prefix("fy")
        .is_some_and(|year| !year.is_empty() && year.bytes().all(|b| b.is_ascii_digit()))
}

/// `f` names a price point (a close, an open, a high, a low).
fn names_a_price_point(f: &Facts) -> bool {
    QUANTITIES
        .iter()
        .position(|q| q.family == "price point")
        .and_then(|i| f.quantities.get(i))
        .is_some_and(|&mask| mask != 0)
}

/// "q3" of a side whose date is that quarter, whole ("Q3 2029" read as
/// July 1 to September 30, 2029): its rules restating the window the
/// date rule compared. A quarter the title does not span is a fact.
fn names_own_quarter(word: &str, x: &Facts) -> bool {
    use crate::time::{civil_from_days, days_from_civil};
    let Some(q) = word
        .strip_prefix('q')
        .and_then(|n| n.parse::<i64>().ok())
        .filter(|n| (1..=4).contains(n))
    else {
        return false;
    };
    x.date.as_ref().is_some_and(|d| {
        let (year, _, _) = civil_from_days(d.first_day);
        let first = days_from_civil(year, 3 * q - 2, 1);
        let next = if q == 4 {
            days_from_civil(year + 1, 1, 1)
        } else {
            days_from_civil(year, 3 * q + 1, 1)
        };
        !d.deadline && d.first_day == first && d.last_day == next - 1
    })
}

/// Both sides name GDP and one of them the US or the BEA: the headline
/// growth figure, whose basis [`US_GDP_BASIS`] names.
fn us_gdp_on_both(x: &Facts, y: &Facts) -> bool {
    let says = |f: &Facts, w: &str| f.mentions(w) || f.criteria_content.contains(w);
    says(x, "gdp") && says(y, "gdp") && ["us", "bea"].iter().any(|w| says(x, w) || says(y, w))
}

/// Whether `word`, written by `x`, is accounted for by `y`.
pub(crate) fn explained(word: &str, x: &Facts, y: &Facts, matched: &[&str]) -> bool {
    let said_by_y = |w: &str| y.mentions(w) || y.criteria_content.contains(w);
    // A division of a contest ("Junior") is another contest unless the
    // other side writes it too: no reading of names accounts for it.
    if names_a_division(word) {
        return said_by_y(word) || matched.contains(&word);
    }
    said_by_y(word)
        || matched.contains(&word)
        // The negation rule compares these, the subject rule these.
        || NEGATIONS.contains(&word)
        // "remain Chancellor" against "cease to be Chancellor": staying is
        // the state the negative side asks the end of.
        || (matches!(word, "remain" | "stay") && y.negated)
        || OPPOSED.iter().any(|&(p, q)| p == word || q == word)
        || FILLER.contains(&word)
        || NO_OP.contains(&word)
        || SYNONYMS
            .iter()
            .any(|group| group.contains(&word) && group.iter().any(|w| said_by_y(w)))
        || quantity_members_of(word)
            .any(|(i, bit)| y.quantities.get(i).is_some_and(|mask| mask & bit != 0))
        // "PCE inflation" against "PCE": the same members named.
        || (GENERIC_MEMBER_WORDS.contains(&word)
            && quantity_members_of(word).any(|(i, _)| {
                x.quantities.get(i).is_some_and(|&m| m != 0) && x.quantities.get(i) == y.quantities.get(i)
            }))
        || implied_by(word, said_by_y)
        || named_otherwise(word, x, y)
        || measured_alike(word, x, y)
        || y
            .source
            .as_deref()
            .is_some_and(|s| s.split_whitespace().any(|w| w == word))
}

/// `word` is a name (or a part of one) `y` names otherwise: a team's city
/// or league, the other team of one game, a short form, a given name.
fn named_otherwise(word: &str, x: &Facts, y: &Facts) -> bool {
    let said_by_y = |w: &str| y.mentions(w) || y.criteria_content.contains(w);
    let one_day = x.date.is_some() && y.date.is_some();
    // A team's city or league, a race's circuit, a leader's office.
    entities::implied_by(word, &y.named)
    // "Green Bay" of one side and "Packers" of the other.
    || city_stands_for_team(word, said_by_y)
    // "Lakers vs Nuggets" of a player's line against "vs Nuggets" on
    // the same day.
    || (x.date.is_some()
        && y.date.is_some()
        && other_team_of_the_game(word, y.raw.iter().map(String::as_str), |t| {
            x.mentions(t)
        }))
    // "Bills @ Chiefs" of a player's line against "vs Buffalo".
    || (one_day
        && other_team_against_a_city(
            word,
            y.raw.iter().map(String::as_str),
            |t| x.mentions(t),
            |w| y.mentions(w),
        ))
    || x.short_forms.accounts_for(&y.short_forms, word)
    // "PHI @ TOR" of one side and "at Raptors" of the other.
    || super::super::game_codes::team_of_the_game(word, x, y)
    // "Vikings @ Rams" against "Minnesota at Los Angeles" on one
    // day; "Blue" of "Blue Jays" against "Toronto".
    || (one_day && team_of_a_shared_city(word, |w| x.mentions(w), said_by_y))
    || nickname_lead(
        word,
        |w| x.mentions(w),
        |t| {
            said_by_y(t)
                || city_stands_for_team(t, said_by_y)
                // "Blue Jays" against "BAL @ TOR".
                || super::super::game_codes::team_of_the_game(t, x, y)
                || (one_day && team_of_a_shared_city(t, |w| x.mentions(w), said_by_y))
        },
    )
    // Not a rank of an office ("Deputy HUD Secretary" against
    // "HUD": a deputy holds another office).
    || (!OFFICE_RANKS.contains(&word)
        && x.short_forms.before_a_name(word, |name| {
            (y.lone_names.contains(name) || y.name_heads.contains(name))
                && !y.class_heads.contains(name)
                // "Arizona State Senate" against "the Senate": a place
                // before a chamber may name another chamber.
                && !names_another_chamber(word, name)
        }))
    // "Los Angeles" of "Los Angeles Lakers" against "Lakers", "Nikola"
    // of "Nikola Jokic" against "Jokic NBA MVP".
    || x.given_names.iter().any(|(given, surname)| {
        (given == word || fold(given) == word)
            && (y.lone_names.contains(surname) || y.name_heads.contains(surname))
            && !names_another_chamber(word, surname)
    })
}

/// `word` restates what both sides' scope, line, threshold or period
/// already say: the default place, a line as a margin, a fiscal year, a
/// move both thresholds make.
fn measured_alike(word: &str, x: &Facts, y: &Facts) -> bool {
    let said_by_y = |w: &str| y.mentions(w) || y.criteria_content.contains(w);
    let y_scoped = || SCOPES.iter().any(|w| y.mentions(w));
    // "US unemployment" against "unemployment": the US is the default
    // place unless the other side writes a scope of its own.
    (word == "us" && !y_scoped())
    || DEFAULT_SCOPES.iter().any(|&(scope, measure)| {
        scope.contains(&word) && measure.iter().any(|m| said_by_y(m)) && !y_scoped()
    })
    || (LINE_WORDS.contains(&word)
        && (line_as_margin(x, y).is_some() || line_as_margin(y, x).is_some()))
    || (OVERTIME_WORDS.contains(&word) && sportsbook_line(y))
    // "Death Valley reach 130°F" against "Furnace Creek high of 130°F
    // or above": a temperature reached upward is the day's high.
    || (matches!(word, "high" | "highest") && both_reach_a_temperature(x, y))
    // "Spread: Lakers (-4.5)" against "Lakers -4.5": a team's line is
    // its spread.
    || (word == "spread" && y.numbers.iter().any(|n| line(n).is_some()))
    // "fiscal 2028" against "FY2028".
    || (word == "fiscal" && y.words.iter().any(|w| is_fiscal_year(w)))
    || names_own_quarter(word, x)
    || (US_GDP_BASIS.contains(&word) && us_gdp_on_both(x, y))
    || moves_as_both_thresholds(word, x, y)
    || stays_through_both_deadlines(word, x, y)
    || stays_under_the_days_high(word, x, y)
    || last_close_of_one_day(word, x, y)
    || crosses_what_the_other_stays_on(word, x, y)
    || (FLIP_WORDS.contains(&word) && market_caps_compared_upward(x, y))
    // "Both Teams To Score" / "both Liverpool and Man City score".
    || (BOTH_TEAMS_WORDS.contains(&word)
        && [x, y]
            .iter()
            .all(|f| f.raw.contains("both") && f.raw.contains("score")))
    // "win the Champions League final" is winning the competition.
    || (word == "final" && x.words.contains("win") && y.words.contains("win"))
    || (ANY_TIME_WORDS.contains(&word)
        && x.threshold.is_some()
        && y.threshold.is_some()
        && !names_a_price_point(x)
        && !names_a_price_point(y))
    || (COUNT_VERBS.contains(&word)
        && (x.counted || y.counted)
        && x.threshold.is_some()
        && y.threshold.is_some())
}
