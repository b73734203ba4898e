//! The equivalence classifier on the seventh held-out set
//! (tests/fixtures/equivalence/test-v7.json): pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets, with new
//! subjects and titles against dev-v2, test-v2, test-v3, test-v4, test-v5
//! and test-v6. Its counts by truth and domain are in the fixture and
//! written here when the set is complete. It was written and labelled by
//! someone who had not read the matcher, and committed before any
//! classifier was run on it.
//!
//! Never tuned to: its figures are printed once, by the lead, after the
//! round's last change; until then the measuring test is ignored.

mod labelled;

use labelled::{claims_nothing_else, held_out_and_new};

const TEST: &str = "test-v7.json";

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
        ],
    );
}

/// Reported, not tuned to: only that nothing else is called `same` or
/// `inverted`. `cargo test -p predmarket-core --test equivalence_v7 --
/// --ignored --nocapture` prints the figures.
#[test]
#[ignore = "not yet run: reported once by the lead after the round's last change"]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}
