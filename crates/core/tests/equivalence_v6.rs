//! The equivalence classifier on the sixth set
//! (tests/fixtures/equivalence/test-v6.json): 191 pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, run and puck lines, totals, Double Chance, Draw
//! No Bet, player props), with new subjects and titles against dev-v2,
//! test-v2, test-v3, test-v4 and test-v5, across sports (59), politics
//! (39), economics (35), crypto (22), culture (19) and weather, science
//! and tech (17). By truth: 64 same, 28 inverted, 19 subset, 12 superset
//! and 68 different, all 68 hard negatives (the same entities and dates
//! asking another question: metric, comparator, antonym, band vs tail,
//! cutoff, time zone, settlement source, void branch, scope, stage, role,
//! subject). It was written and labelled by someone who had not read the
//! matcher, and committed before any classifier was run on it.
//!
//! Held out until the fifth round, whose last change it was run on once
//! (same precision 1.00, recall 0.25; inverted precision 1.00, recall
//! 0.54; docs/benchmarks.md, fifth round). Development data since: the
//! sixth round read its misses, and its test asserts the development bar
//! (precision 1.00, recall no lower than the seventh round's figures:
//! same 0.65, inverted 0.85).

mod labelled;

use labelled::{development_bar, held_out_and_new, load, never_compared};

const TEST: &str = "test-v6.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 160);
}

/// Nothing else called `same` or `inverted`, and the recall reached in
/// the sixth round kept. `cargo test -p predmarket-core --test
/// equivalence_v6 -- --nocapture` prints the figures and every miss.
#[test]
fn sixth_set_now_development_data_meets_the_development_bar() {
    development_bar(TEST, 0.79, 0.96);
}

/// `find_pairs` compares every labelled pair the classifier gets right.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&load(TEST));
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
