//! The equivalence classifier on the fifteenth held-out set
//! (tests/fixtures/equivalence/test-v15.json): 240 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets,
//! every market with a rules text in its platform's style (Kalshi "If …,
//! then the market resolves to Yes" with its Source Agency, Polymarket
//! "This market will resolve to "Yes" if … Otherwise …" with its
//! resolution source, sportsbook house rules on overtime, 90 minutes,
//! voids and listed pitchers, Limitless one-line oracle rules), with new
//! subjects and titles against dev-v2 and test-v2 to test-v14, across
//! sports (85), economics (53), politics (36), crypto (28), culture (20),
//! weather (11), tech (4) and science (3). By truth: 83 same, 33
//! inverted, 29 subset, 13 superset and 82 different, all 82 hard
//! negatives (the same entities and dates asking another question that
//! differs in one fact: metric 17, settlement source 11, stage 10,
//! subject 7, period 6, geography 4, award 4, event 4, role 3, void
//! branch 3, threshold 2, antonym 2, time zone 2, band vs tail 2, side
//! of one game 2, cutoff 2, direction 1); in several the deciding fact is
//! only in the rules (a station, an advance estimate against a third,
//! EIA against AAA, NOAA against NASA, a prop void against No when the
//! player sits, CF Benchmarks against Binance, 11:59 PM ET against 23:59
//! UTC). Same
//! pairs name one question in other words: Kalshi ladders and legs
//! ("CPI year-over-year in April 2030? Above 3.1%", "X at Y Winner? Y",
//! "wins by over 3.5 points?") against Polymarket questions ("hotter
//! than 3.1%", "keep interest rates where they are") and sportsbook
//! notation (3-way moneylines, spreads, run lines, totals, team totals,
//! props, BTTS, Asian Handicap 0.0 against Draw No Bet, a regulation draw
//! against "goes to overtime", outrights); numbers written otherwise
//! (375 bps and 3.75%, 175K and 175,000, $46 trillion written out,
//! $1.5B and $1,500,000,000, "a quarter million dollars", "triple
//! digits", 4.9% or more and above 4.8%, 45.0% and above 44.9%, 300+ and
//! above 299, Over 24.5 and 25+); dates written otherwise (Independence
//! Day, Valentine's Day at 10 AM ET as 15:00 UTC, noon ET as 16:00 UTC,
//! "before July 1" and "by June 30", "before 2031" and "by December 31,
//! 2030", the end of FY2030 as September 30, 2030, seasons as 2029-30
//! and 2030); names written otherwise (Super Bowl LXVI and 66, the 102nd
//! Academy Awards, the 73rd Grammys, the 83rd Emmys, the 76th
//! Eurovision, the 158th Open as the British Open, the 113th PGA
//! Championship, the Fall Classic, the fifth halving as block 1,050,000
//! and as a 1.5625 BTC subsidy, SPX, 10Y, WTI as US crude, MSFT, VER,
//! MI, ALP, the Cougars, USWNT, UNHCR as the UN Refugee Agency,
//! Rassemblement National as National Rally, Bayern München, Dončić,
//! Mbappé). Inverted
//! pairs are complements in notation (Over/Under, opposite spreads, run
//! and puck lines, Double Chance against the third result, BTTS No,
//! decided in regulation against overtime, Under 10.5 wins against 11 or
//! more) or in other words (move/hold, hold or cut/raise, shrink/0.0% or
//! above, stay under/above, at or below/above, still/leave, avert/begin,
//! depeg/holds, stay under/hit, relegated/survives, miss/make, scrap/
//! keep, below parity/stays at or above, empty-handed/wins one, green/
//! white Christmas, beat/miss, new/survives, fall short/reach, split/
//! same film). It was written and labelled by someone who had not read
//! the matcher, and committed before any classifier was run on it.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v15.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 200);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v15 -- --nocapture`
/// prints the figures and every miss. Reported by the lead before and
/// after the fifteenth round (docs/benchmarks.md, "Fifteenth round: after
/// the merges": same recall 0.00 then 0.27, inverted 0.03 then 0.21; same
/// precision 0.96 after, one hard negative called `same`: an initial print
/// against the second revision, each rules text naming the vintage it does
/// not use), development data since: that one was mended as a general
/// reading (`facts/rules_facts.rs`: a sentence that says a vintage is "not
/// considered" or "excluded" sets it aside).
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development data
/// after the mend: floors, so that a later change that loses a right
/// answer shows.
#[test]
fn fifteenth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.40, 0.33);
}
