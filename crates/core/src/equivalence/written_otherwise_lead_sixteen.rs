//! Worked examples of the lead's mends after the sixteenth round's
//! held-out run: two subjects compared in either order, a price fixed at
//! two times of one day in London time, and a sportsbook market of one
//! selection. Each new wording beside a
//! look-alike that must stay `different` or `unsure`; the assertions
//! marked "fails without" fail on the commit before the mend.

use super::worked_market::{neither_same_nor_inverted, worked_market};
use super::*;

fn relation(a: (&str, Option<&str>), b: (&str, Option<&str>)) -> Relation {
    classify(
        &worked_market("polymarket", a.0, a.1, YEAR_END),
        &worked_market("kalshi", b.0, b.1, YEAR_END),
    )
    .relation
}

const YEAR_END: &str = "2031-12-31T21:00:00Z";

#[test]
fn two_subjects_compared_the_other_way_round_are_complements_only_with_the_other_tie() {
    let at_least = (
        "Toyota worth at least as much as Tesla on Dec 31, 2031?",
        None,
    );
    let more = (
        "Will Tesla be worth more than Toyota on December 31, 2031?",
        None,
    );
    // Fails without the reading (`same`): the order of the subjects was
    // not read.
    assert_eq!(relation(at_least, more), Relation::Inverted);
    // Both strict, each the other way round: a tie is NO on both, so
    // the two are not complements, and not one question either.
    let toyota_more = (
        "Will Toyota be worth more than Tesla on December 31, 2031?",
        None,
    );
    assert!(neither_same_nor_inverted(relation(toyota_more, more)));
    // One subject put higher on both, the tie YES on one only.
    assert!(neither_same_nor_inverted(relation(at_least, toyota_more)));
}

#[test]
fn a_price_fixed_in_the_london_morning_is_not_the_afternoon_fixing() {
    let pm = (
        "Will the LBMA afternoon gold price exceed $6,000 an ounce on June 27, 2031?",
        Some(
            "This market will resolve to \"Yes\" if the LBMA Gold Price set in the afternoon (3:00 PM London) auction on June 27, 2031 is greater than $6,000 per troy ounce. Otherwise, this market will resolve to \"No\". Resolution source: lbma.org.uk.",
        ),
    );
    let am = (
        "LBMA gold AM price above $6,000 on June 27, 2031?",
        Some(
            "Resolves YES if the LBMA Gold Price AM (10:30 AM London auction) on June 27, 2031 is above $6,000/oz. NO otherwise.",
        ),
    );
    // Holds without the zone too (here other words keep the two apart);
    // the times read below fail without it.
    assert!(neither_same_nor_inverted(relation(pm, am)));
    // 3:00 PM London in June is 14:00 UTC (British Summer Time) and
    // 3:00 PM London in January is 15:00 UTC.
    let june = super::facts::Facts::of_text("price at 3:00 PM London on June 27, 2031", None);
    assert_eq!(june.time_of_day, Some(14 * 60));
    let january = super::facts::Facts::of_text("price at 3:00 PM London on January 27, 2031", None);
    assert_eq!(january.time_of_day, Some(15 * 60));
}

#[test]
fn a_market_of_one_selection_backs_it_and_the_other_teams_selection_stays_apart() {
    use crate::models::Outcome;
    const GAME_DAY: &str = "2031-01-16T05:30:00Z";
    let selection = |title: &str, name: &str| {
        let mut m = worked_market("draftkings", title, None, GAME_DAY);
        m.outcomes = Some(vec![Outcome {
            id: "1".into(),
            name: Some(name.into()),
        }]);
        m
    };
    let leg = worked_market("kalshi", "Denver at Utah Winner? Utah", None, GAME_DAY);
    let utah = selection("Nuggets @ Jazz - Moneyline: Utah Jazz", "UTA Jazz");
    let denver = selection("Nuggets @ Jazz - Moneyline: Denver Nuggets", "DEN Nuggets");
    // Fails without the reading: the gate closed on "which one is YES is
    // not said".
    let backed = classify(&leg, &utah);
    assert!(
        backed
            .reasons
            .iter()
            .all(|r| r.rule != RuleCode::YesSideNamed),
        "{:?}",
        backed.reasons
    );
    assert_ne!(backed.relation, Relation::Different, "{:?}", backed.reasons);
    // The other team's selection is never the same question.
    assert_ne!(classify(&leg, &denver).relation, Relation::Same);
}
