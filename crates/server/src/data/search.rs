//! Search over market titles. All titles sit in one lower-case text, one
//! per line, so a query word is found with one fast scan of the whole text
//! (memchr's SIMD search) instead of a search per title: at 100 000 markets
//! that is the difference between a millisecond and a cache miss per row.

use crate::error::ApiError;
use memchr::memmem::Finder;
use serde_json::json;

/// Longest `query` accepted, in bytes (after trimming).
pub const QUERY_MAX_BYTES: usize = 256;
/// Most words a `query` may hold.
pub const QUERY_MAX_WORDS: usize = 16;

/// The `query` parameter, refused with a 400 above `QUERY_MAX_BYTES` or
/// `QUERY_MAX_WORDS`. The caps bound the work of one search: without them a
/// 30 000-word query cost 24 s of CPU.
pub fn query(query: Option<&str>) -> Result<Option<&str>, ApiError> {
    let Some(query) = query.map(str::trim).filter(|q| !q.is_empty()) else {
        return Ok(None);
    };
    let bytes = query.len();
    let words = query.split_whitespace().count();
    if bytes > QUERY_MAX_BYTES || words > QUERY_MAX_WORDS {
        let reason = format!(
            "at most {QUERY_MAX_BYTES} bytes and {QUERY_MAX_WORDS} words \
             (this one has {bytes} bytes and {words} words)"
        );
        return Err(
            ApiError::invalid("query", reason.clone()).with_details(json!({
                "parameter": "query",
                "reason": reason,
                "max_bytes": QUERY_MAX_BYTES,
                "max_words": QUERY_MAX_WORDS,
            })),
        );
    }
    Ok(Some(query))
}

/// The words of a search query, each compiled once: distinct, longest
/// first (a long word is usually the rarest, so it narrows the rows first).
pub struct Words(Vec<Finder<'static>>);

impl Words {
    /// Lower-case, whitespace-separated, distinct words of `query`.
    pub fn parse(query: Option<&str>) -> Self {
        let mut words: Vec<String> = query
            .map(|q| q.split_whitespace().map(str::to_lowercase).collect())
            .unwrap_or_default();
        words.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        words.dedup();
        Self(
            words
                .iter()
                .map(|w| Finder::new(w.as_bytes()).into_owned())
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether every word occurs in `text` (lower-case already).
    pub fn all_in(&self, text: &str) -> bool {
        self.0.iter().all(|w| w.find(text.as_bytes()).is_some())
    }
}

/// One line of lower-case text per row.
pub struct TextIndex {
    text: String,
    /// Where each row's line starts.
    starts: Vec<u32>,
}

impl TextIndex {
    pub fn new<'a>(rows: impl Iterator<Item = &'a str>) -> Self {
        let mut text = String::new();
        let mut starts = Vec::new();
        for row in rows {
            starts.push(text.len() as u32);
            // A query word never holds whitespace, so it cannot match
            // across the line break.
            text.push_str(&row.to_lowercase().replace('\n', " "));
            text.push('\n');
        }
        Self { text, starts }
    }

    /// Rows whose line holds every word, ascending.
    ///
    /// One scan of the whole text for the first word, which jumps to the
    /// next line after each hit; the other words are looked for only in the
    /// lines that hit. The cost is one pass over the text plus, per hit line,
    /// a pass over that line per word: bounded by the size of the index
    /// times `QUERY_MAX_WORDS`, whatever the query.
    pub fn rows(&self, words: &Words) -> Vec<u32> {
        let Some((first, rest)) = words.0.split_first() else {
            return Vec::new();
        };
        let text = self.text.as_bytes();
        let mut out = Vec::new();
        let mut from = 0usize;
        let mut row = 0usize;
        while let Some(offset) = first.find(&text[from..]) {
            let hit = from + offset;
            // Rows are visited in order: search only those after the last.
            row += self.starts[row..].partition_point(|&s| s as usize <= hit) - 1;
            let end = self.line_end(row);
            let line = &text[self.starts[row] as usize..end];
            if rest.iter().all(|w| w.find(line).is_some()) {
                out.push(row as u32);
            }
            from = end + 1;
            if from >= text.len() {
                break;
            }
        }
        out
    }

    /// Where `row`'s line ends (its line break).
    fn line_end(&self, row: usize) -> usize {
        self.starts
            .get(row + 1)
            .map_or(self.text.len(), |&next| next as usize)
            - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_rows_holding_every_word() {
        let index = TextIndex::new(
            [
                "Bitcoin above $100k?",
                "Fed cuts",
                "bitcoin\nBELOW",
                "Ethereum above",
            ]
            .into_iter(),
        );
        let rows = |q| index.rows(&Words::parse(Some(q)));
        assert_eq!(rows("bitcoin"), [0, 2]);
        assert_eq!(rows("ABOVE bitcoin"), [0]);
        assert_eq!(rows("above"), [0, 3]);
        assert_eq!(rows("nothing"), Vec::<u32>::new());
        assert_eq!(rows("nbelow"), Vec::<u32>::new());
        assert!(Words::parse(Some("Fed")).all_in("fed cuts"));
        // Repeated words are one word.
        assert_eq!(Words::parse(Some("e E e e")).len(), 1);
        assert_eq!(rows("above above ABOVE"), [0, 3]);
        assert_eq!(rows("e b"), [0, 2, 3]);
        assert_eq!(rows("?"), [0]);
    }

    #[test]
    fn query_caps() {
        assert_eq!(
            query(Some(" bitcoin above ")).unwrap(),
            Some("bitcoin above")
        );
        let words = vec!["e"; QUERY_MAX_WORDS + 1].join(" ");
        let err = query(Some(&words)).unwrap_err();
        assert!(err.message.contains("16 words"), "{}", err.message);
        let long = "a".repeat(QUERY_MAX_BYTES + 1);
        let err = query(Some(&long)).unwrap_err();
        assert!(err.message.contains("256 bytes"), "{}", err.message);
        assert!(query(Some(&"a".repeat(QUERY_MAX_BYTES))).is_ok());
        assert_eq!(query(Some(" ")).unwrap(), None);
    }
}
