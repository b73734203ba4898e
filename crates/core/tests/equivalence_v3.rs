//! The equivalence classifier on the third held-out set
//! (tests/fixtures/equivalence/test-v3.json): 179 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets,
//! with new subjects and wordings against the v2 sets, 72 of them hard
//! negatives, committed before the classifier was run on it.
//!
//! Development data since the third round: it was reported once (same
//! precision 0.64, inverted 0.71) and the classifier was then tuned on
//! it, so the held-out figure comes from test-v4
//! (crates/core/tests/equivalence_v4.rs), then test-v5
//! (equivalence_v5.rs). The bar asserted here is the one that protects a
//! trader, nothing else called `same` or `inverted`, and recall floors at
//! the seventh round's figures (same 0.67, inverted 0.57 of 19 after one
//! relabelled pair: under the 0.8, which is not claimed here).

mod labelled;

use labelled::{development_bar, held_out_and_new, load, never_compared};

const TEST: &str = "test-v3.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 150);
}

/// Development data now: nothing else is called `same` or `inverted`
/// (precision 1.00), and recall does not fall under the eighth round's
/// (the entity table).
/// `cargo test -p predmarket-core --test equivalence_v3 -- --nocapture`
/// prints the figures.
#[test]
fn third_set_now_development_data_meets_the_development_bar() {
    development_bar(TEST, 0.88, 0.68);
}

/// `find_pairs` compares every labelled pair the classifier gets right.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&load(TEST));
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
