//! The equivalence classifier on the tenth held-out set
//! (tests/fixtures/equivalence/test-v10.json): pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets, with new
//! subjects and titles against dev-v2, test-v2, test-v3, test-v4, test-v5,
//! test-v6, test-v7, test-v8 and test-v9. It was written and labelled by
//! someone who had not read the matcher, and committed before any
//! classifier was run on it.

mod labelled;

use labelled::{claims_nothing_else, held_out_and_new};

const TEST: &str = "test-v10.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 160);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v10 -- --ignored
/// --nocapture` prints the figures and every miss; run once, by the lead,
/// after the round's last change.
#[test]
#[ignore = "not yet run: reported once by the lead after the round's last change"]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}
