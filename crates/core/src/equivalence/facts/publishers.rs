//! The publishers a market names (`lexicon/publishers.rs`), read once per
//! market from its title, its `resolution_source` field and its rules
//! text, as one bit per publisher: a name written out ("the Bureau of
//! Labor Statistics"), an acronym as written ("BLS") or a host of the
//! publisher's domain ("bls.gov", "www.bls.gov/cpi", "gasprices.aaa.com").
//! The text is split into words once and each word looked up in sorted
//! keys, so that no publisher's pattern is searched through the text.

use std::sync::OnceLock;

use super::super::lexicon::publishers::PUBLISHERS;
use super::super::words::fold;

/// The publishers' keys, sorted for binary search: the first word of
/// each name (with the publisher and the name's words), each acronym
/// and each domain (with the publisher).
struct Keys {
    names: Vec<(&'static str, u8, Vec<&'static str>)>,
    acronyms: Vec<(&'static str, u8)>,
    domains: Vec<(&'static str, u8)>,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut k = Keys {
            names: Vec::new(),
            acronyms: Vec::new(),
            domains: Vec::new(),
        };
        for (i, p) in PUBLISHERS.iter().enumerate() {
            // At most 128 publishers (asserted in the table).
            let bit = i as u8;
            for name in p.names {
                let words: Vec<&'static str> = name.split(' ').map(trimmed).collect();
                if let Some(&first) = words.first() {
                    k.names.push((first, bit, words));
                }
            }
            k.acronyms.extend(p.acronyms.iter().map(|&a| (a, bit)));
            k.domains.extend(p.domains.iter().map(|&d| (d, bit)));
        }
        k.names.sort_by(|x, y| x.0.cmp(y.0));
        k.acronyms.sort_unstable();
        k.domains.sort_unstable();
        k
    })
}

/// A word without the dots and dashes around it ("u.s." as "u.s", a
/// host at a sentence's end).
fn trimmed(w: &str) -> &str {
    w.trim_matches(|c| c == '.' || c == '-')
}

/// The entries of a sorted list whose key is `key`.
fn entries<'k, T>(list: &'k [T], key: &str, of: impl Fn(&T) -> &str) -> &'k [T] {
    let start = list.partition_point(|t| of(t) < key);
    let end = start + list[start..].partition_point(|t| of(t) == key);
    &list[start..end]
}

/// The publishers a text names (see the module doc): one bit each, and
/// the words that named them as a rules text's words are written
/// (lower-case, and folded: "statistic"), each with its publisher's bit.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Named {
    pub bits: u128,
    pub words: Vec<(u8, String)>,
}

impl Named {
    /// Adds the publisher `bit`, named by `words` (as written).
    fn add(&mut self, bit: u8, words: &[&str]) {
        self.bits |= 1 << bit;
        for w in words {
            let lower = w.to_ascii_lowercase();
            let folded = fold(&lower).to_owned();
            if folded != lower {
                self.words.push((bit, folded));
            }
            self.words.push((bit, lower));
        }
    }

    /// `w` named one of the publishers in `bits` here.
    pub(crate) fn wrote(&self, bits: u128, w: &str) -> bool {
        self.words
            .iter()
            .any(|(bit, x)| bits & (1 << bit) != 0 && x == w)
    }
}

/// Whether `c` stands inside a word the keys are matched against.
fn in_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '&' | '-')
}

/// The words of `text` the keys are matched against.
fn words_of(text: &str) -> Vec<&str> {
    text.split(|c: char| !in_word(c))
        .map(trimmed)
        .filter(|w| !w.is_empty())
        .collect()
}

/// `key` (lower-case) against `w` lower-cased, without lower-casing it.
fn cmp_lower(key: &str, w: &str) -> std::cmp::Ordering {
    key.bytes().cmp(w.bytes().map(|b| b.to_ascii_lowercase()))
}

/// The entries of a sorted list whose key is `w` lower-cased.
fn entries_lower<'k, T>(list: &'k [T], w: &str, of: impl Fn(&T) -> &str) -> &'k [T] {
    use std::cmp::Ordering::{Equal, Less};
    let start = list.partition_point(|t| cmp_lower(of(t), w) == Less);
    let end = start + list[start..].partition_point(|t| cmp_lower(of(t), w) == Equal);
    &list[start..end]
}

/// The publishers `texts` name (see the module doc). A name or an
/// acronym is looked up only where a word begins with a capital (names
/// and acronyms are written so in titles, fields and rules), a domain
/// only where a word holds a dot: most words are neither, and cost one
/// test.
pub(crate) fn publishers_in(texts: &[&str]) -> Named {
    let k = keys();
    let mut named = Named::default();
    for text in texts {
        let words = words_of(text);
        for (i, w) in words.iter().enumerate() {
            if w.starts_with(|c: char| c.is_uppercase()) {
                for &(_, bit) in entries(&k.acronyms, w, |e| e.0) {
                    named.add(bit, &[w]);
                }
                for (_, bit, name) in entries_lower(&k.names, w, |e| e.0) {
                    if let Some(said) = words.get(i..i + name.len())
                        && said
                            .iter()
                            .zip(name)
                            .all(|(x, y)| x.eq_ignore_ascii_case(y))
                    {
                        named.add(*bit, said);
                    }
                }
            }
            // A host: the domain itself or any of its subdomains.
            if w.contains('.') {
                let suffixes =
                    std::iter::once(*w).chain(w.match_indices('.').map(|(at, _)| &w[at + 1..]));
                for s in suffixes {
                    for &(_, bit) in entries_lower(&k.domains, s, |e| e.0) {
                        named.add(bit, &[w]);
                    }
                }
            }
        }
    }
    named
}

/// The words of the publishers in `bits`, lower-case: their names' words,
/// their acronyms and their domains, each as a rules text's word may be.
pub(crate) fn is_word_of(bits: u128, w: &str) -> bool {
    PUBLISHERS.iter().enumerate().any(|(i, p)| {
        bits & (1 << i) != 0
            && (p
                .names
                .iter()
                .flat_map(|n| n.split(' '))
                .any(|x| trimmed(x) == w || fold(x) == w)
                || p.acronyms.iter().any(|a| a.eq_ignore_ascii_case(w))
                || p.domains.iter().any(|d| {
                    w.strip_suffix(d)
                        .is_some_and(|host| host.is_empty() || host.ends_with('.'))
                }))
    })
}

/// The words of `text` that are no word of the publishers in `bits` (nor
/// "the", "of", "and"), lower-case, in order.
pub(crate) fn other_words(bits: u128, text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '&' | '-')))
        .map(|w| trimmed(w).to_lowercase())
        .filter(|w| !w.is_empty() && !matches!(w.as_str(), "the" | "of" | "and"))
        .filter(|w| !is_word_of(bits, w))
        .collect()
}

/// Every publisher in `bits` is of `kind`.
pub(crate) fn all_of_kind(bits: u128, kind: &str) -> bool {
    PUBLISHERS
        .iter()
        .enumerate()
        .all(|(i, p)| bits & (1 << i) == 0 || p.kind == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(text: &str) -> u128 {
        publishers_in(&[text]).bits
    }

    #[test]
    fn one_publisher_named_three_ways() {
        let bls = named("The Source Agency is the Bureau of Labor Statistics.");
        assert_ne!(bls, 0);
        assert_eq!(
            named("The resolution source for this market will be bls.gov."),
            bls
        );
        assert_eq!(named("the initial BLS estimate"), bls);
        assert_eq!(named("per https://www.bls.gov/cpi/"), bls);
        let aaa = named("The Source Agency is AAA (gasprices.aaa.com).");
        assert_eq!(named("shown at gasprices.aaa.com"), aaa);
        assert_ne!(aaa, bls);
    }

    #[test]
    fn words_that_are_no_publisher() {
        // An acronym only as written in capitals; a name only whole.
        assert_eq!(named("the abs value of the aaa rating"), 0);
        assert_eq!(named("the federal budget"), 0);
        assert_eq!(named("notbls.gov"), 0);
        // Two publishers are two bits.
        assert_eq!(named("NWS and the BLS").count_ones(), 2);
    }

    #[test]
    fn the_words_that_named_a_publisher() {
        let n = publishers_in(&["The Source Agency is the Bureau of Labor Statistics (bls.gov)."]);
        for w in ["bureau", "labor", "statistic", "statistics", "bls.gov"] {
            assert!(n.wrote(n.bits, w), "{w}");
        }
        assert!(!n.wrote(n.bits, "agency"));
        // "London" is a word of the LBMA's name, but not as "10:30 London".
        let lbma = publishers_in(&["The LBMA Gold Price AM (10:30 London)."]);
        assert_ne!(lbma.bits, 0);
        assert!(!lbma.wrote(lbma.bits, "london"));
    }

    #[test]
    fn a_publishers_words() {
        let bls = named("BLS");
        for w in [
            "bls",
            "bls.gov",
            "bureau",
            "labor",
            "statistic",
            "statistics",
        ] {
            assert!(is_word_of(bls, w), "{w}");
        }
        assert!(!is_word_of(bls, "employment"));
    }
}
