//! What a market's rules text says, read once per market beside its
//! title: the threshold and time it states, its words as written and
//! folded (which every lexicon reads), the names and content words it
//! writes, and what it resolves to if the event is void.

use super::super::lex::{Tok, lex};
use super::super::read::{find_threshold, rules_time, void_outcome};
use super::super::words::{alias, content_word, fold};
use super::{Facts, is_weekday, sentence_start};

impl Facts {
    /// Reads `text`, the market's rules (`resolution_criteria`), into
    /// the `criteria_*` facts and `void_outcome`.
    pub(super) fn read_criteria(&mut self, text: &str) {
        let tokens = lex(text);
        self.criteria_threshold = find_threshold(&tokens, &mut vec![false; tokens.len()]);
        let day = self.date.as_ref().map(|d| d.first_day);
        (self.criteria_time, self.criteria_close) = rules_time(&tokens, day);
        // The words as written and folded: all the lexicons read.
        // Each set taken whole (`WordSet::extend` sorts once), each
        // word copied once.
        self.criteria_words.extend(
            tokens
                .iter()
                .flat_map(|t| match t {
                    Tok::Word { lower, .. } => [Some(alias(fold(lower))), Some(lower.as_str())],
                    _ => [None, None],
                })
                .flatten()
                .map(str::to_owned),
        );
        let (mut names, mut content) = (Vec::new(), Vec::new());
        for (i, t) in tokens.iter().enumerate() {
            if let Tok::Word { lower, cap, .. } = t
                && let Some(word) = content_word(lower)
            {
                if *cap && !sentence_start(&tokens, i) && !is_weekday(lower) {
                    names.push(word.clone());
                }
                content.push(word);
            }
        }
        self.criteria_names.extend(names);
        self.criteria_content.extend(content);
        self.void_outcome = void_outcome(text);
    }
}
