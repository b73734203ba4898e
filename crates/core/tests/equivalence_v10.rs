//! The equivalence classifier on the tenth held-out set
//! (tests/fixtures/equivalence/test-v10.json): 212 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, run lines, totals, first-half and first-five
//! lines, 60-minute lines, Double Chance, Draw No Bet, Both Teams To
//! Score, player props), with new subjects and titles against
//! dev-v2, test-v2, test-v3, test-v4, test-v5, test-v6, test-v7, test-v8
//! and test-v9, across sports (63), economics (42), politics (37), crypto
//! (31), culture (20), weather (9), science (5) and tech (5). By truth:
//! 75 same, 31 inverted, 23 subset, 10 superset and 73 different, all 73
//! hard negatives (the same entities and dates asking another question:
//! metric 14, subject 13, scope 9, settlement source 8, cutoff 7, stage
//! 6, role 4, antonym 3, time zone 3, band vs tail 2, comparator 2, void
//! branch 2). Same pairs name one question in other words: ordinals and
//! years (Super Bowl LXIII and the 2029 Super Bowl, the 128th U.S. Open,
//! the 70th Grammys, the 80th Emmys), seasons written 2026-27 and
//! 2026/27, tickers and nicknames, a last close of 2028 that falls on
//! December 29, "weaker than 60 per dollar" for USD/TRY above 60,
//! "before March 25" and "by Mar 24", sportsbook notation. It was
//! written and labelled by someone who had not read the matcher, and
//! committed before any classifier was run on it.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v10.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 160);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v10 -- --ignored
/// --nocapture` prints the figures and every miss. Reported by the lead
/// before and after the tenth round (docs/benchmarks.md, "Tenth round:
/// recall"), development data since: its one precision miss ("the 2027
/// Spanish Grand Prix" / "a Grand Prix in 2027" called `same`) was fixed
/// after the second run (`Facts::class_heads`).
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development data
/// (docs/benchmarks.md, "Eleventh round: recall"): floors, so that a
/// later change that loses a right answer shows.
#[test]
fn tenth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.65, 0.77);
}
