//! What a market's text says, read without a dictionary of topics: the
//! names it mentions, its dates and deadlines, the threshold with its
//! comparator, the other numbers, and its content words.
//!
//! A tolerant reader: titles of different platforms word the same
//! question differently ("Bitcoin above $95,000 on March 3?", "Will BTC
//! close above $95k on Mar 3, 2026?"), so everything here is normalized
//! (units and multipliers applied, years completed from the close time,
//! a few aliases and synonyms folded) before two markets are compared.

use super::lex::{Tok, lex, word_at};
use super::read::{find_date_and_time, find_threshold};
use super::word_set::WordSet;
pub(crate) use super::words::month;
use super::words::{NEGATIONS, content_word, is_generic_noun, is_stopword, is_win_verb, name_of};
use crate::models::Market;
use crate::time::{civil_from_days, timestamp_ms};
use serde::Serialize;

pub(crate) const DAY_MS: i64 = 86_400_000;

/// How a threshold is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparator {
    /// Strictly above.
    Above,
    AtLeast,
    /// Strictly below.
    Below,
    AtMost,
    /// Both ends included.
    Between,
    /// Exactly the value: a size stated without a comparator ("cut 25
    /// bps").
    Exactly,
}

impl Comparator {
    fn label(self) -> &'static str {
        match self {
            Self::Above => "above",
            Self::AtLeast => "at least",
            Self::Below => "below",
            Self::AtMost => "at most",
            Self::Between => "between",
            Self::Exactly => "exactly",
        }
    }
}

/// A threshold and its comparator: "above $95,000" is `Above 95000 $`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threshold {
    pub comparator: Comparator,
    pub value: f64,
    /// The upper end of `Between`.
    pub upper: Option<f64>,
    /// `$`, `%`, `°F`, `bps`, or empty for a bare number.
    pub unit: String,
    /// Written "N+" (a sportsbook's "at least N").
    #[serde(skip)]
    pub plus_written: bool,
}

impl std::fmt::Display for Threshold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}",
            self.comparator.label(),
            number(self.value, &self.unit)
        )?;
        if let Some(u) = self.upper {
            write!(f, " and {}", number(u, &self.unit))?;
        }
        Ok(())
    }
}

fn number(value: f64, unit: &str) -> String {
    let v = if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        super::lex::display_f64(value)
    };
    match unit {
        "$" => format!("${v}"),
        "" => v,
        "%" | "°F" | "°C" => format!("{v}{unit}"),
        _ => format!("{v} {unit}"),
    }
}

/// A sportsbook line ("Celtics -6.5", "Heat +6.5"): a `-` or `+`
/// between a word and the number, read with its sign and the word it is
/// the line of, so the same number on the other team is another bet. A
/// range ("2025-26", "June 1-7") has a number before its dash.
fn line_of(tokens: &[Tok], i: usize) -> Option<(char, &str)> {
    let sign = match i.checked_sub(1).and_then(|k| tokens.get(k)) {
        Some(Tok::Sym(c @ ('-' | '+'))) => *c,
        _ => return None,
    };
    match i.checked_sub(2).and_then(|k| tokens.get(k)) {
        Some(Tok::Word { lower, .. }) => Some((sign, lower.as_str())),
        // Polymarket's "Spread: Lakers (-4.5)": the line in brackets.
        Some(Tok::Sym('(')) => match i.checked_sub(3).and_then(|k| tokens.get(k)) {
            Some(Tok::Word { lower, .. }) => Some((sign, lower.as_str())),
            _ => None,
        },
        _ => None,
    }
}

/// "1X2" at `i`, a book's name of its three-way result market: no
/// number (else "Aston Villa - 1X2" reads as a line of -1).
fn is_1x2(tokens: &[Tok], i: usize) -> bool {
    matches!(tokens.get(i), Some(Tok::Num { value, .. }) if *value == 1.0)
        && word_at(tokens, i + 1) == Some("x2")
}

/// The word at `i` begins a sentence of a rules text ("Use the FIX
/// rate"), so its capital says nothing of a name.
fn sentence_start(tokens: &[Tok], i: usize) -> bool {
    i.checked_sub(1)
        .is_none_or(|k| matches!(tokens.get(k), Some(Tok::Sym('.' | '!' | '?' | ':' | ';'))))
}

/// The days of the week, which English capitalizes though they name no
/// one ("from Friday through Sunday").
fn is_weekday(lower: &str) -> bool {
    matches!(
        lower,
        "monday"
            | "tuesday"
            | "wednesday"
            | "thursday"
            | "friday"
            | "saturday"
            | "sunday"
            | "mon"
            | "tue"
            | "wed"
            | "thu"
            | "fri"
            | "sat"
            | "sun"
    )
}

/// A date a question names, as a range of days (UTC, days since the
/// epoch): one day, a month, a quarter or a year.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DateFact {
    pub first_day: i64,
    pub last_day: i64,
    /// "before"/"by" the date: the question is about any time up to it.
    pub deadline: bool,
    /// The year was not written and was taken from the close time.
    pub year_inferred: bool,
    /// A year written as its last close ("the 2027 year-end close"): the
    /// day is the year's last trading day, which an exchange's calendar
    /// sets (see `rules::window`).
    #[serde(skip)]
    pub year_end_close: bool,
    /// The window runs on from the date ("in 2029 or later").
    #[serde(skip)]
    pub open_ended: bool,
}

impl DateFact {
    /// One day, asked about on that day (not "by" it).
    pub(crate) fn one_day(&self) -> bool {
        !self.deadline && self.first_day == self.last_day
    }
}

impl std::fmt::Display for DateFact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |d: i64| {
            let (y, m, dd) = civil_from_days(d);
            format!("{y:04}-{m:02}-{dd:02}")
        };
        if self.deadline {
            write!(f, "by ")?;
        }
        if self.open_ended {
            return write!(f, "from {} on", show(self.first_day));
        }
        if self.first_day == self.last_day {
            write!(f, "{}", show(self.first_day))
        } else {
            write!(f, "{} to {}", show(self.first_day), show(self.last_day))
        }
    }
}

/// Everything the comparison reads of one market.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Facts {
    /// Names (capitalized or quoted), lower-case, aliases folded.
    pub entities: Vec<String>,
    /// The first date the title (or its event) names.
    pub date: Option<DateFact>,
    pub threshold: Option<Threshold>,
    /// Numbers that are neither the threshold nor a date ("25 bps").
    pub numbers: Vec<String>,
    /// "not", "never", "fail to", "no", "avoid": the question asks the
    /// opposite.
    pub negated: bool,
    /// The name just before a verb of winning ("Will the Celtics beat the
    /// Lakers?": `celtic`): who must win for YES.
    pub winner: Option<String>,
    /// The name just before "or Draw" ("Real Madrid or Draw", a Double
    /// Chance bet): YES unless the other side of the game wins.
    #[serde(skip)]
    pub(crate) or_draw: Option<String>,
    /// The outcomes are named otherwise than yes/no (a moneyline's two
    /// teams) and the title does not say which of them is YES.
    pub no_yes_side: bool,
    /// Which outcome is YES (see `facts/yes_outcome.rs`).
    #[serde(skip)]
    pub(crate) yes_outcome: yes_outcome::YesOutcome,
    /// Content words, lower-case, stemmed a little, synonyms folded.
    pub words: WordSet,
    /// Every word as written (lower-case, aliases folded, names included).
    #[serde(skip)]
    pub(crate) raw: WordSet,
    /// Close time (`trading_end_at`, else `resolution_date`), ms.
    pub close_ms: Option<i64>,
    /// Not a binary market (categorical, scalar): not compared.
    pub non_binary: bool,
    /// The threshold `resolution_criteria` states, if any.
    pub criteria_threshold: Option<Threshold>,
    /// `resolution_source`, lower-case, punctuation dropped.
    #[serde(skip)]
    pub(crate) source: Option<String>,
    /// The time of day the question is read at, in minutes after
    /// midnight UTC ("5pm EST" is 1320).
    pub time_of_day: Option<i64>,
    /// The time of day `resolution_criteria` reads the question at, in
    /// minutes after midnight UTC: compared where a title states none.
    #[serde(skip)]
    pub(crate) criteria_time: Option<i64>,
    /// That time where it closes a window ("on or before June 30, 11:59
    /// PM ET"), 23:59 read as the next midnight: UTC minutes.
    #[serde(skip)]
    pub(crate) criteria_close: Option<i64>,
    /// The words of `resolution_criteria` (as written and folded): what
    /// the rules say is measured ("the advance estimate").
    #[serde(skip)]
    pub(crate) criteria_words: WordSet,
    /// The content words of `resolution_criteria`, read as the title's
    /// are: what the other side must account for before `same`.
    #[serde(skip)]
    pub(crate) criteria_content: WordSet,
    /// The content words `resolution_criteria` capitalizes: names, which
    /// bear a fact however the rules text is otherwise worded.
    #[serde(skip)]
    pub(crate) criteria_names: WordSet,
    /// What the rules say the market resolves to if its event is void.
    pub void_outcome: Option<String>,
    /// The rules text's vintage, void branch, venues and source (see
    /// `facts/rules_facts.rs`).
    #[serde(skip)]
    pub(crate) rules_facts: rules_facts::RulesFacts,
    /// The members of each family of measured quantities named (see
    /// [`super::lexicon::quantity_masks`]).
    #[serde(skip)]
    pub(crate) quantities: Vec<u32>,
    /// The side of each pair of opposite predicates used (see
    /// [`super::lexicon::antonym_sides`]).
    #[serde(skip)]
    pub(crate) predicates: Vec<(Option<&'static str>, Option<&'static str>)>,
    /// The text names a quantity counted in whole units.
    #[serde(skip)]
    pub(crate) counted: bool,
    /// The given names of multi-word names, each with its name's last
    /// word ("scottie", "scheffler"): a side that names only the surname
    /// names the same person.
    #[serde(skip)]
    pub(crate) given_names: Vec<(String, String)>,
    /// The names that are also words of a measured quantity ("Nonfarm"),
    /// by their index in `entities`, with the family and member bit they
    /// name (see [`super::lexicon::quantity_members_of`]): read once per
    /// market, and compared per pair by index, not by text.
    #[serde(skip)]
    pub(crate) quantity_names: Vec<(usize, usize, u32)>,
    /// The only name is the US: read per pair (see `rules::subject`)
    /// from here, without reading the names themselves.
    #[serde(skip)]
    pub(crate) us_alone: bool,
    /// What the tables say of each name, by its index in `entities` (see
    /// [`NameTables`]).
    #[serde(skip)]
    pub(crate) name_tables: Vec<NameTables>,
    /// The names written as one word ("Lakers", "Scheffler"): a side
    /// that writes one accounts for the other's longer name ending in it.
    #[serde(skip)]
    pub(crate) lone_names: WordSet,
    /// The first word of each name.
    #[serde(skip)]
    pub(crate) name_heads: WordSet,
    /// The first word of each name written after "a", "an" or "any" ("a
    /// Grand Prix"): a class, not one thing, so a word the other side
    /// writes before it ("Spanish Grand Prix") names a narrower one.
    #[serde(skip)]
    pub(crate) class_heads: WordSet,
    /// The members of each family of qualifiers the title names (see
    /// [`super::lexicon::qualifier_masks`]).
    #[serde(skip)]
    pub(crate) qualifiers: Vec<u32>,
    /// Initials and tickers, and the names they may stand for.
    #[serde(skip)]
    pub(crate) short_forms: super::short_forms::ShortForms,
    /// The entities of the field the market names (see
    /// [`super::lexicon::entities::named_in`]): what they imply is
    /// accounted for on the other side.
    #[serde(skip)]
    pub(crate) named: super::lexicon::entities::Named,
    /// Whose points a count of points is: the game's or one team's.
    #[serde(skip)]
    pub(crate) points_of: Option<super::totals::PointsOf>,
    /// Whose points a team total counts ("Raiders over 24.5 points").
    #[serde(skip)]
    pub(crate) counted_team: Option<String>,
    /// A comparison of two named subjects ("Apple worth at least as much
    /// as Nvidia"): which one YES puts higher, and the tie.
    #[serde(skip)]
    pub(crate) ranked: Option<super::ranked::Ranked>,
    /// A verb of reaching a stage of a competition ("reach the World
    /// Series") with no threshold asked (`lexicon::STAGE_VERBS`).
    #[serde(skip)]
    pub(crate) stage_verb: bool,
    /// Every word the text mentions, in one sorted list, built on the
    /// first [`Facts::mentions`] (asked for many words of every candidate
    /// pair): one search instead of three sets and a scan.
    #[serde(skip)]
    mentioned: MentionIndex,
}

/// [`Mentioned`], built once; derived from the other fields, so it plays
/// no part in comparing two facts.
#[derive(Debug, Clone, Default)]
struct MentionIndex(std::sync::OnceLock<Mentioned>);

impl PartialEq for MentionIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Facts {
    /// The facts of a market: its title, with its event's name for what
    /// the title leaves out (a short title like "Cut 25 bps?" under
    /// "Fed decision in March 2026").
    pub fn of(market: &Market) -> Self {
        let close_ms = market
            .trading_end_at
            .as_deref()
            .or(market.resolution_date.as_deref())
            .and_then(timestamp_ms);
        let mut facts = Self::of_text(market.title.as_deref().unwrap_or_default(), close_ms);
        // The event's name only for what the title leaves out: most titles
        // say it all, and reading every event name is half the work.
        let wanting = facts.date.is_none() || facts.entities.is_empty() || facts.words.len() < 3;
        if let Some(event) = market.event_name.as_deref().filter(|_| wanting) {
            let parent = Self::of_text(event, close_ms);
            facts.raw.extend(parent.raw.iter().cloned());
            if facts.date.is_none() {
                facts.date = parent.date;
            }
            // The event's names too: a short title's only capital may be
            // its first word ("Cut 25bps" under "Fed decision in Dec").
            for e in parent.entities {
                if !facts.entities.contains(&e) {
                    facts.entities.push(e);
                }
            }
            facts.entities.sort();
            if facts.threshold.is_none() && parent.threshold.is_some() {
                facts.threshold = parent.threshold;
            }
            if facts.words.len() < 3 {
                facts.words.extend(parent.words);
            }
        }
        if let Some(c) = market.resolution_criteria.as_deref() {
            facts.read_criteria(c);
        }
        // A title that leaves its strike to the rules ("Bitcoin price on
        // Dec 31, 2026?") is read with the rules' strike.
        if facts.threshold.is_none() {
            facts.threshold.clone_from(&facts.criteria_threshold);
        }
        facts.read_lexicons();
        facts.named = super::lexicon::entities::named_in(&facts.entities, |w| {
            facts.mentions(w) || facts.criteria_content.contains(w)
        });
        facts.source = super::norm(market.resolution_source.as_deref());
        facts.read_rules_facts(market);
        facts.non_binary = market
            .market_type
            .as_ref()
            .is_some_and(|t| !t.as_str().eq_ignore_ascii_case("binary"))
            || market.outcomes.as_ref().is_some_and(|o| o.len() > 2);
        facts.yes_outcome = yes_outcome::YesOutcome::of(market);
        facts.no_yes_side = facts.yes_outcome.unread();
        // A selection named for a side ("Match Winner: Sinner" with
        // outcomes "Jannik Sinner" / "Alexander Zverev") backs that side,
        // whatever side a verb of the title seemed to back ("Sinner vs
        // Zverev - Moneyline - Sinner" writes Zverev before "Moneyline").
        if let Some(side) = facts.yes_outcome.side_backed(market) {
            facts.winner = Some(side);
        }
        facts
    }

    /// The facts of one text; `close_ms` completes dates written without
    /// a year.
    pub fn of_text(text: &str, close_ms: Option<i64>) -> Self {
        let tokens = lex(text);
        let mut used = vec![false; tokens.len()];
        let (date, time_of_day) = find_date_and_time(&tokens, &mut used, close_ms);
        let threshold = find_threshold(&tokens, &mut used);
        let mut facts = Self {
            date,
            time_of_day,
            threshold,
            close_ms,
            qualifiers: super::lexicon::qualifier_masks(&words_in_order(&tokens)),
            // A game leg names its side after "Winner?", with no verb.
            winner: super::legs::leg_winner(&tokens),
            points_of: super::totals::points_of(&tokens),
            counted_team: super::totals::counted_team(&tokens),
            ranked: super::ranked::ranked(&tokens),
            short_forms: super::short_forms::ShortForms::read(&tokens),
            ..Self::default()
        };
        let mut entities = WordSet::new();
        let mut given_names = Vec::new();
        let mut name_heads = WordSet::new();
        let mut lone_names = WordSet::new();
        // Consecutive capitalized words; the last one closed is kept for
        // the winner of a "beat"/"win" that follows it.
        let mut span: Vec<String> = Vec::new();
        let mut last_span = String::new();
        let mut flush = |span: &mut Vec<String>, last: &mut String, entities: &mut WordSet| {
            if !span.is_empty() {
                *last = span.join(" ");
            }
            if let Some(head) = span.first() {
                name_heads.insert(head.clone());
            }
            if let [lone] = span.as_slice() {
                lone_names.insert(lone.clone());
            }
            if let Some((surname, given)) = span.split_last() {
                given_names.extend(given.iter().map(|g| (g.clone(), surname.clone())));
            }
            for w in span.drain(..) {
                entities.insert(w);
            }
        };
        for (i, tok) in tokens.iter().enumerate() {
            match tok {
                Tok::Word { lower, cap, .. } => {
                    if (NEGATIONS.contains(&lower.as_str()) || lower.ends_with("n't"))
                        && !super::legs::is_a_code_before_a_name(&tokens, i)
                    {
                        facts.negated = true;
                    }
                    if facts.winner.is_none() && is_win_verb(lower) {
                        let who = if let Some(selection) =
                            super::legs::selection_after_colon(&tokens, i)
                        {
                            selection
                        } else if span.is_empty() {
                            last_span.clone()
                        } else {
                            span.join(" ")
                        };
                        facts.winner = (!who.is_empty()).then_some(who);
                    }
                    if lower == "draw"
                        && i.checked_sub(1).and_then(|k| word_at(&tokens, k)) == Some("or")
                        && !last_span.is_empty()
                    {
                        facts.or_draw = Some(last_span.clone());
                    }
                    if used[i] {
                        flush(&mut span, &mut last_span, &mut entities);
                        continue;
                    }
                    let plain = is_stopword(lower) || month(lower).is_some();
                    let name = name_of(lower);
                    if *cap && !plain && !is_generic_noun(lower) {
                        if span.is_empty()
                            && i.checked_sub(1)
                                .and_then(|k| word_at(&tokens, k))
                                .is_some_and(|w| matches!(w, "a" | "an" | "any"))
                        {
                            facts.class_heads.insert(name.clone());
                        }
                        span.push(name.clone());
                    } else {
                        flush(&mut span, &mut last_span, &mut entities);
                    }
                    facts.raw.insert(name);
                    if let Some(w) = content_word(lower) {
                        facts.words.insert(w);
                    }
                }
                Tok::Quote(inner) => {
                    flush(&mut span, &mut last_span, &mut entities);
                    last_span.clone_from(inner);
                    entities.insert(inner.clone());
                    facts.words.insert(inner.clone());
                    facts.raw.insert(inner.clone());
                }
                Tok::Num { value, unit, .. } if !used[i] && !is_1x2(&tokens, i) => {
                    flush(&mut span, &mut last_span, &mut entities);
                    let written = number(*value, unit);
                    facts.numbers.push(match line_of(&tokens, i) {
                        Some((sign, side)) => format!("{side} {sign}{written}"),
                        None => written,
                    });
                }
                _ => flush(&mut span, &mut last_span, &mut entities),
            }
        }
        flush(&mut span, &mut last_span, &mut entities);
        facts.given_names = given_names;
        facts.name_heads = name_heads;
        facts.lone_names = lone_names;
        facts.entities = entities.into_iter().collect();
        facts.numbers.sort();
        facts.numbers.dedup();
        facts
    }

    /// What the lexicons find in the words read so far: once per market,
    /// not once per pair.
    fn read_lexicons(&mut self) {
        self.quantities =
            super::lexicon::quantity_masks(&[&self.words, &self.raw, &self.criteria_words]);
        self.predicates = super::lexicon::antonym_sides(|w| self.words.contains(w));
        // "5+" with no unit is a sportsbook's count ("5+ Three Pointers
        // Made"), whatever noun it counts.
        let whole_plus = self
            .threshold
            .as_ref()
            .is_some_and(|t| t.plus_written && t.unit.is_empty() && t.value.fract() == 0.0);
        self.counted = whole_plus
            || super::lexicon::COUNTED
                .iter()
                .any(|w| self.raw.contains(*w));
        self.stage_verb = self.threshold.is_none()
            && super::lexicon::STAGE_VERBS
                .iter()
                .any(|w| self.raw.contains(*w));
        self.read_names();
    }

    /// Every word of the text, names included, for "does the other side
    /// mention this name at all": the word, the word without a final `s`
    /// (when three letters or more are left), or its plural.
    pub(crate) fn mentions(&self, word: &str) -> bool {
        self.mentioned
            .0
            .get_or_init(|| {
                Mentioned::new(
                    self.raw
                        .iter()
                        .chain(&self.words)
                        .chain(&self.entities)
                        .map(String::as_str),
                )
            })
            .has(word)
    }
}

mod criteria;
mod qualifier_words;
use qualifier_words::words_in_order;
pub(crate) mod game_span;
mod mentioned;
pub(crate) mod publishers;
pub(crate) mod rules_facts;
pub(crate) mod yes_outcome;
use mentioned::Mentioned;
mod names;
pub(crate) use names::NameTables;

#[cfg(test)]
mod tests;
