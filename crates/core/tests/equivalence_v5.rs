//! The equivalence classifier on the fifth held-out set
//! (tests/fixtures/equivalence/test-v5.json): 174 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, totals, Draw No Bet, Double Chance, player
//! props), with new subjects and titles against dev-v2, test-v2, test-v3
//! and test-v4, 61 of them hard negatives, 66 same and 23 inverted pairs,
//! committed before the classifier was run on it.
//!
//! Never tuned to: its figures are printed for docs/benchmarks.md once,
//! after the last change of the fourth round. Only the precision that
//! protects a trader (nothing else called `same` or `inverted`) is
//! asserted.

mod labelled;

use labelled::{claims_nothing_else, held_out_and_new, load, never_compared};

const TEST: &str = "test-v5.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(
        TEST,
        150,
        &[
            "dev-v2.json",
            "test-v2.json",
            "test-v3.json",
            "test-v4.json",
        ],
    );
}

/// Reported, not tuned to: only that nothing else is called `same` or
/// `inverted`. `cargo test -p predmarket-core --test equivalence_v5 --
/// --nocapture` prints the figures.
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// `find_pairs` compares every labelled pair the classifier gets right.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&load(TEST));
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
