//! The equivalence classifier on the fifth held-out set
//! (tests/fixtures/equivalence/test-v5.json): 174 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, totals, Draw No Bet, Double Chance, player
//! props), with new subjects and titles against dev-v2, test-v2, test-v3
//! and test-v4, 61 of them hard negatives, 66 same and 23 inverted pairs,
//! committed before the classifier was run on it.
//!
//! Development data since the fifth round: it was reported once, after
//! the fourth round (same precision 0.94, recall 0.26; inverted 0.89 and
//! 0.35), and the classifier was then tuned on it, so the held-out figure
//! comes from test-v6. Asserted: nothing else called `same` or
//! `inverted`, and recall floors at the seventh round's figures (same
//! 0.65, inverted 0.91: the 0.8 for `same` is not met;
//! docs/benchmarks.md, "Seventh round").

mod labelled;

use labelled::{development_bar, held_out_and_new, load, never_compared};

const TEST: &str = "test-v5.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 150);
}

/// Development data now: nothing else is called `same` or `inverted`
/// (precision 1.00), and recall does not fall under the eighth round's
/// (the entity table).
/// `cargo test -p predmarket-core --test equivalence_v5 -- --nocapture`
/// prints the figures.
#[test]
fn fifth_set_now_development_data_meets_the_development_bar() {
    development_bar(TEST, 0.75, 0.91);
}

/// `find_pairs` compares every labelled pair the classifier gets right.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&load(TEST));
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
