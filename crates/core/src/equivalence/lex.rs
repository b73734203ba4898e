//! The tokens of a market's text: words (lower-case, with their capital),
//! numbers with their unit and multiplier ("$120M", "25 bps", "3rd"),
//! ISO dates, quotes and symbols; phrases folded to the one word other
//! platforms use ("Federal Reserve" is "fed"), numbered editions of
//! recurring events read as their year, tickers read as the coin or index
//! they stand for, and what is written otherwise with numbers
//! (`rewrites`).

mod decimal;
mod entity_names;
mod float_text;
mod light_verbs;
mod phrases;
mod rewrites;

use super::lexicon::tickers;
use super::lexicon::{EDITIONS, Edition, roman};
use crate::time::days_from_civil;
pub(crate) use decimal::signed as signed_number;
pub(crate) use float_text::{display as display_f64, tenths as tenths_f64};
use phrases::rewrite_phrases;
use rewrites::{
    asian_half_lines, asset_ratios, number_words, numbered_names, numero, sequel_numbers,
    three_day_openings,
};

pub(crate) const MULTIPLIERS: &[(&str, f64)] = &[
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

/// Editions of recurring events named by number become their year: "the
/// 99th Academy Awards" is read as "the 2027 Academy Awards", "Super Bowl
/// LXII" as "Super Bowl 2028" (see [`super::lexicon::EDITIONS`]).
pub(crate) fn resolve_editions(mut tokens: Vec<Tok>) -> Vec<Tok> {
    let year = |y: i64| Tok::Num {
        value: y as f64,
        unit: String::new(),
        bare_int: true,
        plus: false,
        ordinal: false,
    };
    // A word as written or as its alias reads it ("the 70th Grammys":
    // "grammys" is read as "grammy").
    let names = |tokens: &[Tok], at: usize, e: &Edition| {
        e.words.iter().enumerate().all(|(k, w)| {
            word_at(tokens, at + k).is_some_and(|t| t == *w || super::words::alias(t) == *w)
        })
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

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Word {
        lower: String,
        cap: bool,
        /// Written in capitals, two letters or more ("SGA", "COIN"): a
        /// short form (see `short_forms`).
        upper: bool,
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

/// A Latin letter without its diacritic ("Erdoğan" is written "Erdogan",
/// "Dončić" "Doncic", "Åberg" "Aberg" on platforms that type ASCII): the
/// base letter of its Unicode decomposition, for the lower-case letters of
/// Latin-1 and Latin Extended-A; any other character as it is.
fn without_diacritic(c: char) -> char {
    match c {
        'à'..='å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è'..='ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => 'e',
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => 'g',
        'ĥ' | 'ħ' => 'h',
        'ì'..='ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => 'i',
        'ĵ' => 'j',
        'ķ' => 'k',
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => 'l',
        'ñ' | 'ń' | 'ņ' | 'ň' => 'n',
        'ò'..='ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => 'o',
        'ŕ' | 'ŗ' | 'ř' => 'r',
        'ś' | 'ŝ' | 'ş' | 'š' => 's',
        'ţ' | 'ť' | 'ŧ' => 't',
        'ù'..='ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => 'u',
        'ŵ' => 'w',
        'ý' | 'ÿ' | 'ŷ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        other => other,
    }
}

/// The words of `text` as the lexer reads them, lower-case, joined by
/// single spaces: what the lexicon's tests compare.
#[cfg(test)]
pub(crate) fn lowered_words(text: &str) -> String {
    lex(text)
        .into_iter()
        .filter_map(|t| match t {
            Tok::Word { lower, .. } => Some(lower),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn lex(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    // About one token in five characters: few regrowths.
    let mut out = Vec::with_capacity(chars.len() / 5 + 1);
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
            let (word, end) = lex_word(&chars, i);
            out.push(word);
            i = end;
        } else {
            out.push(Tok::Sym(c));
            i += 1;
        }
    }
    let tokens = numbered_names(numero(number_words(merge_units(out))));
    // Entities last: an edition's number and a sequel's numeral are read
    // first, from the names as written ("79th Primetime Emmy Awards").
    entity_names::entity_names(sequel_numbers(resolve_editions(rewrite_phrases(
        light_verbs::light_verbs(asian_half_lines(three_day_openings(asset_ratios(tokens)))),
    ))))
}

/// The word starting at `i` (letters, digits, and an apostrophe or a dot
/// between letters), lowered, with its capitals read; and where the text
/// goes on.
fn lex_word(chars: &[char], i: usize) -> (Tok, usize) {
    let start = i;
    let mut i = i;
    while i < chars.len()
        && (chars[i].is_alphanumeric()
            || (matches!(chars[i], '\'' | '’' | '.')
                && chars.get(i + 1).is_some_and(|n| n.is_alphabetic())))
    {
        i += 1;
    }
    // Sized once, for an ASCII word (most): collected char by
    // char, a word's string grew (and was copied) as it went.
    let mut word = String::with_capacity(i - start);
    word.extend(&chars[start..i]);
    let cap = word.chars().next().is_some_and(char::is_uppercase);
    // Capitals, or initials written with a lower-case connector
    // ("BoE", "BoJ", "FdI": first and last letters capitals).
    let letters = word.chars().count();
    let upper = (letters >= 2 && word.chars().all(char::is_uppercase))
        || ((3..=4).contains(&letters)
            && word.chars().next().is_some_and(char::is_uppercase)
            && word.chars().last().is_some_and(char::is_uppercase));
    // Most words are ASCII: lowered in place, one allocation
    // (an ASCII word has no '’' and no diacritic to take off).
    let mut lower: String = if word.is_ascii() {
        let mut lower = word;
        lower.make_ascii_lowercase();
        lower
    } else {
        word.to_lowercase()
            .replace('’', "'")
            .chars()
            .map(without_diacritic)
            .collect()
    };
    if upper
        && let Some(name) =
            tickers::coin_of_capital_ticker(&lower).or_else(|| tickers::index_of_ticker(&lower))
    {
        lower = name.to_owned();
    }
    // The possessive names the same subject ("Trump's", "NVDA's").
    if lower.len() > 2 && lower.ends_with("'s") {
        lower.truncate(lower.len() - 2);
    }
    (Tok::Word { lower, cap, upper }, i)
}

/// A multiplier or unit written as its own word ("$120 million", "25
/// bps", "3 percent") taken into the number before it.
fn merge_units(out: Vec<Tok>) -> Vec<Tok> {
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
    merged
}

/// What a sign right after a number says: a unit ("%", "°F", "°C") or
/// "at least" ("100+").
enum Postfix {
    Unit(&'static str),
    Plus,
}

/// The sign after the number ending at `i`, and where the text goes on.
fn postfix_sign(chars: &[char], i: usize) -> Option<(Postfix, usize)> {
    match chars.get(i)? {
        '%' => Some((Postfix::Unit("%"), i + 1)),
        '°' => {
            let scale = chars.get(i + 1).map(|c| c.to_ascii_uppercase());
            let after = if matches!(scale, Some('C' | 'F')) {
                i + 2
            } else {
                i + 1
            };
            let unit = if scale == Some('C') { "°C" } else { "°F" };
            Some((Postfix::Unit(unit), after))
        }
        '+' => Some((Postfix::Plus, i + 1)),
        _ => None,
    }
}

/// Units written glued to their number ("100mph", "4lbs"): the number
/// stays a number, whatever follows it.
const GLUED_UNITS: &[&str] = &[
    "mph", "kph", "kmh", "lbs", "kwh", "mwh", "gwh", "twh", "bbl", "mmbtu", "sqft", "mins", "hrs",
    "pts", "yds", "days", "games", "goals",
];

pub(crate) fn lex_number(chars: &[char], mut i: usize, out: &mut Vec<Tok>) -> usize {
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
    let mut value = decimal::read(&digits);
    let mut plus = false;
    let mut ordinal = false;
    let mut years = false;
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
        } else if matches!(suffix.as_str(), "y" | "yr") {
            // A maturity ("10Y" is "10-year"): the number, then "year".
            years = true;
        } else if suffix.len() >= 3
            && bare_int
            && unit.is_empty()
            && !GLUED_UNITS.contains(&suffix.as_str())
            && !chars.get(i).is_some_and(|c| c.is_alphanumeric())
        {
            // A name that begins with digits ("49ers", "76ers"): a word,
            // neither a line nor a count.
            digits.push_str(&suffix);
            out.push(Tok::Word {
                lower: digits,
                cap: true,
                upper: false,
            });
            return i;
        } else {
            // A word glued to a number ("Q1" is lexed as a word): undo.
            i = start;
        }
    }
    match postfix_sign(chars, i) {
        Some((Postfix::Unit(u), after)) => {
            unit = u.into();
            i = after;
        }
        Some((Postfix::Plus, after)) => {
            plus = true;
            i = after;
        }
        None => {}
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
    if years {
        out.push(Tok::Word {
            lower: "year".to_owned(),
            cap: false,
            upper: false,
        });
    }
    i
}

pub(crate) fn word_at(tokens: &[Tok], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Tok::Word { lower, .. }) => Some(lower),
        _ => None,
    }
}

pub(crate) fn bare_int_at(tokens: &[Tok], i: usize) -> Option<i64> {
    match tokens.get(i) {
        Some(Tok::Num {
            value,
            bare_int: true,
            ..
        }) => Some(*value as i64),
        _ => None,
    }
}
