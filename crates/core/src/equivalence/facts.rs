//! What a market's text says, read without a dictionary of topics: the
//! names it mentions, its dates and deadlines, the threshold with its
//! comparator, the other numbers, and its content words.
//!
//! A tolerant reader: titles of different platforms word the same
//! question differently ("Bitcoin above $95,000 on March 3?", "Will BTC
//! close above $95k on Mar 3, 2026?"), so everything here is normalized
//! (units and multipliers applied, years completed from the close time,
//! a few aliases and synonyms folded) before two markets are compared.

use super::lexicon::{EDITIONS, Edition, roman};
use crate::models::Market;
use crate::time::{civil_from_days, days_from_civil, timestamp_ms};
use serde::Serialize;
use std::collections::BTreeSet;

const DAY_MS: i64 = 86_400_000;

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
        format!("{value}")
    };
    match unit {
        "$" => format!("${v}"),
        "" => v,
        "%" | "°F" | "°C" => format!("{v}{unit}"),
        _ => format!("{v} {unit}"),
    }
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
    /// The outcomes are named otherwise than yes/no (a moneyline's two
    /// teams): which of them is YES is not said.
    pub no_yes_side: bool,
    /// Content words, lower-case, stemmed a little, synonyms folded.
    pub words: BTreeSet<String>,
    /// Every word as written (lower-case, aliases folded, names included).
    #[serde(skip)]
    pub(crate) raw: BTreeSet<String>,
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
    /// The words of `resolution_criteria` (as written and folded): what
    /// the rules say is measured ("the advance estimate").
    #[serde(skip)]
    pub(crate) criteria_words: BTreeSet<String>,
    /// What the rules say the market resolves to if its event is void.
    pub void_outcome: Option<String>,
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
            let tokens = lex(c);
            facts.criteria_threshold = find_threshold(&tokens, &mut vec![false; tokens.len()]);
            let read = Self::of_text(c, close_ms);
            facts.criteria_words = read.words.into_iter().chain(read.raw).collect();
            facts.void_outcome = void_outcome(c);
        }
        // A title that leaves its strike to the rules ("Bitcoin price on
        // Dec 31, 2026?") is read with the rules' strike.
        if facts.threshold.is_none() {
            facts.threshold.clone_from(&facts.criteria_threshold);
        }
        facts.read_lexicons();
        facts.source = super::norm(market.resolution_source.as_deref());
        facts.non_binary = market
            .market_type
            .as_ref()
            .is_some_and(|t| !t.as_str().eq_ignore_ascii_case("binary"))
            || market.outcomes.as_ref().is_some_and(|o| o.len() > 2);
        let is_yes = |s: &str| s.eq_ignore_ascii_case("yes");
        facts.no_yes_side = market.outcomes.as_ref().is_some_and(|o| {
            !o.is_empty()
                && !o
                    .iter()
                    .any(|x| is_yes(&x.id) || x.name.as_deref().is_some_and(is_yes))
        }) && !market
            .current_prices
            .as_ref()
            .is_some_and(|p| p.keys().any(|k| is_yes(k)));
        facts
    }

    /// The facts of one text; `close_ms` completes dates written without
    /// a year.
    pub fn of_text(text: &str, close_ms: Option<i64>) -> Self {
        let tokens = lex(text);
        let mut used = vec![false; tokens.len()];
        let date = find_date(&tokens, &mut used, close_ms);
        let day = date.as_ref().map(|d| d.first_day);
        let time_of_day = find_time(&tokens, &mut used, day);
        let threshold = find_threshold(&tokens, &mut used);
        let mut facts = Self {
            date,
            time_of_day,
            threshold,
            close_ms,
            ..Self::default()
        };
        let mut entities = BTreeSet::new();
        // Consecutive capitalized words; the last one closed is kept for
        // the winner of a "beat"/"win" that follows it.
        let mut span: Vec<String> = Vec::new();
        let mut last_span = String::new();
        let flush = |span: &mut Vec<String>, last: &mut String, entities: &mut BTreeSet<String>| {
            if !span.is_empty() {
                *last = span.join(" ");
            }
            for w in span.drain(..) {
                entities.insert(w);
            }
        };
        for (i, tok) in tokens.iter().enumerate() {
            match tok {
                Tok::Word { lower, cap, .. } => {
                    if NEGATIONS.contains(&lower.as_str()) || lower.ends_with("n't") {
                        facts.negated = true;
                    }
                    if facts.winner.is_none() && is_win_verb(lower) {
                        let who = if span.is_empty() {
                            last_span.clone()
                        } else {
                            span.join(" ")
                        };
                        facts.winner = (!who.is_empty()).then_some(who);
                    }
                    if used[i] {
                        flush(&mut span, &mut last_span, &mut entities);
                        continue;
                    }
                    let word = fold(lower);
                    let plain = is_stopword(lower) || month(lower).is_some();
                    let name = name_of(lower);
                    if *cap && !plain {
                        span.push(name.clone());
                    } else {
                        flush(&mut span, &mut last_span, &mut entities);
                    }
                    facts.raw.insert(name);
                    if !plain
                        && !is_comparator_word(lower)
                        && !MULTIPLIERS.iter().any(|(w, _)| w == lower)
                    {
                        facts.words.insert(alias(&word).to_owned());
                    }
                }
                Tok::Quote(inner) => {
                    flush(&mut span, &mut last_span, &mut entities);
                    last_span.clone_from(inner);
                    entities.insert(inner.clone());
                    facts.words.insert(inner.clone());
                    facts.raw.insert(inner.clone());
                }
                Tok::Num { value, unit, .. } if !used[i] => {
                    flush(&mut span, &mut last_span, &mut entities);
                    facts.numbers.push(number(*value, unit));
                }
                _ => flush(&mut span, &mut last_span, &mut entities),
            }
        }
        flush(&mut span, &mut last_span, &mut entities);
        facts.entities = entities.into_iter().collect();
        facts.numbers.sort();
        facts.numbers.dedup();
        facts.read_lexicons();
        facts
    }

    /// What the lexicons find in the words read so far: once per market,
    /// not once per pair.
    fn read_lexicons(&mut self) {
        let says = |w: &str| {
            self.words.contains(w) || self.raw.contains(w) || self.criteria_words.contains(w)
        };
        self.quantities = super::lexicon::quantity_masks(says);
        self.predicates = super::lexicon::antonym_sides(|w| self.words.contains(w));
        self.counted = super::lexicon::COUNTED
            .iter()
            .any(|w| self.raw.contains(*w));
    }

    /// Every word of the text, names included, for "does the other side
    /// mention this name at all".
    pub(crate) fn mentions(&self, word: &str) -> bool {
        self.mentions_exactly(word)
            || word
                .strip_suffix('s')
                .is_some_and(|w| w.len() > 2 && self.mentions_exactly(w))
            || self.mentions_plural(word)
    }

    /// `word` with an `s` is mentioned. Asked for every word of every
    /// candidate pair: spelled in a buffer on the stack, not allocated.
    fn mentions_plural(&self, word: &str) -> bool {
        let mut buffer = [0u8; 64];
        let Some(spelled) = buffer.get_mut(..=word.len()) else {
            return self.mentions_exactly(&format!("{word}s"));
        };
        let Some((last, head)) = spelled.split_last_mut() else {
            return false;
        };
        head.copy_from_slice(word.as_bytes());
        *last = b's';
        std::str::from_utf8(spelled).is_ok_and(|plural| self.mentions_exactly(plural))
    }

    fn mentions_exactly(&self, word: &str) -> bool {
        self.raw.contains(word)
            || self.words.contains(word)
            || self.entities.iter().any(|e| e == word)
    }
}

const NEGATIONS: &[&str] = &[
    "not", "never", "fail", "fails", "without", "no", "avoid", "avoids", "cease", "ceases",
];

/// Verbs whose subject is who must win for YES.
fn is_win_verb(w: &str) -> bool {
    matches!(w, "beat" | "beats" | "defeat" | "defeats" | "win" | "wins")
}

fn is_stopword(w: &str) -> bool {
    // A `match` on strings compiles to a comparison by length, then bytes:
    // far cheaper than scanning the list for every word of every title.
    matches!(
        w,
        "will"
            | "would"
            | "the"
            | "a"
            | "an"
            | "of"
            | "in"
            | "on"
            | "at"
            | "by"
            | "to"
            | "be"
            | "is"
            | "are"
            | "was"
            | "were"
            | "for"
            | "and"
            | "or"
            | "its"
            | "it"
            | "this"
            | "that"
            | "with"
            | "as"
            | "from"
            | "than"
            | "yes"
            | "does"
            | "do"
            | "did"
            | "who"
            | "what"
            | "which"
            | "when"
            | "how"
            | "whether"
            | "there"
            | "any"
            | "before"
            | "after"
            | "until"
            | "through"
            | "thru"
            | "has"
            | "have"
            | "been"
            | "get"
            | "gets"
            | "not"
            | "never"
            | "his"
            | "her"
            | "their"
            | "they"
            | "he"
            | "she"
            | "into"
            | "per"
            | "day"
            | "week"
            | "year"
            | "next"
            | "market"
            | "question"
            | "resolves"
            | "resolve"
            | "if"
            | "else"
            | "otherwise"
            | "end"
            | "no"
            | "avoid"
            | "cease"
            | "x"
            | "team"
            | "vs"
            | "v"
            | "am"
            | "pm"
            | "et"
            | "est"
            | "edt"
            | "pt"
            | "utc"
            | "gmt"
    )
}

fn is_comparator_word(w: &str) -> bool {
    matches!(
        w,
        "above"
            | "over"
            | "exceed"
            | "exceeds"
            | "exceeding"
            | "below"
            | "under"
            | "least"
            | "most"
            | "more"
            | "less"
            | "greater"
            | "higher"
            | "fewer"
            | "between"
            | "reach"
            | "reaches"
            | "hit"
            | "hits"
    )
}

const MULTIPLIERS: &[(&str, f64)] = &[
    ("k", 1e3),
    ("thousand", 1e3),
    ("m", 1e6),
    ("mn", 1e6),
    ("million", 1e6),
    ("b", 1e9),
    ("bn", 1e9),
    ("billion", 1e9),
    ("t", 1e12),
    ("trillion", 1e12),
];

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month(word: &str) -> Option<i64> {
    if word.len() < 3 {
        return None;
    }
    let word = if word == "sept" { "sep" } else { word };
    MONTHS
        .iter()
        .position(|m| *m == word || (word.len() == 3 && m.starts_with(word)))
        .map(|i| i as i64 + 1)
}

/// Word-level aliases: tickers, demonyms and short names of one subject,
/// folded to one spelling. Kept short on purpose: each entry is a name
/// the platforms write both ways.
fn alias(word: &str) -> &str {
    match word {
        "btc" => "bitcoin",
        "eth" | "ether" => "ethereum",
        "sol" => "solana",
        "doge" => "dogecoin",
        "ada" => "cardano",
        "tsla" => "tesla",
        "nvda" => "nvidia",
        "aapl" => "apple",
        "msft" => "microsoft",
        "amzn" => "amazon",
        "googl" | "goog" | "alphabet" => "google",
        "federal" | "fomc" => "fed",
        "usa" | "u.s." | "american" => "us",
        "britain" | "british" => "uk",
        "french" => "france",
        "german" => "germany",
        "japanese" => "japan",
        "chinese" => "china",
        "russian" => "russia",
        "ukrainian" => "ukraine",
        "canadian" => "canada",
        "mexican" => "mexico",
        "israeli" => "israel",
        "iranian" => "iran",
        "italian" => "italy",
        "spanish" => "spain",
        "brazilian" => "brazil",
        "argentine" | "argentinian" => "argentina",
        "indian" => "india",
        "taiwanese" => "taiwan",
        "oscar" => "oscars",
        "qb" => "quarterback",
        "grammys" => "grammy",
        "gop" | "republicans" => "republican",
        "democrats" | "democratic" | "dems" => "democrat",
        "presidential" | "presidency" => "president",
        other => other,
    }
}

/// A name as compared: aliases folded.
fn name_of(lower: &str) -> String {
    alias(lower).to_owned()
}

/// Phrases that name one subject in several words, read as the one word
/// the other platforms use, and phrases that say "not" in other words.
const PHRASES: &[(&[&str], &[&str])] = &[
    (&["united", "states"], &["us"]),
    (&["united", "kingdom"], &["uk"]),
    (&["great", "britain"], &["uk"]),
    (&["new", "york", "city"], &["nyc"]),
    (&["federal", "reserve"], &["fed"]),
    (&["european", "central", "bank"], &["ecb"]),
    (&["bank", "of", "england"], &["boe"]),
    (&["bank", "of", "japan"], &["boj"]),
    (&["academy", "awards"], &["oscars"]),
    (&["republican", "party"], &["republican"]),
    (&["democratic", "party"], &["democrat"]),
    (&["mlb", "championship"], &["world", "series"]),
    (&["pro", "baseball", "champion"], &["world", "series"]),
    (&["nhl", "championship"], &["stanley", "cup"]),
    (&["pro", "hockey", "champion"], &["stanley", "cup"]),
    (&["nfl", "championship"], &["super", "bowl"]),
    (&["pro", "football", "champion"], &["super", "bowl"]),
    (&["pro", "football", "championship"], &["super", "bowl"]),
    (&["mlb", "champion"], &["world", "series"]),
    (&["nhl", "champion"], &["stanley", "cup"]),
    (&["march", "madness"], &["ncaa", "tournament"]),
    (&["grammy", "awards"], &["grammy"]),
    (&["grand", "theft", "auto"], &["gta"]),
    (&["step", "down"], &["resign"]),
    (&["nba", "championship"], &["nba", "finals"]),
    (&["pro", "basketball", "champion"], &["nba", "finals"]),
    (&["hold", "or", "hike"], &["not", "cut"]),
    (&["hold", "or", "raise"], &["not", "cut"]),
    (&["hold", "or", "cut"], &["not", "hike"]),
];

fn rewrite_phrases(tokens: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'next: while i < tokens.len() {
        for (phrase, with) in PHRASES {
            let matches = phrase
                .iter()
                .enumerate()
                .all(|(k, w)| word_at(&tokens, i + k) == Some(*w));
            if matches {
                // A name keeps its capital; a predicate ("not cut",
                // "resign") is no name.
                let cap = !matches!(with[0], "not" | "resign");
                out.extend(with.iter().map(|w| Tok::Word {
                    lower: (*w).to_owned(),
                    cap,
                }));
                i += phrase.len();
                continue 'next;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// Editions of recurring events named by number become their year: "the
/// 99th Academy Awards" is read as "the 2027 Academy Awards", "Super Bowl
/// LXII" as "Super Bowl 2028" (see [`super::lexicon::EDITIONS`]).
fn resolve_editions(mut tokens: Vec<Tok>) -> Vec<Tok> {
    let year = |y: i64| Tok::Num {
        value: y as f64,
        unit: String::new(),
        bare_int: true,
        plus: false,
        ordinal: false,
    };
    let names = |tokens: &[Tok], at: usize, e: &Edition| {
        e.words
            .iter()
            .enumerate()
            .all(|(k, w)| word_at(tokens, at + k) == Some(*w))
    };
    for i in 0..tokens.len() {
        for e in EDITIONS {
            if e.roman {
                let Some(n) = word_at(&tokens, i + e.words.len()).and_then(roman) else {
                    continue;
                };
                if names(&tokens, i, e) {
                    tokens[i + e.words.len()] = year(e.year_zero + n * e.every);
                    break;
                }
            } else if let Some(Tok::Num {
                value,
                ordinal: true,
                ..
            }) = tokens.get(i)
            {
                let n = *value as i64;
                let at = if word_at(&tokens, i + 1) == Some("annual") {
                    i + 2
                } else {
                    i + 1
                };
                if names(&tokens, at, e) {
                    tokens[i] = year(e.year_zero + n * e.every);
                    break;
                }
            }
        }
    }
    tokens
}

/// Hours from UTC of a US zone written after a time, by the date it is
/// read on: "ET" is EDT from mid-March to early November.
fn zone_offset(zone: &str, day: Option<i64>) -> Option<i64> {
    let summer = day
        .map(civil_from_days)
        .is_some_and(|(_, m, d)| (4..=10).contains(&m) || (m == 3 && d >= 8) || (m == 11 && d < 7));
    Some(match zone {
        "utc" | "gmt" | "z" => 0,
        "est" => -5,
        "edt" => -4,
        "et" => {
            if summer {
                -4
            } else {
                -5
            }
        }
        "pst" => -8,
        "pdt" => -7,
        "pt" => {
            if summer {
                -7
            } else {
                -8
            }
        }
        _ => return None,
    })
}

/// A time of day with its zone ("5pm EST", "12:00 UTC", "4 PM ET"), as
/// minutes after midnight UTC; its tokens are used up.
fn find_time(tokens: &[Tok], used: &mut [bool], day: Option<i64>) -> Option<i64> {
    for i in 0..tokens.len() {
        let Some(hour) = bare_int_at(tokens, i).filter(|h| (0..=24).contains(h)) else {
            continue;
        };
        let mut j = i + 1;
        let mut minute = 0;
        if tokens.get(j) == Some(&Tok::Sym(':'))
            && let Some(m) = bare_int_at(tokens, j + 1).filter(|m| (0..60).contains(m))
        {
            minute = m;
            j += 2;
        }
        let mut hour = hour;
        match word_at(tokens, j) {
            Some("pm") if hour < 12 => {
                hour += 12;
                j += 1;
            }
            Some("am") if hour == 12 => {
                hour = 0;
                j += 1;
            }
            Some("am" | "pm") => j += 1,
            _ => {}
        }
        let Some(offset) = word_at(tokens, j).and_then(|z| zone_offset(z, day)) else {
            continue;
        };
        for k in i..=j {
            used[k] = true;
        }
        return Some(((hour - offset) * 60 + minute).rem_euclid(24 * 60));
    }
    None
}

/// What the rules say the market resolves to when its event is cancelled,
/// postponed or not held ("resolves No", "resolves 50-50"), if they say.
fn void_outcome(criteria: &str) -> Option<String> {
    let text = criteria.to_lowercase();
    let at = ["postpone", "cancel", "not held", "no fomc meeting", "void"]
        .iter()
        .filter_map(|k| text.find(k))
        .min()?;
    let rest = &text[at..];
    let after = rest.find("resolve")?;
    rest[after..]
        .split_whitespace()
        .skip(1)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .find(|w| !matches!(*w, "to" | "as" | "the" | "market" | ""))
        .map(str::to_owned)
}

/// A little stemming and the synonyms titles use for one action.
fn fold(lower: &str) -> String {
    let word = match lower {
        "launch" | "launches" | "ships" | "ship" | "releases" | "released" | "launched" => {
            "release"
        }
        "raise" | "raises" | "increase" | "increases" | "hikes" => "hike",
        "cuts" | "lower" | "lowers" | "decrease" | "decreases" => "cut",
        "wins" | "won" | "beat" | "beats" | "defeat" | "defeats" | "control" | "controls"
        | "awarded" | "named" => "win",
        "nominee" | "nominated" => "nomination",
        "retires" | "retired" | "retirement" => "retire",
        "approved" => "approve",
        "confirmed" => "confirm",
        "rejected" => "reject",
        "closes" | "closing" | "closed" => "close",
        "tops" | "topped" => "top",
        "temp" | "temperature" => "high",
        other => other,
    };
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word {
        lower: String,
        cap: bool,
    },
    Num {
        value: f64,
        unit: String,
        /// Written as an integer without a unit (a day or a year).
        bare_int: bool,
        /// `100+`.
        plus: bool,
        /// Written as an ordinal ("99th").
        ordinal: bool,
    },
    /// A date written `YYYY-MM-DD`, as days since the epoch.
    Iso(i64),
    Quote(String),
    Sym(char),
}

fn lex(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if matches!(c, '"' | '“' | '”' | '«' | '»') {
            let close = chars[i + 1..]
                .iter()
                .position(|&q| matches!(q, '"' | '“' | '”' | '«' | '»'));
            match close {
                Some(n) if n > 0 => {
                    let inner: String = chars[i + 1..i + 1 + n].iter().collect();
                    out.push(Tok::Quote(inner.trim().to_lowercase()));
                    i += n + 2;
                }
                _ => i += 1,
            }
        } else if c.is_ascii_digit()
            || (c == '$' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            i = lex_number(&chars, i, &mut out);
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    || (matches!(chars[i], '\'' | '’' | '.')
                        && chars.get(i + 1).is_some_and(|n| n.is_alphabetic())))
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let cap = word.chars().next().is_some_and(char::is_uppercase);
            let mut lower = word.to_lowercase().replace('’', "'");
            // The possessive names the same subject ("Trump's", "NVDA's").
            if lower.len() > 2 && lower.ends_with("'s") {
                lower.truncate(lower.len() - 2);
            }
            out.push(Tok::Word { lower, cap });
        } else {
            out.push(Tok::Sym(c));
            i += 1;
        }
    }
    // A multiplier or unit written as its own word ("$120 million",
    // "25 bps", "3 percent").
    let mut merged: Vec<Tok> = Vec::with_capacity(out.len());
    for tok in out {
        if let (
            Some(Tok::Num {
                value,
                unit,
                bare_int,
                ..
            }),
            Tok::Word { lower, .. },
        ) = (merged.last_mut(), &tok)
        {
            if let Some((_, m)) = MULTIPLIERS.iter().find(|(w, _)| w.len() > 2 && w == lower) {
                *value *= m;
                *bare_int = false;
                continue;
            }
            let named = match lower.as_str() {
                "bps" | "bp" | "basis" => Some("bps"),
                "percent" | "pct" => Some("%"),
                "degrees" => Some("°F"),
                _ => None,
            };
            if let Some(u) = named {
                if unit.is_empty() {
                    *unit = u.to_owned();
                    *bare_int = false;
                }
                continue;
            }
        }
        if let (Some(Tok::Num { unit, .. }), Tok::Word { lower, .. }) = (merged.last(), &tok)
            && unit == "bps"
            && lower == "points"
        {
            continue;
        }
        merged.push(tok);
    }
    resolve_editions(rewrite_phrases(merged))
}

fn lex_number(chars: &[char], mut i: usize, out: &mut Vec<Tok>) -> usize {
    let mut unit = String::new();
    if chars[i] == '$' {
        unit.push('$');
        i += 1;
    }
    // YYYY-MM-DD.
    let ahead: String = chars[i..chars.len().min(i + 10)].iter().collect();
    let b = ahead.as_bytes();
    if unit.is_empty()
        && b.len() == 10
        && ahead.is_ascii()
        && b[4] == b'-'
        && b[7] == b'-'
        && let (Ok(y), Ok(m), Ok(d)) = (
            ahead[..4].parse::<i64>(),
            ahead[5..7].parse::<i64>(),
            ahead[8..10].parse::<i64>(),
        )
        && (1..=12).contains(&m)
        && (1..=31).contains(&d)
    {
        out.push(Tok::Iso(days_from_civil(y, m, d)));
        return i + 10;
    }
    let mut digits = String::new();
    let mut bare_int = true;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            digits.push(c);
        } else if c == ','
            && chars
                .get(i + 1..i + 4)
                .is_some_and(|d| d.iter().all(char::is_ascii_digit))
            && !chars.get(i + 4).is_some_and(char::is_ascii_digit)
        {
            bare_int = false;
        } else if c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            digits.push('.');
            bare_int = false;
        } else {
            break;
        }
        i += 1;
    }
    let mut value: f64 = digits.parse().unwrap_or(0.0);
    let mut plus = false;
    let mut ordinal = false;
    // Attached suffixes: 2.5%, 95°F, $120M, 95k, 100+, 3rd.
    let start = i;
    while i < chars.len() && chars[i].is_alphabetic() {
        i += 1;
    }
    let suffix: String = chars[start..i].iter().collect::<String>().to_lowercase();
    if !suffix.is_empty() {
        if let Some((_, m)) = MULTIPLIERS.iter().find(|(w, _)| *w == suffix) {
            value *= m;
            bare_int = false;
        } else if suffix == "bps" || suffix == "bp" {
            unit = "bps".into();
            bare_int = false;
        } else if matches!(suffix.as_str(), "st" | "nd" | "rd" | "th") {
            // An ordinal (a day, an edition): stays a bare integer.
            ordinal = true;
        } else {
            // A word glued to a number ("Q1" is lexed as a word): undo.
            i = start;
        }
    }
    if i < chars.len() {
        match chars[i] {
            '%' => {
                unit = "%".into();
                bare_int = false;
                i += 1;
            }
            '°' => {
                i += 1;
                let scale = chars.get(i).map(|c| c.to_ascii_uppercase());
                unit = if scale == Some('C') { "°C" } else { "°F" }.into();
                if matches!(scale, Some('C' | 'F')) {
                    i += 1;
                }
                bare_int = false;
            }
            '+' => {
                plus = true;
                i += 1;
            }
            _ => {}
        }
    }
    if !unit.is_empty() {
        bare_int = false;
    }
    out.push(Tok::Num {
        value,
        unit,
        bare_int,
        plus,
        ordinal,
    });
    i
}

fn word_at(tokens: &[Tok], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Tok::Word { lower, .. }) => Some(lower),
        _ => None,
    }
}

fn bare_int_at(tokens: &[Tok], i: usize) -> Option<i64> {
    match tokens.get(i) {
        Some(Tok::Num {
            value,
            bare_int: true,
            ..
        }) => Some(*value as i64),
        _ => None,
    }
}

/// "Month [day][,] [year]" at `i` ("May" only with a number after it):
/// its days, and whether the year was taken from the close time.
fn month_date(
    tokens: &[Tok],
    i: usize,
    (m, w): (i64, &str),
    close_ms: Option<i64>,
    span: &mut Vec<usize>,
) -> Option<((i64, i64), bool)> {
    let close_year = close_ms.map(|ms| civil_from_days(ms.div_euclid(DAY_MS)).0);
    let year_of = |t: Option<i64>| t.filter(|y| (1900..=2100).contains(y));
    // Month [day][,] [year] — "May" only with a number after it.
    let mut j = i + 1;
    let day = bare_int_at(tokens, j).filter(|d| (1..=31).contains(d));
    if day.is_some() {
        span.push(j);
        j += 1;
    }
    if matches!(tokens.get(j), Some(Tok::Sym(','))) && year_of(bare_int_at(tokens, j + 1)).is_some()
    {
        j += 1;
    }
    let year = year_of(bare_int_at(tokens, j));
    if year.is_some() {
        span.push(j);
    }
    if day.is_none() && year.is_none() && w.starts_with("may") {
        return None;
    }
    let (y, was_inferred) = match (year, close_year) {
        (Some(y), _) => (y, false),
        (None, Some(cy)) => (cy, true),
        (None, None) => return None,
    };
    let inferred = was_inferred;
    let range = match day {
        Some(d) => {
            let mut first = days_from_civil(y, m, d);
            // "Dec 31" closing on Jan 2: the year before.
            if let Some(ms) = close_ms.filter(|_| inferred)
                && first - ms.div_euclid(DAY_MS) > 60
            {
                first = days_from_civil(y - 1, m, d);
            }
            (first, first)
        }
        None => {
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            (days_from_civil(y, m, 1), days_from_civil(ny, nm, 1) - 1)
        }
    };
    Some((range, inferred))
}

/// The first date of the text, with "before"/"by" read as a deadline.
fn find_date(tokens: &[Tok], used: &mut [bool], close_ms: Option<i64>) -> Option<DateFact> {
    let close_year = close_ms.map(|ms| civil_from_days(ms.div_euclid(DAY_MS)).0);
    let year_of = |t: Option<i64>| t.filter(|y| (1900..=2100).contains(y));
    for i in 0..tokens.len() {
        if used[i] {
            continue;
        }
        let mut span = vec![i];
        let mut range: Option<(i64, i64)> = None;
        let mut inferred = false;
        if let Tok::Iso(day) = tokens[i] {
            range = Some((day, day));
        } else if let Some(w) = word_at(tokens, i) {
            if let Some(m) = month(w) {
                let Some((days, was_inferred)) = month_date(tokens, i, (m, w), close_ms, &mut span)
                else {
                    continue;
                };
                inferred = was_inferred;
                range = Some(days);
            } else if let Some(q) = w
                .strip_prefix('q')
                .and_then(|q| q.parse::<i64>().ok())
                .filter(|q| (1..=4).contains(q))
            {
                let year = year_of(bare_int_at(tokens, i + 1));
                let Some(y) = year.or(close_year) else {
                    continue;
                };
                inferred = year.is_none();
                if year.is_some() {
                    span.push(i + 1);
                }
                let m = (q - 1) * 3 + 1;
                let (ny, nm) = if q == 4 { (y + 1, 1) } else { (y, m + 3) };
                range = Some((days_from_civil(y, m, 1), days_from_civil(ny, nm, 1) - 1));
            }
        } else if let Some(d) = bare_int_at(tokens, i).filter(|d| (1..=31).contains(d))
            && let Some(m) = word_at(tokens, i + 1).and_then(month)
        {
            // Day Month [year].
            span.push(i + 1);
            let year = year_of(bare_int_at(tokens, i + 2));
            if year.is_some() {
                span.push(i + 2);
            }
            let Some(y) = year.or(close_year) else {
                continue;
            };
            inferred = year.is_none();
            let day = days_from_civil(y, m, d);
            range = Some((day, day));
        } else if let Some(m) = bare_int_at(tokens, i).filter(|m| (1..=12).contains(m))
            && tokens.get(i + 1) == Some(&Tok::Sym('/'))
            && let Some(d) = bare_int_at(tokens, i + 2).filter(|d| (1..=31).contains(d))
        {
            // M/D[/YYYY], as US platforms write it.
            span.push(i + 2);
            let year = if tokens.get(i + 3) == Some(&Tok::Sym('/')) {
                bare_int_at(tokens, i + 4).map(|y| if y < 100 { 2000 + y } else { y })
            } else {
                None
            };
            let year = year_of(year);
            if year.is_some() {
                span.push(i + 4);
            }
            let Some(y) = year.or(close_year) else {
                continue;
            };
            inferred = year.is_none();
            let day = days_from_civil(y, m, d);
            range = Some((day, day));
        } else if let Some(y) = year_of(bare_int_at(tokens, i)) {
            // A season written "2025-26" is decided in its second year.
            let second = bare_int_at(tokens, i + 2)
                .filter(|_| matches!(tokens.get(i + 1), Some(Tok::Sym('-' | '–' | '/'))))
                .filter(|&z| z == (y + 1) % 100 || z == y + 1);
            let y = if second.is_some() {
                span.push(i + 2);
                y + 1
            } else {
                y
            };
            range = Some((days_from_civil(y, 1, 1), days_from_civil(y + 1, 1, 1) - 1));
        }
        let Some((mut first_day, mut last_day)) = range else {
            continue;
        };
        for &k in &span {
            used[k] = true;
        }
        // "end of 2026" is its last day.
        let end_of =
            i >= 2 && word_at(tokens, i - 1) == Some("of") && word_at(tokens, i - 2) == Some("end");
        let lead = if end_of { i - 2 } else { i };
        if end_of {
            first_day = last_day;
        }
        let before = lead > 0 && word_at(tokens, lead - 1) == Some("before");
        let deadline = lead > 0
            && matches!(
                word_at(tokens, lead - 1),
                Some("before" | "by" | "until" | "through" | "thru")
            );
        // "before July 2026" is "by June 30, 2026"; a day keeps its
        // reading ("before June 1" and "by June 1" are one deadline to
        // most platforms, a day apart at most).
        if before && first_day != last_day {
            first_day -= 1;
            last_day = first_day;
        }
        return Some(DateFact {
            first_day,
            last_day,
            deadline,
            year_inferred: inferred,
        });
    }
    None
}

/// A comparator written after the number at `i` ("50 bps or more",
/// "100+"), or a range ("$96,000 to $97,999.99").
fn postfix_threshold(tokens: &[Tok], i: usize, used: &mut [bool]) -> Option<Threshold> {
    let num = |i: usize, used: &[bool]| -> Option<(f64, String)> {
        match tokens.get(i) {
            Some(Tok::Num { value, unit, .. }) if !used[i] => Some((*value, unit.clone())),
            _ => None,
        }
    };
    // Postfix: "50 bps or more", "100+".
    if let Some(Tok::Num {
        value, unit, plus, ..
    }) = tokens.get(i)
        && !used[i]
    {
        let post = match (word_at(tokens, i + 1), word_at(tokens, i + 2)) {
            (Some("or"), Some("more" | "higher" | "above" | "greater")) => {
                Some(Comparator::AtLeast)
            }
            (Some("or"), Some("less" | "lower" | "below" | "fewer")) => Some(Comparator::AtMost),
            _ if *plus => Some(Comparator::AtLeast),
            _ => None,
        };
        if let Some(cmp) = post {
            used[i] = true;
            return Some(Threshold {
                comparator: cmp,
                value: *value,
                upper: None,
                unit: unit.clone(),
            });
        }
        // A range written "$96,000 to $97,999.99".
        if word_at(tokens, i + 1) == Some("to")
            && !unit.is_empty()
            && let Some((upper, _)) = num(i + 2, used)
        {
            used[i] = true;
            used[i + 2] = true;
            return Some(Threshold {
                comparator: Comparator::Between,
                value: value.min(upper),
                upper: Some(value.max(upper)),
                unit: unit.clone(),
            });
        }
    }
    None
}

/// The first comparator with a number after it (or `N or more`, `N+`).
fn find_threshold(tokens: &[Tok], used: &mut [bool]) -> Option<Threshold> {
    let num = |i: usize, used: &[bool]| -> Option<(f64, String)> {
        match tokens.get(i) {
            Some(Tok::Num { value, unit, .. }) if !used[i] => Some((*value, unit.clone())),
            _ => None,
        }
    };
    for i in 0..tokens.len() {
        // Prefix comparators: the word(s), then the number.
        let w = word_at(tokens, i);
        let next = word_at(tokens, i + 1);
        let prev = if i >= 2 {
            (word_at(tokens, i - 2), word_at(tokens, i - 1))
        } else {
            (None, None)
        };
        let (cmp, skip) = match (w, next) {
            (Some("at"), Some("least")) => (Some(Comparator::AtLeast), 2),
            (Some("at"), Some("most")) => (Some(Comparator::AtMost), 2),
            (Some("more" | "greater" | "higher"), Some("than")) => (Some(Comparator::Above), 2),
            (Some("less" | "fewer" | "lower"), Some("than")) => (Some(Comparator::Below), 2),
            (Some("above" | "over" | "exceed" | "exceeds" | "exceeding" | "beat"), _) => {
                if prev == (Some("at"), Some("or")) {
                    (Some(Comparator::AtLeast), 1)
                } else {
                    (Some(Comparator::Above), 1)
                }
            }
            (Some("below" | "under"), _) => {
                if prev == (Some("at"), Some("or")) {
                    (Some(Comparator::AtMost), 1)
                } else {
                    (Some(Comparator::Below), 1)
                }
            }
            (Some("reach" | "reaches" | "hit" | "hits"), _) => (Some(Comparator::AtLeast), 1),
            (Some("between"), _) => (Some(Comparator::Between), 1),
            _ => match tokens.get(i) {
                Some(Tok::Sym('>')) if tokens.get(i + 1) == Some(&Tok::Sym('=')) => {
                    (Some(Comparator::AtLeast), 2)
                }
                Some(Tok::Sym('<')) if tokens.get(i + 1) == Some(&Tok::Sym('=')) => {
                    (Some(Comparator::AtMost), 2)
                }
                Some(Tok::Sym('>')) => (Some(Comparator::Above), 1),
                Some(Tok::Sym('<')) => (Some(Comparator::Below), 1),
                Some(Tok::Sym('≥')) => (Some(Comparator::AtLeast), 1),
                Some(Tok::Sym('≤')) => (Some(Comparator::AtMost), 1),
                _ => (None, 0),
            },
        };
        if let Some(cmp) = cmp {
            let j = i + skip;
            let Some((value, unit)) = num(j, used) else {
                continue;
            };
            if cmp == Comparator::Between {
                let k = if matches!(word_at(tokens, j + 1), Some("and" | "to"))
                    || matches!(tokens.get(j + 1), Some(Tok::Sym('-' | '–')))
                {
                    j + 2
                } else {
                    continue;
                };
                let Some((upper, unit2)) = num(k, used) else {
                    continue;
                };
                used[j] = true;
                used[k] = true;
                return Some(Threshold {
                    comparator: cmp,
                    value: value.min(upper),
                    upper: Some(value.max(upper)),
                    unit: if unit.is_empty() { unit2 } else { unit },
                });
            }
            used[j] = true;
            return Some(Threshold {
                comparator: cmp,
                value,
                upper: None,
                unit,
            });
        }
        if let Some(t) = postfix_threshold(tokens, i, used) {
            return Some(t);
        }
    }
    // No comparator: a size stated alone ("cut 25 bps" is exactly 25),
    // or a sign ("growth be negative" is below 0).
    for (i, tok) in tokens.iter().enumerate() {
        let (comparator, value, unit) = match tok {
            Tok::Num { value, unit, .. } if !used[i] && unit == "bps" => {
                (Comparator::Exactly, *value, unit.clone())
            }
            Tok::Word { lower, .. } if lower == "negative" => {
                (Comparator::Below, 0.0, String::new())
            }
            Tok::Word { lower, .. } if lower == "positive" => {
                (Comparator::Above, 0.0, String::new())
            }
            _ => continue,
        };
        used[i] = true;
        return Some(Threshold {
            comparator,
            value,
            upper: None,
            unit,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(date: &str) -> Option<i64> {
        timestamp_ms(date)
    }

    #[test]
    fn reads_thresholds_with_units_and_comparators() {
        let f = Facts::of_text("Will BTC close above $95k on Mar 3?", ms("2026-03-03"));
        let t = f.threshold.unwrap();
        assert_eq!(
            (t.comparator, t.value, t.unit.as_str()),
            (Comparator::Above, 95_000.0, "$")
        );
        assert_eq!(f.entities, ["bitcoin"]);
        let d = f.date.unwrap();
        assert_eq!(d.to_string(), "2026-03-03");
        assert!(d.year_inferred);

        let t = Facts::of_text("Bitcoin at or below $95,000 on March 3, 2026?", None)
            .threshold
            .unwrap();
        assert_eq!((t.comparator, t.value), (Comparator::AtMost, 95_000.0));
        let t = Facts::of_text("Fed decision: Cut 50 bps or more?", None)
            .threshold
            .unwrap();
        assert_eq!(
            (t.comparator, t.value, t.unit.as_str()),
            (Comparator::AtLeast, 50.0, "bps")
        );
        let t = Facts::of_text("Opening weekend above $120 million?", None)
            .threshold
            .unwrap();
        assert_eq!((t.value, t.unit.as_str()), (120e6, "$"));
        let t = Facts::of_text("CPI between 2.5% and 3.0% in May 2026?", None)
            .threshold
            .unwrap();
        assert_eq!(
            (t.comparator, t.value, t.upper),
            (Comparator::Between, 2.5, Some(3.0))
        );
        assert_eq!(t.to_string(), "between 2.5% and 3%");
    }

    #[test]
    fn reads_dates_and_deadlines() {
        let f = Facts::of_text("Will Acme release a VR headset before June 1, 2026?", None);
        let d = f.date.unwrap();
        assert!(d.deadline);
        assert_eq!(d.to_string(), "by 2026-06-01");
        assert!(f.words.contains("release") && f.words.contains("headset"));
        let f = Facts::of_text("Acme Q3 2026 EPS above $1.20?", None);
        assert_eq!(f.date.unwrap().to_string(), "2026-07-01 to 2026-09-30");
        let f = Facts::of_text("Inflation for May 2026", None);
        assert_eq!(f.date.unwrap().to_string(), "2026-05-01 to 2026-05-31");
        // "may" as a verb is no date.
        assert!(Facts::of_text("Who may win?", None).date.is_none());
        let f = Facts::of_text("Highest temperature on 2026-07-04 above 90°F?", None);
        assert_eq!(f.date.unwrap().to_string(), "2026-07-04");
        assert_eq!(f.threshold.unwrap().unit, "°F");
    }

    #[test]
    fn reads_names_negation_and_other_numbers() {
        let f = Facts::of_text(
            "Will Jane Doe not win the 2026 Freedonia president election?",
            None,
        );
        assert!(f.negated);
        assert_eq!(f.entities, ["doe", "freedonia", "jane"]);
        let f = Facts::of_text("Will \"Blue Skies\" be #1 on the chart?", None);
        assert!(f.entities.contains(&"blue skies".to_owned()));
        assert_eq!(f.numbers, ["1"]);
    }

    #[test]
    fn reads_the_wordings_of_real_platforms() {
        // Tickers, demonyms, multi-word names and possessives fold.
        let f = Facts::of_text("Will NVDA's market cap be above $5T on 12/31/2026?", None);
        assert_eq!(f.entities, ["nvidia"]);
        assert_eq!(f.date.unwrap().to_string(), "2026-12-31");
        assert_eq!(f.threshold.unwrap().to_string(), "above $5000000000000");
        let f = Facts::of_text("Will the United States and the French strike?", None);
        assert_eq!(f.entities, ["france", "us"]);
        let f = Facts::of_text("European Central Bank cut in April 2026?", None);
        assert_eq!(f.entities, ["ecb"]);
        // "before" a month or a year ends the day before it starts.
        let d = Facts::of_text("Ceasefire before 2027?", None).date.unwrap();
        assert_eq!(d.to_string(), "by 2026-12-31");
        let d = Facts::of_text("Strike before July 2026?", None)
            .date
            .unwrap();
        assert_eq!(d.to_string(), "by 2026-06-30");
        let d = Facts::of_text("ETH $10k by end of 2026?", None)
            .date
            .unwrap();
        assert_eq!(d.to_string(), "by 2026-12-31");
        let d = Facts::of_text("Oilers win the 2025-26 NHL title?", None)
            .date
            .unwrap();
        assert_eq!(d.to_string(), "2026-01-01 to 2026-12-31");
        // Ranges, a size alone, a sign.
        let t = Facts::of_text("Bitcoin on Mar 31: $96,000 to $97,999.99?", None)
            .threshold
            .unwrap();
        assert_eq!(
            (t.comparator, t.value, t.upper),
            (Comparator::Between, 96_000.0, Some(97_999.99))
        );
        let t = Facts::of_text("Cut 25bps", None).threshold.unwrap();
        assert_eq!(t.to_string(), "exactly 25 bps");
        let t = Facts::of_text("GDP growth negative in Q1 2026?", None)
            .threshold
            .unwrap();
        assert_eq!((t.comparator, t.value), (Comparator::Below, 0.0));
        // Negation in other words; who must win.
        assert!(Facts::of_text("No change in Fed rates in June?", None).negated);
        assert!(Facts::of_text("Will the Fed hold or hike rates in June?", None).negated);
        assert!(Facts::of_text("Will the US avoid a recession?", None).negated);
        let f = Facts::of_text("Boston Celtics to win vs Los Angeles Lakers?", None);
        assert_eq!(f.winner.as_deref(), Some("boston celtics"));
    }

    proptest::proptest! {
        // Titles are user input: any text is read without a panic.
        #[test]
        fn any_text_is_read(text in "\\PC{0,60}", digits in "[0-9$%°,.+<>= -]{0,20}") {
            let _ = Facts::of_text(&text, Some(0));
            let _ = Facts::of_text(&format!("{text}{digits}{text}"), None);
        }
    }
}
