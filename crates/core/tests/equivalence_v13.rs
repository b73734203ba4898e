//! The equivalence classifier on the thirteenth held-out set
//! (tests/fixtures/equivalence/test-v13.json): 226 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (Kalshi tickers, "X at Y Winner? Y" legs, brackets and "When will …?
//! Before 2031", Polymarket "Will … by December 31?", moneylines,
//! spreads, puck lines, totals, team totals, Double Chance, Draw No Bet,
//! Both Teams To Score, 60-minute and first-five-innings lines, outright
//! "To Win" futures, player props between two books), with new subjects
//! and titles against dev-v2 and test-v2 to test-v12, across sports (71),
//! economics (46), politics (40), crypto (31), culture (20), weather (10),
//! tech (5) and science (3). By truth: 83 same, 32 inverted, 19 subset,
//! 14 superset and 78 different, all 78 hard negatives (the same entities
//! and dates asking another question that differs in one fact: metric 11,
//! subject 8, geography 7, cutoff 6, settlement source 6, event 6, award
//! 5, comparator 4, period of a game 4, band vs tail 3, stage 3, side of
//! one game 3, antonym 2, role 2, time zone 2, void branch 2, release 1,
//! window 1, direction 1, outcome 1). Same pairs name one question in
//! other words: ordinals and Roman numerals (Super Bowl LXIII and LXV,
//! the 126th World Series, the 143rd Championships, the 95th Masters, the
//! 117th Tour de France, the 113th Indy 500, the Games of the XXXIV
//! Olympiad, the 102nd Academy Awards, the 72nd Grammys, the 81st Emmys,
//! the 74th Eurovision, the 5th halving as block 1,050,000), 425 bps and
//! 4.25%, $45 trillion and $45,000,000,000,000, 150K and 150,000, "Over
//! 224.5" and "225 or more", 5pm EST, noon ET as 12:00 PM EDT and 12:00
//! UTC as 7am EST, "before 2030" and "by December 31, 2029", Independence
//! Day and Thanksgiving 2029, the start of FY2030 as October 1, 2029,
//! seasons as 2029-30 and 2030, tickers ($SOL, BTC.D, NDX, MSTR), driver
//! codes, nicknames (the Habs, the Blue Devils), abbreviations (BoE, UCL,
//! AOTY, TIME POY, UNHCR), accents. Inverted pairs are complements in
//! notation (Over/Under, opposite spreads, Double Chance against the
//! third result, BTTS No, overtime against regulation) or by antonym
//! (hold/change, keep/move, stay/hit, stay/dip, still/out,
//! remain/replaced, abolish/still in place, avoid/begins, depeg/holds,
//! shut out/wins, relegated/stay up, make/miss, lose/win). It was
//! written and labelled by someone who had not read the matcher, and
//! committed before any classifier was run on it. Reported once by the
//! lead, it is development data since: its two `same` precision misses
//! were mended as general rules, each beside look-alikes in
//! `written_otherwise_fourteen.rs`.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v13.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 200);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v13 -- --nocapture`
/// prints the figures and every miss. Reported by the lead before and
/// after the thirteenth round (docs/benchmarks.md, "Thirteenth round:
/// after the merges": same precision 0.93 then 0.90, a look-alike and an
/// inverted pair called `same`), development data since: the two were
/// mended as general rules (`written_otherwise_fourteen.rs`).
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development
/// data (after the two precision misses were mended; the fourteenth
/// round's readings raised same to 0.26, inverted to 0.25):
/// floors, so that a later change that loses a right answer shows.
#[test]
fn thirteenth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.49, 0.50);
}
