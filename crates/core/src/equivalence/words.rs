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
    (!plain).then(|| alias(fold(lower)).to_owned())
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
    STOPWORDS.binary_search(&w).is_ok()
}

/// Words that carry no content of their own, sorted for binary search
/// (a test checks): as data, not as the comparisons a `match` on string
/// literals compiles into (docs/benchmarks.md, "Ninth round").
const STOPWORDS: &[&str] = &[
    "a",
    "after",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "avoid",
    "be",
    "been",
    "before",
    "by",
    "cease",
    "ceases",
    "day",
    "did",
    "do",
    "does",
    "during",
    "edt",
    "else",
    "end",
    "est",
    "et",
    "following",
    "for",
    "from",
    "get",
    "gets",
    "gmt",
    "has",
    "have",
    "he",
    "her",
    "his",
    "how",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "market",
    "never",
    "next",
    "no",
    "not",
    "of",
    "on",
    "or",
    "otherwise",
    "per",
    "pm",
    "pt",
    "question",
    "resolve",
    "resolves",
    "she",
    "team",
    "than",
    "that",
    "the",
    "their",
    "then",
    "there",
    "they",
    "this",
    "through",
    "thru",
    "to",
    "until",
    "utc",
    "v",
    "vs",
    "was",
    "week",
    "were",
    "what",
    "when",
    "whether",
    "which",
    "who",
    "will",
    "with",
    "would",
    "x",
    "year",
    "yes",
];

/// Words a title capitalizes as its first word or as part of a name
/// that name no subject of their own ("National average gas price",
/// "the 91st Masters Tournament").
pub(crate) fn is_generic_noun(w: &str) -> bool {
    matches!(
        w,
        "national" | "average" | "highest" | "lowest" | "tournament" | "total"
    // A sportsbook's capitalized line ("Over 49.5 Goals") is a comparator.
        | "over" | "under"
    // The kind of market a leg names ("Boston vs NY Yankees Winner?",
    // "Spurs Moneyline vs Hornets"): who must win, read by the winner
    // rule, not a subject of its own.
        | "winner" | "moneyline"
    // A scorer prop's kind ("Anytime Goalscorer", "To Score Anytime").
        | "goalscorer" | "score"
    )
}

pub(crate) fn is_comparator_word(w: &str) -> bool {
    COMPARATOR_WORDS.binary_search(&w).is_ok()
}

/// The words of a comparison, sorted for binary search (a test checks).
const COMPARATOR_WORDS: &[&str] = &[
    "above",
    "below",
    "between",
    "exceed",
    "exceeding",
    "exceeds",
    "fewer",
    "greater",
    "higher",
    "hit",
    "hits",
    "least",
    "less",
    "more",
    "most",
    "over",
    "reach",
    "reaches",
    "under",
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
    match ALIASES.binary_search_by_key(&word, |&(written, _)| written) {
        Ok(at) => ALIASES[at].1,
        // The coins' tickers (`lexicon::tickers`).
        Err(_) => super::lexicon::tickers::coin_of_ticker(word).unwrap_or(word),
    }
}

/// (written, folded to), sorted by what is written for binary search (a
/// test checks).
const ALIASES: &[(&str, &str)] = &[
    ("aapl", "apple"),
    ("afghan", "afghanistan"),
    ("algerian", "algeria"),
    ("alphabet", "google"),
    ("american", "us"),
    ("amzn", "amazon"),
    ("argentine", "argentina"),
    ("argentinian", "argentina"),
    ("armenian", "armenia"),
    ("australian", "australia"),
    ("austrian", "austria"),
    ("baftas", "bafta"),
    ("bangladeshi", "bangladesh"),
    ("belgian", "belgium"),
    ("brazilian", "brazil"),
    ("britain", "uk"),
    ("british", "uk"),
    ("bulgarian", "bulgaria"),
    ("canadian", "canada"),
    ("cat", "category"),
    ("chilean", "chile"),
    ("chinese", "china"),
    ("colombian", "colombia"),
    ("conservatives", "conservative"),
    ("croatian", "croatia"),
    ("cuban", "cuba"),
    ("czech", "czechia"),
    ("danish", "denmark"),
    ("democratic", "democrat"),
    ("democrats", "democrat"),
    ("dems", "democrat"),
    ("dutch", "netherlands"),
    ("ecuadorian", "ecuador"),
    ("egyptian", "egypt"),
    ("emirati", "uae"),
    ("emmys", "emmy"),
    ("ethiopian", "ethiopia"),
    ("federal", "fed"),
    ("filipino", "philippines"),
    ("finnish", "finland"),
    ("fomc", "fed"),
    ("french", "france"),
    ("german", "germany"),
    ("ghanaian", "ghana"),
    ("goog", "google"),
    ("googl", "google"),
    ("gop", "republican"),
    ("grammys", "grammy"),
    ("greek", "greece"),
    ("gubernatorial", "governor"),
    ("hungarian", "hungary"),
    ("icelandic", "iceland"),
    ("indian", "india"),
    ("indonesian", "indonesia"),
    ("iranian", "iran"),
    ("iraqi", "iraq"),
    ("irish", "ireland"),
    ("israeli", "israel"),
    ("italian", "italy"),
    ("jamaican", "jamaica"),
    ("japanese", "japan"),
    ("kazakh", "kazakhstan"),
    ("kenyan", "kenya"),
    ("korean", "korea"),
    ("lebanese", "lebanon"),
    ("malaysian", "malaysia"),
    ("mayoral", "mayor"),
    ("mexican", "mexico"),
    // A sportsbook's short form of the moneyline ("Royals ML @ Twins").
    ("ml", "moneyline"),
    ("moroccan", "morocco"),
    ("msft", "microsoft"),
    ("nepali", "nepal"),
    ("nigerian", "nigeria"),
    ("norwegian", "norway"),
    ("nvda", "nvidia"),
    ("oscar", "oscars"),
    ("pakistani", "pakistan"),
    ("peruvian", "peru"),
    ("polish", "poland"),
    ("portuguese", "portugal"),
    ("presidency", "president"),
    ("presidential", "president"),
    ("qatari", "qatar"),
    ("qb", "quarterback"),
    ("republicans", "republican"),
    ("romanian", "romania"),
    ("russian", "russia"),
    ("scottish", "scotland"),
    ("serbian", "serbia"),
    ("singaporean", "singapore"),
    ("slovak", "slovakia"),
    ("spanish", "spain"),
    ("speakership", "speaker"),
    ("swedish", "sweden"),
    ("swiss", "switzerland"),
    ("syrian", "syria"),
    ("taiwanese", "taiwan"),
    ("td", "touchdown"),
    ("tds", "touchdowns"),
    ("thai", "thailand"),
    ("tories", "conservative"),
    ("tory", "conservative"),
    ("tsla", "tesla"),
    ("turkish", "turkey"),
    ("u.s", "us"),
    ("u.s.", "us"),
    ("ukrainian", "ukraine"),
    ("uruguayan", "uruguay"),
    ("usa", "us"),
    ("venezuelan", "venezuela"),
    ("vietnamese", "vietnam"),
];

/// A name as compared: aliases folded.
pub(crate) fn name_of(lower: &str) -> String {
    alias(lower).to_owned()
}

/// A little stemming and the synonyms titles use for one action: a part
/// of the word or of the table, not a copy (a content word is copied
/// once, by its caller).
pub(crate) fn fold(lower: &str) -> &str {
    let word = match SYNONYM_FOLDS.binary_search_by_key(&lower, |&(written, _)| written) {
        Ok(at) => SYNONYM_FOLDS[at].1,
        Err(_) => lower,
    };
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") {
        &word[..word.len() - 1]
    } else {
        word
    }
}

/// (written, the one spelling of its action), sorted by what is written
/// for binary search (a test checks).
const SYNONYM_FOLDS: &[(&str, &str)] = &[
    ("approved", "approve"),
    ("awarded", "win"),
    ("beat", "win"),
    ("beats", "win"),
    ("closed", "close"),
    ("closes", "close"),
    ("closing", "close"),
    ("confirmed", "confirm"),
    ("control", "win"),
    ("controls", "win"),
    ("created", "create"),
    ("creates", "create"),
    ("cuts", "cut"),
    ("decrease", "cut"),
    ("decreases", "cut"),
    ("defeat", "win"),
    ("defeats", "win"),
    ("dip", "fall"),
    ("dips", "fall"),
    ("drop", "fall"),
    ("drops", "fall"),
    ("elected", "win"),
    ("elects", "win"),
    ("establish", "create"),
    ("established", "create"),
    ("establishes", "create"),
    ("falls", "fall"),
    ("goalscorer", "score"),
    ("hikes", "hike"),
    ("impeached", "impeach"),
    ("impeaches", "impeach"),
    ("increase", "hike"),
    ("increases", "hike"),
    ("launch", "release"),
    ("launched", "release"),
    ("launches", "release"),
    ("listed", "list"),
    ("lower", "cut"),
    ("lowers", "cut"),
    ("named", "win"),
    ("nominated", "nomination"),
    ("nominee", "nomination"),
    ("raise", "hike"),
    ("raises", "hike"),
    ("rejected", "reject"),
    ("released", "release"),
    ("releases", "release"),
    ("retired", "retire"),
    ("retirement", "retire"),
    ("retires", "retire"),
    ("selling", "sell"),
    ("sells", "sell"),
    ("ship", "release"),
    ("ships", "release"),
    ("sold", "sell"),
    ("temp", "high"),
    ("temperature", "high"),
    ("topped", "top"),
    ("tops", "top"),
    ("vacate", "vacancy"),
    ("vacated", "vacancy"),
    ("winner", "win"),
    ("winners", "win"),
    ("wins", "win"),
    ("won", "win"),
];

/// Sorted, without duplicates and lower-case: what binary search and
/// the lexer's words need.
#[cfg(test)]
pub(crate) fn assert_sorted_lower(name: &str, words: &[&str]) {
    for pair in words.windows(2) {
        assert!(
            pair[0] < pair[1],
            "{name}: {:?} before {:?}",
            pair[0],
            pair[1]
        );
    }
    for w in words {
        assert_eq!(*w, w.to_lowercase(), "{name}: {w:?} is not lower-case");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_tables_are_sorted_and_lower_case() {
        assert_sorted_lower("STOPWORDS", STOPWORDS);
        assert_sorted_lower("COMPARATOR_WORDS", COMPARATOR_WORDS);
        let keys = |t: &[(&'static str, &'static str)]| t.iter().map(|p| p.0).collect::<Vec<_>>();
        assert_sorted_lower("ALIASES", &keys(ALIASES));
        assert_sorted_lower("SYNONYM_FOLDS", &keys(SYNONYM_FOLDS));
    }

    #[test]
    fn the_tables_answer_as_the_words_they_list() {
        assert!(is_stopword("whether") && is_stopword("a") && !is_stopword("bitcoin"));
        assert!(is_comparator_word("exceeds") && !is_comparator_word("exceeded"));
        assert_eq!(alias("dems"), "democrat");
        assert_eq!(alias("btc"), "bitcoin");
        assert_eq!(alias("zzz"), "zzz");
        assert_eq!(fold("launched"), "release");
        assert_eq!(fold("drops"), "fall");
        assert_eq!(fold("rates"), "rate");
    }
}
