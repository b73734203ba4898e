//! Worked examples of the fifteenth round's readings of rules texts
//! (`facts/rules_facts.rs`, `rules/unexplained/rules_text.rs`): words of
//! one side's rules that carry no fact stop nothing once every title
//! fact agrees, and the facts rules texts carry are read and compared
//! instead of their words. Each reading beside a look-alike that must
//! stay `unsure` (or `different`) and that the open form alone (any
//! rules word passes) would call `same`: a first print against a
//! revision, a delisting that resolves No against one that refunds, two
//! price venues, a seasonal window against a calendar year, a survey
//! written with "non-".

use super::worked_market::worked_market;
use super::*;

const CLOSE: &str = "2031-06-30T23:59:00Z";

fn relation(a: (&str, Option<&str>), b: (&str, Option<&str>)) -> Relation {
    classify(
        &worked_market("kalshi", a.0, a.1, CLOSE),
        &worked_market("polymarket", b.0, b.1, CLOSE),
    )
    .relation
}

fn not_equal(r: Relation) -> bool {
    !matches!(r, Relation::Same | Relation::Inverted)
}

const JOBS: &str = "Nonfarm payrolls in May 2031 above 150,000?";
const JOBS_ASKED: &str = "Will the US economy add more than 150K jobs in May 2031?";

#[test]
fn boilerplate_of_one_sides_rules_stops_nothing() {
    let kalshi = Some(
        "If the change in total nonfarm payroll employment for May 2031 in the BLS's \
         first release is above 150,000, then the market resolves to Yes.",
    );
    assert_eq!(relation((JOBS, kalshi), (JOBS_ASKED, None)), Relation::Same);
}

#[test]
fn a_first_print_against_a_revision_stays_apart() {
    let first = Some("Resolves on the first release of the May 2031 figure.");
    let revised =
        Some("Resolves on the May 2031 figure as revised in the following month's release.");
    assert!(not_equal(relation((JOBS, first), (JOBS_ASKED, revised))));
    // A later print stated on one side only is not what a silent side
    // settles on.
    assert!(not_equal(relation((JOBS, None), (JOBS_ASKED, revised))));
    // Two first prints in other words agree; the revision set aside
    // ("later revisions are ignored") is no revision.
    let initial = Some(
        "Resolves Yes if the initial Employment Situation report shows a gain greater than \
         150K. Later revisions are ignored.",
    );
    assert_eq!(
        relation((JOBS, first), (JOBS_ASKED, initial)),
        Relation::Same
    );
}

const WIF: &str = "dogwifhat above $5 on June 30, 2031?";
const WIF_ASKED: &str = "Will WIF be above $5.00 on Jun 30, 2031?";

#[test]
fn void_branches_are_compared_by_what_they_resolve_to() {
    let no = Some(
        "Resolves on the Binance WIF/USDT close on June 30, 2031. If the pair is delisted \
         before then, this market resolves No.",
    );
    let refund = Some(
        "Resolves on the Binance WIF/USDT close on June 30, 2031. If Binance delists the \
         pair before then, the market is cancelled and all positions are refunded.",
    );
    assert!(not_equal(relation((WIF, no), (WIF_ASKED, refund))));
    // One side's branch against a side silent on it.
    let plain = Some("Resolves on the Binance WIF/USDT close on June 30, 2031.");
    assert!(not_equal(relation((WIF, plain), (WIF_ASKED, refund))));
    // Two branches that settle alike, in other words.
    let no_too = Some(
        "Resolves on the Binance WIF/USDT close on June 30, 2031. Should Binance delist \
         the pair first, the market resolves to No.",
    );
    assert_eq!(relation((WIF, no), (WIF_ASKED, no_too)), Relation::Same);
}

#[test]
fn two_price_venues_stay_apart() {
    let btc = "Bitcoin above $250,000 on June 30, 2031?";
    let asked = "Will BTC be above $250K on Jun 30, 2031?";
    let binance = Some("Resolves on the Binance BTC/USDT 1-minute candle close.");
    let coinbase = Some("Resolves on the Coinbase BTC-USD 1-minute candle close.");
    assert!(not_equal(relation((btc, binance), (asked, coinbase))));
    // A venue against a side silent on its source: read on any.
    assert_eq!(relation((btc, binance), (asked, None)), Relation::Same);
}

#[test]
fn a_seasonal_window_in_the_rules_is_a_fact() {
    let calendar = "Central Park snowfall above 30 inches in 2031?";
    let season = "Will Central Park get more than 30 inches of snow in 2031?";
    let seasonal =
        Some("Resolves on the seasonal snowfall (July 1, 2030 to June 30, 2031) at Central Park.");
    assert!(not_equal(relation((calendar, None), (season, seasonal))));
}

#[test]
fn a_figure_annualized_in_one_sides_rules_is_another_figure() {
    let uk = "Will UK real GDP growth be above 0.5% in Q3 2031?";
    let rules = Some("Resolves on the annualized growth rate of real GDP for Q3 2031.");
    assert!(not_equal(relation(
        (uk, None),
        ("UK Q3 2031 real GDP growth above 0.5%?", rules)
    )));
}

#[test]
fn a_survey_written_with_non_is_another_survey() {
    let non = "China official non-manufacturing PMI above 50 in March 2031?";
    let manufacturing = "Will China's official manufacturing PMI be above 50 in March 2031?";
    let rules = Some(
        "Resolves on the manufacturing PMI for March 2031 published by the National Bureau \
         of Statistics of China.",
    );
    assert!(not_equal(relation((non, None), (manufacturing, rules))));
}

#[test]
fn a_source_named_in_the_rules_leaves_no_risk() {
    let a = worked_market(
        "kalshi",
        JOBS,
        Some("Source Agency is the Bureau of Labor Statistics."),
        CLOSE,
    );
    let b = worked_market(
        "polymarket",
        JOBS_ASKED,
        Some("The resolution source will be the BLS Employment Situation report."),
        CLOSE,
    );
    let c = classify(&a, &b);
    assert!(!c.disagreements.contains(&Field::ResolutionSource));
    let silent = worked_market("polymarket", JOBS_ASKED, None, CLOSE);
    assert!(
        classify(&a, &silent)
            .disagreements
            .contains(&Field::ResolutionSource)
    );
}

const PHOENIX: &str = "Will Phoenix hit above 110°F on July 15, 2031?";
const PHOENIX_ASKED: &str = "Highest temperature in Phoenix on Jul 15, 2031: above 110°?";

#[test]
fn a_name_and_its_initials_are_one_publisher() {
    let initials = Some("Resolves on the maximum temperature in the NWS Daily Climate Report.");
    let spelled = Some(
        "Resolves on the highest temperature per the National Weather Service's Daily \
         Climate Report.",
    );
    assert_eq!(
        relation((PHOENIX, initials), (PHOENIX_ASKED, spelled)),
        Relation::Same
    );
    // Two letters stand for a whole name only: "NY" is "New York".
    let new_york = Some("Resolves on the NWS climate report for Central Park, New York.");
    let ny = Some("Resolves on the National Weather Service report for Central Park, NY.");
    let jersey = Some("Resolves on the National Weather Service report for Central Park, NJ.");
    assert_eq!(
        relation((PHOENIX, new_york), (PHOENIX_ASKED, ny)),
        Relation::Same
    );
    assert!(not_equal(relation(
        (PHOENIX, new_york),
        (PHOENIX_ASKED, jersey)
    )));
    // Initials of another name: two publishers.
    let other = Some("Resolves on the maximum temperature in the NHC Daily Climate Report.");
    assert!(not_equal(relation(
        (PHOENIX, other),
        (PHOENIX_ASKED, spelled)
    )));
}

#[test]
fn a_pair_written_joined_is_the_pair_written_apart() {
    let eth = "Will Ethereum hit $10,000 before 2032?";
    let asked = "$ETH reaches 10k by Dec 31, 2031?";
    let apart =
        Some("Resolves Yes if any 1-minute candle of Binance ETH/USDT has a high of $10,000.");
    let joined = Some("Yes if the Binance ETHUSDT 1-minute candle high reaches 10,000.");
    assert_eq!(relation((eth, apart), (asked, joined)), Relation::Same);
    // Another quote currency: another price.
    let usdc = Some("Yes if the Binance ETHUSDC 1-minute candle high reaches 10,000.");
    assert!(not_equal(relation((eth, apart), (asked, usdc))));
}

#[test]
fn a_sportsbooks_ml_is_its_moneyline() {
    let game = "2031-05-05T03:00:00Z";
    let pair = |a: &str, b: &str| {
        classify(
            &worked_market("draftkings", a, None, game),
            &worked_market("kalshi", b, None, game),
        )
        .relation
    };
    let ml = "Kansas City Royals ML @ Minnesota Twins (5/4/2031)";
    assert_eq!(
        pair(ml, "Will the Royals beat the Twins on May 4, 2031?"),
        Relation::Same
    );
    // The first five innings' moneyline is another bet.
    assert!(not_equal(pair(
        ml,
        "Kansas City Royals First 5 Innings Moneyline @ Minnesota Twins (5/4/2031)"
    )));
}
