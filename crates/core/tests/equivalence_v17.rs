//! The equivalence classifier on the seventeenth held-out set
//! (tests/fixtures/equivalence/test-v17.json): 222 pairs worded as the
//! seven platforms the service aggregates word their markets (Kalshi,
//! Polymarket, Limitless, Manifold, and the sports exchanges ProphetX,
//! Novig and SX.bet), each market carrying only the fields its platform
//! fills on the wire (Kalshi tickers, event and series tickers and rules
//! with their Source Agency and no resolution_source; Polymarket condition
//! ids, event slugs, descriptions, resolutionSource and clobTokenIds;
//! Limitless slugs and one-line oracle rules; Manifold creator
//! descriptions; one selection per sportsbook market, its opposite as the
//! second outcome, house rules on overtime, regulation, ties,
//! retirements, listed players and voids), with new subjects and titles
//! against dev-v2 and test-v2 to test-v16, across sports (93), economics
//! (48), politics (25), crypto (20), culture (18), weather (8), science
//! (5) and tech (5). By truth: 79 same, 30 inverted, 21 subset, 11
//! superset and 81 different, all 81 hard negatives (the same entities
//! and dates asking another question that differs in one fact: metric
//! 17, source 10, award 9, stage 8, period 6, void branch 5, subject 4,
//! antonym 3, event 3, geography 3, revision 3, comparator 2, cutoff 2,
//! role 2, time zone 2, band vs tail 1, side of one game 1); in six the
//! deciding fact is only in the rules (an NFL tie resolving No against a
//! void, overtime against regulation only, a retirement paying the player
//! who advances against a void, a prop void against No, 12:00 ET against
//! 12:00 UTC, the NWS daily maximum against hourly readings). Same pairs
//! name one question in other words: ordinals of recurring events (the
//! 102nd Academy Awards, 73rd Grammys, 81st Emmys, 74th Eurovision, 94th
//! Masters, 149th US Open, 125th World Series, the 22nd IPL, Super Bowl
//! LXIV as the 2030 Pro Football Championship, the Games of the XXXIV
//! Olympiad), names (SPX, DJIA, BTC.D, $SOL, PIA, LEC, SGA, TLOU, MI, the
//! Springboks, the Magpies, Internazionale and the Scudetto, BoJ and BOJ,
//! Zweitstimmen, Pogačar with and without the caron), numbers (375 basis
//! points and 3.75%, 150K and 150,000, 233 of 465 seats, 272 of 543,
//! $1 billion and 1,000,000,000 USD, five thousand dollars, ninety
//! dollars, Over 44.5 and 45+, 19.5 named storms and 20), dates
//! (April-June as Q2, July-September as Q3, FY30 as July 2029-June 2030,
//! Independence Day, 9/30/2030, 'before July' as 'by June 30', the
//! 2029-30 season as 2030) and sportsbook notation (1X2, Double Chance,
//! BTTS, Asian handicaps, spreads, run and puck lines, totals, team
//! totals, props, outrights). Inverted pairs are complements in notation
//! (Over/Under, opposite spreads, the two sides of a game that cannot be
//! tied, Double Chance against a win, Ryder Cup points) or in other words
//! (refrain from raising/raise, hold/change, keep/lose, remain/out,
//! runoff/outright, avoid relegation/relegated, make/miss, holds/dips,
//! stays outside/rejoins, still private/IPO, miss/release, fails to
//! win/wins). It was written and labelled by someone who had not read the
//! matcher, and committed before any classifier was run on it.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v17.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 200);
}

/// Nothing else called `same` or `inverted` on the set.
/// `cargo test -p predmarket-core --test equivalence_v17 -- --nocapture`
/// prints the figures and every miss. Reported once by the lead at the
/// end of session 26, on main at f61494c (docs/benchmarks.md,
/// "Seventeenth round: test-v17 before": same precision 0.88 (14/16),
/// recall 0.18; inverted precision 1.00 (5/5), recall 0.17), and
/// development data since session 27, whose held-out figure is the
/// eighteenth set's. Its two wrong `same` were mended in the eighteenth
/// round: a headliner against any performer (a role at an event, the
/// qualifiers' table), noon in New York against noon UTC said only in
/// the rules (a rules time's zone in words, `read.rs`).
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development data
/// after the eighteenth round (same 0.38, inverted 0.33): floors, so that
/// a later change that loses a right answer shows.
#[test]
fn seventeenth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.37, 0.33);
}
