//! The equivalence classifier on the fourteenth held-out set
//! (tests/fixtures/equivalence/test-v14.json): 231 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets
//! (Kalshi tickers, "X at Y Winner? Y" legs, "wins by over 6.5 points?"
//! spreads, brackets and "N or above?" weather legs, Polymarket "Will …
//! before 2031?", Limitless slugs with UTC instants, moneylines, spreads,
//! run lines, totals, team totals, player props, Double Chance, Draw No
//! Bet, Both Teams To Score, 60-minute lines, first-half and
//! first-five-innings lines, listed-pitcher lines, outright "To Win" and
//! season-win futures), with new subjects and titles against dev-v2 and
//! test-v2 to test-v13, across sports (69), economics (44), politics
//! (32), crypto (32), culture (23), weather (16), tech (8) and science
//! (7). By truth: 85 same, 33 inverted, 24 subset, 7 superset and 82
//! different, all 82 hard negatives (the same entities and dates asking
//! another question that differs in one fact: metric 12, subject 9,
//! event 9, comparator 6, antonym 5, geography 5, stage 5, band vs tail
//! 4, cutoff 4, period of a game 4, settlement source 4, role 3, time
//! zone 3, void branch 3, award 2, release 2, side of one game 2). Same
//! pairs name one question in other words: ordinals and Roman numerals
//! (Super Bowl LXIV, the 125th World Series, the 93rd Masters, the 116th
//! Tour de France, the XXVI Olympic Winter Games, the 134th Boston
//! Marathon, the 103rd Academy Awards, the 71st Grammys, the 82nd
//! Emmys, the 75th Eurovision, the sixth halving as block 1,260,000 and
//! as a subsidy under 1 BTC), 250 bps and 2.50%, $48 trillion and
//! $48,000,000,000,000, 150K and 150,000, 1.5 billion and 1,500,000,000,
//! "Over 229.5" and "230 or more", "above 110°F" and "111° or above",
//! "more than 19" and "20+", 5pm EST as 22:00 UTC and 4:00 PM ET as 20:00
//! UTC, "before July 1" and "by June 30", the end of FY2030 as September
//! 30, 2030, seasons as 2029/30 and 2030, Roland Garros as the French
//! Open, tickers and short names (SPX, NVDA, AAPL, MSTR, BOJ, BoE, PT,
//! the Union for CDU/CSU, La Roja, Wolves), accents (Åberg, João
//! Fonseca, Pogačar). Inverted pairs are complements in notation
//! (Over/Under, opposite spreads and run lines, Double Chance against
//! the third result, BTTS No, the 60-minute draw against a regulation
//! decision) or by antonym (hold/change, keep/move, contract/grow,
//! avoid/begin, fall short/win, survive/abolish, leave/still, lose/keep,
//! hold/break a peg, red/not down, miss/make, relegated/stay up,
//! lose/win, delayed/released, fail to reach/perform, fail to set/set a
//! record, slip/land). It was written and labelled by someone who had
//! not read the matcher, and committed before any classifier was run on
//! it.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v14.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 200);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v14 -- --nocapture`
/// prints the figures and every miss. Reported by the lead before and
/// after the fourteenth round (docs/benchmarks.md, "Fourteenth round:
/// after the merges": same precision 0.91 then 0.92, inverted 0.88 both
/// times: an over/under pair called `same` and a futures selection called
/// `inverted`), development data since: the two were mended as general
/// readings (`legs.rs`: a capital "NO" before a name is New Orleans's
/// code, the selection after "To Win:" is the side backed).
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development
/// data, after the two precision misses were mended and the fifteenth
/// round's rules-text readings (branch recall18: 0.15 / 0.24 before):
/// floors, so that a later change that loses a right answer shows.
#[test]
fn fourteenth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.49, 0.66);
}
