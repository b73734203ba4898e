//! Phrases read as the one word other platforms use ("Federal Reserve"
//! is "fed") and phrases that say "not" or a comparator in other words
//! ("hold or raise" is "not cut"), rewritten in a market's tokens before
//! any other reading.

use super::{Tok, word_at};

/// Phrases that name one subject in several words, read as the one word
/// the other platforms use, and phrases that say "not" in other words.
const PHRASES: &[(&[&str], &[&str])] = &[
    (&["united", "states"], &["us"]),
    (&["united", "kingdom"], &["uk"]),
    (&["great", "britain"], &["uk"]),
    (&["new", "york", "city"], &["nyc"]),
    (&["federal", "reserve"], &["fed"]),
    (&["west", "texas", "intermediate"], &["wti"]),
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
    // A player who "takes the court" (the field, the ice, the pitch)
    // plays: a prop's "void if he does not play".
    (&["take", "the", "court"], &["play"]),
    (&["take", "the", "field"], &["play"]),
    (&["take", "the", "ice"], &["play"]),
    (&["take", "the", "pitch"], &["play"]),
    // A US time zone spelled out is its short form, which the time
    // reader reads after a time ("11:59 PM Eastern Time") and which is no
    // content word alone ("(Eastern Time)").
    (&["eastern", "standard", "time"], &["est"]),
    (&["eastern", "daylight", "time"], &["edt"]),
    (&["eastern", "time"], &["et"]),
    (&["pacific", "standard", "time"], &["pst"]),
    (&["pacific", "daylight", "time"], &["pdt"]),
    (&["pacific", "time"], &["pt"]),
    (&["coordinated", "universal", "time"], &["utc"]),
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
    // A club that "stays up" stays in its league: the "stay" the
    // antonym table reads against "relegated" (`lexicon::ANTONYMS`).
    (&["stay", "up"], &["stay"]),
    (&["stays", "up"], &["stay"]),
    // An area in square kilometres, however the unit is written.
    (&["sq", "km"], &["km²"]),
    (&["square", "kilometers"], &["km²"]),
    (&["square", "kilometres"], &["km²"]),
    // The Scudetto is the Serie A title.
    (&["scudetto"], &["serie", "a"]),
    // Finishing top of a league's table is winning the league.
    (&["finish", "top", "of", "the"], &["win", "the"]),
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
    (&["nba", "champion"], &["nba", "finals"]),
    (&["nba", "champions"], &["nba", "finals"]),
    (&["hold", "or", "hike"], &["not", "cut"]),
    // "someone other than Modi be PM on Jan 1" is "Modi not PM on Jan 1".
    (&["someone", "other", "than"], &["not"]),
    // Likewise "a country other than Sweden win": whoever "other than"
    // names is the one the market says does not (test-v13's
    // eurovision-2031-sweden-vs-not, called `same` once the gate let
    // "country, other" through).
    (&["other", "than"], &["not"]),
    (&["no", "longer"], &["not"]),
    // Falling short of a majority, a stage or a mark is not reaching it.
    (&["fall", "short", "of"], &["not"]),
    (&["falls", "short", "of"], &["not"]),
    // A soccer book's "Match Result" (1X2) market is the game's winner
    // at full time, as its moneyline is.
    (&["match", "result"], &["moneyline"]),
    // Kalshi's rules end every market with "Source Agency: …": the
    // phrase is the platform's, the agency named after it is the fact.
    (&["source", "agency"], &["source"]),
    // The headline trade balance is of all goods and services; "goods"
    // alone is another series.
    (&["goods", "and", "services"], &["all"]),
    // A comparator, not the verb "lower" (a cut): "2.5% or lower".
    (&["or", "lower"], &["or", "less"]),
    (&["lower", "than"], &["less", "than"]),
    (&["hold", "or", "raise"], &["not", "cut"]),
    (&["hold", "or", "cut"], &["not", "hike"]),
    (&["holds", "or", "hikes"], &["not", "cut"]),
    (&["holds", "or", "raises"], &["not", "cut"]),
    (&["holds", "or", "cuts"], &["not", "hike"]),
];

/// The indexes into [`PHRASES`] of the phrases that begin with each word,
/// sorted by word then index: a token finds the phrases it may begin by
/// a binary search, in the table's order, instead of a scan of them all.
/// `(&str, u16)` as `teams::entries_of` sorts too: one sort in the wasm.
fn phrases_beginning() -> &'static [(&'static str, u16)] {
    static FIRST: std::sync::OnceLock<Vec<(&'static str, u16)>> = std::sync::OnceLock::new();
    FIRST.get_or_init(|| {
        let mut first: Vec<(&'static str, u16)> = (0u16..)
            .zip(PHRASES)
            .filter_map(|(n, (phrase, _))| phrase.first().map(|&w| (w, n)))
            .collect();
        first.sort_unstable();
        first
    })
}

pub(crate) fn rewrite_phrases(mut tokens: Vec<Tok>) -> Vec<Tok> {
    let first = phrases_beginning();
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    'next: while i < tokens.len() {
        let begun = word_at(&tokens, i).map_or(&[][..], |w| {
            let start = first.partition_point(|&(f, _)| f < w);
            let end = start + first[start..].partition_point(|&(f, _)| f == w);
            &first[start..end]
        });
        for &(_, n) in begun {
            let (phrase, with) = PHRASES[usize::from(n)];
            let matches = phrase
                .iter()
                .enumerate()
                .all(|(k, w)| word_at(&tokens, i + k) == Some(*w));
            if matches {
                // A name keeps its capital; a predicate ("not cut",
                // "resign", "stay") a comparator ("or less") or a unit
                // ("km²") is no name.
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
                        | "stay"
                        | "source"
                        | "km²"
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
        // Taken, not copied: no later step reads a token behind `i`.
        out.push(std::mem::replace(&mut tokens[i], Tok::Sym(' ')));
        i += 1;
    }
    out
}
