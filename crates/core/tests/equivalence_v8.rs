//! The equivalence classifier on the eighth held-out set
//! (tests/fixtures/equivalence/test-v8.json): COUNTS_PLACEHOLDER
//! It was written and labelled by someone who had not read the matcher,
//! and committed before any classifier was run on it.

mod labelled;

use labelled::{claims_nothing_else, held_out_and_new};

const TEST: &str = "test-v8.json";

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
        ],
    );
}

/// Nothing else called `same` or `inverted` on the set nobody tuned to.
/// Reported once, by the lead, after the round's last change:
/// `cargo test -p predmarket-core --test equivalence_v8 -- --ignored
/// --nocapture` prints the confusion table and every miss.
#[test]
#[ignore = "not yet run: reported once by the lead after the round's last change"]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}
