//! The field's entities as data: teams, leagues, events and their
//! venues, awards, heads of government, central banks, indices, funds,
//! coins and companies, each with its other names and what naming it
//! implies (`entities.txt`, beside this file, says the format). Parsed
//! once into sorted tables, read by binary search: the lexer rewrites an
//! alias to its entity's canonical name ([`canonical_of`]), and the rules
//! count a word the other side's entity implies (a team's league, a grand
//! prix's circuit, a leader's office) as accounted for ([`implied_by`]).
//!
//! Two entities of one kind never share a name here, so a name read as
//! its entity's canonical one keeps two teams, two races or two leaders
//! apart exactly as their written names did.

use std::sync::OnceLock;

use super::super::words::{alias, fold, is_stopword};

/// The kinds of entity a question can ask about winning: a team's league
/// or a grand prix's series is implied only where the other side names
/// no competition of its own ("Real Madrid win the Champions League" does
/// not account for "La Liga").
const COMPETITIONS: &[&str] = &["league", "event", "race"];

// The table, as the wasm carries it (`entities/source.rs`).
use source::SOURCE;

mod source;

/// One entity: its kind (the section it is written in) and the words of
/// its canonical name, as the matcher's words are folded.
#[derive(Debug)]
struct Entity {
    kind: &'static str,
    canonical: &'static str,
    /// The canonical name's words that are no stopword, folded
    /// ([`alias`]): what a side must say to name this entity.
    words: Vec<&'static str>,
    /// Each venue, as its folded words.
    venues: Vec<Vec<&'static str>>,
}

/// The parsed table: every lookup a sorted list searched by key.
#[derive(Debug, Default)]
struct Table {
    entities: Vec<Entity>,
    /// Alias (and canonical name) → entity, sorted by alias.
    aliases: Vec<(&'static str, usize)>,
    /// The first word of every alias, sorted: most words begin none.
    first_words: Vec<&'static str>,
    /// The most words an alias has.
    longest: usize,
    /// Short form, as written in capitals → entity.
    caps: Vec<(&'static str, usize)>,
    /// Word → an entity that implies it (its own implied words, its
    /// related entities' canonical and implied words, its venues'), as
    /// names are folded and as content words are (a plural's `s` dropped).
    implied: Vec<(String, usize)>,
    /// Word of an entity's canonical name (both foldings) → an entity with
    /// venues: the event a venue on the other side names.
    held_at: Vec<(String, usize)>,
    /// A bit for each hash of every word of [`Table::implied`] and
    /// [`Table::held_at`] (see [`WordBits`]): asked for most words a side
    /// leaves unaccounted, nearly all of them in neither, so the bits
    /// answer first.
    any_implied: WordBits,
    /// Word of an entity's canonical name (both foldings) → that entity:
    /// the entities a side's names may name.
    named_by_word: Vec<(String, usize)>,
    /// Word of a venue (both foldings) → the event held there.
    venue_words: Vec<(String, usize)>,
    /// Word of a competition's canonical name (a league, an event, a
    /// race), both foldings → that competition.
    competition_words: Vec<(String, usize)>,
}

/// A set of words as bits of two hashes (a Bloom filter): "no" is
/// certain, "yes" is checked by the sorted lists. A few hundred bytes and
/// no hash table, which the wasm would carry as code.
#[derive(Debug)]
struct WordBits([u64; WORD_BITS / 64]);

/// Bits of [`WordBits`]: about twice the words the table implies.
const WORD_BITS: usize = 16_384;

impl Default for WordBits {
    fn default() -> Self {
        Self([0; WORD_BITS / 64])
    }
}

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

/// A table error: the line and what is wrong with it. Only the table's
/// own test reports these; the matcher reads what parses.
#[derive(Debug, PartialEq, Eq)]
pub struct TableError {
    pub line: usize,
    pub problem: String,
}

/// The words of a field of names, split at commas, trimmed, empties left
/// out.
fn list(field: Option<&'static str>, separator: char) -> impl Iterator<Item = &'static str> {
    field
        .unwrap_or_default()
        .split(separator)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The words of `phrase` as the facts hold them: folded, no stopwords.
fn folded_words(phrase: &str) -> impl Iterator<Item = &str> {
    phrase
        .split(' ')
        .filter(|w| !w.is_empty() && !is_stopword(w))
        .map(alias)
}

/// Each word as a name is folded and as a content word is (`fold`: a
/// plural's `s` dropped, a verb's synonyms folded): a rule asks with
/// either.
fn both_foldings<'w>(words: &'w [&'static str]) -> impl Iterator<Item = String> + 'w {
    words
        .iter()
        .flat_map(|&w| [w.to_owned(), alias(fold(w)).to_owned()])
}

/// A section's related entities, read once every entity is known.
struct Section {
    kind: &'static str,
    related: Vec<&'static str>,
}

/// One entity line's fields after the canonical name.
struct Line {
    section: usize,
    entity: usize,
    implied: &'static str,
}

/// Parses [`SOURCE`]; every problem found is returned beside the table.
fn parse() -> (Table, Vec<TableError>) {
    parse_text(SOURCE)
}

/// Parses `text`, a table written as `entities.txt` is.
fn parse_text(text: &'static str) -> (Table, Vec<TableError>) {
    let mut t = Table::default();
    let mut errors = Vec::new();
    let mut sections: Vec<Section> = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if let Some(header) = text.strip_prefix('@') {
            let (kind, related) = header.split_once(':').unwrap_or((header, ""));
            sections.push(Section {
                kind: kind.trim(),
                related: list(Some(related), ',').collect(),
            });
            continue;
        }
        let Some(section) = sections.len().checked_sub(1) else {
            errors.push(TableError {
                line: n + 1,
                problem: "an entity before any section".into(),
            });
            continue;
        };
        let mut fields = text.split(';');
        let names = fields.next().unwrap_or_default();
        let (canonical, aliases) = names.split_once('=').unwrap_or((names, ""));
        let canonical = canonical.trim();
        let entity = t.entities.len();
        t.entities.push(Entity {
            kind: sections[section].kind,
            canonical,
            words: folded_words(canonical).collect(),
            venues: Vec::new(),
        });
        t.aliases.push((canonical, entity));
        t.aliases
            .extend(list(Some(aliases), ',').map(|a| (a, entity)));
        t.caps.extend(list(fields.next(), ' ').map(|c| (c, entity)));
        let implied = fields.next().unwrap_or_default();
        let venues: Vec<&'static str> = list(fields.next(), ',').collect();
        t.entities[entity].venues = venues.iter().map(|v| folded_words(v).collect()).collect();
        lines.push(Line {
            section,
            entity,
            implied,
        });
    }
    for line in &lines {
        let own = folded_words(line.implied)
            .chain(t.entities[line.entity].venues.iter().flatten().copied());
        let mut words: Vec<&'static str> = own.collect();
        for &related in &sections[line.section].related {
            match lines
                .iter()
                .find(|l| t.entities[l.entity].canonical == related)
            {
                Some(r) => {
                    words.extend(t.entities[r.entity].words.iter().copied());
                    words.extend(folded_words(r.implied));
                }
                None => errors.push(TableError {
                    line: 0,
                    problem: format!("section relates to unknown entity \"{related}\""),
                }),
            }
        }
        t.implied
            .extend(both_foldings(&words).map(|w| (w, line.entity)));
        if !t.entities[line.entity].venues.is_empty() {
            let named: Vec<String> = both_foldings(&t.entities[line.entity].words).collect();
            t.held_at
                .extend(named.into_iter().map(|w| (w, line.entity)));
        }
    }
    index(&mut t);
    (t, errors)
}

/// The lookups by word, sorted, once every entity and what it implies
/// is read.
fn index(t: &mut Table) {
    for (e, entity) in t.entities.iter().enumerate() {
        let named: Vec<String> = both_foldings(&entity.words).collect();
        t.named_by_word.extend(named.into_iter().map(|w| (w, e)));
        let venues: Vec<&'static str> = entity.venues.iter().flatten().copied().collect();
        let venue_words: Vec<String> = both_foldings(&venues).collect();
        t.venue_words
            .extend(venue_words.into_iter().map(|w| (w, e)));
        if COMPETITIONS.contains(&entity.kind) {
            let words: Vec<String> = both_foldings(&entity.words).collect();
            t.competition_words
                .extend(words.into_iter().map(|w| (w, e)));
        }
    }
    for list in [&mut t.aliases, &mut t.caps] {
        list.sort_unstable();
        list.dedup();
    }
    for list in [
        &mut t.implied,
        &mut t.held_at,
        &mut t.named_by_word,
        &mut t.venue_words,
        &mut t.competition_words,
    ] {
        list.sort_unstable();
        list.dedup();
    }
    for (w, _) in t.implied.iter().chain(&t.held_at) {
        t.any_implied.insert(w);
    }
    t.first_words = t
        .aliases
        .iter()
        .filter_map(|(a, _)| a.split(' ').next())
        .collect();
    t.first_words.sort_unstable();
    t.first_words.dedup();
    t.longest = t
        .aliases
        .iter()
        .map(|(a, _)| a.split(' ').count())
        .max()
        .unwrap_or(0);
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| parse().0)
}

/// The entries of a sorted `(key, entity)` list whose key is `key`.
fn entries<'t, K: AsRef<str>>(list: &'t [(K, usize)], key: &str) -> &'t [(K, usize)] {
    let start = list.partition_point(|(k, _)| k.as_ref() < key);
    let end = start + list[start..].partition_point(|(k, _)| k.as_ref() == key);
    &list[start..end]
}

/// Some alias begins with `word` (lower-case, as lexed): worth reading
/// the words after it.
pub(crate) fn begins_a_name(word: &str) -> bool {
    table().first_words.binary_search(&word).is_ok()
}

/// The most words an alias has.
pub(crate) fn longest_name() -> usize {
    table().longest
}

/// The canonical name of the entity `phrase` (lower-case words joined by
/// single spaces, as lexed) names, if one does.
pub(crate) fn canonical_of(phrase: &str) -> Option<&'static str> {
    let t = table();
    entries(&t.aliases, phrase)
        .first()
        .map(|&(_, e)| t.entities[e].canonical)
}

/// Whether `written` is the canonical name `canonical` with words its
/// entity implies before it: a team's city ("minnesota timberwolves"),
/// which the lexer leaves as written so that a side naming the city alone
/// shares its words.
pub(crate) fn city_before(written: &str, canonical: &str) -> bool {
    let t = table();
    let Some(prefix) = written
        .strip_suffix(canonical)
        .and_then(|p| p.strip_suffix(' '))
    else {
        return false;
    };
    entries(&t.aliases, canonical)
        .first()
        .filter(|&&(_, e)| t.entities[e].canonical == canonical)
        .is_some_and(|&(_, e)| {
            folded_words(prefix).all(|w| entries(&t.implied, w).iter().any(|&(_, i)| i == e))
        })
}

/// The canonical name a short form written in capitals stands for
/// (`lower`: the short form lower-cased, as lexed).
pub(crate) fn canonical_of_capitals(lower: &str) -> Option<&'static str> {
    let t = table();
    entries(&t.caps, &lower.to_ascii_uppercase())
        .first()
        .map(|&(_, e)| t.entities[e].canonical)
}

/// The kind of the entity whose canonical name is `canonical`.
pub(crate) fn kind_of(canonical: &str) -> Option<&'static str> {
    let t = table();
    entries(&t.aliases, canonical)
        .first()
        .map(|&(_, e)| &t.entities[e])
        .filter(|e| e.canonical == canonical)
        .map(|e| e.kind)
}

/// The entities a market names (every word of the canonical name said)
/// and the events whose venue it names: read once per market
/// ([`named_in`]), so that asking what they imply costs no string
/// comparison per pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Named {
    entities: Vec<usize>,
    held_at_venue: Vec<usize>,
}

/// The entities `names` (a market's names) name in full, `says`
/// answering for the market's words.
pub(crate) fn named_in<N: AsRef<str>>(names: &[N], says: impl Fn(&str) -> bool) -> Named {
    let t = table();
    let mut out = Named::default();
    for n in names.iter().map(AsRef::as_ref) {
        for &(_, e) in entries(&t.named_by_word, n) {
            if t.entities[e].words.iter().all(|w| says(w)) {
                out.entities.push(e);
            }
        }
        for &(_, e) in entries(&t.venue_words, n) {
            if t.entities[e]
                .venues
                .iter()
                .any(|v| v.iter().all(|w| says(w)))
            {
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
    let t = table();
    if (other.entities.is_empty() && other.held_at_venue.is_empty())
        || !t.any_implied.may_contain(word)
    {
        return false;
    }
    let implied = entries(&t.implied, word)
        .iter()
        .any(|(_, e)| other.entities.binary_search(e).is_ok())
        || entries(&t.held_at, word)
            .iter()
            .any(|(_, e)| other.held_at_venue.binary_search(e).is_ok());
    // The competitions `word` is a word of, and whether the other side
    // names a competition it is no word of.
    let of_word = entries(&t.competition_words, word);
    let another = || {
        other.entities.iter().any(|&e| {
            COMPETITIONS.contains(&t.entities[e].kind)
                && !of_word.iter().any(|&(_, own)| own == e)
                && !t.entities[e].words.contains(&word)
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

    #[test]
    fn the_table_parses_without_problems() {
        let (t, errors) = parse();
        assert_eq!(errors, Vec::new());
        assert!(t.entities.len() > 500, "{} entities", t.entities.len());
        assert!(t.aliases.len() > 1000, "{} aliases", t.aliases.len());
    }

    #[test]
    fn no_name_stands_for_two_entities() {
        let (t, _) = parse();
        for list in [&t.aliases, &t.caps] {
            for pair in list.windows(2) {
                assert_ne!(
                    pair[0].0, pair[1].0,
                    "{:?} names {:?} and {:?}",
                    pair[0].0, t.entities[pair[0].1].canonical, t.entities[pair[1].1].canonical
                );
            }
        }
    }

    /// Every alias is lower-case, as the lexer writes words, and the
    /// lexer reads it as its entity's canonical name (no other rewrite
    /// takes it first).
    #[test]
    fn every_name_is_read_as_its_entity() {
        let (t, _) = parse();
        let wrong: Vec<String> = t
            .aliases
            .iter()
            .filter_map(|&(name, e)| {
                let canonical = t.entities[e].canonical;
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
        for &(short, _) in &t.caps {
            assert!(short.chars().all(|c| c.is_ascii_uppercase()), "{short:?}");
        }
    }

    #[test]
    fn the_lookups_are_sorted() {
        let (t, _) = parse();
        for list in [&t.aliases, &t.caps] {
            assert!(list.windows(2).all(|p| p[0] <= p[1]));
        }
        for list in [
            &t.implied,
            &t.held_at,
            &t.named_by_word,
            &t.venue_words,
            &t.competition_words,
        ] {
            assert!(list.windows(2).all(|p| p[0] <= p[1]));
        }
        assert!(t.first_words.windows(2).all(|p| p[0] < p[1]));
        assert!(t.implied.iter().all(|(w, _)| t.any_implied.may_contain(w)));
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
