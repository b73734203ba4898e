//! Names of the field's entities read as one name: an alias ("LA
//! Lakers", "Longhorns", "Man Utd") or a short form in capitals ("LAL",
//! "PSG") is rewritten to its entity's canonical name (see
//! [`super::super::lexicon::entities`]), so two sides that name one team,
//! race or leader otherwise write the same words. Runs once per text, in
//! `lex`.

use super::super::lexicon::entities::{
    begins_a_name, canonical_of, canonical_of_capitals, city_before, longest_name,
};
use super::Tok;

/// Written as a name: capitalized, or in capitals.
fn is_name(tok: &Tok) -> bool {
    matches!(tok, Tok::Word { cap, upper, .. } if *cap || *upper)
}

/// A sign that may stand between the words of a name ("Spa-Francorchamps",
/// "St. Louis", "Texas A&M").
fn joins_words(tok: &Tok) -> bool {
    matches!(tok, Tok::Sym('-' | '.' | '&'))
}

/// The longest alias that begins at `at`: its canonical name and the
/// index just past it.
fn alias_at(tokens: &[Tok], at: usize) -> Option<(&'static str, usize)> {
    let mut phrase = String::new();
    let mut ends = Vec::new();
    let mut k = at;
    while ends.len() < longest_name() {
        match tokens.get(k) {
            Some(Tok::Word { lower, .. }) => {
                if !phrase.is_empty() {
                    phrase.push(' ');
                }
                phrase.push_str(lower);
                ends.push((phrase.len(), k + 1));
                k += 1;
            }
            Some(t) if joins_words(t) && !phrase.is_empty() => k += 1,
            _ => break,
        }
    }
    ends.iter()
        .rev()
        .find_map(|&(len, next)| canonical_of(&phrase[..len]).map(|c| (c, next)))
}

/// The canonical name's words, as names.
fn canonical_words(canonical: &'static str) -> impl Iterator<Item = Tok> {
    canonical.split(' ').map(|w| Tok::Word {
        lower: w.to_owned(),
        cap: true,
        upper: false,
    })
}

/// Every alias of an entity read as its canonical name. A name written
/// as its canonical name, or with its city before it, is left as written
/// (capitals are read as a short form elsewhere, a city is implied).
pub(super) fn entity_names(mut tokens: Vec<Tok>) -> Vec<Tok> {
    let starts = |t: &Tok| match t {
        Tok::Word { lower, upper, .. } => {
            is_name(t)
                && (begins_a_name(lower) || (*upper && canonical_of_capitals(lower).is_some()))
        }
        _ => false,
    };
    // Most texts name none: returned as they are, without a copy.
    if !tokens.iter().any(starts) {
        return tokens;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len() + 4);
    let mut i = 0;
    while i < tokens.len() {
        let tok = &tokens[i];
        let found = match tok {
            Tok::Word { lower, upper, .. } if is_name(tok) => {
                let short = upper.then(|| canonical_of_capitals(lower)).flatten();
                short.map(|c| (c, i + 1)).or_else(|| alias_at(&tokens, i))
            }
            _ => None,
        };
        match found {
            Some((canonical, next)) => {
                let written: Vec<&str> = tokens[i..next]
                    .iter()
                    .filter_map(|t| match t {
                        Tok::Word { lower, .. } => Some(lower.as_str()),
                        _ => None,
                    })
                    .collect();
                let written = written.join(" ");
                // The canonical name, or a team's city before it ("Minnesota
                // Timberwolves"): left as written, so that a side naming
                // the city alone ("Dallas at Minnesota") shares its words.
                if written == canonical || city_before(&written, canonical) {
                    out.extend_from_slice(&tokens[i..next]);
                } else {
                    out.extend(canonical_words(canonical));
                }
                i = next;
            }
            None => {
                // Taken, not copied: no later step reads a token behind `i`.
                out.push(std::mem::replace(&mut tokens[i], Tok::Sym(' ')));
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::lowered_words;

    fn words(text: &str) -> String {
        lowered_words(text)
    }

    #[test]
    fn aliases_are_read_as_their_entity() {
        assert_eq!(words("Will the LAL win?"), "will the lakers win");
        assert_eq!(words("LA Lakers vs Nuggets"), "lakers vs nuggets");
        assert_eq!(words("Denver Nuggets"), "denver nuggets");
        assert_eq!(words("Longhorns to win"), "texas to win");
        assert_eq!(words("Texas Longhorns to win"), "texas to win");
        assert_eq!(
            words("Man Utd beat Man City"),
            "manchester united beat manchester city"
        );
        assert_eq!(words("PSG win"), "paris saint germain win");
        assert_eq!(words("Paris Saint-Germain win"), "paris saint germain win");
        assert_eq!(words("St. Louis Blues"), "st louis blues");
    }

    #[test]
    fn words_that_are_no_name_here_stay_as_written() {
        // Lower-case words, a shared nickname, a short form not in capitals.
        assert_eq!(words("the heat wave"), "the heat wave");
        assert_eq!(words("Giants win"), "giants win");
        assert_eq!(words("psg win"), "psg win");
        // The longer name wins: Texas's baseball team, not the school.
        assert_eq!(words("Texas Rangers win"), "texas rangers win");
    }
}
