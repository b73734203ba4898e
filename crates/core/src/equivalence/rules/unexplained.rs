//! Precision first: `same` and `inverted` are earned, not what is left
//! when no veto fires. Every part of each side that bears a fact must be
//! accounted for by the other: its words (matched, a known synonym in
//! [`SYNONYMS`], a word of the same measured quantity, or a no-op word
//! of [`NO_OP`] / [`FILLER`]), its numbers (a sportsbook line keeps its
//! sign), its threshold, date and time of day, and the words of its
//! rules text, where a void branch or an estimate is often stated and
//! nowhere else. Anything left over that can change the question (a
//! qualifier no rule reads, a scope word such as "globally", "1st Half",
//! "Draw No Bet": what [`bears_a_fact`] finds) makes such a verdict
//! `unsure`, naming the words; it never makes one `different`.
//!
//! Words that bear no fact ("new", "wallet", a rules text's "use") may be
//! left over once the subject, the quantity, the threshold and the window
//! agree with positive evidence and no veto (this rule runs only then):
//! any number of the rules text's, and of one title's when the other
//! title adds none (two titles each adding words are two predicates).

use super::super::engine::{Pair, Verdict};
use super::super::facts::Facts;
use super::super::lexicon::{
    ANY_TIME_WORDS, BOTH_TEAMS_WORDS, COUNT_VERBS, DEFAULT_SCOPES, DIRECTION_VERBS, FILLER,
    FLIP_WORDS, GAME_RESULT_WORDS, GAME_SCORE_WORDS, GENERIC_MEMBER_WORDS, LINE_WORDS, NO_OP,
    OFFICE_RANKS, OPPOSED, OVERTIME_WORDS, QUANTITIES, SCOPES, SOCCER_FULL_TIME_WORDS, SYNONYMS,
    bears_a_fact, city_stands_for_team, entities, implied_by, names_a_division, nickname_lead,
    other_team_against_a_city, other_team_of_the_game, quantity_members_of, read_under_a_condition,
    team_of_a_shared_city,
};
use super::super::words::{NEGATIONS, fold};
use super::super::{Field, Finding, day_of};
use super::join;
use super::predicate::{game_without_draws, matched_words};
use super::threshold::{at_least_one_against_a, line, line_as_margin, opposite_lines};

mod worded_thresholds;
use worded_thresholds::{
    both_reach_a_temperature, crosses_what_the_other_stays_on, market_caps_compared_upward,
};

/// A sportsbook's half-point line on a count ("Over 44.5 Total Points")
/// or a team's line ("Bengals -3.5"): it counts overtime.
fn sportsbook_line(f: &Facts) -> bool {
    let half_point = |v: f64| v.fract().abs() == 0.5;
    f.threshold
        .as_ref()
        .is_some_and(|t| f.counted && t.unit.is_empty() && half_point(t.value))
        || f.numbers.iter().any(|n| line(n).is_some())
}

/// `word` is a verb of a move ([`DIRECTION_VERBS`]) in the direction
/// both sides' thresholds state.
fn moves_as_both_thresholds(word: &str, x: &Facts, y: &Facts) -> bool {
    use super::super::facts::Comparator::{Above, AtLeast, AtMost, Below};
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
fn stays_through_both_deadlines(word: &str, x: &Facts, y: &Facts) -> bool {
    use super::super::facts::Comparator::{Above, AtLeast, AtMost, Below};
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

/// Whether `word`, written by `x`, is accounted for by `y`.
pub(crate) fn explained(word: &str, x: &Facts, y: &Facts, matched: &[&str]) -> bool {
    let said_by_y = |w: &str| y.mentions(w) || y.criteria_content.contains(w);
    let y_scoped = || SCOPES.iter().any(|w| y.mentions(w));
    let one_day = x.date.is_some() && y.date.is_some();
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
        // A team's city or league, a race's circuit, a leader's office.
        || entities::implied_by(word, &y.named)
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
        || super::game_codes::team_of_the_game(word, x, y)
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
                    || super::game_codes::team_of_the_game(t, x, y)
                    || (one_day && team_of_a_shared_city(t, |w| x.mentions(w), said_by_y))
            },
        )
        // Not a rank of an office ("Deputy HUD Secretary" against
        // "HUD": a deputy holds another office).
        || (!OFFICE_RANKS.contains(&word)
            && x.short_forms.before_a_name(word, |name| {
                (y.lone_names.contains(name) || y.name_heads.contains(name))
                    && !y.class_heads.contains(name)
            }))
        // "Los Angeles" of "Los Angeles Lakers" against "Lakers", "Nikola"
        // of "Nikola Jokic" against "Jokic NBA MVP".
        || x.given_names.iter().any(|(given, surname)| {
            (given == word || fold(given) == word)
                && (y.lone_names.contains(surname) || y.name_heads.contains(surname))
        })
        // "US unemployment" against "unemployment": the US is the default
        // place unless the other side writes a scope of its own.
        || (word == "us" && !y_scoped())
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
        || moves_as_both_thresholds(word, x, y)
        || stays_through_both_deadlines(word, x, y)
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
        || y
            .source
            .as_deref()
            .is_some_and(|s| s.split_whitespace().any(|w| w == word))
}

/// What one side leaves unaccounted for, by what it can change.
#[derive(Default)]
struct Leftovers {
    /// Parts that bear a fact ([`bears_a_fact`]): a name, a number, a
    /// date, a time, a threshold, a void branch, a word of a lexicon.
    facts: Vec<String>,
    /// Words of the title that bear none ("new", "officially").
    plain: Vec<String>,
    /// Words of the rules text that bear none ("use", "recorded").
    plain_rules: Vec<String>,
}

impl Leftovers {
    fn is_empty(&self) -> bool {
        self.facts.is_empty() && self.plain.is_empty() && self.plain_rules.is_empty()
    }
}

/// `word` is a word of one of `x`'s names.
fn is_name_of(x: &Facts, word: &str) -> bool {
    x.entities
        .iter()
        .any(|e| e.split(' ').any(|part| part == word || fold(part) == word))
}

/// What the two markets share and one side's words are read against.
struct Context<'m> {
    pair: &'m Pair<'m>,
    matched: &'m [&'m str],
    /// The game cannot end level ([`game_without_draws`]): a side that
    /// says overtime or a shoot-out counts says what the other's game
    /// does anyway. Read once, and only for such a word.
    no_draw: std::cell::OnceCell<bool>,
    /// The pair is a soccer match ([`soccer_match`]): read once, and only
    /// for a word of its full time.
    soccer: std::cell::OnceCell<bool>,
}

impl Context<'_> {
    fn explained(&self, w: &str, x: &Facts, y: &Facts) -> bool {
        explained(w, x, y, self.matched)
            || ((OVERTIME_WORDS.contains(&w)
                || w == "shootout"
                || (GAME_RESULT_WORDS.contains(&w) && !x.words.contains(w)))
                && *self.no_draw.get_or_init(|| game_without_draws(self.pair)))
            || (SOCCER_FULL_TIME_WORDS.contains(&w)
                && *self.soccer.get_or_init(|| soccer_match(self.pair)))
            // In the rules text only: a title's "team" may be a team's
            // own total.
            || (GAME_SCORE_WORDS.contains(&w)
                && !x.words.contains(w)
                && one_games_score(x, y))
    }
}

/// Both sides count one game's score: its total points on both
/// ("Over 45.5 Total Points" / "46+ total points"; one side may leave
/// whose unsaid), or a line taken as
/// the other side's margin ("49ers -2.5" / "win by 3 or more"). A rules
/// text's "combined final score of both teams" then says what both mean
/// ([`GAME_SCORE_WORDS`]); one team's total is another quantity, which
/// `metric_differs` vetoes.
fn one_games_score(x: &Facts, y: &Facts) -> bool {
    use super::super::totals::PointsOf;
    // One side may leave whose points unsaid ("Clippers @ Warriors Over
    // 224.5 Points" names the game); one team's on either side is not.
    let game = |f: &Facts| f.points_of == Some(PointsOf::Game);
    let unsaid = |f: &Facts| f.points_of.is_none() && f.counted;
    (game(x) && (game(y) || unsaid(y)))
        || (game(y) && unsaid(x))
        || line_as_margin(x, y).is_some()
        || line_as_margin(y, x).is_some()
}

/// Both sides name a club of a soccer league (the entity table's leagues
/// imply "soccer"): a match whose markets settle at full time unless one
/// says otherwise ([`SOCCER_FULL_TIME_WORDS`]).
fn soccer_match(p: &Pair<'_>) -> bool {
    entities::implied_by("soccer", &p.fa.named) && entities::implied_by("soccer", &p.fb.named)
}

/// The parts of `x` that `y` does not account for; only until the first
/// that bears a fact when `all` is false (no reasons wanted).
fn leftovers(x: &Facts, y: &Facts, cx: &Context<'_>, all: bool) -> Leftovers {
    let mut out = Leftovers::default();
    for w in x.words.iter().filter(|w| !cx.explained(w, x, y)) {
        if bears_a_fact(w, |w| is_name_of(x, w)) || read_under_a_condition(w) {
            out.facts.push(w.clone());
            if !all {
                return out;
            }
        } else {
            out.plain.push(w.clone());
        }
    }
    // A line read as the other's margin was compared as a threshold.
    let mirrored = opposite_lines(x, y) || line_as_margin(x, y).is_some();
    out.facts.extend(
        x.numbers
            .iter()
            .filter(|n| !mirrored && !y.numbers.contains(n))
            .map(|n| format!("the number {n}")),
    );
    if let (Some(t), None) = (&x.threshold, &y.threshold)
        && line_as_margin(y, x).is_none()
        && !at_least_one_against_a(t, y)
    {
        out.facts.push(format!("the threshold {t}"));
    }
    // A date on one side only is the other's too when the other closes
    // on it (or the next day in UTC, after an evening game in America).
    if let (Some(d), None) = (&x.date, &y.date) {
        let closes_on_it = y
            .close_ms
            .map(day_of)
            .is_some_and(|day| (d.first_day..=d.last_day + 1).contains(&day));
        if !closes_on_it {
            out.facts.push(format!("the date {d}"));
        }
    }
    // A time the title states is accounted for by the other's rules
    // stating one (which `time_of_day_differs` compared).
    if x.time_of_day.is_some() && y.time_of_day.is_none() && y.criteria_time.is_none() {
        out.facts.push("the time of day".into());
    }
    // The rules text may restate its own title and source; anything else
    // in it that bears a fact the other side must say too.
    let own = |w: &str| {
        x.words.contains(w)
            || x.source
                .as_deref()
                .is_some_and(|s| s.split_whitespace().any(|s| s == w))
    };
    for w in x
        .criteria_content
        .iter()
        .filter(|w| !own(w) && !cx.explained(w, x, y))
    {
        if bears_a_fact(w, |w| x.criteria_names.contains(w)) {
            out.facts.push(format!("rules: {w}"));
        } else {
            out.plain_rules.push(format!("rules: {w}"));
        }
    }
    if let (Some(o), None) = (&x.void_outcome, &y.void_outcome) {
        out.facts.push(format!("rules: resolves {o} if void"));
    }
    out
}

/// Whether what the two sides leave unaccounted can still be one
/// question: nothing that bears a fact, and words of the title that bear
/// none on one side only ("Phantom wallet token" / "Phantom token";
/// both adding words is two predicates: "fiscal" / "calendar").
fn only_plain_words(a: &Leftovers, b: &Leftovers) -> bool {
    a.facts.is_empty() && b.facts.is_empty() && (a.plain.is_empty() || b.plain.is_empty())
}

/// Makes `same` and `inverted` unsure while a part of either side that
/// bears a fact is left unaccounted for (see the module doc).
pub fn unexplained_difference(p: &Pair<'_>, v: &mut Verdict) {
    if !v.may_be_equal() {
        return;
    }
    let matched = matched_words(p, v.staged);
    let cx = Context {
        pair: p,
        matched: &matched,
        no_draw: std::cell::OnceCell::new(),
        soccer: std::cell::OnceCell::new(),
    };
    let all = v.detailed();
    let only_a = leftovers(p.fa, p.fb, &cx, all);
    let only_b = if all || only_a.facts.is_empty() {
        leftovers(p.fb, p.fa, &cx, all)
    } else {
        Leftovers::default()
    };
    let words = |l: &Leftovers| -> Vec<String> {
        l.facts
            .iter()
            .chain(&l.plain)
            .chain(&l.plain_rules)
            .cloned()
            .collect()
    };
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
    if !only_a.facts.is_empty() || !only_b.facts.is_empty() {
        v.say(|| {
            let all: Vec<&str> = only_a
                .facts
                .iter()
                .chain(&only_b.facts)
                .map(String::as_str)
                .collect();
            (
                Field::Wording,
                Finding::Missing,
                join(&words(&only_a)),
                join(&words(&only_b)),
                format!("not accounted for by the other side: {}", all.join(", ")),
            )
        });
        v.unexplained();
        return;
    }
    let fine = only_plain_words(&only_a, &only_b);
    v.say(|| {
        let all: Vec<String> = words(&only_a).into_iter().chain(words(&only_b)).collect();
        let (finding, note) = if fine {
            (
                Finding::Agrees,
                format!(
                    "every part that bears a fact is accounted for; words that bear none left: {}",
                    all.join(", ")
                ),
            )
        } else {
            (
                Finding::Missing,
                format!(
                    "words each side adds, not accounted for by the other: {}",
                    all.join(", ")
                ),
            )
        };
        (
            Field::Wording,
            finding,
            join(&words(&only_a)),
            join(&words(&only_b)),
            note,
        )
    });
    if !fine {
        v.unexplained();
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::engine::RuleCode;
    use super::super::super::facts::Facts;
    use super::super::super::{Relation, classify};
    use crate::models::{Market, PlatformId};

    fn market(platform: &str, title: &str, criteria: Option<&str>) -> Market {
        let mut m = Market::new(format!("{platform}-1"));
        m.platform = Some(PlatformId::from(platform));
        m.title = Some(title.to_owned());
        m.trading_end_at = Some("2027-06-30T23:59:00Z".into());
        m.resolution_criteria = criteria.map(str::to_owned);
        m
    }

    fn answer(a: &str, b: &str) -> (Relation, bool) {
        let c = classify(&market("x", a, None), &market("y", b, None));
        let unexplained = c
            .reasons
            .iter()
            .any(|r| r.rule == RuleCode::UnexplainedDifference && r.note.starts_with("not"));
        (c.relation, unexplained)
    }

    #[test]
    fn the_same_words_earn_same() {
        let (relation, unexplained) = answer(
            "Will Bitcoin close above $150,000 on June 30, 2027?",
            "BTC above $150k on Jun 30, 2027?",
        );
        assert_eq!(relation, Relation::Same);
        assert!(!unexplained);
    }

    #[test]
    fn a_word_one_side_adds_makes_same_unsure_and_is_named() {
        let a = market("x", "Will the Acme Rockets win the 2027 title?", None);
        let b = market("y", "Acme Rockets to win the 2027 title in overtime?", None);
        let c = classify(&a, &b);
        assert_eq!(c.relation, Relation::Unsure);
        let reason = c
            .reasons
            .iter()
            .find(|r| r.rule == RuleCode::UnexplainedDifference)
            .map(|r| r.note.as_str());
        assert!(reason.is_some_and(|n| n.contains("overtime")), "{reason:?}");
    }

    #[test]
    fn a_void_branch_only_in_the_rules_makes_same_unsure() {
        let title = "Will the Acme Rockets beat the Zed Comets on June 30, 2027?";
        let a = market("x", title, None);
        let b = market(
            "y",
            title,
            Some("If the game is postponed, the market resolves 50-50."),
        );
        assert_eq!(classify(&a, &b).relation, Relation::Unsure);
        assert_eq!(classify(&a, &a.clone()).relation, Relation::Same);
    }

    #[test]
    fn sportsbook_notation_is_no_negation() {
        let no1 = Facts::of_text("Will the album debut at No. 1 on the chart?", None);
        assert!(!no1.negated);
        assert!(no1.words.contains("top"));
        let no2 = Facts::of_text("Will the album debut at No. 2 on the chart?", None);
        assert!(!no2.negated);
        assert_eq!(no2.numbers, ["2"]);
        let dnb = Facts::of_text("Acme Draw No Bet vs Zed (Feb 5, 2028)", None);
        assert!(!dnb.negated);
        assert!(dnb.words.contains("draw-no-bet"));
        // A line keeps its sign and its team; a range does not.
        let line = Facts::of_text("Acme -6.5 vs Zed (Jan 14, 2028)", None);
        assert_eq!(line.numbers, ["acme -6.5"]);
        let other = Facts::of_text("Zed -6.5 vs Acme (Jan 14, 2028)", None);
        assert_ne!(line.numbers, other.numbers);
        let threshold = Facts::of_text("Net approval above -10 on June 30, 2027?", None)
            .threshold
            .map(|t| t.value);
        assert_eq!(threshold, Some(-10.0));
    }

    #[test]
    fn a_scope_word_is_never_accounted_for() {
        let (relation, unexplained) = answer(
            "Will Acme be the most-streamed artist globally in 2027?",
            "Will Acme be the most-streamed artist in the US in 2027?",
        );
        assert_ne!(relation, Relation::Same);
        assert!(unexplained || relation == Relation::Different);
        let (relation, _) = answer(
            "Will Acme Rockets win the 2027 title?",
            "Will Acme Rockets win the 2027 title on the spread -4.5?",
        );
        assert_ne!(relation, Relation::Same);
    }
}
