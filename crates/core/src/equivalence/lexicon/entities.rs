//! The field's entities as data: teams, leagues, events and their
//! venues, awards, heads of government, central banks, indices, funds,
//! coins and companies, each with its other names and what naming it
//! implies (`entities.txt`, beside this file, says the format). Laid
//! out as sorted tables when it is written (`entities/table.rs`,
//! generated from it by the test of `entities/source.rs`, with the
//! matcher's own word rules), read by binary search: the lexer rewrites an
//! alias to its entity's canonical name ([`canonical_of`]), and the rules
//! count a word the other side's entity implies (a team's league, a grand
//! prix's circuit, a leader's office) as accounted for ([`implied_by`]).
//!
//! Two entities of one kind never share a name here, so a name read as
//! its entity's canonical one keeps two teams, two races or two leaders
//! apart exactly as their written names did.

use std::sync::OnceLock;

use super::super::words::{alias, is_stopword};

#[cfg(test)]
mod source;
/// Generated from `entities.txt` by `source`'s test (see there): a long
/// data file, left as rustfmt would not write it.
#[rustfmt::skip]
mod table;

/// The kinds of entity a question can ask about winning: a team's league
/// or a grand prix's series is implied only where the other side names
/// no competition of its own ("Real Madrid win the Champions League" does
/// not account for "La Liga").
const COMPETITIONS: &[&str] = &["league", "event", "race"];

/// One entity: its kind (the section it is written in) and the words of
/// its canonical name, as the matcher's words are folded.
#[derive(Debug)]
struct Entity {
    kind: &'static str,
    canonical: &'static str,
    /// The canonical name's words that are no stopword, folded
    /// ([`alias`]): what a side must say to name this entity.
    words: &'static [&'static str],
    /// Each venue, as its folded words.
    venues: &'static [&'static [&'static str]],
}

/// An [`Entity`], as `table.rs` writes one.
const fn e(
    kind: &'static str,
    canonical: &'static str,
    words: &'static [&'static str],
    venues: &'static [&'static [&'static str]],
) -> Entity {
    Entity {
        kind,
        canonical,
        words,
        venues,
    }
}

/// A sorted `(key, entity)` lookup of the table, searched by key.
type Lookup = [(&'static str, u16)];

/// A set of words as bits of two hashes (a Bloom filter): "no" is
/// certain, "yes" is checked by the sorted lists. A few hundred bytes and
/// no hash table, which the wasm would carry as code; filled at first use
/// from the two lookups it answers for (laid out in the table, 2 KB of
/// bits that gzip cannot shrink would cost more than the loop).
#[derive(Debug)]
struct WordBits([u64; WORD_BITS / 64]);

/// Bits of [`WordBits`]: about twice the words the table implies.
const WORD_BITS: usize = 16_384;

impl WordBits {
    /// Two bit positions of `word`: FNV-1a, its halves.
    fn positions(word: &str) -> [usize; 2] {
        let hash = word.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        [hash as usize % WORD_BITS, (hash >> 32) as usize % WORD_BITS]
    }

    fn insert(&mut self, word: &str) {
        for bit in Self::positions(word) {
            self.0[bit / 64] |= 1 << (bit % 64);
        }
    }

    fn may_contain(&self, word: &str) -> bool {
        Self::positions(word)
            .iter()
            .all(|&bit| self.0[bit / 64] & (1 << (bit % 64)) != 0)
    }
}

/// The words of [`table::IMPLIED`] and [`table::HELD_AT`], as bits.
fn any_implied() -> &'static WordBits {
    static BITS: OnceLock<WordBits> = OnceLock::new();
    BITS.get_or_init(|| {
        let mut bits = WordBits([0; WORD_BITS / 64]);
        for (w, _) in table::IMPLIED.iter().chain(table::HELD_AT) {
            bits.insert(w);
        }
        bits
    })
}

/// The words of `phrase` as the facts hold them: folded, no stopwords.
fn folded_words(phrase: &str) -> impl Iterator<Item = &str> {
    phrase
        .split(' ')
        .filter(|w| !w.is_empty() && !is_stopword(w))
        .map(alias)
}

fn entity(e: u16) -> &'static Entity {
    &table::ENTITIES[usize::from(e)]
}

/// The entries of a sorted lookup whose key is `key`.
fn entries(list: &'static Lookup, key: &str) -> &'static Lookup {
    let start = list.partition_point(|&(k, _)| k < key);
    let end = start + list[start..].partition_point(|&(k, _)| k == key);
    &list[start..end]
}

/// Some alias begins with `word` (lower-case, as lexed): worth reading
/// the words after it.
pub(crate) fn begins_a_name(word: &str) -> bool {
    table::FIRST_WORDS.binary_search(&word).is_ok()
}

/// The most words an alias has.
pub(crate) fn longest_name() -> usize {
    table::LONGEST
}

/// The canonical name of the entity `phrase` (lower-case words joined by
/// single spaces, as lexed) names, if one does.
pub(crate) fn canonical_of(phrase: &str) -> Option<&'static str> {
    entries(table::ALIASES, phrase)
        .first()
        .map(|&(_, e)| entity(e).canonical)
}

/// Whether `written` is the canonical name `canonical` with words its
/// entity implies before it: a team's city ("minnesota timberwolves"),
/// which the lexer leaves as written so that a side naming the city alone
/// shares its words.
pub(crate) fn city_before(written: &str, canonical: &str) -> bool {
    let Some(prefix) = written
        .strip_suffix(canonical)
        .and_then(|p| p.strip_suffix(' '))
    else {
        return false;
    };
    entries(table::ALIASES, canonical)
        .first()
        .filter(|&&(_, e)| entity(e).canonical == canonical)
        .is_some_and(|&(_, e)| {
            folded_words(prefix).all(|w| entries(table::IMPLIED, w).iter().any(|&(_, i)| i == e))
        })
}

/// The canonical name a short form written in capitals stands for
/// (`lower`: the short form lower-cased, as lexed).
pub(crate) fn canonical_of_capitals(lower: &str) -> Option<&'static str> {
    entries(table::CAPS, &lower.to_ascii_uppercase())
        .first()
        .map(|&(_, e)| entity(e).canonical)
}

/// The kind of the entity whose canonical name is `canonical`.
pub(crate) fn kind_of(canonical: &str) -> Option<&'static str> {
    entries(table::ALIASES, canonical)
        .first()
        .map(|&(_, e)| entity(e))
        .filter(|e| e.canonical == canonical)
        .map(|e| e.kind)
}

/// The entities a market names (every word of the canonical name said)
/// and the events whose venue it names: read once per market
/// ([`named_in`]), so that asking what they imply costs no string
/// comparison per pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Named {
    entities: Vec<u16>,
    held_at_venue: Vec<u16>,
}

/// The entities `names` (a market's names) name in full, `says`
/// answering for the market's words.
pub(crate) fn named_in<N: AsRef<str>>(names: &[N], says: impl Fn(&str) -> bool) -> Named {
    let mut out = Named::default();
    for n in names.iter().map(AsRef::as_ref) {
        for &(_, e) in entries(table::NAMED_BY_WORD, n) {
            if entity(e).words.iter().all(|w| says(w)) {
                out.entities.push(e);
            }
        }
        for &(_, e) in entries(table::VENUE_WORDS, n) {
            if entity(e).venues.iter().any(|v| v.iter().all(|w| says(w))) {
                out.held_at_venue.push(e);
            }
        }
    }
    for list in [&mut out.entities, &mut out.held_at_venue] {
        list.sort_unstable();
        list.dedup();
    }
    out
}

/// Whether `word` (folded, as the facts hold it), written on one side,
/// is implied by an entity the other side names (`other`, see
/// [`named_in`]): a team's league or sport, an event's venue, a leader's
/// office and country; or the words of an event whose venue the other
/// side names ("Japanese Grand Prix" against "at Suzuka"). A
/// competition's word is not implied where the other side names a
/// competition of its own: then the competition is the question.
pub(crate) fn implied_by(word: &str, other: &Named) -> bool {
    if (other.entities.is_empty() && other.held_at_venue.is_empty())
        || !any_implied().may_contain(word)
    {
        return false;
    }
    let implied = entries(table::IMPLIED, word)
        .iter()
        .any(|(_, e)| other.entities.binary_search(e).is_ok())
        || entries(table::HELD_AT, word)
            .iter()
            .any(|(_, e)| other.held_at_venue.binary_search(e).is_ok());
    // The competitions `word` is a word of, and whether the other side
    // names a competition it is no word of.
    let of_word = entries(table::COMPETITION_WORDS, word);
    let another = || {
        other.entities.iter().any(|&e| {
            COMPETITIONS.contains(&entity(e).kind)
                && !of_word.iter().any(|&(_, own)| own == e)
                && !entity(e).words.contains(&word)
        })
    };
    implied && (of_word.is_empty() || !another())
}

#[cfg(test)]
mod tests {
    use super::super::super::lex::{Tok, lex, lowered_words};
    use super::*;

    /// A phrase as the lexer reads it, written as a name (each word
    /// capitalized): its words, lower-case, joined by single spaces.
    fn as_lexed(phrase: &str) -> String {
        let capitalized: Vec<String> = phrase
            .split(' ')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            })
            .collect();
        lowered_words(&capitalized.join(" "))
    }

    /// Every lookup of the laid-out table.
    fn lookups() -> [&'static Lookup; 7] {
        [
            table::ALIASES,
            table::CAPS,
            table::IMPLIED,
            table::HELD_AT,
            table::NAMED_BY_WORD,
            table::VENUE_WORDS,
            table::COMPETITION_WORDS,
        ]
    }

    #[test]
    fn no_name_stands_for_two_entities() {
        for list in [table::ALIASES, table::CAPS] {
            for pair in list.windows(2) {
                assert_ne!(
                    pair[0].0,
                    pair[1].0,
                    "{:?} names {:?} and {:?}",
                    pair[0].0,
                    entity(pair[0].1).canonical,
                    entity(pair[1].1).canonical
                );
            }
        }
    }

    /// Every alias is lower-case, as the lexer writes words, and the
    /// lexer reads it as its entity's canonical name (no other rewrite
    /// takes it first).
    #[test]
    fn every_name_is_read_as_its_entity() {
        let wrong: Vec<String> = table::ALIASES
            .iter()
            .filter_map(|&(name, e)| {
                let canonical = entity(e).canonical;
                let read = as_lexed(name);
                let kept = read == name && city_before(name, canonical);
                // An alias with a number would never be read as one name (a
                // canonical name with one, "Ligue 1", is left as written).
                let numbers =
                    name != canonical && lex(name).iter().any(|t| matches!(t, Tok::Num { .. }));
                (name.to_lowercase() != name || numbers || (read != as_lexed(canonical) && !kept))
                    .then(|| format!("{name:?} is read {read:?}, not {canonical:?}"))
            })
            .collect();
        assert_eq!(wrong, Vec::<String>::new());
        for &(short, _) in table::CAPS {
            assert!(short.chars().all(|c| c.is_ascii_uppercase()), "{short:?}");
        }
    }

    #[test]
    fn the_lookups_are_sorted() {
        for list in lookups() {
            assert!(list.windows(2).all(|p| p[0] <= p[1]));
            assert!(
                list.iter()
                    .all(|&(_, e)| usize::from(e) < table::ENTITIES.len())
            );
        }
        assert!(table::FIRST_WORDS.windows(2).all(|p| p[0] < p[1]));
        assert!(
            table::IMPLIED
                .iter()
                .all(|(w, _)| any_implied().may_contain(w))
        );
        assert!(
            table::HELD_AT
                .iter()
                .all(|(w, _)| any_implied().may_contain(w))
        );
    }

    #[test]
    fn names_and_what_they_imply() {
        assert_eq!(canonical_of("longhorns"), Some("texas"));
        assert_eq!(canonical_of("la lakers"), Some("lakers"));
        assert_eq!(canonical_of_capitals("psg"), Some("paris saint germain"));
        assert_eq!(canonical_of("giants"), None, "two leagues' Giants");
        assert_eq!(kind_of("japanese grand prix"), Some("race"));
        assert_eq!(kind_of("lakers"), Some("team"));
        assert_eq!(kind_of("la lakers"), None, "an alias, not a canonical name");
        let implied = |word: &str, other: &'static [&'static str]| {
            implied_by(word, &named_in(other, |w| other.contains(&w)))
        };
        // A venue and its race, both ways; a team and its league and city.
        assert!(implied("suzuka", &["japan", "grand", "prix"]));
        assert!(implied("japan", &["suzuka"]));
        assert!(implied("nba", &["nuggets"]));
        assert!(implied("denver", &["nuggets"]));
        assert!(implied("race", &["japan", "grand", "prix"]));
        // Not another race's venue, a rival, a word of no entity, nor a
        // league where the other side names another competition.
        assert!(!implied("monza", &["japan", "grand", "prix"]));
        assert!(!implied("clippers", &["lakers"]));
        assert!(!implied("pole", &["japan", "grand", "prix"]));
        assert!(implied("liga", &["real", "madrid"]));
        assert!(!implied("liga", &["real", "madrid", "champions", "league"]));
    }
}
