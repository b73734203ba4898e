//! The equivalence classifier on the seventh held-out set
//! (tests/fixtures/equivalence/test-v7.json): 233 pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, run and puck lines, totals, Asian handicaps,
//! Double Chance, Draw No Bet, 60-minute lines, player props), with new
//! subjects and titles against dev-v2, test-v2, test-v3, test-v4, test-v5
//! and test-v6, across sports (74), economics (45), politics (43), crypto
//! (30), culture (21) and weather, science and tech (20). By truth: 84
//! same, 32 inverted, 24 subset, 10 superset and 83 different, all 83 hard
//! negatives (the same entities and dates asking another question: cutoff
//! 13, scope 14, subject 14, metric 9, source 8, stage 7, role 6, antonym
//! 4, void branch 4, comparator 2, time zone 2). Same pairs name one
//! question in other words: ordinals and years, tickers, a currency quoted
//! the other way round, a threshold restated at the published precision,
//! an instant in another time zone, sportsbook notation. It was written
//! and labelled by someone who had not read the matcher, and committed
//! before any classifier was run on it.
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
