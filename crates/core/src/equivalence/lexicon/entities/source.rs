//! The entity table's source, `entities.txt`, read as the matcher's
//! words are read (`words::alias`, `fold`, `is_stopword`: the same
//! functions, not a copy of them) and written out as Rust data
//! (`table.rs`), so the wasm carries the laid-out lookups instead of the
//! text and a 16 KB function that parsed and indexed it at first use
//! (docs/benchmarks.md, "Eleventh round"). Test builds only: the test
//! below fails when `table.rs` is not what `entities.txt` and the word
//! rules give today; `UPDATE_ENTITY_TABLE=1 cargo test -p predmarket-core
//! --lib entities` rewrites it.

use std::fmt::Write as _;

use super::super::super::words::{alias, fold};
use super::{COMPETITIONS, folded_words};

/// The table, as written.
const SOURCE: &str = include_str!("../entities.txt");

/// The generated table, beside this file.
const TABLE_FILE: &str = "src/equivalence/lexicon/entities/table.rs";

/// One entity as parsed (what [`super::Entity`] lays out).
#[derive(Debug)]
pub(super) struct ParsedEntity {
    pub(super) kind: &'static str,
    pub(super) canonical: &'static str,
    pub(super) words: Vec<&'static str>,
    pub(super) venues: Vec<Vec<&'static str>>,
}

/// The parsed table: every lookup a sorted list searched by key (the
/// fields of `table.rs`, which say what each holds).
#[derive(Debug, Default)]
pub(super) struct Parsed {
    pub(super) entities: Vec<ParsedEntity>,
    pub(super) aliases: Vec<(&'static str, usize)>,
    pub(super) first_words: Vec<&'static str>,
    pub(super) longest: usize,
    pub(super) caps: Vec<(&'static str, usize)>,
    pub(super) implied: Vec<(String, usize)>,
    pub(super) held_at: Vec<(String, usize)>,
    pub(super) named_by_word: Vec<(String, usize)>,
    pub(super) venue_words: Vec<(String, usize)>,
    pub(super) competition_words: Vec<(String, usize)>,
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

/// Each word as a name is folded and as a content word is (`fold`: a
/// plural's `s` dropped, a verb's synonyms folded): a rule asks with
/// either.
fn both_foldings<'w>(words: &'w [&'static str]) -> impl Iterator<Item = String> + 'w {
    words
        .iter()
        .flat_map(|&w| [w.to_owned(), alias(&fold(w)).to_owned()])
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
pub(super) fn parse() -> (Parsed, Vec<TableError>) {
    let mut t = Parsed::default();
    let mut errors = Vec::new();
    let mut sections: Vec<Section> = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    for (n, raw) in SOURCE.lines().enumerate() {
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
        t.entities.push(ParsedEntity {
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
                    problem: format!("section relates to unknown entity {related:?}"),
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
fn index(t: &mut Parsed) {
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

/// Items joined by `, `, wrapped before 100 columns: the generated file
/// stays a few hundred lines long and reads in a diff.
fn packed(items: impl IntoIterator<Item = String>) -> String {
    let mut out = String::new();
    let mut line = 0;
    for item in items {
        if line > 0 && line + item.len() + 2 > 96 {
            out.push('\n');
            line = 0;
        }
        out.push_str(if line == 0 { "    " } else { " " });
        out.push_str(&item);
        out.push(',');
        line += item.len() + 2 + if line == 0 { 4 } else { 0 };
    }
    out
}

/// A sorted `(key, entity)` list as a [`super::Lookup`] static.
fn lookup<K: AsRef<str>>(out: &mut String, name: &str, list: &[(K, usize)], doc: &str) {
    let items = list.iter().map(|(k, e)| format!("({:?}, {e})", k.as_ref()));
    let _ = write!(
        out,
        "\n/// {doc}\npub(super) static {name}: &Lookup = &[\n{}\n];\n",
        packed(items)
    );
}

/// The Rust source of `table.rs` for the parsed table.
pub(super) fn render(t: &Parsed) -> String {
    let mut out = String::from(
        "//! The entity table, `entities.txt` laid out as data. Generated by\n\
         //! `source::render` (`UPDATE_ENTITY_TABLE=1 cargo test -p predmarket-core\n\
         //! --lib entities`); do not edit: `source`'s test fails when it differs.\n\n\
         use super::{Entity, Lookup, e};\n",
    );
    let _ = write!(
        out,
        "\n/// The most words an alias has.\npub(super) const LONGEST: usize = {};\n",
        t.longest
    );
    let entities = t.entities.iter().map(|e| {
        let venues: Vec<String> = e.venues.iter().map(|v| format!("&{v:?}")).collect();
        format!(
            "e({:?}, {:?}, &{:?}, &[{}])",
            e.kind,
            e.canonical,
            e.words,
            venues.join(", ")
        )
    });
    let _ = write!(
        out,
        "\n/// Every entity, in the order written.\npub(super) static ENTITIES: &[Entity] = &[\n{}\n];\n",
        packed(entities)
    );
    let firsts = t.first_words.iter().map(|w| format!("{w:?}"));
    let _ = write!(
        out,
        "\n/// The first word of every alias, sorted: most words begin none.\n\
         pub(super) static FIRST_WORDS: &[&str] = &[\n{}\n];\n",
        packed(firsts)
    );
    lookup(
        &mut out,
        "ALIASES",
        &t.aliases,
        "Alias (and canonical name) → entity.",
    );
    lookup(
        &mut out,
        "CAPS",
        &t.caps,
        "Short form, as written in capitals → entity.",
    );
    lookup(
        &mut out,
        "IMPLIED",
        &t.implied,
        "Word → an entity that implies it (its own implied words, its related entities'\n\
         /// canonical and implied words, its venues'), as names and as content words are folded.",
    );
    lookup(
        &mut out,
        "HELD_AT",
        &t.held_at,
        "Word of an entity's canonical name (both foldings) → an entity with venues.",
    );
    lookup(
        &mut out,
        "NAMED_BY_WORD",
        &t.named_by_word,
        "Word of an entity's canonical name (both foldings) → that entity.",
    );
    lookup(
        &mut out,
        "VENUE_WORDS",
        &t.venue_words,
        "Word of a venue (both foldings) → the event held there.",
    );
    lookup(
        &mut out,
        "COMPETITION_WORDS",
        &t.competition_words,
        "Word of a competition's canonical name, both foldings → that competition.",
    );
    out
}

#[test]
fn the_table_parses_without_problems() {
    let (t, errors) = parse();
    assert_eq!(errors, Vec::new());
    assert!(t.entities.len() > 500, "{} entities", t.entities.len());
    assert!(t.aliases.len() > 1000, "{} aliases", t.aliases.len());
    assert!(
        t.entities.len() < usize::from(u16::MAX),
        "entities index as u16"
    );
    assert!(
        COMPETITIONS
            .iter()
            .all(|k| t.entities.iter().any(|e| e.kind == *k))
    );
}

/// `table.rs` is `entities.txt` read by today's word rules; with
/// `UPDATE_ENTITY_TABLE` set, the test writes it instead.
#[test]
fn the_laid_out_table_is_entities_txt() {
    let wanted = render(&parse().0);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(TABLE_FILE);
    if std::env::var_os("UPDATE_ENTITY_TABLE").is_some() {
        std::fs::write(&path, &wanted).expect("writing table.rs");
    }
    let written = std::fs::read_to_string(&path).expect("reading table.rs");
    assert!(
        written == wanted,
        "{} differs from entities.txt as read today: run UPDATE_ENTITY_TABLE=1 cargo test -p \
         predmarket-core --lib entities",
        path.display()
    );
}
