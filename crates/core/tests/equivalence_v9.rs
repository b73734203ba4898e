//! The equivalence classifier on the ninth held-out set
//! (tests/fixtures/equivalence/test-v9.json): 212 pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, puck and run lines, totals and team totals,
//! Double Chance, Asian handicaps, Both Teams To Score, listed pitchers,
//! player props), with new subjects and titles against dev-v2, test-v2,
//! test-v3, test-v4, test-v5, test-v6, test-v7 and test-v8, across sports
//! (66), economics (43), politics (31), crypto (27), weather (19),
//! culture (16), science (5) and tech (5). By truth: 80 same, 28
//! inverted, 23 subset, 7 superset and 74 different, all 74 hard
//! negatives (the same entities and dates asking another question: scope
//! 13, metric 10, stage 8, subject 8, cutoff 6, source 6, role 5, void
//! branch 5, comparator 4, antonym 3, band vs tail 3, time zone 3). Same
//! pairs name one question in other words: ordinals and years (the 91st
//! Masters, the 152nd Preakness, the 69th Grammys), tickers and nicknames,
//! a last close of the year that falls on December 30, "stronger than
//! 0.75 per dollar" for USD/CHF below 0.75, "by Dec 31, 2027" and "before
//! 2028", sportsbook notation. It was written and labelled by someone who
//! had not read the matcher, and committed before any classifier was run
//! on it.

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
