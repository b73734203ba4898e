//! Is this market on one platform the same question as that one on
//! another? [`classify`] compares two markets and says `same`,
//! `inverted` (YES here is NO there), `subset`/`superset` (one question
//! is narrower), `different` or `unsure`, with the reasons a person can
//! check, each naming the rule that found it ([`RuleCode`]).
//!
//! The classifier is a table of named rules (`rules`), run by a loop
//! (`engine`) over the facts read from each market (`facts`) and the
//! lexicons of opposite predicates, measured quantities and numbered
//! events ([`lexicon`]). A rule gives evidence, a vote on the relation,
//! or a veto: any veto (another measured quantity, another comparator on
//! one value, a band against a tail, another cutoff or time of day,
//! another subject, another settlement source, another void branch, a
//! contrary predicate) makes the questions `different`; `same` and
//! `inverted` need positive evidence on the subject, the measured
//! quantity, the threshold and the window. Never a score: where the text
//! cannot tell, the answer is `unsure`.
//!
//! [`find_pairs`] finds the candidates in a list without comparing every
//! pair: markets are grouped by (name, day) — the names they mention and
//! the day their question is about, or their close day; deadlines,
//! periods and undated questions also by year — and only markets of
//! different platforms sharing a group are compared.
//!
//! Everything is deterministic: the same markets give the same pairs, in
//! the same order, with the same reasons.

mod engine;
pub mod facts;
mod legs;
mod lex;
pub mod lexicon;
mod ranked;
mod read;
mod rules;
mod short_forms;
mod totals;
mod word_set;
mod words;

use crate::models::Market;
pub use engine::RuleCode;
pub use facts::{Comparator, DateFact, Facts, Threshold};
use serde::Serialize;
use std::collections::HashMap;
pub use word_set::WordSet;

const DAY_MS: i64 = 86_400_000;
/// Where the year buckets of deadlines start among the day buckets of
/// [`find_pairs`] (far beyond any day number).
const DEADLINE_BUCKETS: i64 = 1 << 40;
/// A period at least this long (a half year, a year, a season) is also
/// filed under its year by [`find_pairs`].
const LONG_PERIOD_DAYS: i64 = 180;
/// Close times further apart than this are reported as disagreeing.
pub(crate) const CLOSE_TOLERANCE_MS: i64 = 3_600_000;

/// How two questions relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// YES on one is YES on the other.
    Same,
    /// YES on one is NO on the other.
    Inverted,
    /// YES on the first implies YES on the second (the first is narrower).
    Subset,
    /// YES on the second implies YES on the first.
    Superset,
    Different,
    /// The data cannot tell.
    Unsure,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Same => "same",
            Self::Inverted => "inverted",
            Self::Subset => "subset",
            Self::Superset => "superset",
            Self::Different => "different",
            Self::Unsure => "unsure",
        }
    }
}

/// What a reason is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    MarketType,
    Platform,
    Entities,
    Date,
    Threshold,
    Numbers,
    Wording,
    Negation,
    OutcomeMapping,
    ResolutionSource,
    ResolutionCriteria,
    CloseTime,
}

/// What was found about a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// Both say the same.
    Agrees,
    /// They say different things: the questions differ.
    Conflicts,
    /// One is narrower than the other.
    Nested,
    /// One is the opposite of the other.
    Opposite,
    /// A field that disagrees without making the questions different
    /// (close time, resolution source): a risk to check.
    Disagrees,
    /// One side or both do not say.
    Missing,
}

/// One checkable reason: the field, what each market says, and what that
/// means.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    /// The rule that found it.
    pub rule: RuleCode,
    pub field: Field,
    pub finding: Finding,
    /// What the first market says, as read.
    pub a: Option<String>,
    /// What the second market says, as read.
    pub b: Option<String>,
    pub note: String,
}

/// How YES of the first market maps onto the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeMapping {
    /// YES here is YES there.
    YesYes,
    /// YES here is NO there.
    YesNo,
}

/// The verdict on a pair of markets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classification {
    pub relation: Relation,
    /// For `same`, `inverted`, `subset` and `superset`.
    pub outcome_mapping: Option<OutcomeMapping>,
    pub reasons: Vec<Reason>,
    /// Fields that disagree without changing the relation (close time,
    /// a missing resolution source, the criteria's thresholds).
    pub disagreements: Vec<Field>,
    /// The rules that found two different questions: any one makes the
    /// relation `different`. Classified without reasons ([`find_pairs`]'
    /// `without_reasons`), only the first veto is listed: the rules after
    /// it are not run.
    pub vetoes: Vec<RuleCode>,
}

impl Classification {
    /// `same` or `inverted` with no disagreeing field: a price gap between
    /// the two is a gap on one question, not "if the two questions are the
    /// same".
    pub fn is_firm(&self) -> bool {
        matches!(self.relation, Relation::Same | Relation::Inverted)
            && self.disagreements.is_empty()
    }
}

impl Classification {
    /// Whether a price gap between the two may be shown at all: only for
    /// `same` or `inverted`, which no rule vetoed. A gap on any other
    /// relation is a bet on two questions, not an arbitrage.
    pub fn allows_gap(&self) -> bool {
        matches!(self.relation, Relation::Same | Relation::Inverted) && self.vetoes.is_empty()
    }
}

/// Compares two markets (see the module doc).
pub fn classify(a: &Market, b: &Market) -> Classification {
    engine::run(a, b, &Facts::of(a), &Facts::of(b), true)
}

pub(crate) fn norm(text: Option<&str>) -> Option<String> {
    let t: String = text?
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!t.is_empty()).then_some(t)
}

pub(crate) fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// Options of [`find_pairs`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairOptions {
    /// Also return pairs classified `different` (look-alikes), which are
    /// left out by default.
    pub include_different: bool,
    /// Also compare markets of one platform.
    pub same_platform: bool,
    /// Classify without the reasons (relation, outcome mapping and
    /// disagreeing fields only): for long lists, whose reasons are read
    /// one pair at a time with [`classify`].
    pub without_reasons: bool,
    /// Keep only the pairs of these relations (`include_different` is
    /// then not read). Each candidate is first classified without its
    /// reasons; those of the pairs kept are built afterwards, so the pairs
    /// left out cost no reasons.
    pub relations: Option<Vec<Relation>>,
}

/// A pair of markets found by [`find_pairs`]: indexes into the list given
/// and the classification of `a` against `b`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub classification: Classification,
}

/// Finds and classifies the candidate pairs of a list of markets (see
/// the module doc). Pairs come ordered by `a`, then `b`; `a < b`.
pub fn find_pairs(markets: &[Market], options: &PairOptions) -> Vec<Pair> {
    let facts: Vec<Facts> = markets.iter().map(Facts::of).collect();
    let candidates = candidates(markets, &facts, options);
    let kept = |relation: Relation| match &options.relations {
        Some(wanted) => wanted.contains(&relation),
        None => options.include_different || relation != Relation::Different,
    };
    // With a filter, a pair's reasons are built only once it is kept.
    let reasons_later = options.relations.is_some() && !options.without_reasons;
    candidates
        .into_iter()
        .filter_map(|(i, j)| {
            let pair = engine::Pair {
                a: &markets[i],
                b: &markets[j],
                fa: &facts[i],
                fb: &facts[j],
            };
            let detailed = !options.without_reasons && !reasons_later;
            let mut classification = engine::run_kept(&pair, detailed, kept)?;
            if reasons_later {
                classification = engine::run(pair.a, pair.b, pair.fa, pair.fb, true);
            }
            Some(Pair {
                a: i,
                b: j,
                classification,
            })
        })
        .collect()
}

/// The words a market is filed under: its names and what they may be
/// written short as (`short_forms`); with no subject named
/// but the US or a measured quantity ("National average gas price",
/// "Nonfarm payrolls"), also its longest words and the quantities it
/// names; and the commodity it is about, whatever else it names.
fn key_words(f: &Facts) -> Vec<&str> {
    let mut words: Vec<&str> = f.entities.iter().flat_map(|e| e.split(' ')).collect();
    let short_keys = f.short_forms.keys.iter().map(String::as_str);
    if !words
        .iter()
        .any(|w| *w != "us" && !lexicon::names_a_quantity(w))
    {
        let mut longest: Vec<&str> = f.words.iter().map(String::as_str).collect();
        longest.sort_by(|x, y| y.len().cmp(&x.len()).then(x.cmp(y)));
        longest.truncate(3);
        words.extend(longest);
        for key in lexicon::quantity_keys(&f.quantities) {
            words.push(key);
        }
    }
    words.extend(short_keys);
    for key in lexicon::commodity_keys(&f.quantities) {
        words.push(key);
    }
    words
}

/// The pairs [`find_pairs`] compares: markets of different platforms (or
/// of one, if asked) filed under a shared (word, day) key.
fn candidates(markets: &[Market], facts: &[Facts], options: &PairOptions) -> Vec<(usize, usize)> {
    // (key word, day) → markets, each filed under its `candidate_keys`.
    // A hash map: only looked up, never walked, so its order cannot leak
    // into the result.
    let mut groups: HashMap<(&str, i64), Vec<usize>> = HashMap::new();
    let mut keys_of: Vec<Vec<(&str, i64)>> = Vec::with_capacity(markets.len());
    for (i, f) in facts.iter().enumerate() {
        let keys = candidate_keys(f);
        for k in &keys {
            groups.entry(*k).or_default().push(i);
        }
        keys_of.push(keys);
    }
    // Each market's partners gathered, sorted and deduplicated in one
    // list reused for every market: the pairs come out ordered by `i`,
    // then `j`, as a set of pairs would give them, without a tree node
    // per pair.
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    let mut partners: Vec<usize> = Vec::new();
    for (i, keys) in keys_of.iter().enumerate() {
        partners.clear();
        for &(word, day) in keys {
            // A day either side: platforms close a day's question at its
            // end or at the next midnight. A year either side: "before
            // Jan 1, 2027" is read as ending in 2027, and a deadline a
            // year later is a wider question.
            for d in day - 1..=day + 1 {
                let Some(members) = groups.get(&(word, d)) else {
                    continue;
                };
                for &j in members {
                    if j <= i {
                        continue;
                    }
                    let same_platform =
                        markets[i].platform.is_some() && markets[i].platform == markets[j].platform;
                    if same_platform && !options.same_platform {
                        continue;
                    }
                    partners.push(j);
                }
            }
        }
        partners.sort_unstable();
        partners.dedup();
        candidates.extend(partners.iter().map(|&j| (i, j)));
    }
    candidates
}

/// The keys a market is filed under for `candidates`: each of its names
/// (or, with none, its three longest words) with its day (the first day
/// of the date it names, else its close day), its year or month where
/// its date is a deadline or a long period, and a year-end's last day;
/// none for a market with no day at all.
fn candidate_keys(f: &Facts) -> Vec<(&str, i64)> {
    let Some(day) = f
        .date
        .as_ref()
        .map(|d| d.first_day)
        .or(f.close_ms.map(day_of))
    else {
        return Vec::new();
    };
    let mut words = key_words(f);
    // The two sides of a contest meet: "Democrats win" and "a
    // Republican wins" are one question asked the other way round.
    let sides: Vec<&str> = words
        .iter()
        .filter_map(|w| {
            lexicon::OPPOSED
                .iter()
                .find_map(|&(x, y)| (*w == x).then_some(y).or((*w == y).then_some(x)))
        })
        .collect();
    words.extend(sides);
    words.sort_unstable();
    words.dedup();
    // A deadline, a period and an undated question are also filed
    // under their year: an earlier deadline of the same question (a
    // narrower one), "in 2026" against "before 2027", "2026 Oscars"
    // against a title naming no date fall on other days. A deadline
    // is filed under its month too ("before July" / "in June"). Not
    // the questions about one day: a daily series' strikes would all
    // meet.
    // A year's question on the end of a state also meets the
    // questions on its last day: "ceases to be PM in 2027" and "still
    // PM on December 31, 2027" ask one thing from either side
    // (`rules::tenure`).
    let year_end = f
        .date
        .as_ref()
        .filter(|d| !d.deadline && d.last_day - d.first_day >= LONG_PERIOD_DAYS)
        .filter(|_| rules::tenure::asks_an_end(f))
        .map(|d| d.last_day);
    let (year, month) = match &f.date {
        Some(d) if d.deadline => {
            let (y, m, _) = crate::time::civil_from_days(d.last_day);
            (
                Some(DEADLINE_BUCKETS + y),
                Some(crate::time::days_from_civil(y, m, 1)),
            )
        }
        // A month or a quarter meets its like on its first day; only
        // the long periods (a year, a season) are filed under a year,
        // or every monthly figure of a year would meet every other.
        Some(d) if d.last_day - d.first_day >= LONG_PERIOD_DAYS => (
            Some(DEADLINE_BUCKETS + crate::time::civil_from_days(d.last_day).0),
            rules::window_otherwise::event_month_of(f),
        ),
        Some(_) => (None, None),
        None => (
            Some(DEADLINE_BUCKETS + crate::time::civil_from_days(day).0),
            None,
        ),
    };
    words
        .into_iter()
        .flat_map(|w| {
            std::iter::once((w, day))
                .chain(year.map(|y| (w, y)))
                .chain(month.filter(|&m| m != day).map(|m| (w, m)))
                .chain(year_end.map(|e| (w, e)))
        })
        .collect()
}

#[cfg(test)]
mod field_facts;
#[cfg(test)]
mod field_numbers;
#[cfg(test)]
mod notations;
#[cfg(test)]
mod plain_words;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod verdicts_log;
#[cfg(test)]
mod worked_market;
#[cfg(test)]
mod written_otherwise;
#[cfg(test)]
mod written_otherwise_eighteen;
#[cfg(test)]
mod written_otherwise_eleven;
#[cfg(test)]
mod written_otherwise_fifteen;
#[cfg(test)]
mod written_otherwise_fourteen;
#[cfg(test)]
mod written_otherwise_lead_sixteen;
#[cfg(test)]
mod written_otherwise_seventeen;
#[cfg(test)]
mod written_otherwise_sixteen;
#[cfg(test)]
mod written_otherwise_ten;
#[cfg(test)]
mod written_otherwise_thirteen;
#[cfg(test)]
mod written_otherwise_twelve;
#[cfg(test)]
mod written_otherwise_twenty;
#[cfg(test)]
mod written_otherwise_twentyone;
#[cfg(test)]
mod written_otherwise_twentythree;
#[cfg(test)]
mod written_otherwise_twentytwo;
