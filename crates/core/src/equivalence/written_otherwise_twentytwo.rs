//! Worked examples of the eighteenth round's readings (branch recall22):
//! which outcome is YES where a sportsbook names its two outcomes for a
//! selection and its opposite, the side a selection named alone backs,
//! both teams to score as each team's count, and the time of day of a
//! rules text (its zone in words, a window's end told from a measured
//! instant). Each beside a look-alike that must stay `different` or
//! `unsure`. The `same` and `inverted` of each test fail on the branch
//! point (d68657d), where they were `unsure` or `different`; the
//! look-alikes keep each reading from reaching further.

use super::worked_market::{neither_same_nor_inverted, worked_market};
use super::*;
use crate::models::{Market, Outcome};

const GAME: &str = "2030-02-23T20:00:00Z";

/// A sportsbook's market: its title and its two outcomes, the selection
/// first as the books list it.
fn selection(title: &str, outcomes: [&str; 2]) -> Market {
    let mut m = worked_market("sxbet", title, None, GAME);
    m.outcomes = Some(
        outcomes
            .iter()
            .enumerate()
            .map(|(i, name)| Outcome {
                id: (i + 1).to_string(),
                name: Some((*name).to_owned()),
            })
            .collect(),
    );
    m
}

fn kalshi(title: &str) -> Market {
    worked_market("kalshi", title, None, GAME)
}

#[test]
fn the_selection_a_title_names_is_its_yes_and_a_game_named_alone_says_none() {
    let over = selection(
        "Sevilla vs Real Betis - Total Goals Over 2.5",
        ["Over 2.5", "Under 2.5"],
    );
    let three = kalshi("Sevilla vs Real Betis (Feb 23, 2030): 3 or more goals scored?");
    assert_eq!(classify(&over, &three).relation, Relation::Same);
    let under = selection("Sevilla v Betis Under 2.5 Goals", ["Under 2.5", "Over 2.5"]);
    let c = classify(&under, &three);
    assert_eq!(c.relation, Relation::Inverted);
    // The mapping names the outcome that pays on each side.
    let mapping = c
        .reasons
        .iter()
        .find(|r| r.rule == RuleCode::OutcomeMapping);
    assert_eq!(
        mapping.map(|r| (r.a.as_deref(), r.b.as_deref())),
        Some((Some("Under 2.5"), Some("no")))
    );
    // Both teams named and no side: which one is YES is not read.
    let game = selection("Lakers vs. Celtics", ["Lakers", "Celtics"]);
    let lakers = kalshi("Will the Lakers beat the Celtics on Feb 23, 2030?");
    let c = classify(&game, &lakers);
    assert!(neither_same_nor_inverted(c.relation));
    assert!(c.reasons.iter().any(|r| r.rule == RuleCode::YesSideNamed));
}

#[test]
fn a_selection_named_for_a_side_backs_that_side_whatever_a_verb_seemed_to_back() {
    let sinner = selection(
        "Sinner v Zverev — Match Winner: Sinner",
        ["Jannik Sinner", "Alexander Zverev"],
    );
    let field = selection(
        "FIFA World Cup 2030 - Outright Winner - Portugal",
        ["Portugal", "Field"],
    );
    let spain = kalshi("Will Spain win the 2030 FIFA World Cup?");
    assert!(neither_same_nor_inverted(classify(&field, &spain).relation));
    // "Zverev Moneyline" backs Zverev, not the Sinner the other names:
    // called `same` where the selection's side was not read.
    let zverev = selection(
        "Alexander Zverev Moneyline | Sinner vs Zverev",
        ["Alexander Zverev", "Jannik Sinner"],
    );
    assert!(neither_same_nor_inverted(
        classify(&zverev, &sinner).relation
    ));
    let also_sinner = selection(
        "Jannik Sinner vs Alexander Zverev - Moneyline - Jannik Sinner",
        ["Jannik Sinner", "Alexander Zverev"],
    );
    // Both back Sinner (what else each leaves unsaid is another rule's).
    let c = classify(&sinner, &also_sinner);
    assert!(
        c.reasons
            .iter()
            .any(|r| r.rule == RuleCode::WinnerDiffers && r.finding == Finding::Agrees)
    );
    assert!(c.vetoes.is_empty());
}

#[test]
fn both_teams_to_score_is_no_game_total() {
    let each = kalshi("Will Sevilla and Real Betis each score on February 23, 2030?");
    let over = selection(
        "Sevilla vs Real Betis - Total Goals Over 2.5",
        ["Over 2.5", "Under 2.5"],
    );
    // Each team's goals at least one, not the game's: neither nests in
    // the other (a 3-0 is one, a 1-1 the other).
    let r = classify(&each, &over).relation;
    assert!(neither_same_nor_inverted(r));
    assert!(!matches!(r, Relation::Subset | Relation::Superset));
}

const MARCH: &str = "2031-03-01T17:00:00Z";

#[test]
fn the_zone_of_a_rules_time_in_words_is_read() {
    let rules = Some;
    let et = worked_market(
        "polymarket",
        "Will Ethereum be above $5,000 on March 1, 2031?",
        rules(
            "Resolves Yes if the Binance 1 minute candle for ETH/USDT 12:00 in the ET timezone (noon) on March 1, 2031 closes above 5,000.",
        ),
        MARCH,
    );
    let utc = worked_market(
        "limitless",
        "$ETH above $5,000 on March 1, 2031?",
        rules(
            "Resolves YES if the Binance ETH/USDT 1-minute candle at 12:00 UTC on 2031-03-01 closes above 5000.",
        ),
        MARCH,
    );
    // Noon ET on March 1 is 17:00 UTC: called `same` where the zone in
    // words was not read.
    assert!(neither_same_nor_inverted(classify(&et, &utc).relation));
    let five_pm = worked_market(
        "kalshi",
        "ETH > $5,000 on Mar 1 2031 17:00 UTC?",
        None,
        MARCH,
    );
    assert_eq!(classify(&et, &five_pm).relation, Relation::Same);
}

const JUNE: &str = "2029-06-30T23:59:00Z";

#[test]
fn two_windows_closing_at_one_days_end_close_together_and_a_zone_apart_do_not() {
    let by = worked_market(
        "kalshi",
        "Will Glamsterdam go live on mainnet by June 30, 2029?",
        Some(
            "If the Glamsterdam upgrade activates on mainnet on or before June 30, 2029, 11:59 PM ET, then the market resolves to Yes.",
        ),
        JUNE,
    );
    let before = worked_market(
        "polymarket",
        "Glamsterdam live on mainnet before July 2029?",
        Some(
            "This market will resolve to \"Yes\" if the Glamsterdam upgrade activates on mainnet before July 1, 2029, 12:00 AM ET.",
        ),
        JUNE,
    );
    assert_eq!(classify(&by, &before).relation, Relation::Same);
    // The same day's end in UTC is four hours earlier: another window.
    let utc = worked_market(
        "polymarket",
        "Glamsterdam live on mainnet before July 2029?",
        Some(
            "This market will resolve to \"Yes\" if the Glamsterdam upgrade activates on mainnet before July 1, 2029, 12:00 AM UTC.",
        ),
        JUNE,
    );
    assert!(neither_same_nor_inverted(classify(&by, &utc).relation));
    // A price read at 23:59 is an instant, not a window's end: a minute
    // later is another candle.
    let at = |time: &str| {
        worked_market(
            "polymarket",
            "Will Bitcoin be above $150,000 on June 30, 2029?",
            Some(&format!(
                "Resolves Yes if the Binance BTC/USDT 1 minute candle at {time} on June 30, 2029 closes above 150,000."
            )),
            JUNE,
        )
    };
    assert!(neither_same_nor_inverted(
        classify(&at("11:59 PM UTC"), &at("00:00 UTC")).relation
    ));
}

const MASTERS: &str = "2030-04-12T12:00:00Z";

#[test]
fn a_books_outright_market_is_the_field_winner_and_a_win_outright_is_not() {
    let mut outright = selection(
        "The 94th Masters Tournament - Outright - Xander Schauffele",
        ["Xander Schauffele", "Field"],
    );
    outright.trading_end_at = Some(MASTERS.into());
    let win = worked_market(
        "kalshi",
        "Will Xander Schauffele win the 2030 Masters?",
        None,
        MASTERS,
    );
    // Called `superset` where "Outright" was read as a win in the first
    // round.
    assert_eq!(classify(&outright, &win).relation, Relation::Same);
    // A team that wins the Ryder Cup outright has not merely retained it.
    let cup = |title: &str| worked_market("polymarket", title, None, MASTERS);
    assert!(neither_same_nor_inverted(
        classify(
            &cup("Will Europe win the 2029 Ryder Cup outright?"),
            &cup("Will Europe win the 2029 Ryder Cup?")
        )
        .relation
    ));
}

const ANFIELD: &str = "2029-04-07T14:00:00Z";

#[test]
fn a_books_1x2_is_no_number_and_its_half_time_market_no_full_time_win() {
    let mut full_time = selection(
        "Liverpool vs Aston Villa - 1X2 - Liverpool",
        ["Liverpool", "Not Liverpool (Draw or Aston Villa)"],
    );
    full_time.trading_end_at = Some(ANFIELD.into());
    let win = worked_market(
        "kalshi",
        "Liverpool vs Aston Villa (Apr 7, 2029): Liverpool win?",
        None,
        ANFIELD,
    );
    // Called `unsure` where "Villa - 1X2" was read as a line of -1.
    assert_eq!(classify(&full_time, &win).relation, Relation::Same);
    let mut half_time = selection(
        "Liverpool vs Aston Villa - Half Time 1X2 - Liverpool",
        ["Liverpool", "Not Liverpool (Draw or Aston Villa)"],
    );
    half_time.trading_end_at = Some(ANFIELD.into());
    assert!(neither_same_nor_inverted(
        classify(&half_time, &win).relation
    ));
}
