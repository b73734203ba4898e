//! The equivalence classifier on the sixteenth held-out set
//! (tests/fixtures/equivalence/test-v16.json): 223 pairs worded as
//! Kalshi, Polymarket, Limitless and the sportsbooks word their markets,
//! every market with a rules text in its platform's style (Kalshi "If …,
//! then the market resolves to Yes" with its Source Agency, Polymarket
//! "This market will resolve to "Yes" if … Otherwise …" with its
//! resolution source and 50-50 branch, sportsbook house rules on
//! overtime, regulation only, 90 minutes, listed pitchers and voids,
//! Limitless one-line rules), with new subjects and titles against dev-v2
//! and test-v2 to test-v15, across sports (82), economics (54), politics
//! (27), crypto (23), culture (19), weather (9), science (6) and tech
//! (3). By truth: 80 same, 31 inverted, 20 subset, 9 superset and 83
//! different, all 83 hard negatives (the same entities and dates asking
//! another question that differs in one fact: metric 12, subject 10,
//! settlement source 9, event 6, period 6, role 5, stage 5, award 5,
//! geography 4, antonym 3, release 3, comparator 3, side of one game 3,
//! void branch 3, band vs tail 2, cutoff 2, time zone 2); in seven the
//! deciding fact is only in the rules (a first print against a
//! twice-revised payrolls figure, seasonally adjusted against unadjusted
//! claims, the Treasury curve against a CNBC quote, Central Park against
//! LaGuardia, a listed-pitcher void, 23:59 ET against 23:59 UTC, a prop
//! void against No). Same pairs name one question in other words:
//! ordinals of recurring events (the 103rd Oscars, 72nd Grammys, 73rd
//! Eurovision, 82nd Emmys, 95th Masters, 130th U.S. Open, 156th Kentucky
//! Derby, Super Bowl LXV and 65, the 46th Canadian election, the sixth
//! halving as block 1,260,000), names (INX, U-3, AOTY, UCL, CSK, the
//! Union for CDU/CSU, the MPC and Bank Rate, light sweet crude, Strategy
//! and MicroStrategy, Åberg, João, Tarcísio, Shōgun and Cărtărescu with
//! and without accents), numbers (100 bps and 1.00%, 525 basis points,
//! 150K and 150,000, $2,000,000,000,000, four dollars, 95 cents, Over
//! 231.5 and 232+), dates (noon ET as 16:00 UTC, Labor Day 2029 as
//! September 3, 6/30/2029, FY2030, July-September as Q3, seasons) and
//! sportsbook notation (moneylines, spreads, run and puck lines, totals,
//! team totals, props, 1X2, BTTS, 60-minute lines, outrights). Inverted
//! pairs are complements in notation (Over/Under, opposite spreads and
//! run lines, Double Chance, BTTS No, two moneylines where no tie is
//! possible) or in other words (hold/move, stay under, uninterrupted/
//! shutdown, fail to win, come up short, stay dry/rain, fall short of the
//! record, slip past/launch by, remain/step down, expansion/contraction,
//! up/down year, hold above/dip below, advance/out, clinch/sit out). It
//! was written and labelled by someone who had not read the matcher, and
//! committed before any classifier was run on it.

mod labelled;

use labelled::{claims_nothing_else, development_bar, held_out_and_new};

const TEST: &str = "test-v16.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 200);
}

/// Nothing else called `same` or `inverted` on the held-out set.
/// `cargo test -p predmarket-core --test equivalence_v16 -- --nocapture`
/// prints the figures and every miss. Reported by the lead before and
/// after the sixteenth round (docs/benchmarks.md, "Sixteenth round: after
/// the merges": same recall 0.09 both times, inverted 0.06 both times;
/// same precision 0.78 both times: two subjects compared in either order,
/// and a morning price against an afternoon one in London time),
/// development data since: both were mended as general readings
/// (`ranked.rs`; London time in `read.rs`), and a team's goals read as
/// its count (`totals.rs`), which a market of one selection, no longer
/// gated, had reached.
#[test]
fn held_out_set_calls_nothing_else_same_or_inverted() {
    claims_nothing_else(TEST);
}

/// The recall of `same` and `inverted` reached on it as development data
/// after the mends, and after the eighteenth round (same 0.19, inverted
/// 0.23): floors, so that a later change that loses a right answer
/// shows.
#[test]
fn sixteenth_set_as_development_data_keeps_its_recall() {
    development_bar(TEST, 0.18, 0.22);
}
