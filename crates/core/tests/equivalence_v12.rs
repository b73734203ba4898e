//! The equivalence classifier on the twelfth held-out set
//! (tests/fixtures/equivalence/test-v12.json): 216 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (Kalshi tickers and "X: Y?" legs, Polymarket "Will … by June 30?",
//! moneylines, spreads, run and puck lines, totals, team totals,
//! first-half, first-five and regulation lines, Double Chance, Draw No
//! Bet, Both Teams To Score, player props), with new subjects and titles
//! against dev-v2 and test-v2 to test-v11, across sports (58), economics
//! (48), politics (42), crypto (34), culture (18), weather (9), tech (5)
//! and science (2). By truth: 73 same, 33 inverted, 21 subset, 11
//! superset and 78 different, all 78 hard negatives (the same entities
//! and dates asking another question that differs in one fact: metric 13,
//! subject 12, stage 7, geography 5, cutoff 5, settlement source 5,
//! comparator 4, antonym 4, period of a game 4, event 4, time zone 3,
//! role 3, band vs tail 2, void branch 2, award 2, window 1, release 1,
//! threshold 1). Same pairs name one question in other words: ordinals
//! and Roman numerals (Super Bowl LXIV, the 94th Masters, the 116th Tour
//! de France, the 142nd Wimbledon, the 125th World Series, the XXVI
//! Olympic Winter Games, the 101st Academy Awards, the 71st Grammys, the
//! 73rd Eurovision), 375 bps and 3.75%, $6,000,000,000,000 and $6
//! trillion, more than 150 and 151 or more, 5pm EST as 22:00 UTC and
//! 7pm EST on one day as midnight UTC on the next, fiscal years spelled
//! out, "before July" and "by June 30", tickers, driver codes,
//! nicknames, accents and name order, sportsbook notation. Inverted
//! pairs are complements in notation (Under/Over, opposite spreads,
//! Double Chance against the third result, BTTS No) or by antonym
//! (hold/change, remain/leave, keep/take, dip/stay, make/miss,
//! relegated/stay up, win/lose, shrink). It was written and labelled by
//! someone who had not read the matcher, and committed before any
//! classifier was run on it. Reported once by the lead, it is
//! development data since: its three `same` precision misses were
//! mended as general rules, each beside look-alikes in
//! `written_otherwise_thirteen.rs`.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v12.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 200);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v12 -- --nocapture`
/// prints the figures and every miss. Reported by the lead before and
/// after the twelfth round (docs/benchmarks.md, "Twelfth round: recall":
/// same precision 0.85 then 0.86, three sports pairs called `same`),
/// development data since: the three were mended as general rules
/// ("Twelfth round: after the merges").
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development
/// data (after the three precision misses were mended,
/// docs/benchmarks.md): floors, so that a later change that loses a
/// right answer shows.
#[test]
fn twelfth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.52, 0.60);
}
