//! The equivalence classifier on the eighth held-out set
//! (tests/fixtures/equivalence/test-v8.json): 214 pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, totals, Asian handicaps, Double Chance, Draw No
//! Bet, regulation and first-half lines, player props), with new subjects
//! and titles against dev-v2, test-v2, test-v3, test-v4, test-v5, test-v6
//! and test-v7, across sports (65), economics (46), politics (41), crypto
//! (28), culture (17) and weather, science and tech (17). By truth: 72
//! same, 30 inverted, 27 subset, 6 superset and 79 different, all 79 hard
//! negatives (the same entities and dates asking another question: metric
//! 11, scope 11, subject 10, stage 8, cutoff 8, source 7, antonym 5,
//! comparator 5, role 4, band vs tail 4, time zone 3, void branch 3).
//! Same pairs name one question in other words: ordinals and years,
//! tickers, names in another order, a currency quoted the other way round,
//! "by June 30" and "before July", sportsbook notation. It was written and
//! labelled by someone who had not read the matcher, and committed before
//! any classifier was run on it.
//!
//! Never tuned to: its figures are printed once, by the lead, after the
//! round's last change; until then the measuring test is ignored.

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
