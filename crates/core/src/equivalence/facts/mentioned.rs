//! "Does this market write that word": asked of the other side's names
//! and words for every candidate pair (thousands of pairs a list, most
//! of them vetoed because one side names what the other never writes).
//! The words are kept sorted for a binary search, behind a small filter
//! of their hashes that answers most "no"s without comparing a string.

/// A market's words ([`super::Facts::raw`], [`super::Facts::words`],
/// [`super::Facts::entities`]), sorted, and those of them that end in `s`
/// without it: "does the text write this word, or its plural". Each
/// list has its filter: a word whose bits are not all set in it is not
/// in the list, so the search is skipped (a set bit proves nothing: the
/// list is searched).
#[derive(Debug, Clone, Default)]
pub(super) struct Mentioned {
    words: Vec<String>,
    without_s: Vec<String>,
    words_bits: WordBits,
    without_s_bits: WordBits,
}

/// 256 bits, two a word: a market writes tens of words, so about one
/// absent word in ten passes the filter.
#[derive(Debug, Clone, Copy, Default)]
struct WordBits([u64; 4]);

impl WordBits {
    /// Two bit positions of a word's hash (the high bytes of FNV-1a,
    /// the best mixed).
    fn positions(hash: u64) -> [u32; 2] {
        [(hash >> 56) as u32, (hash >> 48) as u32 & 0xff]
    }

    fn insert(&mut self, hash: u64) {
        for bit in Self::positions(hash) {
            self.0[bit as usize / 64] |= 1 << (bit % 64);
        }
    }

    fn may_contain(&self, hash: u64) -> bool {
        Self::positions(hash)
            .iter()
            .all(|&bit| self.0[bit as usize / 64] & (1 << (bit % 64)) != 0)
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

impl Mentioned {
    pub(super) fn new<'a>(all: impl Iterator<Item = &'a str>) -> Self {
        // Sorted and each word once before any is copied: the lists the
        // words come from share most of them.
        let mut words: Vec<&str> = all.collect();
        words.sort_unstable();
        words.dedup();
        let mut without_s: Vec<&str> = words.iter().filter_map(|w| w.strip_suffix('s')).collect();
        without_s.sort_unstable();
        without_s.dedup();
        let owned =
            |list: Vec<&str>| -> Vec<String> { list.into_iter().map(str::to_owned).collect() };
        let (words, without_s) = (owned(words), owned(without_s));
        let bits = |list: &[String]| {
            let mut bits = WordBits::default();
            for w in list {
                bits.insert(fnv(FNV_OFFSET, w.as_bytes()));
            }
            bits
        };
        Self {
            words_bits: bits(&words),
            without_s_bits: bits(&without_s),
            words,
            without_s,
        }
    }

    /// The word, the word without a final `s` (when three letters or
    /// more are left), or its plural is written.
    pub(super) fn has(&self, word: &str) -> bool {
        let search =
            |list: &[String], w: &str| list.binary_search_by(|x| x.as_str().cmp(w)).is_ok();
        // The hash of the word less its final `s` is FNV's state before
        // that byte: both from one pass.
        let stem = word.strip_suffix('s');
        let stem_hash = fnv(FNV_OFFSET, stem.unwrap_or(word).as_bytes());
        let hash = if stem.is_some() {
            fnv(stem_hash, b"s")
        } else {
            stem_hash
        };
        (self.words_bits.may_contain(hash) && search(&self.words, word))
            || stem.is_some_and(|w| {
                w.len() > 2 && self.words_bits.may_contain(stem_hash) && search(&self.words, w)
            })
            || (self.without_s_bits.may_contain(hash) && search(&self.without_s, word))
    }
}

#[cfg(test)]
mod tests {
    use super::Mentioned;

    /// The search without the filters, as it was before them.
    fn searched(list: &[&str], word: &str) -> bool {
        let mut words: Vec<&str> = list.to_vec();
        words.sort_unstable();
        words.dedup();
        let mut without_s: Vec<&str> = words.iter().filter_map(|w| w.strip_suffix('s')).collect();
        without_s.sort_unstable();
        let has = |l: &[&str], w: &str| l.binary_search(&w).is_ok();
        has(&words, word)
            || word
                .strip_suffix('s')
                .is_some_and(|w| w.len() > 2 && has(&words, w))
            || has(&without_s, word)
    }

    /// The filters never change an answer: over a few hundred words (so
    /// that many bits are set and many absent words pass them), every
    /// word, stem, plural and absent word is answered as the plain
    /// search answers it.
    #[test]
    fn the_filter_answers_as_the_search_does() {
        let mut list: Vec<String> = (0..300).map(|i| format!("w{i}x{}", i * 7 % 13)).collect();
        list.extend((0..40).map(|i| format!("p{i}s")));
        let words: Vec<&str> = list.iter().map(String::as_str).collect();
        let m = Mentioned::new(list.iter().map(String::as_str));
        let mut asked = 0;
        for i in 0..600 {
            for q in [
                format!("w{i}x{}", i * 7 % 13),
                format!("w{i}x{}s", i * 7 % 13),
                format!("p{i}"),
                format!("p{i}s"),
                format!("p{i}ss"),
                format!("q{i}"),
            ] {
                assert_eq!(m.has(&q), searched(&words, &q), "{q}");
                asked += 1;
            }
        }
        assert_eq!(asked, 3600);
    }

    #[test]
    fn stems_and_plurals() {
        let m = Mentioned::new(["lakers", "goal", "us"].into_iter());
        assert!(m.has("laker"), "the word without its s is written with it");
        assert!(m.has("goals"), "the plural of a written word");
        assert!(m.has("lakers"));
        assert!(m.has("us"));
        assert!(!m.has("celtics"));
        // "us" less its s is "u": three letters or more must be left.
        assert!(!Mentioned::new(std::iter::once("u")).has("us"));
    }
}
