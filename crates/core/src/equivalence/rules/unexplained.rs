//! Precision first: `same` and `inverted` are earned, not what is left
//! when no veto fires. Every part of each side that bears a fact must be
//! accounted for by the other ([`explained`], in `accounted.rs`): its
//! words (matched, a known synonym in
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
//! A rules text's word that [`bears_a_fact`] flags is read by its class
//! since the fifteenth round (`unexplained/rules_text.rs`): a fact a
//! reader compares (a release's vintage, a void branch, a venue), a fact
//! of a class no reader compares yet (how much of a game counts, a
//! window's or a figure's basis), a name or a publisher's word
//! ("announced", "BLS", "gallon": [`rules_boilerplate`]) left by one
//! side's rules only (two agencies, two units are two questions), or a
//! word that stops nothing.
//!
//! [`rules_boilerplate`]: super::super::lexicon::rules_boilerplate
//! [`SYNONYMS`]: super::super::lexicon::SYNONYMS
//! [`NO_OP`]: super::super::lexicon::NO_OP
//! [`FILLER`]: super::super::lexicon::FILLER

use super::super::engine::{Pair, Verdict};
use super::super::facts::Facts;
use super::super::facts::publishers::all_of_kind;
use super::super::lexicon::{
    GAME_RESULT_WORDS, GAME_SCORE_WORDS, OVERTIME_WORDS, SOCCER_FULL_TIME_WORDS, bears_a_fact,
    entities, read_under_a_condition,
};
use super::super::words::fold;
use super::super::{Field, Finding, day_of};
use super::join;
use super::predicate::{game_without_draws, matched_words};
use super::threshold::{at_least_one_against_a, line_as_margin, opposite_lines};

mod accounted;
mod chambers;
mod one_day;
mod rules_text;
mod worded_thresholds;
pub(crate) use accounted::explained;
use accounted::{moves_as_both_thresholds, stays_through_both_deadlines};
use rules_text::{RulesWord, of_one_publisher, rules_facts_unmatched, rules_word_class};

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
    /// Words of the rules text that only say how the figure or decision
    /// becomes known ("announced", "BLS", "gallon": `rules_boilerplate`)
    /// and the names it adds: one side only may leave them.
    boilerplate: Vec<String>,
    /// The names a rules text adds ("Central Park", "Employment
    /// Situation"): one side only may leave them, whatever the source.
    names: Vec<String>,
}

impl Leftovers {
    fn is_empty(&self) -> bool {
        self.facts.is_empty()
            && self.plain.is_empty()
            && self.plain_rules.is_empty()
            && self.boilerplate.is_empty()
            && self.names.is_empty()
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
    // A title's word that named a publisher the other side names too is
    // the source, compared by `settlement_source_differs`.
    for w in x
        .words
        .iter()
        .filter(|w| !cx.explained(w, x, y) && !of_one_publisher(w, x, y))
    {
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
    // So is one its rules text states for a price on one day ("the LBMA
    // Gold Price AM (10:30 London)"): against a side that states none,
    // it may be another instant of that day (the PM auction), which no
    // rule compared. A deadline's closing time is no such instant.
    if x.time_of_day.is_none()
        && x.criteria_time.is_some()
        && y.time_of_day.is_none()
        && y.criteria_time.is_none()
        && a_price_on_one_day(x)
        && a_price_on_one_day(y)
    {
        out.facts.push("rules: the time of day".into());
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
        match rules_word_class(w, x, y) {
            RulesWord::Fact => out.facts.push(format!("rules: {w}")),
            RulesWord::ReadAsAFact => {}
            RulesWord::OneSideOnly => out.boilerplate.push(format!("rules: {w}")),
            RulesWord::NameOneSideOnly => out.names.push(format!("rules: {w}")),
            RulesWord::Plain => out.plain_rules.push(format!("rules: {w}")),
        }
    }
    if let (Some(o), None) = (&x.void_outcome, &y.void_outcome) {
        out.facts.push(format!("rules: resolves {o} if void"));
    }
    out.facts.extend(rules_facts_unmatched(x, y));
    out
}

/// A threshold in dollars read on one day (not by a deadline): a traded
/// price, which moves within the day.
fn a_price_on_one_day(f: &Facts) -> bool {
    f.threshold.as_ref().is_some_and(|t| t.unit == "$")
        && f.date.as_ref().is_some_and(|d| d.one_day())
}

/// Whether what the two sides leave unaccounted can still be one
/// question: nothing that bears a fact, and words of the title that bear
/// none on one side only ("Phantom wallet token" / "Phantom token";
/// both adding words is two predicates: "fiscal" / "calendar").
/// Both sides may leave a publisher's words ("announce", "agency") when
/// both name the same agencies and no other publisher ([`one_source`]);
/// the names a rules text adds, one side only still.
fn only_plain_words(a: &Leftovers, b: &Leftovers, one_source: bool) -> bool {
    a.facts.is_empty()
        && b.facts.is_empty()
        && (a.plain.is_empty() || b.plain.is_empty())
        && ((a.boilerplate.is_empty() && a.names.is_empty())
            || (b.boilerplate.is_empty() && b.names.is_empty())
            || (one_source && (a.names.is_empty() || b.names.is_empty())))
}

/// The two sides name the same agencies, at least one, and no other
/// publisher: their rules' words of how the figure becomes known are one
/// source's, an agency publishing one official figure of a series. A
/// station network, an exchange or a vendor publishes many (stations,
/// fixes, pairs), which such words may tell apart: not excused.
fn one_source(x: &Facts, y: &Facts) -> bool {
    let (px, py) = (x.rules_facts.publishers.bits, y.rules_facts.publishers.bits);
    px != 0 && px == py && all_of_kind(px, "agency")
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
            .chain(&l.boilerplate)
            .chain(&l.names)
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
    let fine = only_plain_words(&only_a, &only_b, one_source(p.fa, p.fb));
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
