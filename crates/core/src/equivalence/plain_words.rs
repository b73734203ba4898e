//! Worked examples of words that bear no fact left unaccounted (the
//! seventh round in docs/benchmarks.md), each beside a look-alike that must stay apart: an
//! adverb or "new" one title adds, against an unknown noun one title adds
//! ("services", "host"); the boilerplate of a rules text ("Use the FIX
//! rate", "Friday through Sunday"), against its void branch ("refunded",
//! "postponed") and its estimate ("the actual gross"); overtime stated by
//! one side of a game that cannot end level, against a soccer match; and
//! a player's own team beside an opponent both sides name, against a
//! team named with no opponent or another opponent.

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str, rules: Option<&str>) -> Market {
    worked_market(platform, title, rules, "2027-12-31T23:59:00Z")
}

fn relation(a: (&str, Option<&str>), b: (&str, Option<&str>)) -> Relation {
    classify(&market("polymarket", a.0, a.1), &market("kalshi", b.0, b.1)).relation
}

#[test]
fn an_adverb_or_new_one_title_adds_bears_no_fact() {
    assert_eq!(
        relation(
            ("Will Acme release a new studio album in 2027?", None),
            ("Acme releases a studio album during 2027?", None)
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            ("Will Zedcorp announce Widget 3 before 2028?", None),
            (
                "Widget 3 officially announced by Zedcorp by Dec 31, 2027?",
                None
            )
        ),
        Relation::Same
    );
}

#[test]
fn an_unknown_noun_one_title_adds_may_be_another_question() {
    assert_ne!(
        relation(
            ("ISM Manufacturing PMI above 50 for November 2027?", None),
            (
                "Will the ISM services PMI be above 50 for November 2027?",
                None
            )
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            ("Will Finland win Eurovision 2028?", None),
            ("Will Finland host Eurovision 2028?", None)
        ),
        Relation::Same
    );
    // Both titles adding a plain word each is two predicates.
    assert_ne!(
        relation(
            ("Will Acme release a new album in 2027?", None),
            ("Acme officially releases an album in 2027?", None)
        ),
        Relation::Same
    );
}

#[test]
fn a_rules_texts_boilerplate_bears_no_fact_its_void_branch_does() {
    let title = "Will Acme stock close above $100 on December 31, 2027?";
    let plain = Some("Use the official closing price. Recorded after Friday's session.");
    assert_eq!(relation((title, plain), (title, None)), Relation::Same);
    let void = Some("If trading is halted, the market is refunded.");
    assert_ne!(relation((title, void), (title, None)), Relation::Same);
    let estimate = Some("Resolves on the actual close, not the estimate.");
    assert_ne!(relation((title, estimate), (title, None)), Relation::Same);
    // A name in the rules text is a fact where the other side's rules
    // name another (two publishers); against a side silent on its
    // source it stops nothing since the fifteenth round (the name of a
    // publisher is the rules' boilerplate: docs/benchmarks.md, "Fifteenth
    // round: recall with rules texts").
    let named = Some("Resolves on the close reported by Zedbank Securities.");
    let other = Some("Resolves on the close reported by Yarrow Markets.");
    assert_ne!(relation((title, named), (title, other)), Relation::Same);
}

#[test]
fn overtime_stated_by_one_side_is_what_a_game_without_draws_counts() {
    let rules = Some("Overtime included.");
    assert_eq!(
        relation(
            (
                "Golden State Warriors Moneyline vs LA Clippers (12/24/27)",
                rules
            ),
            ("Will the Warriors beat the Clippers on Dec 24, 2027?", None)
        ),
        Relation::Same
    );
    // A soccer match can end level: the overtime of one side stays a
    // fact the other does not state.
    assert_ne!(
        relation(
            ("Will Acme FC beat Zed United on Dec 24, 2027?", rules),
            ("Will Acme FC beat Zed United on December 24, 2027?", None)
        ),
        Relation::Same
    );
}

#[test]
fn a_players_own_team_beside_the_opponent_both_name_is_the_other_team_of_the_game() {
    let line = "Acme Smith Over 30.5 Points - Lakers vs Nuggets (Dec 10, 2027)";
    assert_eq!(
        relation(
            (line, None),
            ("Acme Smith 31+ points vs Nuggets on Dec 10, 2027?", None)
        ),
        Relation::Same
    );
    // No opponent named on the other side: the team is another fact.
    assert_ne!(
        relation(
            (line, None),
            ("Acme Smith 31+ points on Dec 10, 2027?", None)
        ),
        Relation::Same
    );
    // Another opponent is another game.
    assert_ne!(
        relation(
            (line, None),
            ("Acme Smith 31+ points vs Jazz on Dec 10, 2027?", None)
        ),
        Relation::Same
    );
}
