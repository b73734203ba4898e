//! Rewrites of the tokens for what is written otherwise with numbers:
//! a name that ends in a number ("Nasdaq-100", "Formula 1"), a ratio of
//! two assets ("ETH/BTC"), a number written as a word where a count is
//! compared ("at least two"), a sequel's Roman numeral ("GTA VI") and a
//! rank ("No. 1"), a half-goal Asian handicap (a moneyline or a Double
//! Chance), a film's "3-day" opening (its weekend). Each runs once per text, in `lex`.

use super::super::lexicon::{NUMBERED_NAMES, roman, tickers};
use super::{Tok, word_at};

/// A name written as words and a number ("Nasdaq-100", "Russell 2000",
/// "Formula 1") is one word (see [`NUMBERED_NAMES`]):
/// its number is neither a year nor a line.
pub(super) fn numbered_names(tokens: Vec<Tok>) -> Vec<Tok> {
    // Most texts name none: returned as they are, without a copy.
    let starts = |t: &Tok| match t {
        Tok::Word { lower, .. } => NUMBERED_NAMES
            .iter()
            .any(|n| n.words.first() == Some(&lower.as_str())),
        _ => false,
    };
    if !tokens.iter().any(starts) {
        return tokens;
    }
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
pub(super) fn asset_ratios(tokens: Vec<Tok>) -> Vec<Tok> {
    if !tokens.contains(&Tok::Sym('/')) {
        return tokens;
    }
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
pub(super) fn number_words(mut tokens: Vec<Tok>) -> Vec<Tok> {
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
pub(super) fn sequel_numbers(mut tokens: Vec<Tok>) -> Vec<Tok> {
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
pub(super) fn numero(tokens: Vec<Tok>) -> Vec<Tok> {
    if !tokens.iter().any(|t| {
        matches!(t, Tok::Sym('#')) || matches!(t, Tok::Word { lower, .. } if lower == "no")
    }) {
        return tokens;
    }
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

/// A half-goal Asian handicap ("Dortmund -0.5 Asian Handicap",
/// "Leverkusen +0.5 Asian Handicap") is a bet on the result at full
/// time: giving half a goal wins only if the team wins, so it is the
/// team's moneyline; taking half a goal wins on a win or a draw, so it
/// is the team's Double Chance ("Leverkusen or Draw"). Rewritten to
/// those words, which the rules read already. Any other handicap (a
/// whole goal, a quarter, one and a half) stays a line.
pub(super) fn asian_half_lines(tokens: Vec<Tok>) -> Vec<Tok> {
    let at = |i: usize| -> Option<char> {
        let sign = match tokens.get(i) {
            Some(Tok::Sym(c @ ('-' | '+'))) => *c,
            _ => return None,
        };
        let half = matches!(tokens.get(i + 1), Some(Tok::Num { value, unit, .. }) if *value == 0.5 && unit.is_empty());
        let named = |k: usize, w: &str| word_at(&tokens, k) == Some(w);
        (half && named(i + 2, "asian") && named(i + 3, "handicap")).then_some(sign)
    };
    // Most texts name none: returned as they are, without a copy.
    if !(0..tokens.len()).any(|i| at(i).is_some()) {
        return tokens;
    }
    let word = |lower: &str, cap: bool| Tok::Word {
        lower: lower.to_owned(),
        cap,
        upper: false,
    };
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match at(i) {
            Some('-') => out.push(word("moneyline", true)),
            Some(_) => out.extend([
                word("or", false),
                word("draw", true),
                word("double-chance", false),
            ]),
            None => {
                out.push(tokens[i].clone());
                i += 1;
                continue;
            }
        }
        i += 4;
    }
    out
}

/// A film's "3-day" opening ("3-day domestic opening over $70M") is its
/// opening weekend, Friday to Sunday, as the box office reports it: the
/// "3-day" is written "weekend", not read as a number of the question.
/// A 4-day or 5-day opening (a holiday weekend) is another span, and
/// stays a number.
pub(super) fn three_day_openings(tokens: Vec<Tok>) -> Vec<Tok> {
    // The tokens of "3-day" from `at`, and how many.
    let three_day = |at: usize| -> Option<usize> {
        match tokens.get(at) {
            Some(Tok::Num { value, unit, .. }) if *value == 3.0 => match unit.as_str() {
                "day" | "days" => Some(1),
                "" if matches!(tokens.get(at + 1), Some(Tok::Sym('-')))
                    && word_at(&tokens, at + 2) == Some("day") =>
                {
                    Some(3)
                }
                _ => None,
            },
            _ => None,
        }
    };
    let of_an_opening = |at: usize, len: usize| {
        (at + len..at + len + 2)
            .any(|k| matches!(word_at(&tokens, k), Some("opening" | "weekend" | "open")))
    };
    // Most texts have none: returned as they are, without a copy.
    if !(0..tokens.len()).any(|i| three_day(i).is_some_and(|len| of_an_opening(i, len))) {
        return tokens;
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        match three_day(i).filter(|&len| of_an_opening(i, len)) {
            Some(len) => {
                out.push(Tok::Word {
                    lower: "weekend".to_owned(),
                    cap: false,
                    upper: false,
                });
                i += len;
            }
            None => {
                out.push(tokens[i].clone());
                i += 1;
            }
        }
    }
    out
}
