//! What a rules text's leftover words do to a verdict, once the
//! subject, quantity, threshold and window agree and no veto fired (the
//! fifteenth round: docs/benchmarks.md, "Fifteenth round: recall with
//! rules texts (branch recall18)").
//!
//! Two platforms' rules for one question differ in boilerplate: who
//! publishes the figure, how it is announced, ties, delays and closing
//! instants written otherwise. The facts among those words are read once
//! per market (`facts/rules_facts.rs`: a release's vintage, a void or
//! refund branch, the price venues) and compared here, so that the fact
//! decides; the words of a class no reader compares yet (how much of a
//! game counts: `GAME_COUNT_WORDS`) still stop `same`; a name the rules
//! add may be left by one side only (two stations, two agencies are two
//! questions); any other rules word stops nothing.

use super::super::super::facts::Facts;
use super::super::super::facts::game_span::{LISTED_STARTERS, OVERTIME, SPAN, TIE_NO};
use super::super::super::facts::rules_facts::{
    FIRST_PRINT, LATER_PRINT, VOID_UNREAD, read_as_a_fact,
};
use super::super::super::lexicon::rules_boilerplate;
use super::super::super::lexicon::rules_classes::{
    FIGURE_BASIS_WORDS, GAME_COUNT_WORDS, VENUES, VINTAGE_WORDS, WINDOW_BASIS_WORDS, in_class,
};
use super::super::super::words::alias;

/// What a rules word one side leaves unaccounted does to the verdict.
pub(super) enum RulesWord {
    /// It states a fact no reader compares: it stops `same`.
    Fact,
    /// A reader compares its fact ([`rules_facts_unmatched`]).
    ReadAsAFact,
    /// A name or a publisher's word: one side may leave such words.
    OneSideOnly,
    /// A name the rules add (a station, a report, a venue): one side
    /// only, whatever publisher both name.
    NameOneSideOnly,
    /// It bears no fact the titles do not state.
    Plain,
}

/// The class of `w`, a word of `x`'s rules text, against `y`.
pub(super) fn rules_word_class(w: &str, x: &Facts, y: &Facts) -> RulesWord {
    // A window's basis the other side states, or a game's span both
    // state alike.
    if (in_class(WINDOW_BASIS_WORDS, w) && states_the_basis(w, y))
        || (in_class(GAME_COUNT_WORDS, w) && one_game_span(w, x, y))
    {
        RulesWord::Plain
    } else if [GAME_COUNT_WORDS, WINDOW_BASIS_WORDS, FIGURE_BASIS_WORDS]
        .iter()
        .any(|list| in_class(list, w))
    {
        RulesWord::Fact
    } else if read_as_a_fact(w) || (in_class(VINTAGE_WORDS, w) && x.rules_facts.vintage != 0) {
        RulesWord::ReadAsAFact
    } else if initials_account(w, x, y) || joined_pair_accounts(w, y) || of_one_publisher(w, x, y) {
        RulesWord::Plain
    } else if x.criteria_names.contains(w) {
        RulesWord::NameOneSideOnly
    } else if rules_boilerplate(w) {
        RulesWord::OneSideOnly
    } else {
        RulesWord::Plain
    }
}

/// Words of how much of a game counts ([`game_span`]'s span).
///
/// [`game_span`]: super::super::super::facts::game_span
const SPAN_WORDS: &[&str] = &[
    "extra",
    "overtime",
    "penaltie",
    "penalty",
    "regulation",
    "shootout",
    "stoppage",
];

/// `w`, a word of `x`'s rules of how much of a game counts or of a tie,
/// says what `y` says too: both state one span ("90 minutes plus
/// stoppage time; extra time and penalties do not count" / "regulation
/// time only"), or `x`'s tie resolves No on a question of a side
/// winning, which a tie does not meet anyway. Two spans, or a span
/// against a side silent on it, stay a fact.
fn one_game_span(w: &str, x: &Facts, y: &Facts) -> bool {
    let (sx, sy) = (x.rules_facts.game_span, y.rules_facts.game_span);
    if SPAN_WORDS.contains(&w) {
        return (sx & SPAN != 0 && sx & SPAN == sy & SPAN) || overtime_as_counted(x, y);
    }
    matches!(w, "tie" | "draw") && sx & TIE_NO != 0 && x.winner.is_some()
}

/// `w` is a word of a publisher both sides name ("bls.gov" against "the
/// Bureau of Labor Statistics", a title's "(SPC preliminary)" against
/// "the Storm Prediction Center's count"): one source named two ways.
pub(super) fn of_one_publisher(w: &str, x: &Facts, y: &Facts) -> bool {
    let both = x.rules_facts.publishers.bits & y.rules_facts.publishers.bits;
    both != 0 && x.rules_facts.publishers.wrote(both, w)
}

/// `x` counts overtime and `y`, silent on the span, counts points too: a
/// count of points (a game's, a team's, a player's) takes in overtime on
/// every platform unless its rules say otherwise ("Overtime counts" /
/// nothing). Regulation only against silence stays a fact.
fn overtime_as_counted(x: &Facts, y: &Facts) -> bool {
    let points = |f: &Facts| f.words.contains("point");
    x.rules_facts.game_span & SPAN == OVERTIME
        && y.rules_facts.game_span & SPAN == 0
        && points(x)
        && points(y)
}

/// `y` states the window's basis `w` names ("season" for "seasonal").
fn states_the_basis(w: &str, y: &Facts) -> bool {
    let stem = w.strip_suffix("al").unwrap_or(w);
    y.words
        .iter()
        .chain(y.criteria_content.iter())
        .any(|u| u.starts_with(stem))
}

/// The words of `f` that may be initials ("nws", "mpc", "ny").
fn initialisms(f: &Facts) -> impl Iterator<Item = &str> {
    f.raw
        .iter()
        .chain(f.criteria_words.iter())
        .map(String::as_str)
        .filter(|u| (2..=6).contains(&u.len()) && u.chars().all(|c| c.is_ascii_lowercase()))
}

/// Where `u` stands as the initials in a name's `letters`: anywhere for
/// three letters or more ("nws" in "National Weather Service Daily
/// Climate Report"), only as the whole name for two ("ny" is "New York",
/// not the "n" and "y" of a longer name).
fn initials_at(letters: &str, u: &str) -> Vec<usize> {
    match u.len() {
        2 if letters == u => vec![0],
        3.. => letters.match_indices(u).map(|(at, _)| at).collect(),
        _ => Vec::new(),
    }
}

/// `w` and the other side's words are one name written twice: `w` is
/// the initials of a name `y`'s rules write ("NWS" / "National Weather
/// Service", "NY" / "New York"), or a word of a name `x`'s rules write
/// whose initials `y` writes ("Monetary Policy Committee" / "MPC").
fn initials_account(w: &str, x: &Facts, y: &Facts) -> bool {
    let is_initials = (2..=6).contains(&w.len())
        && y.rules_facts
            .initials
            .iter()
            .any(|(letters, _)| !initials_at(letters, w).is_empty());
    is_initials
        || x.rules_facts.initials.iter().any(|(letters, words)| {
            initialisms(y).any(|u| {
                initials_at(letters, u).into_iter().any(|at| {
                    words[at..at + u.len()]
                        .iter()
                        .any(|n| n.as_deref() == Some(w))
                })
            })
        })
}

/// The quote currencies a pair may be written joined with, each with
/// the name the lexer reads it as ("USDT" is Tether).
const QUOTES: &[(&str, &str)] = &[("usdt", "tether"), ("usdc", "usdc"), ("usd", "usd")];

/// A trading pair written joined ("ETHUSDT"): its base and its quote's
/// two names.
fn joined_pair(w: &str) -> Option<(&str, (&str, &str))> {
    QUOTES.iter().find_map(|&(quote, name)| {
        w.strip_suffix(quote)
            .filter(|base| base.len() >= 2 && base.chars().all(|c| c.is_ascii_lowercase()))
            .map(|base| (base, (quote, name)))
    })
}

/// A pair written joined on one side and apart on the other ("ETHUSDT"
/// / "ETH/USDT"): the joined word, or the quote currency it holds.
fn joined_pair_accounts(w: &str, y: &Facts) -> bool {
    let mentions = |word: &str| y.raw.contains(word) || y.criteria_words.contains(word);
    if let Some((base, (quote, name))) = joined_pair(w) {
        return (mentions(base) || mentions(alias(base))) && (mentions(quote) || mentions(name));
    }
    y.criteria_words
        .iter()
        .filter_map(|u| joined_pair(u))
        .any(|(_, (quote, name))| w == quote || w == name)
}

/// The facts of `x`'s rules that `y` does not state alike: a later
/// vintage or two vintages, a void branch `y` is silent on, a venue `y`
/// does not name. A first print stated on one side only is what a side
/// silent on it settles on (an official figure as first published).
pub(super) fn rules_facts_unmatched(x: &Facts, y: &Facts) -> Vec<String> {
    let (rx, ry) = (&x.rules_facts, &y.rules_facts);
    let mut out = Vec::new();
    if rx.vintage != 0
        && rx.vintage != ry.vintage
        && !(rx.vintage == FIRST_PRINT && ry.vintage == 0)
    {
        let said = match rx.vintage {
            FIRST_PRINT => "a first print",
            LATER_PRINT => "a later print",
            _ => "a first print and a revision",
        };
        out.push(format!("rules: {said} where the other says otherwise"));
    }
    // Two void branches must resolve alike, each read; one side's branch
    // against a side silent on it may settle a cancelled event otherwise.
    if let Some(w) = rx.void_word
        && !y.words.contains(w)
        && (ry.void_word.is_none()
            || rx.void_outcomes != ry.void_outcomes
            || rx.void_outcomes & VOID_UNREAD != 0)
    {
        out.push(format!(
            "rules: a void branch ({w}) the other does not settle alike"
        ));
    }
    // Two spans of the game (regulation only against extra time
    // counted), however many of their words the two texts share.
    let (sx, sy) = (rx.game_span & SPAN, ry.game_span & SPAN);
    if sx != 0 && sy != 0 && sx != sy {
        out.push("rules: another span of the game than the other's".into());
    }
    // Listed starters on one side only: a starter changed before the game
    // voids that side and settles the other.
    if rx.game_span & LISTED_STARTERS != 0 && ry.game_span & LISTED_STARTERS == 0 {
        out.push("rules: void unless the listed starters start, where the other stands".into());
    }
    // A venue the other side does not name, where the other names a
    // source at all (a side silent on its source is read on any).
    let only_x = rx.venues & !ry.venues;
    if only_x != 0 && (ry.names_source || y.source.is_some()) {
        let named: Vec<&str> = VENUES
            .iter()
            .enumerate()
            .filter(|(bit, _)| only_x & (1 << bit) != 0)
            .map(|(_, v)| *v)
            .collect();
        out.push(format!("rules: the venue {}", named.join(", ")));
    }
    out
}
