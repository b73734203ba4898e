//! The words of a market's text as the facts read them: which words are
//! stopwords, negations, comparators and generic capitalized nouns, the
//! months, and the folding of aliases (tickers, demonyms) and synonyms
//! (one action written several ways) to one spelling.

use super::lex::MULTIPLIERS;

pub(crate) const NEGATIONS: &[&str] = &[
    "not", "never", "fail", "fails", "without", "no", "avoid", "avoids", "cease", "ceases",
];

/// A word as the comparison reads it (folded, aliases applied), unless
/// it carries no content of its own: a stopword, a month, a comparator
/// (the threshold reads those) or a multiplier.
pub(crate) fn content_word(lower: &str) -> Option<String> {
    let plain = is_stopword(lower)
        || month(lower).is_some()
        || is_comparator_word(lower)
        || MULTIPLIERS.iter().any(|(w, _)| *w == lower);
    (!plain).then(|| alias(&fold(lower)).to_owned())
}

/// Verbs whose subject is who must win for YES, and a sportsbook's
/// "Moneyline" after the team it backs ("Denver Nuggets Moneyline").
pub(crate) fn is_win_verb(w: &str) -> bool {
    matches!(
        w,
        "beat" | "beats" | "defeat" | "defeats" | "win" | "wins" | "moneyline"
    )
}

pub(crate) fn is_stopword(w: &str) -> bool {
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
            | "following"
            | "during"
            | "then"
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
            | "ceases"
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

/// Words a title capitalizes as its first word or as part of a name
/// that name no subject of their own ("National average gas price",
/// "the 91st Masters Tournament").
pub(crate) fn is_generic_noun(w: &str) -> bool {
    matches!(
        w,
        "national" | "average" | "highest" | "lowest" | "tournament" | "total"
    // A sportsbook's capitalized line ("Over 49.5 Goals") is a comparator.
        | "over" | "under"
    )
}

pub(crate) fn is_comparator_word(w: &str) -> bool {
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

pub(crate) fn month(word: &str) -> Option<i64> {
    if word.len() < 3 {
        return None;
    }
    let word = if word == "sept" { "sep" } else { word };
    MONTHS
        .iter()
        .position(|m| *m == word || (word.len() == 3 && m.starts_with(word)))
        .map(|i| i as i64 + 1)
}

/// Word-level aliases: tickers (of coins, from `lexicon::tickers`), demonyms and short names of one subject,
/// folded to one spelling. Kept short on purpose: each entry is a name
/// the platforms write both ways.
pub(crate) fn alias(word: &str) -> &str {
    match word {
        "tsla" => "tesla",
        "nvda" => "nvidia",
        "aapl" => "apple",
        "msft" => "microsoft",
        "amzn" => "amazon",
        "googl" | "goog" | "alphabet" => "google",
        "federal" | "fomc" => "fed",
        "usa" | "u.s." | "u.s" | "american" => "us",
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
        "scottish" => "scotland",
        "australian" => "australia",
        "swedish" => "sweden",
        "norwegian" => "norway",
        "korean" => "korea",
        "venezuelan" => "venezuela",
        "kenyan" => "kenya",
        "nigerian" => "nigeria",
        "egyptian" => "egypt",
        "pakistani" => "pakistan",
        "indonesian" => "indonesia",
        "filipino" => "philippines",
        "vietnamese" => "vietnam",
        "colombian" => "colombia",
        "chilean" => "chile",
        "peruvian" => "peru",
        "hungarian" => "hungary",
        "romanian" => "romania",
        "danish" => "denmark",
        "finnish" => "finland",
        "belgian" => "belgium",
        "austrian" => "austria",
        "ghanaian" => "ghana",
        "ethiopian" => "ethiopia",
        "turkish" => "turkey",
        "dutch" => "netherlands",
        "polish" => "poland",
        "irish" => "ireland",
        "greek" => "greece",
        "portuguese" => "portugal",
        "oscar" => "oscars",
        "qb" => "quarterback",
        "speakership" => "speaker",
        "grammys" => "grammy",
        "emmys" => "emmy",
        "baftas" => "bafta",
        "gop" | "republicans" => "republican",
        "tory" | "tories" | "conservatives" => "conservative",
        "democrats" | "democratic" | "dems" => "democrat",
        "presidential" | "presidency" => "president",
        "mayoral" => "mayor",
        "gubernatorial" => "governor",
        // The coins' tickers (`lexicon::tickers`).
        other => super::lexicon::tickers::coin_of_ticker(other).unwrap_or(other),
    }
}

/// A name as compared: aliases folded.
pub(crate) fn name_of(lower: &str) -> String {
    alias(lower).to_owned()
}

/// A little stemming and the synonyms titles use for one action.
pub(crate) fn fold(lower: &str) -> String {
    let word = match lower {
        "launch" | "launches" | "ships" | "ship" | "releases" | "released" | "launched" => {
            "release"
        }
        "raise" | "raises" | "increase" | "increases" | "hikes" => "hike",
        "cuts" | "lower" | "lowers" | "decrease" | "decreases" => "cut",
        "wins" | "won" | "beat" | "beats" | "defeat" | "defeats" | "control" | "controls"
        | "awarded" | "named" | "winner" | "winners" => "win",
        "nominee" | "nominated" => "nomination",
        "retires" | "retired" | "retirement" => "retire",
        "sells" | "selling" | "sold" => "sell",
        "approved" => "approve",
        "impeached" | "impeaches" => "impeach",
        "confirmed" => "confirm",
        "rejected" => "reject",
        "closes" | "closing" | "closed" => "close",
        "tops" | "topped" => "top",
        "temp" | "temperature" => "high",
        "dip" | "dips" | "falls" | "drop" | "drops" => "fall",
        "creates" | "created" | "establish" | "establishes" | "established" => "create",
        "elected" | "elects" => "win",
        other => other,
    };
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    }
}
