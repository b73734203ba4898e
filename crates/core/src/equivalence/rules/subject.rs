//! The subject: the names each question mentions, and who must win.

use super::super::engine::{Aspect, Pair, Verdict, Vote};
use super::super::facts::Facts;
use super::super::lexicon::{
    NO_DRAW_TEAMS, OPPOSED, TEAM_CITIES, city_stands_for_team, commodity_keys, entities,
    names_a_division, team_of_a_shared_city,
};
use super::super::{Field, Finding};
use super::join;
use super::predicate::game_without_draws;

/// Every word of a (possibly multi-word) name is mentioned by `f`. A
/// one-word name is its only word: asked once, not twice (most names,
/// asked for every candidate pair).
pub(crate) fn mentions_all(f: &Facts, entity: &str) -> bool {
    if !entity.contains(' ') {
        return f.mentions(entity);
    }
    entity.split(' ').all(|w| f.mentions(w)) || f.mentions(entity)
}

/// A given name whose surname begins a name on the other side
/// ("Scottie" of "Scottie Scheffler" against "Scheffler to win"); not a
/// word before the last of a name the other side also ends with
/// ("Bitcoin ETF" against "Ethereum ETF").
fn given_name_of_mentioned(x: &Facts, y: &Facts, e: &str) -> bool {
    x.given_names.iter().any(|(given, surname)| {
        given == e && y.name_heads.contains(surname) && !names_a_division(e)
    })
}

/// The names a side gives as subjects: not a measured quantity both
/// name ("Nonfarm payrolls" / "jobs added") or one only this side
/// qualifies ("YoY"), and not the US alone
/// against a side that names nothing (a US indicator is the default one:
/// "US unemployment" / "the unemployment rate"). Asked for every
/// candidate pair, so never collected: a filter over the side's own
/// names, run again at each reading (most sides name no quantity's word,
/// and then it keeps every name).
#[derive(Clone, Copy)]
struct Names<'a> {
    x: &'a Facts,
    y: &'a Facts,
    /// The US alone against a side that names nothing: no names.
    none: bool,
}

impl<'a> Names<'a> {
    fn of(x: &'a Facts, y: &'a Facts) -> Self {
        let names = Self { x, y, none: false };
        // With no quantity's word among them, the names are all the
        // side's: whether they are the US alone was read once.
        let us_alone = if x.quantity_names.is_empty() {
            x.us_alone
        } else {
            let mut all = names.iter();
            all.next() == Some("us") && all.next().is_none()
        };
        // Whether the other side names anything is read only for the US.
        let none = us_alone && !(0..y.entities.len()).any(|k| y.is_subject_name(k, x));
        Self { none, ..names }
    }

    /// The names, each with its index in the side's `entities`.
    fn indexed(self) -> impl Iterator<Item = (usize, &'a str)> + Clone {
        let Self { x, y, none } = self;
        // A name that is a word of a quantity's member the other side
        // does not name at all ("YoY" against a side naming no period)
        // qualifies the quantity, which the metric and wording rules
        // compare.
        x.entities
            .iter()
            .enumerate()
            .filter(move |&(k, _)| !none && x.is_subject_name(k, y))
            .map(|(k, e)| (k, e.as_str()))
    }

    fn iter(self) -> impl Iterator<Item = &'a str> + Clone {
        self.indexed().map(|(_, e)| e)
    }

    fn is_empty(self) -> bool {
        self.iter().next().is_none()
    }
}

/// The same named members of a family of measured quantities on both
/// sides: with no names, the quantity is the subject.
fn same_quantity_named(p: &Pair<'_>) -> bool {
    p.fa.quantities
        .iter()
        .zip(&p.fb.quantities)
        .any(|(a, b)| a == b && *a != 0)
}

/// The same commodities named on both sides (see
/// [`commodity_keys`]), at least one.
fn same_commodity_named(p: &Pair<'_>) -> bool {
    let mut a = commodity_keys(&p.fa.quantities).peekable();
    a.peek().is_some() && a.eq(commodity_keys(&p.fb.quantities))
}

/// The names of `x` that `y` does not account for, read as far as the
/// caller reads.
fn unmatched<'a>(x: &'a Facts, y: &'a Facts, names: Names<'a>) -> impl Iterator<Item = &'a str> {
    // A test the tables rule out for the name (`NameTables`) is not run:
    // it would find nothing, whatever `y` writes.
    names.indexed().filter_map(move |(k, e)| {
        let tables = x.name_tables(k);
        let accounted = mentions_all(y, e)
            || (tables.given && given_name_of_mentioned(x, y, e))
            || ((tables.short_or_glossed || y.short_forms.writes_short_forms())
                && x.short_forms.accounts_for(&y.short_forms, e))
            || (tables.team_or_city && city_stands_for_team(e, |w| y.mentions(w)))
            // A team's city or league, a race's circuit: what an
            // entity the other side names implies.
            || entities::implied_by(e, &y.named)
            // "MIN @ LAR" against "vs Vikings": a sportsbook's codes of
            // one game.
            || (tables.team_or_code && super::game_codes::team_of_the_game(e, x, y))
            // "Jets" against "New York" in a game both sides name the
            // other team of, on one day.
            || (x.date.is_some()
                && y.date.is_some()
                && tables.shared_city
                && team_of_a_shared_city(e, |w| x.mentions(w), |w| y.mentions(w)));
        (!accounted).then_some(e)
    })
}

/// A name one side has that the other never mentions, on both sides, is
/// two subjects; two opposed names alone are the two sides of a contest.
pub fn subject_differs<'a>(p: &Pair<'a>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    let (names_a, names_b) = (Names::of(fa, fb), Names::of(fb, fa));
    let (only_a, only_b, both_left) = unmatched_on_each_side(p, names_a, names_b, v.detailed());
    // Two opposed names, and nothing else unmatched on one side ("a
    // Democrat ... US election" / "the Republican candidate").
    // The two names are read from the entities too: a name a side's
    // quantity lexicon sets aside ("Republican House majority": seats of
    // a party) is still the side of the contest it names.
    let names = |f: &Facts, w: &str| f.entities.iter().any(|e| e == w);
    let opposed = OPPOSED.iter().any(|&(x, y)| {
        [(x, y), (y, x)].iter().any(|&(x, y)| {
            (only_a.contains(&x) && only_b.contains(&y) && (only_a.len() == 1 || only_b.len() == 1))
                || (names(fa, x) && names(fb, y) && !names(fa, y) && !names(fb, x) && !both_left)
        })
    });
    if opposed {
        v.say(|| {
            (
                Field::Entities,
                Finding::Opposite,
                Some(only_a.join(", ")),
                Some(only_b.join(", ")),
                "the two sides of a two-way contest".into(),
            )
        });
        v.vote(Vote::Opposite);
        v.evidence(Aspect::Subject);
    } else if both_left {
        v.say(|| {
            (
                Field::Entities,
                Finding::Conflicts,
                Some(only_a.join(", ")),
                Some(only_b.join(", ")),
                "each names what the other does not".into(),
            )
        });
        v.veto();
    } else if names_a.is_empty() && names_b.is_empty() {
        let implied = same_quantity_named(p);
        v.say(|| {
            let (finding, note) = if implied {
                (
                    Finding::Agrees,
                    "no names (but the US): the same measured quantity is the subject",
                )
            } else {
                (Finding::Missing, "no names to compare")
            };
            (Field::Entities, finding, None, None, note.into())
        });
        if implied {
            v.evidence(Aspect::Subject);
        }
    } else {
        names_agree(p, names_a, names_b, &only_a, &only_b, v);
    }
}

/// The names each side leaves unmatched, and whether both leave one;
/// without reasons (`detailed` false) only as much of them as the verdict
/// needs.
fn unmatched_on_each_side<'a>(
    p: &Pair<'a>,
    names_a: Names<'a>,
    names_b: Names<'a>,
    detailed: bool,
) -> (Vec<&'a str>, Vec<&'a str>, bool) {
    let (fa, fb) = (p.fa, p.fb);
    let of_a_contest = |e: &&str| OPPOSED.iter().any(|&(x, y)| *e == x || *e == y);
    // Without reasons, and with no name of a contest's two on the first
    // side, only whether each side leaves a name unmatched decides (the
    // contest `subject_differs` reads needs one such name on the first
    // side, the veto any
    // name on both, and the names are said only in reasons): each side's
    // are read until the first, the second's only if the first has one,
    // and no list is made (most candidate pairs end here).
    let fast = !detailed && !names_a.iter().any(|e| of_a_contest(&e));
    if fast {
        let both_left = unmatched(fa, fb, names_a).next().is_some()
            && unmatched(fb, fa, names_b).next().is_some();
        (Vec::new(), Vec::new(), both_left)
    } else {
        let only_a: Vec<&str> = unmatched(fa, fb, names_a).collect();
        // Without reasons, the second side's unmatched names are read
        // only as far as the verdict needs them: not at all when the
        // first side has none, and only the first when no name left on
        // the first side is one of a contest's two.
        let contest = only_a.iter().any(of_a_contest);
        let only_b: Vec<&str> = if detailed || contest {
            unmatched(fb, fa, names_b).collect()
        } else if only_a.is_empty() {
            Vec::new()
        } else {
            // `next`, as the fast path reads it: one copy of the walk.
            unmatched(fb, fa, names_b).next().into_iter().collect()
        };
        let both_left = !only_a.is_empty() && !only_b.is_empty();
        (only_a, only_b, both_left)
    }
}

/// Neither side leaves a name the other lacks on both sides: the names
/// agree, with evidence for the subject where one is shared (or implied,
/// or a short form, or one commodity).
fn names_agree<'a>(
    p: &Pair<'a>,
    names_a: Names<'a>,
    names_b: Names<'a>,
    only_a: &[&str],
    only_b: &[&str],
    v: &mut Verdict,
) {
    let (fa, fb) = (p.fa, p.fb);
    // A name the other side's entity implies is shared too ("Dallas at
    // Minnesota" / "Timberwolves vs Mavericks").
    let named_by = |e: &str, f: &Facts| mentions_all(f, e) || entities::implied_by(e, &f.named);
    let shared = names_a.iter().any(|e| named_by(e, fb))
        || names_b.iter().any(|e| named_by(e, fa))
        // Either side's short forms, both ways round: read from one
        // side only, "Q1 (KC) 0" / "Q1 not 0" differed from its mirror.
        || names_a
            .iter()
            .any(|e| fa.short_forms.accounts_for(&fb.short_forms, e))
        || names_b
            .iter()
            .any(|e| fb.short_forms.accounts_for(&fa.short_forms, e));
    v.say(|| {
        let extra: Vec<&str> = only_a.iter().chain(only_b).copied().collect();
        let note = if extra.is_empty() {
            "the same names".to_owned()
        } else {
            format!("one also names {}", extra.join(", "))
        };
        (
            Field::Entities,
            Finding::Agrees,
            join(&fa.entities),
            join(&fb.entities),
            note,
        )
    });
    // One side names only a quantity both name (a commodity), the
    // other also where it trades ("COMEX copper"): the quantity is
    // the subject, the venue is left to the rules that read the rest.
    if shared || same_commodity_named(p) {
        v.evidence(Aspect::Subject);
    } else if names_a.is_empty() || names_b.is_empty() {
        v.vote(Vote::Unknown);
    }
}

/// `f` names the side `word` (a word of a winner's name) names: the word
/// itself, or the team's city, or the city's team ("Green Bay" / "the
/// Packers").
fn names_side(word: &str, f: &Facts) -> bool {
    f.mentions(word) || city_stands_for_team(word, |w| f.mentions(w))
}

/// Whether two backed sides' names name one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Teams {
    /// Every word of one name is a word of the other ("Rangers" / "New
    /// York Rangers"), or one is the other's city ("Green Bay" /
    /// "Packers").
    One,
    /// The names end in different words: a club's own name comes last
    /// ("New York Rangers" / "New Jersey Devils": two cities' first word
    /// in common, two teams).
    Two,
    /// Neither: the same last word after different words ("Real Madrid"
    /// / "Atletico Madrid" are two clubs of one city, "LA Lakers" / "Los
    /// Angeles Lakers" one team), which the words cannot tell apart.
    Unclear,
}

/// `f` names the team `name` names: by its last word, the club's own name
/// (or its city or its team, [`names_side`]), not by a first word it may
/// share with another city ("New" of "New York").
fn names_team(name: &str, f: &Facts) -> bool {
    name.rsplit(' ')
        .next()
        .is_some_and(|last| names_side(last, f))
}

/// `name` ends in a team of the leagues' tables ("Los Angeles Kings"):
/// a side of a game, not a party or a person.
fn names_a_league_team(name: &str) -> bool {
    name.rsplit(' ')
        .next()
        .is_some_and(|last| TEAM_CITIES.iter().any(|&(team, _)| team == last))
}

/// Two backed sides whose names the words cannot tell one team or two
/// ([`Teams::Unclear`]): neither the same side nor the other.
fn unclear_sides(x: &str, y: &str, v: &mut Verdict) {
    v.say(|| {
        (
            Field::Entities,
            Finding::Missing,
            Some(x.to_owned()),
            Some(y.to_owned()),
            "names ending alike after other words: one team or two clubs of one city".into(),
        )
    });
    v.vote(Vote::Unknown);
}

/// Whether the names `x` and `y` of two backed sides name one team. A
/// word in common is not enough: two teams of one city, or of two
/// cities named alike ("New Orleans" / "New England"), share it.
pub(super) fn teams(x: &str, y: &str) -> Teams {
    let within = |a: &str, b: &str| a.split(' ').all(|w| b.split(' ').any(|v| v == w));
    // `a` is all city, and `b` names that city's team.
    let city_of = |a: &str, b: &str| {
        TEAM_CITIES.iter().any(|&(team, city)| {
            a.split(' ').all(|w| city.contains(&w)) && b.split(' ').any(|v| v == team)
        })
    };
    if within(x, y) || within(y, x) || city_of(x, y) || city_of(y, x) {
        Teams::One
    } else if x.rsplit(' ').next() == y.rsplit(' ').next() {
        Teams::Unclear
    } else {
        Teams::Two
    }
}

/// A Double Chance bet on one side ("Real Madrid or Draw") and a win on
/// the other ("Barcelona beat Real Madrid"): the backed side of each,
/// and whether the Double Chance is the first market's.
pub(crate) fn double_chance<'p>(p: &Pair<'p>) -> Option<(&'p str, &'p str, bool)> {
    let backs = |f: &'p Facts| {
        f.or_draw
            .as_deref()
            .filter(|_| f.winner.is_none() && f.words.contains("double-chance"))
    };
    match (p.fa.winner.as_deref(), p.fb.winner.as_deref()) {
        (Some(w), None) => backs(p.fb).map(|d| (w, d, false)),
        (None, Some(w)) => backs(p.fa).map(|d| (w, d, true)),
        _ => None,
    }
}

/// One side wins or the game ends level, against a win: the other side's
/// win is its negation (every result but that win), the same side's win
/// is narrower.
fn double_chance_against_a_win(p: &Pair<'_>, v: &mut Verdict) -> bool {
    let Some((win, or_draw, dc_first)) = double_chance(p) else {
        return false;
    };
    let (f_win, f_dc) = if dc_first { (p.fb, p.fa) } else { (p.fa, p.fb) };
    let sides = teams(win, or_draw);
    if sides == Teams::Unclear {
        unclear_sides(win, or_draw, v);
        return true;
    }
    let one_side = sides == Teams::One;
    let both_named = names_team(win, f_dc) && names_team(or_draw, f_win);
    if !(one_side || both_named) {
        return false;
    }
    v.say(|| {
        let note = if one_side {
            "a win or a draw against the win alone: the win is narrower"
        } else {
            "a win or a draw of one side is every result but the other side's win"
        };
        let finding = if one_side {
            Finding::Nested
        } else {
            Finding::Opposite
        };
        (
            Field::Entities,
            finding,
            Some(win.to_owned()),
            Some(format!("{or_draw} or draw")),
            note.into(),
        )
    });
    v.vote(match (one_side, dc_first) {
        (false, _) => Vote::Opposite,
        (true, true) => Vote::Wider,
        (true, false) => Vote::Narrower,
    });
    true
}

/// One of the two sides each backs is a team of a league without draws
/// ([`NO_DRAW_TEAMS`]), and neither side counts regulation time only: the
/// game is that league's and cannot end level, whatever the other side
/// is called ("Will the Nuggets win at Minnesota?" against the leg
/// "Denver at Minnesota Winner? Minnesota", Minnesota naming teams of
/// four leagues). Asked only of two sides found to back each other's
/// opponent.
fn a_no_draw_side(wa: &str, wb: &str, p: &Pair<'_>) -> bool {
    let regulation =
        |f: &Facts| f.raw.contains("regulation") || f.criteria_words.contains("regulation");
    // The nickname alone or after its own city: "Nuggets", "Denver
    // Nuggets", not "New York Red Bulls" (a club that can draw).
    let no_draw = |name: &str| {
        let mut words = name.rsplit(' ');
        let Some(last) = words.next() else {
            return false;
        };
        let before: Vec<&str> = words.collect();
        NO_DRAW_TEAMS.contains(&last)
            && (before.is_empty()
                || TEAM_CITIES
                    .iter()
                    .any(|&(team, city)| team == last && before.iter().all(|w| city.contains(w))))
    };
    !regulation(p.fa) && !regulation(p.fb) && (no_draw(wa) || no_draw(wb))
}

/// Who must win: "Celtics beat Lakers" against "Lakers beat Celtics"
/// names the same teams with YES on the other side (and a Double Chance,
/// [`double_chance_against_a_win`], the rest of the results). That is the question
/// asked the other way only where the game cannot end level (an NBA game,
/// or "including overtime" on both); where it can (a soccer match, a chess
/// game, an NFL regular-season game), a draw is NO on both: not
/// complements, and which of the two the league allows is not read here,
/// so `unsure`.
pub fn winner_differs(p: &Pair<'_>, v: &mut Verdict) {
    if double_chance_against_a_win(p, v) {
        return;
    }
    let (Some(wa), Some(wb)) = (&p.fa.winner, &p.fb.winner) else {
        return;
    };
    let sides = teams(wa, wb);
    if sides == Teams::Unclear {
        unclear_sides(wa, wb, v);
    } else if sides == Teams::One {
        v.say(|| {
            (
                Field::Entities,
                Finding::Agrees,
                Some(wa.clone()),
                Some(wb.clone()),
                "the same side must win".into(),
            )
        });
    } else if names_team(wa, p.fb) && names_team(wb, p.fa) {
        v.say(|| {
            (
                Field::Entities,
                Finding::Opposite,
                Some(wa.clone()),
                Some(wb.clone()),
                "each needs the other side to win".into(),
            )
        });
        if game_without_draws(p) || a_no_draw_side(wa, wb, p) {
            v.vote(Vote::Opposite);
        } else {
            v.say(|| {
                (
                    Field::Entities,
                    Finding::Missing,
                    Some(wa.clone()),
                    Some(wb.clone()),
                    "a level game would be NO on both: complements only where it cannot end level"
                        .into(),
                )
            });
            v.vote(Vote::Unknown);
        }
    } else if [wa, wb].iter().any(|w| names_a_league_team(w)) {
        // Two sides backed, one of them not found among the other side's
        // names ("Los Angeles Kings Moneyline at Vegas Golden Knights" /
        // "Los Angeles at Vegas: Vegas wins?", Los Angeles having many
        // teams): not the same side, and not shown to be the other.
        v.say(|| {
            (
                Field::Entities,
                Finding::Missing,
                Some(wa.clone()),
                Some(wb.clone()),
                "two sides backed, one not named by the other".into(),
            )
        });
        v.vote(Vote::Unknown);
    }
}
