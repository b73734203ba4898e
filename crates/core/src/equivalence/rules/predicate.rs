//! The predicate: what is asked of the subject. Opposite predicates (read
//! from [`super::super::lexicon::ANTONYMS`]), the measured quantity
//! ([`super::super::lexicon::QUANTITIES`]), a stage of a competition
//! against winning it, how much wording the two share, and negation.

use super::super::engine::{Aspect, Pair, Verdict, Vote};
use super::super::facts::Facts;
use super::super::lexicon::{
    ANTONYMS, COMPARATIVES, FILLER, MLB_ONLY_NAMES, MLB_TEAMS, NO_DRAW_TEAMS, OVERTIME_COUNTS,
    Opposition, QUANTITIES, Quantity, SHOOTOUT_TEAMS, SHOOTOUT_TEAMS_BY_CITY, STAGE_VERBS, STAGES,
    city_stands_for_team,
};
use super::super::{Field, Finding};
use super::unexplained::explained;

/// A stage short of the title ("reach the final", "reach the World
/// Series") against winning it: winning implies reaching every stage. A
/// stage verb counts where no threshold is asked ("reach $100,000" is
/// a price's level, not a stage): read once per market
/// (`Facts::stage_verb`).
pub fn stage_nested(p: &Pair<'_>, v: &mut Verdict) {
    let stage = |f: &Facts| f.stage_verb || STAGES.iter().any(|w| f.words.contains(*w));
    let win = |f: &Facts| f.words.contains("win");
    let stage_only = |f: &Facts| stage(f) && !win(f);
    let win_only = |f: &Facts| win(f) && !stage(f);
    let vote = if stage_only(p.fa) && win_only(p.fb) {
        Vote::Wider
    } else if win_only(p.fa) && stage_only(p.fb) {
        Vote::Narrower
    } else {
        return;
    };
    v.say(|| {
        (
            Field::Wording,
            Finding::Nested,
            None,
            None,
            "reaching a stage against winning: winning implies the stage".into(),
        )
    });
    v.staged = true;
    v.vote(vote);
}

/// The first entry of the antonym table the two predicates fill, one
/// side each.
fn antonym(fa: &Facts, fb: &Facts) -> Option<(&'static str, &'static str, Opposition)> {
    antonym_entry(fa, fb).map(|(_, x, y, kind)| (x, y, kind))
}

/// [`antonym`] with the index of its entry in [`ANTONYMS`].
fn antonym_entry(
    fa: &Facts,
    fb: &Facts,
) -> Option<(usize, &'static str, &'static str, Opposition)> {
    ANTONYMS.iter().enumerate().find_map(|(i, &(_, _, kind))| {
        let side = |f: &Facts| f.predicates.get(i).copied().unwrap_or_default();
        let ((ax, ay), (bx, by)) = (side(fa), side(fb));
        match (ax, by) {
            (Some(x), Some(y)) => Some((i, x, y, kind)),
            _ => ay.zip(bx).map(|(y, x)| (i, y, x, kind)),
        }
    })
}

/// "above" on one side and "below" on the other, where neither states a
/// number (a threshold's comparator is the threshold rules' to compare).
fn comparative(fa: &Facts, fb: &Facts) -> Option<(&'static str, &'static str)> {
    if fa.threshold.is_some() || fb.threshold.is_some() {
        return None;
    }
    let (up, down) = COMPARATIVES;
    let first =
        |f: &Facts, words: &[&'static str]| words.iter().copied().find(|w| f.raw.contains(*w));
    let one_way = |f: &Facts, these: &[&'static str], those: &[&'static str]| {
        first(f, these).filter(|_| first(f, those).is_none())
    };
    match (one_way(fa, up, down), one_way(fb, down, up)) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => one_way(fa, down, up).zip(one_way(fb, up, down)),
    }
}

/// The negative word of a pair of complementary predicates ("out",
/// "leave", "miss") on one side only, the other writing neither ("Tusk out
/// as PM before 2028" / "Tusk PM on December 31, 2027"): the other asks
/// the state, this side its end, which the rules do not line up with the
/// other's date. Not "hold",
/// which is also what an election or a holder does ("election held",
/// "holds 10,000 BTC"), nor where a pair of opposites was found.
/// Also which side writes it (`true`: the first) and the first word of
/// its entry's positive side ("remain", "make").
pub(crate) fn one_sided_complement(
    fa: &Facts,
    fb: &Facts,
) -> Option<(&'static str, bool, &'static str)> {
    if antonym_entry(fa, fb).is_some() {
        return None;
    }
    let side = |f: &Facts, i: usize| f.predicates.get(i).copied().unwrap_or_default();
    ANTONYMS
        .iter()
        .enumerate()
        .filter(|(_, (xs, ys, kind))| {
            *kind == Opposition::Complementary && !xs.contains(&"hold") && !ys.contains(&"hold")
        })
        .find_map(|(i, (xs, _, _))| {
            let positive = xs.first().copied().unwrap_or_default();
            match (side(fa, i), side(fb, i)) {
                ((_, Some(y)), (None, None)) => Some((y, true, positive)),
                ((None, None), (_, Some(y))) => Some((y, false, positive)),
                _ => None,
            }
        })
}

/// The negative word of a pair of complementary predicates on one side
/// ("Putin out as president"), against the other side's negation of the
/// state with neither word ("Putin ceases to be President", "no longer
/// Supreme Leader"): both ask the state's negation, so the pair is
/// flipped here and again by the negation rule. Not where the leaving
/// side is negated too.
pub(crate) fn leaving_against_a_negated_state(p: &Pair<'_>) -> Option<&'static str> {
    // Asked of every pair: most negate neither side, or both.
    if p.fa.negated == p.fb.negated {
        return None;
    }
    let (word, first, _) = one_sided_complement(p.fa, p.fb)?;
    let (leaving, other) = if first { (p.fa, p.fb) } else { (p.fb, p.fa) };
    (other.negated && !leaving.negated).then_some(word)
}

/// Predicates that are each other's negation ("hold" / "change",
/// "remain" / "leave", "make" / "miss", "above" / "below" with no
/// number): YES on one is NO on the other. One of them on one side only
/// is a predicate the other does not state: neither the same nor nested.
pub fn antonym_negation(p: &Pair<'_>, v: &mut Verdict) {
    if let Some(word) = leaving_against_a_negated_state(p) {
        v.say(|| {
            (
                Field::Negation,
                Finding::Opposite,
                Some(word.into()),
                None,
                format!(
                    "{word} against the state's negation (\"ceases to be\", \"no longer\"): each is the negation of the state"
                ),
            )
        });
        v.flip();
        return;
    }
    if let Some((word, ..)) = one_sided_complement(p.fa, p.fb) {
        if let Some(end) = super::tenure::state_against_its_end(p)
            && !end.by_ceasing
        {
            v.say(|| {
                (
                    Field::Negation,
                    Finding::Opposite,
                    None,
                    Some(word.into()),
                    format!(
                        "a state held on the last day of the window against {word} by then: one is the negation of the other"
                    ),
                )
            });
            v.flip();
            return;
        }
        v.say(|| {
            (
                Field::Negation,
                Finding::Missing,
                Some(word.into()),
                None,
                format!("{word} on one side only, and neither it nor its opposite on the other"),
            )
        });
        v.vote(Vote::Unknown);
        return;
    }
    let found = match antonym(p.fa, p.fb) {
        Some((x, y, Opposition::Complementary)) => Some((x, y)),
        _ => comparative(p.fa, p.fb),
    };
    if let Some((x, y)) = found {
        v.say(|| {
            (
                Field::Negation,
                Finding::Opposite,
                Some(x.into()),
                Some(y.into()),
                format!("{x} / {y}: one is the negation of the other"),
            )
        });
        v.flip();
    }
}

/// Opposite predicates both of which can be NO ("cut" / "hike" when the
/// rate can be held): two questions.
pub fn antonym_contrary(p: &Pair<'_>, v: &mut Verdict) {
    if let Some((x, y, Opposition::Contrary)) = antonym(p.fa, p.fb) {
        v.say(|| {
            (
                Field::Wording,
                Finding::Conflicts,
                Some(x.into()),
                Some(y.into()),
                format!("opposite actions, both of which can fail to happen: {x} / {y}"),
            )
        });
        v.veto();
    }
}

/// The game cannot end level: two teams of a league without draws
/// ([`NO_DRAW_TEAMS`]) named on both sides, both markets' own words
/// count overtime ([`OVERTIME_COUNTS`]), or both are moneylines on a game
/// of two NHL teams ([`SHOOTOUT_TEAMS`], or [`SHOOTOUT_TEAMS_BY_CITY`]
/// with their city); and neither counts regulation time only ("in
/// regulation"), where a level score is NO for either team.
pub(crate) fn game_without_draws(p: &Pair<'_>) -> bool {
    // The rules text's words too: "Resolves Yes if the Canadiens win the
    // game, including overtime and a shootout" says it as a title would.
    let says = |f: &Facts, w: &str| f.raw.contains(w) || f.criteria_words.contains(w);
    let regulation_only = |f: &Facts| says(f, "regulation");
    if regulation_only(p.fa) || regulation_only(p.fb) {
        return false;
    }
    let overtime_counts = |f: &Facts| {
        OVERTIME_COUNTS
            .iter()
            .any(|words| words.iter().all(|w| f.raw.contains(*w)))
    };
    let overtime_in_rules = |f: &Facts| {
        OVERTIME_COUNTS
            .iter()
            .any(|words| words.iter().all(|w| says(f, w)))
    };
    let two_of = |teams: &[&str]| {
        teams
            .iter()
            .filter(|team| p.fa.mentions(team) && p.fb.mentions(team))
            .nth(1)
            .is_some()
    };
    let moneyline = |f: &Facts| f.raw.contains("moneyline");
    let both_name = |word: &str| p.fa.mentions(word) && p.fb.mentions(word);
    // An NHL team both sides name, or one names and the other names by
    // its city ("Vegas Golden Knights" / "Vegas"); a name other leagues
    // share counts where one side writes the city that makes it the NHL's
    // ("New York Rangers" / "Rangers").
    let either_names = |w: &str| p.fa.mentions(w) || p.fb.mentions(w);
    let by_team_or_city = |team: &str| {
        let named = |f: &Facts| f.mentions(team) || city_stands_for_team(team, |w| f.mentions(w));
        either_names(team) && named(p.fa) && named(p.fb)
    };
    let nhl_teams = || {
        SHOOTOUT_TEAMS
            .iter()
            .filter(|team| by_team_or_city(team))
            .count()
            + SHOOTOUT_TEAMS_BY_CITY
                .iter()
                .filter(|(team, city)| {
                    let named = |f: &Facts| f.mentions(team) || city.iter().all(|w| f.mentions(w));
                    either_names(team)
                        && named(p.fa)
                        && named(p.fb)
                        && city.iter().all(|w| either_names(w))
                })
                .count()
    };
    // A team one side names and the other names by its city ("Dallas
    // Mavericks Moneyline" / "Dallas at Minnesota"); an MLB game whose
    // one team's name only baseball has ("Tigers" / "Red Sox"); an NHL
    // moneyline against a side whose rules count overtime and the
    // shootout, which the moneyline counts too.
    let by_name_or_city = |team: &str| {
        let named = |f: &Facts| f.mentions(team) || city_stands_for_team(team, |w| f.mentions(w));
        (p.fa.mentions(team) || p.fb.mentions(team)) && named(p.fa) && named(p.fb)
    };
    let no_draw_teams = || {
        NO_DRAW_TEAMS
            .iter()
            .filter(|t| by_name_or_city(t))
            .nth(1)
            .is_some()
    };
    let mlb_game = || {
        MLB_TEAMS.iter().filter(|t| both_name(t)).nth(1).is_some()
            && MLB_ONLY_NAMES.iter().any(|t| both_name(t))
    };
    let counts_overtime = |f: &Facts| moneyline(f) || overtime_in_rules(f);
    two_of(NO_DRAW_TEAMS)
        || (overtime_counts(p.fa) && overtime_counts(p.fb))
        || (moneyline(p.fa) && moneyline(p.fb) && nhl_teams() >= 2)
        || no_draw_teams()
        || mlb_game()
        || (counts_overtime(p.fa) && counts_overtime(p.fb) && nhl_teams() >= 2)
}

/// "win" / "lose": the negation of each other only where no draw or no
/// contest can happen, which the text does not say unless it names a
/// game of a league without draws.
pub fn antonym_conditional(p: &Pair<'_>, v: &mut Verdict) {
    let Some((x, y, Opposition::Conditional)) = antonym(p.fa, p.fb) else {
        return;
    };
    if game_without_draws(p) {
        v.say(|| {
            (
                Field::Negation,
                Finding::Opposite,
                Some(x.into()),
                Some(y.into()),
                format!(
                    "{x} / {y}: one is the negation of the other in a game that cannot end level"
                ),
            )
        });
        v.flip();
        return;
    }
    {
        v.say(|| {
            (
                Field::Wording,
                Finding::Missing,
                Some(x.into()),
                Some(y.into()),
                format!("{x} / {y}: opposites only if a draw or no contest cannot happen"),
            )
        });
        v.vote(Vote::Unknown);
    }
}

/// The members of a family of quantities a market names (or means by
/// naming none).
fn members(f: &Facts, i: usize, q: &Quantity) -> Vec<usize> {
    let mask = f.quantities.get(i).copied().unwrap_or(0);
    let named: Vec<usize> = (0..q.members.len())
        .filter(|m| mask & 1 << m != 0)
        .collect();
    if named.is_empty() {
        q.unstated.into_iter().collect()
    } else {
        named
    }
}

fn member_names(q: &Quantity, ms: &[usize]) -> Option<String> {
    let name = |i: &usize| q.members[*i].first().copied().unwrap_or("unstated");
    Some(ms.iter().map(name).collect::<Vec<_>>().join(", "))
}

/// Two questions measuring different members of one family of quantities
/// ("unemployment" / "inflation" above 5%) are two questions; naming the
/// same members is evidence on the measured quantity.
pub fn metric_differs(p: &Pair<'_>, v: &mut Verdict) {
    // A game's total points against one team's: another quantity of the
    // same game.
    if let (Some(a), Some(b)) = (p.fa.points_of, p.fb.points_of)
        && a != b
        && super::each_team::each_team_apart(a, b, v)
    {
        v.say(|| {
            (
                Field::Wording,
                Finding::Conflicts,
                Some(format!("{a:?}")),
                Some(format!("{b:?}")),
                "a game's total points against one team's".into(),
            )
        });
        v.veto();
    }
    let mut agreed = false;
    let mut named_any = false;
    for (i, q) in QUANTITIES.iter().enumerate() {
        if p.fa.quantities.get(i) == p.fb.quantities.get(i) {
            // The same members named, or none (the unstated one on both).
            let named = p.fa.quantities.get(i).is_some_and(|&m| m != 0);
            agreed |= named;
            named_any |= named;
            continue;
        }
        let (ma, mb) = (members(p.fa, i, q), members(p.fb, i, q));
        if ma.is_empty() || mb.is_empty() {
            continue;
        }
        if ma == mb {
            agreed = true;
            // Both meaning the unstated member is no evidence.
            named_any |= q.unstated.is_none_or(|u| ma != [u]);
            continue;
        }
        v.say(|| {
            (
                Field::Wording,
                Finding::Conflicts,
                member_names(q, &ma),
                member_names(q, &mb),
                format!("different {} measured", q.family),
            )
        });
        v.veto();
    }
    if agreed && !v.vetoed() && named_any {
        v.quantity_named = true;
        v.say(|| {
            (
                Field::Wording,
                Finding::Agrees,
                None,
                None,
                "the same measured quantity".into(),
            )
        });
    }
}

/// Words another rule compared: every word of both sides of a pair of
/// antonyms ("keep rates unchanged" / "change" is one matched concept),
/// a stage and "win", the words of a Double Chance compared with a win,
/// and a leaving word against the state held at the window's end.
pub(crate) fn matched_words(p: &Pair<'_>, staged: bool) -> Vec<&'static str> {
    let mut out = Vec::new();
    if super::subject::double_chance(p).is_some() {
        // With the other side's win, however it is written: "beat", or a
        // moneyline (a half-goal handicap given is one, `lex::rewrites`).
        out.extend(["double-chance", "draw", "moneyline"]);
    }
    if let Some((i, ..)) = antonym_entry(p.fa, p.fb)
        && let Some(&(xs, ys, _)) = ANTONYMS.get(i)
    {
        out.extend(xs.iter().chain(ys));
    }
    if staged {
        out.extend(STAGES);
        out.extend(STAGE_VERBS);
        out.push("win");
    }
    // Leaving, against the state held on the window's last day.
    if super::tenure::state_against_its_end(p).is_some()
        && let Some((word, ..)) = one_sided_complement(p.fa, p.fb)
    {
        out.push(word);
    }
    // Leaving, against the negation of the state.
    if let Some(word) = leaving_against_a_negated_state(p) {
        out.push(word);
    }
    out
}

/// Each content word of `x` (but those a rule matched), and whether `y`
/// accounts for it: by writing it, or, when `deep`, by anything
/// `unexplained::explained` reads. Read once, for the count of shared
/// words and for what a side adds.
fn accounted_words<'f>(
    x: &'f Facts,
    y: &Facts,
    matched: &[&str],
    deep: bool,
) -> Vec<(&'f str, bool)> {
    x.words
        .iter()
        .filter(|w| !matched.contains(&w.as_str()))
        .map(|w| {
            let accounted = y.words.contains(w) || (deep && explained(w, x, y, matched));
            (w.as_str(), accounted)
        })
        .collect()
}

/// How much of the content wording the two share: too little, and the
/// text cannot tell them the same; enough, and it is evidence on what is
/// measured.
pub fn wording(p: &Pair<'_>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    // A stage against winning, or a pair of opposite predicates, was
    // compared by its own rule: its words are one matched concept.
    let matched = matched_words(p, v.staged);
    let unmatched = |w: &&String| !matched.contains(&w.as_str());
    let count_a = fa.words.iter().filter(unmatched).count();
    let count_b = fb.words.iter().filter(unmatched).count();
    // A word the other side accounts for (its own word, a synonym, a
    // given name of a name it writes, a maker of what it names) is
    // shared: counted from each side, halved. The words written alike
    // are counted first; what accounts for the rest is read only when
    // they are not enough.
    let thresholds = fa.threshold.is_some() && fb.threshold.is_some();
    let judge = |deep: bool| {
        let (words_a, words_b) = (
            accounted_words(fa, fb, &matched, deep),
            accounted_words(fb, fa, &matched, deep),
        );
        let accounted = |words: &[(&str, bool)]| words.iter().filter(|(_, a)| *a).count();
        // Counted in halves, as a word accounted for on one side is half
        // shared: whole numbers, written without the float printer.
        let mut shared = accounted(&words_a) + accounted(&words_b);
        let mut union = 2 * (count_a + count_b) - shared;
        if !matched.is_empty() {
            shared += 2;
            union += 2;
        }
        let overlap = shared as f64 / union.max(2) as f64;
        // Both sides saying something the other does not (beyond the
        // names, which the subject rule compares, and the words matched
        // by a rule of their own) is two predicates unless the lexicon
        // found the same measured quantity in both.
        let adds = |x: &Facts, words: &[(&str, bool)]| {
            words.iter().any(|&(w, accounted)| {
                !accounted
                    && !FILLER.contains(&w)
                    && !x
                        .entities
                        .iter()
                        .any(|e| e.split(' ').any(|part| part == w))
            })
        };
        let enough = overlap >= 0.5 || (thresholds && overlap >= 0.25);
        let strong = (enough && !(adds(fa, &words_a) && adds(fb, &words_b)))
            || (v.quantity_named && thresholds);
        (shared, union, strong)
    };
    // Reading what accounts for the rest is worth its cost only where
    // `same` or `inverted` is still possible.
    let (shared, union, strong) = match judge(false) {
        written_alike @ (.., true) => written_alike,
        _ if v.open_to_equal() => judge(true),
        written_apart => written_apart,
    };
    v.say(|| {
        let unmatched: Vec<&str> = fa
            .words
            .symmetric_difference(&fb.words)
            .map(String::as_str)
            .collect();
        let (shared, union) = (Halves(shared), Halves(union));
        let note = if unmatched.is_empty() {
            format!("all {shared} content words shared")
        } else {
            format!(
                "{shared} of {union} content words shared or accounted for; unmatched: {}",
                unmatched.join(", ")
            )
        };
        let finding = if strong {
            Finding::Agrees
        } else {
            Finding::Missing
        };
        (Field::Wording, finding, None, None, note)
    });
    if strong {
        v.evidence(Aspect::Quantity);
    } else {
        v.vote(Vote::Unknown);
    }
}

/// A count in halves, written as the `f64` of its half was (`7`, `3.5`).
struct Halves(usize);

impl std::fmt::Display for Halves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let half = if self.0 % 2 == 1 { ".5" } else { "" };
        write!(f, "{}{half}", self.0 / 2)
    }
}

/// One asks the negative ("not", "avoid", "fail to").
pub fn negation(p: &Pair<'_>, v: &mut Verdict) {
    if p.fa.negated != p.fb.negated {
        v.say(|| {
            (
                Field::Negation,
                Finding::Opposite,
                Some(p.fa.negated.to_string()),
                Some(p.fb.negated.to_string()),
                "one asks the negative".into(),
            )
        });
        v.flip();
    }
}
