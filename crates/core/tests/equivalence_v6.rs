//! The equivalence classifier on the sixth held-out set
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
//! Never tuned to: its figures are printed once, by the lead, after the
//! round's last change. Until then the only test that runs checks the
//! set's form and newness; the precision that protects a trader (nothing
//! else called `same` or `inverted`) is ignored until that one run.

mod labelled;

use labelled::{claims_nothing_else, held_out_and_new};

const TEST: &str = "test-v6.json";

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
        ],
    );
}

/// Reported, not tuned to: only that nothing else is called `same` or
/// `inverted`. `cargo test -p predmarket-core --test equivalence_v6 --
/// --nocapture --include-ignored` prints the figures.
#[test]
#[ignore = "not yet run: reported once by the lead after the round's last change"]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}
