//! Precision first: `same` and `inverted` are earned, not what is left
//! when no veto fires. Every content-bearing part of each side must be
//! accounted for by the other: its words (matched, a known synonym in
//! [`SYNONYMS`], a word of the same measured quantity, or a no-op word
//! of [`NO_OP`] / [`FILLER`]), its numbers (a sportsbook line keeps its
//! sign), its threshold, date and time of day, and the words of its
//! rules text, where a void branch or an estimate is often stated and
//! nowhere else. Anything left over (a qualifier no rule reads, a scope
//! word such as "globally", "1st Half", "Draw No Bet") makes such a
//! verdict `unsure`, naming the words; it never makes one `different`.

use super::super::engine::{Pair, Verdict};
use super::super::facts::Facts;
use super::super::lexicon::{FILLER, NO_OP, OPPOSED, SCOPES, SYNONYMS, quantity_members_of};
use super::super::words::{NEGATIONS, fold};
use super::super::{Field, Finding, day_of};
use super::join;
use super::predicate::matched_words;

/// Whether `word`, written by `x`, is accounted for by `y`.
fn explained(word: &str, x: &Facts, y: &Facts, matched: &[&str]) -> bool {
    let said_by_y = |w: &str| y.mentions(w) || y.criteria_content.contains(w);
    said_by_y(word)
        || matched.contains(&word)
        // The negation rule compares these, the subject rule these.
        || NEGATIONS.contains(&word)
        || OPPOSED.iter().any(|&(p, q)| p == word || q == word)
        || FILLER.contains(&word)
        || NO_OP.contains(&word)
        || SYNONYMS
            .iter()
            .any(|group| group.contains(&word) && group.iter().any(|w| said_by_y(w)))
        || quantity_members_of(word)
            .any(|(i, bit)| y.quantities.get(i).is_some_and(|mask| mask & bit != 0))
        // "Los Angeles" of "Los Angeles Lakers" against "Lakers".
        || x.given_names.iter().any(|(given, surname)| {
            (given == word || fold(given) == word) && y.lone_names.contains(surname)
        })
        // "US unemployment" against "unemployment": the US is the default
        // place unless the other side writes a scope of its own.
        || (word == "us" && !SCOPES.iter().any(|w| y.mentions(w)))
        || y
            .source
            .as_deref()
            .is_some_and(|s| s.split_whitespace().any(|w| w == word))
}

/// The parts of `x` that `y` does not account for.
fn leftovers(x: &Facts, y: &Facts, matched: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = x
        .words
        .iter()
        .filter(|w| !explained(w, x, y, matched))
        .cloned()
        .collect();
    out.extend(
        x.numbers
            .iter()
            .filter(|n| !y.numbers.contains(n))
            .map(|n| format!("the number {n}")),
    );
    if let (Some(t), None) = (&x.threshold, &y.threshold) {
        out.push(format!("the threshold {t}"));
    }
    // A date on one side only is the other's too when the other closes
    // on it (or the next day in UTC, after an evening game in America).
    if let (Some(d), None) = (&x.date, &y.date) {
        let closes_on_it = y
            .close_ms
            .map(day_of)
            .is_some_and(|day| (d.first_day..=d.last_day + 1).contains(&day));
        if !closes_on_it {
            out.push(format!("the date {d}"));
        }
    }
    if x.time_of_day.is_some() && y.time_of_day.is_none() {
        out.push("the time of day".into());
    }
    // The rules text may restate its own title and source; anything else
    // in it the other side must say too.
    let own = |w: &str| {
        x.words.contains(w)
            || x.source
                .as_deref()
                .is_some_and(|s| s.split_whitespace().any(|s| s == w))
    };
    out.extend(
        x.criteria_content
            .iter()
            .filter(|w| !own(w) && !explained(w, x, y, matched))
            .map(|w| format!("rules: {w}")),
    );
    if let (Some(o), None) = (&x.void_outcome, &y.void_outcome) {
        out.push(format!("rules: resolves {o} if void"));
    }
    out
}

/// Makes `same` and `inverted` unsure while a part of either side is left
/// unaccounted for (see the module doc).
pub fn unexplained_difference(p: &Pair<'_>, v: &mut Verdict) {
    if !v.may_be_equal() {
        return;
    }
    let matched = matched_words(p, v.staged);
    let (only_a, only_b) = (
        leftovers(p.fa, p.fb, &matched),
        leftovers(p.fb, p.fa, &matched),
    );
    if only_a.is_empty() && only_b.is_empty() {
        v.say(|| {
            (
                Field::Wording,
                Finding::Agrees,
                None,
                None,
                "every part of each side is accounted for by the other".into(),
            )
        });
        return;
    }
    v.say(|| {
        let all: Vec<&str> = only_a.iter().chain(&only_b).map(String::as_str).collect();
        (
            Field::Wording,
            Finding::Missing,
            join(&only_a),
            join(&only_b),
            format!("not accounted for by the other side: {}", all.join(", ")),
        )
    });
    v.unexplained();
}
