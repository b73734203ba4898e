//! A set of words as one sorted `Vec<String>`: what the facts hold of a
//! market's words. In the order a `BTreeSet<String>` keeps (so every
//! reason, dump and rule reads the words as before), without the B-tree:
//! its insertion, search, iteration and drop code were some of the
//! largest generic pieces of the venues wasm (docs/benchmarks.md,
//! "Fourteenth round: size"). A market has tens of words, so an insert's
//! shift costs less than a tree's node.

use serde::Serialize;
use std::cmp::Ordering;

/// Words, sorted, each once.
#[derive(Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct WordSet(Vec<String>);

impl WordSet {
    pub fn new() -> Self {
        Self::default()
    }

    fn search(&self, word: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|w| w.as_str().cmp(word))
    }

    /// Adds `word` unless it is there; whether it was added.
    pub fn insert(&mut self, word: String) -> bool {
        match self.search(&word) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, word);
                true
            }
        }
    }

    pub fn contains<W: AsRef<str> + ?Sized>(&self, word: &W) -> bool {
        self.search(word.as_ref()).is_ok()
    }

    /// The words in order.
    pub fn iter(&self) -> std::slice::Iter<'_, String> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The least word.
    pub fn first(&self) -> Option<&String> {
        self.0.first()
    }

    /// The words in one of the two sets only, in order.
    pub fn symmetric_difference<'a>(&'a self, other: &'a Self) -> impl Iterator<Item = &'a String> {
        let (mut a, mut b) = (self.0.iter().peekable(), other.0.iter().peekable());
        std::iter::from_fn(move || {
            loop {
                return match (a.peek(), b.peek()) {
                    (Some(x), Some(y)) => match x.cmp(y) {
                        Ordering::Less => a.next(),
                        Ordering::Greater => b.next(),
                        Ordering::Equal => {
                            a.next();
                            b.next();
                            continue;
                        }
                    },
                    (Some(_), None) => a.next(),
                    (None, _) => b.next(),
                };
            }
        })
    }
}

/// As a `BTreeSet`'s: `{"a", "b"}`.
impl std::fmt::Debug for WordSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(&self.0).finish()
    }
}

/// All at once, then sorted: a rules text's hundreds of words inserted
/// one by one would shift the list once each.
impl Extend<String> for WordSet {
    fn extend<I: IntoIterator<Item = String>>(&mut self, words: I) {
        let before = self.0.len();
        self.0.extend(words);
        if self.0.len() > before {
            self.0.sort_unstable();
            self.0.dedup();
        }
    }
}

impl FromIterator<String> for WordSet {
    fn from_iter<I: IntoIterator<Item = String>>(words: I) -> Self {
        let mut set = Self::new();
        set.extend(words);
        set
    }
}

impl<'a> IntoIterator for &'a WordSet {
    type Item = &'a String;
    type IntoIter = std::slice::Iter<'a, String>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for WordSet {
    type Item = String;
    type IntoIter = std::vec::IntoIter<String>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::WordSet;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    proptest! {
        /// Inserts, membership, order, the symmetric difference and the
        /// answers of `insert`, against `BTreeSet<String>`.
        #[test]
        fn as_a_btree_set(
            a in prop::collection::vec("[a-d]{0,3}", 0..40),
            b in prop::collection::vec("[a-d]{0,3}", 0..40),
            probes in prop::collection::vec("[a-d]{0,3}", 0..10),
        ) {
            let (mut set_a, mut tree_a) = (WordSet::new(), BTreeSet::new());
            for w in &a {
                prop_assert_eq!(set_a.insert(w.clone()), tree_a.insert(w.clone()));
            }
            let set_b: WordSet = b.iter().cloned().collect();
            let tree_b: BTreeSet<String> = b.iter().cloned().collect();
            prop_assert!(set_a.iter().eq(tree_a.iter()));
            prop_assert_eq!(set_a.len(), tree_a.len());
            prop_assert_eq!(set_a.first(), tree_a.first());
            prop_assert_eq!(format!("{set_a:?}"), format!("{tree_a:?}"));
            prop_assert!(set_a.symmetric_difference(&set_b).eq(tree_a.symmetric_difference(&tree_b)));
            for p in &probes {
                prop_assert_eq!(set_a.contains(p.as_str()), tree_a.contains(p.as_str()));
            }
        }
    }
}
