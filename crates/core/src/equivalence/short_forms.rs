//! Names written short: initials ("SGA" of Shai Gilgeous-Alexander, "RBI"
//! of the Reserve Bank of India) and tickers that begin the name they
//! stand for ("HYPE" of Hyperliquid, "COIN" of Coinbase). A side that
//! writes the short form and a side that writes the name in full name
//! one subject; read once per market, compared per pair. A title that
//! glosses a name with its ticker ("Tether (USDT)") says so itself.

use super::lex::Tok;
use super::words::{content_word, is_stopword, name_of};

/// A ticker shorter than this is never read as the start of a name:
/// "ETH" begins "Ethereum" and "Ethena" alike.
const MIN_TICKER_PREFIX: usize = 4;

/// Lower-case words kept inside a name, whose initials a short form may
/// or may not write.
const CONNECTORS: &[&str] = &["of", "the"];

/// The short forms a title writes and the capitalized runs it writes in
/// full.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ShortForms {
    /// Words written in capitals, two letters or more ("sga", "coin").
    short: Vec<Word>,
    /// Runs of capitalized words (hyphenated parts and an inner "of" kept
    /// in the run), as names are compared.
    runs: Vec<Vec<Word>>,
    /// What the runs may be written short as (their initials, the first
    /// letters of their words as a ticker): `find_pairs` files a market
    /// under these too, so that "RBI" meets "Reserve Bank of India".
    pub(crate) keys: Vec<String>,
    /// A name glossed by the short form in capitals after it, in
    /// parentheses ("Tether (USDT)"): (the name's last word, the short).
    glossed: Vec<(Word, Word)>,
}

/// A word of a name, as names are compared and as content words are
/// (folded): both read once per market, so comparing allocates nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Word {
    name: String,
    content: String,
    /// The first letter as written, before an alias ("American" is
    /// compared as "us" but is the "A" of "AL").
    initial: Option<char>,
}

impl Word {
    fn of(lower: &str) -> Self {
        let name = name_of(lower);
        let content = content_word(&name).unwrap_or_else(|| name.clone());
        Self {
            name,
            content,
            initial: lower.chars().next(),
        }
    }

    /// `word` (a name or a content word) is this word.
    fn is(&self, word: &str) -> bool {
        self.name == word || self.content == word
    }
}

impl ShortForms {
    pub(crate) fn read(tokens: &[Tok]) -> Self {
        let mut out = Self::default();
        let mut run: Vec<Word> = Vec::new();
        let close = |run: &mut Vec<Word>, runs: &mut Vec<Vec<Word>>| {
            while run
                .last()
                .is_some_and(|w| CONNECTORS.contains(&w.name.as_str()))
            {
                run.pop();
            }
            if !run.is_empty() {
                runs.push(std::mem::take(run));
            }
        };
        for tok in tokens {
            match tok {
                Tok::Word { lower, cap, upper } => {
                    if *upper {
                        out.short.push(Word::of(lower));
                    }
                    // "Player of the Year": a noun the comparison skips is
                    // still a word of the name it ends.
                    let ends_a_name =
                        !run.is_empty() && matches!(lower.as_str(), "year" | "day" | "week");
                    if *cap && (!is_stopword(lower) || ends_a_name) {
                        run.push(Word::of(lower));
                    } else if CONNECTORS.contains(&lower.as_str()) && !run.is_empty() {
                        // "Reserve Bank of India", "Album of the Year".
                        run.push(Word::of(lower));
                    } else {
                        close(&mut run, &mut out.runs);
                    }
                }
                Tok::Sym('-') if !run.is_empty() => {}
                _ => close(&mut run, &mut out.runs),
            }
        }
        close(&mut run, &mut out.runs);
        out.glossed = tokens
            .windows(4)
            .filter_map(|w| match w {
                [
                    Tok::Word {
                        lower: name,
                        cap: true,
                        ..
                    },
                    Tok::Sym('('),
                    Tok::Word {
                        lower: short,
                        upper: true,
                        ..
                    },
                    Tok::Sym(')'),
                ] => Some((Word::of(name), Word::of(short))),
                _ => None,
            })
            .collect();
        out.keys = out.runs.iter().flat_map(|run| keys_of(run)).collect();
        out.keys.sort_unstable();
        out.keys.dedup();
        out
    }

    /// `word` is a short form of this side or a word of a name it glosses
    /// ("Tether (USDT)"): without it, [`Self::accounts_for`] reads only
    /// the other side's short forms, and is false where it writes none
    /// ([`Self::writes_short_forms`]). Read once per name of a market.
    pub(crate) fn short_or_glossed(&self, word: &str) -> bool {
        self.short.iter().any(|s| s.is(word))
            || self
                .glossed
                .iter()
                .any(|(name, short)| name.is(word) || short.is(word))
    }

    /// Some word is written in capitals.
    pub(crate) fn writes_short_forms(&self) -> bool {
        !self.short.is_empty()
    }

    /// The words of this side's full names that `other`'s short forms
    /// stand for, and this side's short forms that `other`'s full names
    /// spell out: `word` is one of them.
    pub(crate) fn accounts_for(&self, other: &Self, word: &str) -> bool {
        // Asked of every name a side leaves unmatched, in every candidate
        // pair: most sides write no short form, and then no run of this
        // side needs reading (the answer is the same, `short_of` being
        // false for every run).
        if other.short.is_empty() && other.runs.is_empty() {
            return false;
        }
        let writes = |side: &Self, w: &Word| {
            side.short.iter().any(|s| s.name == w.name)
                || side.runs.iter().flatten().any(|r| r.name == w.name)
        };
        self.glossed.iter().any(|(name, short)| {
            (name.is(word) && writes(other, short)) || (short.is(word) && writes(other, name))
        }) || self
            .short
            .iter()
            .any(|s| s.is(word) && other.spells(&s.name))
            || self.runs.iter().any(|run| {
                !other.short.is_empty() && run.iter().any(|w| w.is(word)) && other.short_of(run)
            })
    }

    /// `word` is written before a later word of its name that `is_name`
    /// finds on the other side: the city of "Cleveland Cavaliers
    /// Moneyline" against "Cavaliers".
    pub(crate) fn before_a_name(&self, word: &str, is_name: impl Fn(&str) -> bool) -> bool {
        self.runs.iter().any(|run| {
            run.iter()
                .position(|w| w.is(word))
                .is_some_and(|at| run[at + 1..].iter().any(|later| is_name(&later.name)))
        })
    }

    /// Some run of consecutive words in `run` is what `short` stands for
    /// (its initials, with or without those of "of" and "the", or a
    /// ticker that begins one of its words).
    fn stands_for(short: &str, run: &[Word]) -> bool {
        let ticker = short.len() >= MIN_TICKER_PREFIX
            && run
                .iter()
                .any(|w| w.name.len() > short.len() && w.name.starts_with(short));
        ticker
            || (0..run.len())
                .any(|start| (start + 2..=run.len()).any(|end| written_as(short, &run[start..end])))
    }

    fn spells(&self, short: &str) -> bool {
        self.runs.iter().any(|run| Self::stands_for(short, run))
    }

    fn short_of(&self, run: &[Word]) -> bool {
        self.short.iter().any(|s| Self::stands_for(&s.name, run))
    }
}

/// The short forms `run` may be written as: its initials, and, for a
/// name of one or two words, the first letters of its first word (a
/// ticker: "COIN" of Coinbase, "SHIB" of Shiba Inu).
fn keys_of(run: &[Word]) -> Vec<String> {
    let mut keys = if run.len() >= 2 {
        initials(run).to_vec()
    } else {
        Vec::new()
    };
    if let [Word { name, .. }] | [Word { name, .. }, _] = run
        && name.len() > MIN_TICKER_PREFIX
        && name.is_char_boundary(MIN_TICKER_PREFIX)
    {
        keys.push(name[..MIN_TICKER_PREFIX].to_owned());
    }
    keys
}

/// `short` is one of the [`initials`] of `words`, compared letter by
/// letter: asked for every sub-run of every name of many pairs, so
/// nothing is allocated.
fn written_as(short: &str, words: &[Word]) -> bool {
    INITIALS_KEPT.iter().any(|keep| {
        words
            .iter()
            .filter(|w| keep(w))
            .filter_map(|w| w.initial)
            .eq(short.chars())
    })
}

/// Which words each way of writing initials keeps: every word, every
/// word but the connectors, every word but "the".
const INITIALS_KEPT: [fn(&Word) -> bool; 3] = [
    |_| true,
    |w| !CONNECTORS.contains(&w.name.as_str()),
    |w| w.name != "the",
];

/// The initials of `words` as written: of every word, of every word but
/// the connectors ("RBI" of "Reserve Bank of India", "AOTY" of "Album of
/// the Year"), and of every word but "the" ("DPOY" of "Defensive Player
/// of the Year").
fn initials(words: &[Word]) -> [String; 3] {
    INITIALS_KEPT.map(|keep| {
        words
            .iter()
            .filter(|w| keep(w))
            .filter_map(|w| w.initial)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::ShortForms;

    fn of(text: &str) -> ShortForms {
        ShortForms::read(&lex(text))
    }

    #[test]
    fn initials_and_tickers_stand_for_their_names() {
        let sga = of("SGA named 2028 NBA Most Valuable Player?");
        let full = of("Will Shai Gilgeous-Alexander win the 2027-28 NBA MVP?");
        assert!(sga.accounts_for(&full, "sga"));
        assert!(full.accounts_for(&sga, "gilgeous"));
        // (Banks the entity table names, as the RBI, are read as one name
        // before this: a bank it does not name.)
        let nbp = of("Will the NBP lower its policy rate in June 2027?");
        let bank = of("National Bank of Poland cuts the reference rate in June 2027?");
        assert!(bank.accounts_for(&nbp, "poland"));
        let al = of("Will Bobby Witt Jr. win the 2027 AL MVP?");
        let league = of("Bobby Witt Jr. to win 2027 American League MVP");
        assert!(league.accounts_for(&al, "us"));
        // Initials written with a lower-case connector.
        let zoa = of("ZoA largest party after the 2027 election?");
        let full = of("Will the Zed of Acme be the largest party after the 2027 election?");
        assert!(zoa.accounts_for(&full, "zoa"));
        let dpoy = of("Victor Wembanyama to win DPOY 2027-28");
        let award = of("Will Victor Wembanyama win 2027-28 NBA Defensive Player of the Year?");
        assert!(dpoy.accounts_for(&award, "dpoy"));
        let fart = of("FART above $2 on June 30, 2027?");
        let name = of("Will Fartcoin close above $2 on June 30, 2027?");
        assert!(fart.accounts_for(&name, "fart"));
    }

    #[test]
    fn a_short_ticker_or_other_initials_stand_for_nothing() {
        let eth = of("ETH above $5,000 on June 30, 2027?");
        let ethena = of("Will Ethena be above $5,000 on June 30, 2027?");
        assert!(!eth.accounts_for(&ethena, "eth"));
        let sga = of("SGA named 2028 NBA Most Valuable Player?");
        let other = of("Will Stephen Curry win the 2027-28 NBA MVP?");
        assert!(!sga.accounts_for(&other, "sga"));
    }
}
