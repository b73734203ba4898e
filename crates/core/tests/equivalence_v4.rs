//! The equivalence classifier on the fourth held-out set
//! (tests/fixtures/equivalence/test-v4.json): 172 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, totals, Draw No Bet, Double Chance, props), with
//! new subjects and titles against dev-v2, test-v2 and test-v3, 65 of
//! them hard negatives, committed before the classifier was run on it.
//!
//! Development data since the fourth round: it was reported once, after
//! the third round (precision 1.00, same recall 0.36, inverted 0.19), and
//! the classifier was then tuned on it, so the held-out figure comes from
//! test-v5 (crates/core/tests/equivalence_v5.rs). Asserted: nothing else
//! called `same` or `inverted`, and recall floors at the sixth round's
//! figures (same 0.78, inverted 0.80: the 0.8 for `same` is not
//! claimed).

mod labelled;

use labelled::{development_bar, held_out_and_new, load, never_compared};

const TEST: &str = "test-v4.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 150);
}

/// Development data now: nothing else is called `same` or `inverted`
/// (precision 1.00), and recall does not fall under the fifth round's.
/// `cargo test -p predmarket-core --test equivalence_v4 -- --nocapture`
/// prints the figures.
#[test]
fn fourth_set_now_development_data_meets_the_development_bar() {
    development_bar(TEST, 0.82, 0.8);
}

/// `find_pairs` compares every labelled pair the classifier gets right.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&load(TEST));
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
