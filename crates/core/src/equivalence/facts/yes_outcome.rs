//! Which outcome of a binary market is its YES, read once per market.
//!
//! Most platforms name the outcomes yes/no. A sportsbook or exchange
//! names them for what they back instead: a selection and its opposite
//! ("Liverpool" / "Not Liverpool (Draw or Aston Villa)"), a game's two
//! sides, Over and Under. The title then names the one it is about
//! ("Liverpool vs Aston Villa - 1X2 - Liverpool"): that outcome is the
//! question the title asks, and so its YES. Where the title does not
//! tell them apart (a moneyline titled "Lakers vs. Celtics", both
//! outcomes named in it without a side), which one is YES stays unread
//! and the pair is not compared.

use super::super::words::name_of;
use crate::models::{Market, Outcome};

/// Which outcome of a market pays when its question is answered YES.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum YesOutcome {
    /// Outcomes named yes/no, prices keyed by "yes", no outcomes listed,
    /// or one outcome alone (a selection, which backs itself).
    #[default]
    Named,
    /// Two outcomes named otherwise; the title's question is the one at
    /// this index, so it is YES and the other NO.
    Selection(usize),
    /// Outcomes named otherwise, and nothing says which one is YES.
    Unread,
}

/// Names an outcome of the rest of a field carries ("Field", "Not
/// Liverpool (…)"): the other outcome is the selection.
const REST_OF_FIELD: &[&str] = &[
    "field",
    "the field",
    "other",
    "others",
    "any other",
    "all others",
    "the rest",
];

/// Words of an outcome's name that say nothing of which side it backs.
const LINKING: &[&str] = &["or", "the", "and", "of", "to"];

impl YesOutcome {
    /// Reads `market`'s outcomes against its title (see the module doc).
    pub fn of(market: &Market) -> Self {
        let is = |s: &str, w: &str| s.eq_ignore_ascii_case(w);
        let name = |o: &Outcome| o.name.clone().unwrap_or_else(|| o.id.clone());
        let Some(outcomes) = market.outcomes.as_deref().filter(|o| !o.is_empty()) else {
            return Self::Named;
        };
        let names_yes = outcomes
            .iter()
            .any(|o| is(&o.id, "yes") || o.name.as_deref().is_some_and(|n| is(n, "yes")));
        let priced_yes = market
            .current_prices
            .as_ref()
            .is_some_and(|p| p.keys().any(|k| is(k, "yes")));
        if names_yes || priced_yes {
            return Self::Named;
        }
        match outcomes {
            // One outcome backs itself, unless it is the NO.
            [only] if !is(&only.id, "no") && !only.name.as_deref().is_some_and(|n| is(n, "no")) => {
                Self::Named
            }
            [first, second] => {
                let title = market.title.as_deref().unwrap_or_default();
                selection(title, &name(first), &name(second)).map_or(Self::Unread, Self::Selection)
            }
            _ => Self::Unread,
        }
    }

    /// Which one is YES is not read: the pair is not compared.
    pub fn unread(self) -> bool {
        self == Self::Unread
    }

    /// The name of the outcome that pays on YES (`yes` true) or on NO,
    /// where the outcomes are named for a selection: `None` for yes/no.
    pub fn outcome_name(self, market: &Market, yes: bool) -> Option<String> {
        let Self::Selection(k) = self else {
            return None;
        };
        let at = if yes { k } else { 1 - k.min(1) };
        let o = market.outcomes.as_deref()?.get(at)?;
        Some(o.name.clone().unwrap_or_else(|| o.id.clone()))
    }

    /// The side of a game or field the selection backs, where its name is
    /// a side alone ("Jannik Sinner", "Portugal", "Liverpool (DNB)")
    /// the title writes (a word of it at least: "Match Winner: Sinner"):
    /// who must win for YES, as a title's "X to win" says (lower-case and
    /// aliased as every name is). `None` for a line, a total, a Double
    /// Chance or a name the title does not write.
    pub fn side_backed(self, market: &Market) -> Option<String> {
        let name = self.outcome_name(market, true)?;
        let side = name.split('(').next().unwrap_or_default();
        let title = tokens(market.title.as_deref().unwrap_or_default()).collect::<Vec<_>>();
        let words: Vec<String> = tokens(side).collect();
        let plain =
            |w: &String| w.chars().all(char::is_alphabetic) && !NOT_A_SIDE.contains(&w.as_str());
        let written = words.iter().any(|w| title.contains(w));
        (!words.is_empty() && written && words.iter().all(plain)).then(|| {
            words
                .iter()
                .map(|w| name_of(w))
                .collect::<Vec<_>>()
                .join(" ")
        })
    }
}

/// Words of a selection's name that make it more than a side: a total,
/// a Double Chance, a negation.
const NOT_A_SIDE: &[&str] = &[
    "over", "under", "or", "draw", "not", "no", "yes", "field", "tie",
];

/// The index of the outcome the title asks about: the one the other
/// names as the rest of the field, else the one whose name the title's
/// selection part writes more of (by share of its words).
fn selection(title: &str, first: &str, second: &str) -> Option<usize> {
    let rest = |n: &str| {
        let n = n.trim().to_lowercase();
        REST_OF_FIELD.contains(&n.as_str()) || n.starts_with("not ")
    };
    match (rest(first), rest(second)) {
        (false, true) => return Some(0),
        (true, false) => return Some(1),
        (true, true) => return None,
        (false, false) => {}
    }
    let words = selection_words(title);
    let share = |n: &str| {
        let own: Vec<String> = tokens(n)
            .filter(|w| !LINKING.contains(&w.as_str()))
            .collect();
        let found = own.iter().filter(|w| words.contains(w)).count();
        // Compared as fractions without division: found / len.
        (found, own.len().max(1))
    };
    let ((f1, n1), (f2, n2)) = (share(first), share(second));
    match (f1 * n2).cmp(&(f2 * n1)) {
        std::cmp::Ordering::Greater if f1 > 0 => Some(0),
        std::cmp::Ordering::Less if f2 > 0 => Some(1),
        _ => None,
    }
}

/// The words of the title's parts that are not its game ("Liverpool vs
/// Aston Villa - 1X2 - Liverpool" keeps "1X2 - Liverpool"): a part naming
/// both sides of a game ("@", "vs", "v") names no side. Empty when every
/// part is a game; a title of one part is read whole (its outcomes'
/// shares then tell the side, or tie).
fn selection_words(title: &str) -> Vec<String> {
    let is_game = |part: &str| tokens(part).any(|w| matches!(w.as_str(), "@" | "vs" | "v"));
    let parts: Vec<&str> = title
        .split(['|', '—', '–'])
        .flat_map(|p| p.split(" - "))
        .collect();
    let mut words: Vec<String> = if parts.len() > 1 {
        parts
            .iter()
            .filter(|p| !is_game(p))
            .flat_map(|p| tokens(p))
            .collect()
    } else {
        tokens(title).collect()
    };
    words.sort();
    words.dedup();
    words
}

/// Lower-case words of `text`, a signed line kept whole ("-1.5", "+3.5"),
/// "@" kept as a word.
fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '+' | '-' | '.' | '@')))
        .map(|w| {
            let w = w.trim_end_matches('.');
            // A sign is kept only on a number: "-" alone or before a word
            // is punctuation.
            let signed = w.starts_with(['+', '-'])
                && w.get(1..)
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
            if signed {
                w
            } else {
                w.trim_start_matches(['+', '-'])
            }
            .to_lowercase()
        })
        .filter(|w| !w.is_empty())
}
