//! Worked examples of the fact-complete gate (`unexplained_difference`
//! once subject, quantity, threshold and window agree with no veto): a
//! word one title adds that bears no fact ("wallet", "crypto", "film") no
//! longer stops `same`, each beside a look-alike whose added word bears
//! one of the classes `lexicon/fact_words.rs` lists and must stay apart
//! (a stage short of the title, a component of a measure, a figure in
//! words, a run-off, a sportsbook's kind of market, a fiscal year
//! against the calendar's).

use super::worked_market::worked_market;
use super::*;

fn relation(a: &str, b: &str, close: &str) -> Relation {
    classify(
        &worked_market("kalshi", a, None, close),
        &worked_market("polymarket", b, None, close),
    )
    .relation
}

const END_2028: &str = "2028-12-31T23:59:00Z";

#[test]
fn a_descriptor_one_title_adds_is_no_other_question() {
    let token = "Will Polymarket launch a token before 2029?";
    assert_eq!(
        relation(
            token,
            "Polymarket launches a crypto token by December 31, 2028?",
            END_2028
        ),
        Relation::Same
    );
    // Announcing is not launching.
    assert_ne!(
        relation(
            token,
            "Will Polymarket announce a token before 2029?",
            END_2028
        ),
        Relation::Same
    );
}

#[test]
fn a_stage_or_role_short_of_the_title_stays_apart() {
    let wins = "Will Dune: Part Three win Best Picture at the 2028 Oscars?";
    assert_eq!(
        relation(
            wins,
            "Dune: Part Three wins Best Picture at the 2028 Oscars?",
            END_2028
        ),
        Relation::Same
    );
    for stage in [
        "Dune: Part Three nominated for Best Picture at the 2028 Oscars?",
        "Dune: Part Three a Best Picture nominee at the 2028 Oscars?",
    ] {
        assert_ne!(relation(wins, stage, END_2028), Relation::Same, "{stage}");
    }
    assert_ne!(
        relation(
            "Will Lando Norris win the 2028 British Grand Prix?",
            "Norris podium finish at the 2028 British GP?",
            END_2028
        ),
        Relation::Same
    );
}

#[test]
fn a_component_of_a_measure_stays_apart() {
    assert_ne!(
        relation(
            "UK CPI MoM above 0.3% for April 2028?",
            "UK services CPI MoM above 0.3% for April 2028?",
            END_2028
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Nonfarm payrolls in June 2028 above 175,000?",
            "Will US private payrolls rise by more than 175K in June 2028?",
            END_2028
        ),
        Relation::Same
    );
}

#[test]
fn a_figure_in_words_a_run_off_and_a_kind_of_market_stay_apart() {
    assert_ne!(
        relation(
            "Will 2028 be one of the three warmest years on record (NASA)?",
            "2028 warmest year on record per NASA GISTEMP?",
            END_2028
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Georgia Senate 2028 decided in a runoff?",
            "Georgia Senate winner 2028: Democratic Party?",
            END_2028
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Double Chance: Arsenal or Chelsea — Arsenal v Chelsea (Oct 23, 2028)",
            "Arsenal beats Chelsea on Oct 23, 2028?",
            "2028-10-23T23:59:00Z"
        ),
        Relation::Same
    );
}

#[test]
fn a_fiscal_year_is_its_short_form_not_the_calendars() {
    let fiscal = "Will the US budget deficit top $2 trillion in fiscal 2028?";
    assert_eq!(
        relation(fiscal, "FY2028 U.S. deficit above $2T?", END_2028),
        Relation::Same
    );
    // Both titles add a word: two bases of the year.
    assert_ne!(
        relation(
            fiscal,
            "U.S. federal deficit above $2T in calendar year 2028?",
            END_2028
        ),
        Relation::Same
    );
}

/// "A country other than Sweden win" is Sweden not winning: the gate
/// would let "country, other" through as words bearing no fact, so
/// "other than" is read as the negation it is (`lex/phrases.rs`), found
/// on test-v13 once it was reported.
#[test]
fn other_than_a_name_is_that_name_not_winning() {
    let close = "2031-05-17T22:00:00Z";
    let sweden = "Eurovision 2031 winner: Sweden?";
    assert_eq!(
        relation(
            sweden,
            "Will a country other than Sweden win Eurovision 2031?",
            close
        ),
        Relation::Inverted
    );
    // Another country named is not "anyone but Sweden".
    for other in [
        "Will Norway win Eurovision 2031?",
        "Will a country other than Norway win Eurovision 2031?",
    ] {
        let got = relation(sweden, other, close);
        assert!(
            got != Relation::Same && got != Relation::Inverted,
            "{other}: {got:?}"
        );
    }
}

/// "Junior Eurovision" is another contest than Eurovision: "Junior"
/// leads the capitalized span as a given name would, but a division of a
/// contest is never read as one (`lexicon::names_a_division`), found on
/// test-v13 once it was reported.
#[test]
fn a_division_of_a_contest_is_another_contest() {
    let close = "2030-05-18T22:00:00Z";
    let senior = "Eurovision Song Contest 2030 winner: Sweden?";
    assert_eq!(
        relation(senior, "Will Sweden win Eurovision 2030?", close),
        Relation::Same
    );
    for division in [
        "Will Sweden win Junior Eurovision 2030?",
        "Will Sweden win Youth Eurovision 2030?",
    ] {
        let got = relation(senior, division, close);
        assert!(
            got != Relation::Same && got != Relation::Inverted,
            "{division}: {got:?}"
        );
    }
}
