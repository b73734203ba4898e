//! The tokens of a market's text: words (lower-case, with their capital),
//! numbers with their unit and multiplier ("$120M", "25 bps", "3rd"),
//! ISO dates, quotes and symbols; phrases folded to the one word other
//! platforms use ("Federal Reserve" is "fed"), and numbered editions of
//! recurring events read as their year.

use super::lexicon::tickers;
use super::lexicon::{EDITIONS, Edition, NUMBERED_NAMES, roman};
use crate::time::days_from_civil;

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

/// Phrases that name one subject in several words, read as the one word
/// the other platforms use, and phrases that say "not" in other words.
pub(crate) const PHRASES: &[(&[&str], &[&str])] = &[
    (&["united", "states"], &["us"]),
    (&["united", "kingdom"], &["uk"]),
    (&["great", "britain"], &["uk"]),
    (&["new", "york", "city"], &["nyc"]),
    (&["federal", "reserve"], &["fed"]),
    (&["european", "central", "bank"], &["ecb"]),
    (&["bank", "of", "england"], &["boe"]),
    (&["bank", "of", "japan"], &["boj"]),
    (&["bank", "of", "canada"], &["boc"]),
    (&["reserve", "bank", "of", "australia"], &["rba"]),
    (&["swiss", "national", "bank"], &["snb"]),
    (&["bank", "of", "mexico"], &["banxico"]),
    (&["bank", "of", "korea"], &["bok"]),
    (&["reserve", "bank", "of", "new", "zealand"], &["rbnz"]),
    (&["sveriges", "riksbank"], &["riksbank"]),
    (&["euro", "area"], &["eurozone"]),
    (&["epl"], &["premier", "league"]),
    (&["roland", "garros"], &["french", "open"]),
    (&["open", "championship"], &["open"]),
    (&["game", "of", "the", "year"], &["goty"]),
    (&["album", "of", "the", "year"], &["aoty"]),
    (&["the", "game", "awards"], &["tga"]),
    (&["most", "valuable", "player"], &["mvp"]),
    (&["academy", "awards"], &["oscars"]),
    (&["republican", "party"], &["republican"]),
    (&["conservative", "party"], &["conservative"]),
    (&["labour", "party"], &["labour"]),
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
    // The Formula 1 world champion is the winner of the Drivers'
    // Championship (the Constructors' is another title).
    (
        &["f1", "world", "champion"],
        &["f1", "drivers", "championship"],
    ),
    (
        &["f1", "world", "championship"],
        &["f1", "drivers", "championship"],
    ),
    // The Scudetto is the Serie A title.
    (&["scudetto"], &["serie", "a"]),
    // The Emmys name their categories "Outstanding", others "Best".
    (&["outstanding"], &["best"]),
    (
        &["march", "madness"],
        &["ncaa", "men", "basketball", "tournament"],
    ),
    (&["eurovision", "song", "contest"], &["eurovision"]),
    (&["national", "average"], &["us"]),
    (&["earnings", "per", "share"], &["eps"]),
    (&["box", "office"], &["gross"]),
    (&["year", "over", "year"], &["yoy"]),
    (&["month", "over", "month"], &["mom"]),
    (&["dow", "jones", "industrial", "average"], &["dow"]),
    (&["dow", "jones"], &["dow"]),
    // A film's domestic gross is its gross in the US and Canada.
    (&["north", "america"], &["domestic"]),
    (&["us", "and", "canada"], &["domestic"]),
    // Sportsbook notation, one word each, so no "no" in it reads as a
    // negation and the other side must say the same to be `same`.
    (&["draw", "no", "bet"], &["draw-no-bet"]),
    (&["double", "chance"], &["double-chance"]),
    (&["grammy", "awards"], &["grammy"]),
    (&["grand", "theft", "auto"], &["gta"]),
    (&["step", "down"], &["resign"]),
    (&["shut", "down"], &["shutdown"]),
    (&["european", "championship"], &["euro"]),
    (&["most", "valuable"], &["largest"]),
    (&["nba", "championship"], &["nba", "finals"]),
    (&["pro", "basketball", "champion"], &["nba", "finals"]),
    (&["hold", "or", "hike"], &["not", "cut"]),
    // "someone other than Modi be PM on Jan 1" is "Modi not PM on Jan 1".
    (&["someone", "other", "than"], &["not"]),
    (&["no", "longer"], &["not"]),
    // The headline trade balance is of all goods and services; "goods"
    // alone is another series.
    (&["goods", "and", "services"], &["all"]),
    // A comparator, not the verb "lower" (a cut): "2.5% or lower".
    (&["or", "lower"], &["or", "less"]),
    (&["lower", "than"], &["less", "than"]),
    (&["hold", "or", "raise"], &["not", "cut"]),
    (&["hold", "or", "cut"], &["not", "hike"]),
];

pub(crate) fn rewrite_phrases(tokens: Vec<Tok>) -> Vec<Tok> {
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
                // "resign") or a comparator ("or less") is no name.
                let cap = !matches!(
                    with[0],
                    "not"
                        | "resign"
                        | "draw-no-bet"
                        | "double-chance"
                        | "gross"
                        | "or"
                        | "less"
                        | "domestic"
                        | "all"
                );
                out.extend(with.iter().map(|w| Tok::Word {
                    lower: (*w).to_owned(),
                    cap,
                    upper: false,
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
pub(crate) fn resolve_editions(mut tokens: Vec<Tok>) -> Vec<Tok> {
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

pub(crate) fn lex(text: &str) -> Vec<Tok> {
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
            let upper = word.chars().count() >= 2 && word.chars().all(char::is_uppercase);
            let mut lower: String = word
                .to_lowercase()
                .replace('’', "'")
                .chars()
                .map(without_diacritic)
                .collect();
            if upper
                && let Some(name) = tickers::coin_of_capital_ticker(&lower)
                    .or_else(|| tickers::index_of_ticker(&lower))
            {
                lower = name.to_owned();
            }
            // The possessive names the same subject ("Trump's", "NVDA's").
            if lower.len() > 2 && lower.ends_with("'s") {
                lower.truncate(lower.len() - 2);
            }
            out.push(Tok::Word { lower, cap, upper });
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
    let tokens = numbered_names(numero(number_words(merged)));
    sequel_numbers(resolve_editions(rewrite_phrases(asset_ratios(tokens))))
}

/// A name written as words and a number ("Nasdaq-100", "Russell 2000",
/// "Formula 1") is one word (see [`super::lexicon::NUMBERED_NAMES`]):
/// its number is neither a year nor a line.
fn numbered_names(tokens: Vec<Tok>) -> Vec<Tok> {
    let joiner = |t: Option<&Tok>| matches!(t, Some(Tok::Sym('&' | '-')));
    // The index of `tokens` just past the index named at `at`, if one is.
    let named = |at: usize| {
        NUMBERED_NAMES.iter().find_map(|index| {
            let mut k = at;
            for (n, w) in index.words.iter().enumerate() {
                if n > 0 && joiner(tokens.get(k)) {
                    k += 1;
                }
                if word_at(&tokens, k) != Some(*w) {
                    return None;
                }
                k += 1;
            }
            if joiner(tokens.get(k)) {
                k += 1;
            }
            match tokens.get(k) {
                Some(Tok::Num { value, unit, .. }) if *value == index.number && unit.is_empty() => {
                    Some((index.name, k + 1))
                }
                _ => None,
            }
        })
    };
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some((name, next)) = named(i) {
            out.push(Tok::Word {
                lower: name.to_owned(),
                cap: true,
                upper: false,
            });
            i = next;
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    out
}

/// Two assets written "A/B" in capitals, neither a quote currency (a
/// dollar, a stablecoin, a fiat code): the ratio of the two ("ETH/BTC"),
/// a quantity of its own, not the price of either ("BTC/USDT" is
/// Bitcoin's price). The word "ratio" is added after the pair.
fn asset_ratios(tokens: Vec<Tok>) -> Vec<Tok> {
    let asset = |t: Option<&Tok>| match t {
        Some(Tok::Word {
            lower, upper: true, ..
        }) => tickers::is_coin(lower) && !tickers::is_quote_currency(lower),
        _ => false,
    };
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    for (i, tok) in tokens.iter().enumerate() {
        out.push(tok.clone());
        let pair = i >= 2
            && tokens.get(i - 1) == Some(&Tok::Sym('/'))
            && asset(tokens.get(i - 2))
            && asset(Some(tok));
        if pair {
            out.push(Tok::Word {
                lower: "ratio".to_owned(),
                cap: false,
                upper: false,
            });
        }
    }
    out
}

/// Numbers written as words where a count is compared ("at least two
/// rate cuts", "three or more"): the number, as if written in digits.
fn number_words(mut tokens: Vec<Tok>) -> Vec<Tok> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    for i in 0..tokens.len() {
        let Some(n) = word_at(&tokens, i).and_then(|w| WORDS.iter().position(|x| *x == w)) else {
            continue;
        };
        let before = (
            i.checked_sub(2).and_then(|k| word_at(&tokens, k)),
            i.checked_sub(1).and_then(|k| word_at(&tokens, k)),
        );
        let after = (word_at(&tokens, i + 1), word_at(&tokens, i + 2));
        let compared = matches!(
            before,
            (Some("at"), Some("least" | "most")) | (Some("more" | "fewer" | "less"), Some("than"))
        ) || matches!(after, (Some("or"), Some("more" | "fewer" | "less")));
        if compared {
            tokens[i] = Tok::Num {
                value: (n + 1) as f64,
                unit: String::new(),
                bare_int: true,
                plus: false,
                ordinal: false,
            };
        }
    }
    tokens
}

/// A Roman numeral in capitals after a name ("GTA VI", "The Elder Scrolls
/// VI") is the sequel's number, as "GTA 6" writes it; read after the
/// editions of recurring events ("Super Bowl LXII") took theirs.
fn sequel_numbers(mut tokens: Vec<Tok>) -> Vec<Tok> {
    for i in 1..tokens.len() {
        let numeral = match &tokens[i] {
            Tok::Word {
                lower, upper: true, ..
            } => roman(lower).filter(|n| (2..=30).contains(n)),
            _ => None,
        };
        let after_a_name = matches!(tokens.get(i - 1), Some(Tok::Word { cap: true, .. }));
        if let Some(n) = numeral.filter(|_| after_a_name) {
            tokens[i] = Tok::Num {
                value: n as f64,
                unit: String::new(),
                bare_int: true,
                plus: false,
                ordinal: false,
            };
        }
    }
    tokens
}

/// "No. 1" is "#1", a rank, not a negation; and the first rank ("No. 1",
/// "#1") is the top ("top the chart", "debut at No. 1").
fn numero(tokens: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    let first = |t: Option<&Tok>| matches!(t, Some(Tok::Num { value, unit, .. }) if *value == 1.0 && unit.is_empty());
    while i < tokens.len() {
        let rank = word_at(&tokens, i) == Some("no")
            && tokens.get(i + 1) == Some(&Tok::Sym('.'))
            && matches!(tokens.get(i + 2), Some(Tok::Num { .. }));
        let hash = tokens.get(i) == Some(&Tok::Sym('#'));
        if (rank && first(tokens.get(i + 2))) || (hash && first(tokens.get(i + 1))) {
            out.push(Tok::Word {
                lower: "top".to_owned(),
                cap: false,
                upper: false,
            });
            i += if rank { 3 } else { 2 };
        } else if rank {
            out.push(Tok::Sym('#'));
            i += 2;
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    out
}

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
