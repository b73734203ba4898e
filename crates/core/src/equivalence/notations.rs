//! Worked examples of one figure or day written in another notation
//! (the seventh round in docs/benchmarks.md), each beside a look-alike that must stay
//! apart: a year's last close against its last trading day (on an
//! exchange closed on December 31 or not), a sportsbook's "N+" against
//! a half-point line on any counted noun, and a name that begins with
//! digits ("49ers") read as a name, not as a line or a count.

use super::facts::Facts;
use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str) -> Market {
    worked_market(platform, title, None, "2027-12-31T23:59:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    classify(&market("kalshi", a), &market("polymarket", b)).relation
}

#[test]
fn a_years_last_close_is_its_last_trading_day_on_the_exchange_named() {
    // KRX does not trade on December 31: its year ends on the 30th.
    let kospi = "KOSPI year-end 2027 close above 5,000?";
    assert_eq!(
        relation(
            "Will the KOSPI close above 5,000 on December 30, 2027?",
            kospi
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will the KOSPI close above 5,000 on December 29, 2027?",
            kospi
        ),
        Relation::Same
    );
    // New York trades on December 31, 2027 (a Friday): the 30th is
    // another day.
    let spx = "S&P 500 year-end 2027 close above 5,000?";
    assert_ne!(
        relation(
            "Will the S&P 500 close above 5,000 on December 30, 2027?",
            spx
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will the S&P 500 close above 5,000 on December 31, 2027?",
            spx
        ),
        Relation::Same
    );
}

#[test]
fn n_plus_is_a_count_whatever_noun_it_counts() {
    let over = "Acme Smith Over 4.5 Made Threes vs Zed Comets (Dec 24, 2027)";
    assert_eq!(
        relation(
            over,
            "Acme Smith 5+ Threes Made vs Zed Comets (Dec 24, 2027)"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            over,
            "Acme Smith 6+ Threes Made vs Zed Comets (Dec 24, 2027)"
        ),
        Relation::Same
    );
    // A price is no count: "$5+" has a unit.
    assert_ne!(
        relation(
            "Acme stock above $4.5 on Dec 24, 2027?",
            "Acme stock $5+ on Dec 24, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn a_name_that_begins_with_digits_is_a_name() {
    let facts = Facts::of_text(
        "Over 45.5 Total Points - 49ers @ Seahawks (Oct 10, 2027)",
        None,
    );
    assert!(facts.numbers.is_empty(), "{:?}", facts.numbers);
    assert!(facts.entities.iter().any(|e| e.contains("49ers")));
    assert_eq!(
        relation(
            "Over 45.5 Total Points - 49ers @ Seahawks (Oct 10, 2027)",
            "49ers vs Seahawks: 46+ total points on Oct 10, 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Over 45.5 Total Points - 49ers @ Seahawks (Oct 10, 2027)",
            "49ers vs Seahawks: 47+ total points on Oct 10, 2027?"
        ),
        Relation::Same
    );
    // A unit glued to its number stays a number.
    let speed = Facts::of_text("Wind gusts above 100mph on Oct 10, 2027?", None);
    assert_eq!(speed.threshold.map(|t| t.value), Some(100.0));
}
