//! The equivalence classifier on the ninth held-out set
//! (tests/fixtures/equivalence/test-v9.json): pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets, with new
//! subjects and titles against dev-v2, test-v2, test-v3, test-v4, test-v5,
//! test-v6, test-v7 and test-v8. It was written and labelled by someone
//! who had not read the matcher, and committed before any classifier was
//! run on it.

mod labelled;

use labelled::{claims_nothing_else, held_out_and_new};

const TEST: &str = "test-v9.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(
        TEST,
        160,
        &[
            "dev-v2.json",
            "test-v2.json",
            "test-v3.json",
            "test-v4.json",
            "test-v5.json",
            "test-v6.json",
            "test-v7.json",
            "test-v8.json",
        ],
    );
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v9 -- --ignored
/// --nocapture` prints the figures and every miss; run once, by the lead,
/// after the round's last change.
#[test]
#[ignore = "not yet run: reported once by the lead after the round's last change"]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}
