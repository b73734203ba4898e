//! Worked examples of the classifier: pairs a person would judge the same
//! way, look-alikes that differ only in a date or a threshold, and the
//! candidate search.

use super::*;
use crate::models::{MarketType, PlatformId};

fn market(id: &str, platform: &str, title: &str, close: &str) -> Market {
    let mut m = Market::new(id.to_owned());
    m.platform = Some(PlatformId::from(platform));
    m.title = Some(title.to_owned());
    m.trading_end_at = Some(close.to_owned());
    m.resolution_source = Some("Exchange reference rate".into());
    m
}

fn relation(a: &Market, b: &Market) -> Relation {
    classify(a, b).relation
}

fn field(c: &Classification, f: Field) -> &Reason {
    c.reasons
        .iter()
        .find(|r| r.field == f)
        .unwrap_or_else(|| panic!("no {f:?} reason in {c:#?}"))
}

const CLOSE: &str = "2026-03-03T00:00:00Z";

#[test]
fn reworded_threshold_question_is_same() {
    let a = market(
        "a",
        "platform_a",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    let b = market(
        "b",
        "platform_c",
        "Will BTC close above $95k on Mar 3, 2026?",
        CLOSE,
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Same, "{c:#?}");
    assert_eq!(c.outcome_mapping, Some(OutcomeMapping::YesYes));
    assert!(c.is_firm());
    let t = field(&c, Field::Threshold);
    assert_eq!(t.a.as_deref(), Some("above $95000"));
    assert_eq!(t.b.as_deref(), Some("above $95000"));
    assert_eq!(field(&c, Field::Date).a.as_deref(), Some("2026-03-03"));
}

#[test]
fn complementary_threshold_is_inverted() {
    // "above 95,000" is YES exactly when "at or below 95,000" is NO.
    let a = market(
        "a",
        "platform_a",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    let b = market(
        "b",
        "platform_d",
        "Bitcoin at or below $95,000 on March 3, 2026?",
        CLOSE,
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Inverted, "{c:#?}");
    assert_eq!(c.outcome_mapping, Some(OutcomeMapping::YesNo));
    assert!(c.is_firm());
    // "below" leaves the boundary value NO on both: not complements, two
    // questions (a trader holding YES on both loses both at $95,000).
    let b = market(
        "b",
        "platform_d",
        "Bitcoin below $95,000 on March 3?",
        CLOSE,
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Different, "{c:#?}");
    assert_eq!(c.vetoes, [RuleCode::ComparatorDiffers]);
    // A count below and above one half-point line leaves no boundary.
    let over = market(
        "a",
        "platform_a",
        "Lakers vs Celtics over 220.5 points on March 3?",
        CLOSE,
    );
    let under = market(
        "b",
        "platform_d",
        "Lakers vs Celtics under 220.5 points on March 3, 2026?",
        CLOSE,
    );
    assert_eq!(classify(&over, &under).relation, Relation::Inverted);
}

#[test]
fn negated_question_is_inverted() {
    let close = "2026-06-01T00:00:00Z";
    let a = market(
        "a",
        "platform_c",
        "Will Acme Robotics release a humanoid robot before June 1, 2026?",
        close,
    );
    let b = market(
        "b",
        "platform_e",
        "Acme Robotics will not launch a humanoid robot before June 1?",
        close,
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Inverted, "{c:#?}");
    assert_eq!(field(&c, Field::Negation).finding, Finding::Opposite);
}

#[test]
fn higher_threshold_is_a_subset() {
    // YES on "above 100,000" implies YES on "above 95,000".
    let a = market(
        "a",
        "platform_a",
        "Bitcoin above $100,000 on March 3?",
        CLOSE,
    );
    let b = market(
        "b",
        "platform_c",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    assert_eq!(relation(&a, &b), Relation::Subset);
    assert_eq!(relation(&b, &a), Relation::Superset);
    // An earlier deadline is narrower too.
    let a = market(
        "a",
        "platform_c",
        "Will Globex release a smart ring before May 1, 2026?",
        "2026-05-01T00:00:00Z",
    );
    let b = market(
        "b",
        "platform_d",
        "Will Globex release a smart ring before June 1, 2026?",
        "2026-06-01T00:00:00Z",
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Subset, "{c:#?}");
    assert_eq!(c.disagreements, [Field::CloseTime]);
}

#[test]
fn look_alikes_with_swapped_dates_or_thresholds_are_different() {
    let a = market(
        "a",
        "platform_a",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    // Same threshold, another day.
    let b = market(
        "b",
        "platform_c",
        "Bitcoin above $95,000 on March 4?",
        "2026-03-04T00:00:00Z",
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Different, "{c:#?}");
    assert_eq!(field(&c, Field::Date).finding, Finding::Conflicts);
    // The dates and thresholds of two questions swapped.
    let x = market(
        "x",
        "platform_a",
        "CPI above 3.1% for March 2026?",
        "2026-04-10T00:00:00Z",
    );
    let y = market(
        "y",
        "platform_c",
        "CPI above 3.1% for April 2026?",
        "2026-05-10T00:00:00Z",
    );
    assert_eq!(relation(&x, &y), Relation::Different);
    // Thresholds that neither match nor nest.
    let p = market(
        "p",
        "platform_a",
        "CPI between 2.5% and 3.0% for March 2026?",
        CLOSE,
    );
    let q = market(
        "q",
        "platform_c",
        "CPI between 3.0% and 3.5% for March 2026?",
        CLOSE,
    );
    let c = classify(&p, &q);
    assert_eq!(c.relation, Relation::Different, "{c:#?}");
    assert_eq!(field(&c, Field::Threshold).finding, Finding::Conflicts);
    // Narrower in threshold but wider in date: neither implies the other.
    let s = market(
        "s",
        "platform_a",
        "Will Bitcoin reach $120,000 before June 1, 2026?",
        CLOSE,
    );
    let t = market(
        "t",
        "platform_c",
        "Will Bitcoin reach $110,000 before May 1, 2026?",
        CLOSE,
    );
    assert_eq!(relation(&s, &t), Relation::Different);
}

#[test]
fn other_names_or_actions_are_different() {
    let close = "2026-11-03T00:00:00Z";
    let a = market(
        "a",
        "platform_a",
        "Will Jane Okafor win the 2026 Freedonia president election?",
        close,
    );
    let b = market(
        "b",
        "platform_c",
        "Will Omar Reyes win the 2026 Freedonia president election?",
        close,
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Different, "{c:#?}");
    let e = field(&c, Field::Entities);
    assert_eq!(
        (e.a.as_deref(), e.b.as_deref()),
        (Some("jane, okafor"), Some("omar, reyes"))
    );
    let a = market(
        "a",
        "platform_a",
        "Fed decision in March 2026: Cut 25 bps?",
        CLOSE,
    );
    let b = market(
        "b",
        "platform_c",
        "Will the Fed hike rates by 25 bps in March 2026?",
        CLOSE,
    );
    assert_eq!(relation(&a, &b), Relation::Different);
    let b = market(
        "b",
        "platform_c",
        "Fed decision in March 2026: Cut 50 bps?",
        CLOSE,
    );
    assert_eq!(relation(&a, &b), Relation::Different);
    let b = market(
        "b",
        "platform_c",
        "Will the Fed cut rates by 25 bps in March 2026?",
        CLOSE,
    );
    assert_eq!(relation(&a, &b), Relation::Same);
}

#[test]
fn unsure_when_the_data_cannot_tell() {
    // One states a threshold, the other does not.
    let a = market(
        "a",
        "platform_a",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    let b = market("b", "platform_c", "Bitcoin price on March 3?", CLOSE);
    assert_eq!(relation(&a, &b), Relation::Unsure);
    // Little shared wording.
    let a = market(
        "a",
        "platform_a",
        "Will Globex announce layoffs by March 3?",
        CLOSE,
    );
    let b = market(
        "b",
        "platform_c",
        "Will Globex stock split by March 3?",
        CLOSE,
    );
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Unsure, "{c:#?}");
    // Not binary.
    let mut a = market(
        "a",
        "platform_a",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    a.market_type = Some(MarketType::Categorical);
    assert_eq!(relation(&a, &b), Relation::Unsure);
}

#[test]
fn disagreeing_fields_are_named() {
    let a = market(
        "a",
        "platform_a",
        "Bitcoin above $95,000 on March 3?",
        CLOSE,
    );
    let mut b = market(
        "b",
        "platform_c",
        "Bitcoin above $95,000 on March 3?",
        "2026-03-03T06:00:00Z",
    );
    b.resolution_source = None;
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Same);
    assert_eq!(c.disagreements, [Field::ResolutionSource, Field::CloseTime]);
    assert_eq!(field(&c, Field::CloseTime).note, "close times 6.0 h apart");
    assert!(!c.is_firm());
    assert!(c.allows_gap(), "a risk to check, not a veto");
    // Two named sources that are not one another: a veto.
    b.resolution_source = Some("Another exchange".into());
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Different);
    assert_eq!(c.vetoes, [RuleCode::SettlementSourceDiffers]);
    assert!(!c.allows_gap());
    // The criteria's threshold contradicts the titles'.
    let mut a = a;
    a.resolution_criteria = Some("Resolves Yes if the close is above $95,000.".into());
    b.resolution_source = a.resolution_source.clone();
    b.trading_end_at = a.trading_end_at.clone();
    b.resolution_criteria = Some("Resolves Yes if the close is above $90,000.".into());
    let c = classify(&a, &b);
    assert_eq!(c.disagreements, [Field::ResolutionCriteria]);
}

#[test]
fn short_titles_read_their_event() {
    let mut a = market("a", "platform_b", "Cut 25 bps?", CLOSE);
    a.event_name = Some("Fed decision in March 2026".into());
    let b = market(
        "b",
        "platform_c",
        "Will the Fed cut rates by 25 bps in March 2026?",
        CLOSE,
    );
    assert_eq!(relation(&a, &b), Relation::Same);
}

#[test]
fn find_pairs_compares_only_candidates_and_is_deterministic() {
    let markets = vec![
        market(
            "a1",
            "platform_a",
            "Bitcoin above $95,000 on March 3?",
            CLOSE,
        ),
        market(
            "a2",
            "platform_a",
            "Bitcoin above $100,000 on March 3?",
            CLOSE,
        ),
        market(
            "c1",
            "platform_c",
            "Will BTC close above $95k on Mar 3, 2026?",
            CLOSE,
        ),
        // Another day: never a candidate of the March 3 markets.
        market(
            "c2",
            "platform_c",
            "Bitcoin above $95,000 on March 9?",
            "2026-03-09T00:00:00Z",
        ),
        // Nothing in common.
        market(
            "d1",
            "platform_d",
            "Will Globex release a smart ring before May 1, 2026?",
            CLOSE,
        ),
    ];
    let pairs = find_pairs(&markets, &PairOptions::default());
    let found: Vec<(&str, &str, Relation)> = pairs
        .iter()
        .map(|p| {
            (
                markets[p.a].id.as_str(),
                markets[p.b].id.as_str(),
                p.classification.relation,
            )
        })
        .collect();
    assert_eq!(
        found,
        [("a1", "c1", Relation::Same), ("a2", "c1", Relation::Subset)]
    );
    assert_eq!(pairs, find_pairs(&markets, &PairOptions::default()));
    let all = find_pairs(
        &markets,
        &PairOptions {
            same_platform: true,
            include_different: true,
            without_reasons: false,
            relations: None,
        },
    );
    assert!(all.iter().any(|p| (p.a, p.b) == (0, 1)));
    assert!(!all.iter().any(|p| p.b == 3 || p.a == 4 || p.b == 4));
    // Without reasons: the same verdicts, nothing formatted.
    let bare = find_pairs(
        &markets,
        &PairOptions {
            without_reasons: true,
            ..PairOptions::default()
        },
    );
    assert_eq!(bare.len(), pairs.len());
    for (x, y) in bare.iter().zip(&pairs) {
        assert_eq!((x.a, x.b), (y.a, y.b));
        assert_eq!(x.classification.relation, y.classification.relation);
        assert_eq!(
            x.classification.disagreements,
            y.classification.disagreements
        );
        assert!(x.classification.reasons.is_empty());
    }
    // Only some relations: those pairs, with the reasons they have unfiltered.
    let only = |relations: &[Relation], without_reasons| {
        find_pairs(
            &markets,
            &PairOptions {
                same_platform: true,
                relations: Some(relations.to_vec()),
                without_reasons,
                ..PairOptions::default()
            },
        )
    };
    let subsets = only(&[Relation::Subset], false);
    let expected: Vec<&Pair> = all
        .iter()
        .filter(|p| p.classification.relation == Relation::Subset)
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(subsets.iter().collect::<Vec<_>>(), expected);
    assert!(subsets.iter().all(|p| !p.classification.reasons.is_empty()));
    // Each relation found, alone and without reasons: the same pairs.
    for relation in all.iter().map(|p| p.classification.relation) {
        let found = only(&[relation], true);
        let expected = all.iter().filter(|p| p.classification.relation == relation);
        assert_eq!(
            found.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>(),
            expected.map(|p| (p.a, p.b)).collect::<Vec<_>>()
        );
        assert!(found.iter().all(|p| p.classification.reasons.is_empty()));
    }
    assert!(only(&[], false).is_empty());
}

#[test]
fn real_platform_wordings_relate() {
    let pair = |x: &str, y: &str, close: &str| {
        relation(
            &market("a", "platform_a", x, close),
            &market("b", "platform_b", y, close),
        )
    };
    let close = "2026-12-31T22:00:00Z";
    // A year and a deadline at its end; a day before a deadline nests.
    assert_eq!(
        pair(
            "Will China invade Taiwan in 2026?",
            "China invades Taiwan before 2027?",
            close
        ),
        Relation::Same
    );
    assert_eq!(
        pair(
            "Bitcoin price above 100,000 on Dec 31, 2026 at 5pm EST?",
            "Will Bitcoin reach $100,000 by December 31, 2026?",
            close
        ),
        Relation::Subset
    );
    // The same teams with the winner swapped.
    let game = "2026-03-09T03:00:00Z";
    assert_eq!(
        pair(
            "Will the Celtics beat the Lakers?",
            "Will the Lakers beat the Celtics?",
            game
        ),
        Relation::Inverted
    );
    assert_eq!(
        pair(
            "Will the Celtics beat the Lakers?",
            "Boston Celtics to win vs Los Angeles Lakers on Mar 8, 2026?",
            game
        ),
        Relation::Same
    );
    // Where a game can end level, a draw is NO on both: not inverted,
    // unless both count overtime, and never when both count regulation.
    assert_eq!(
        pair(
            "Will Arsenal beat Chelsea?",
            "Will Chelsea beat Arsenal?",
            game
        ),
        Relation::Unsure
    );
    assert_eq!(
        pair(
            "Will the Oilers beat the Flames (including overtime)?",
            "Will the Flames beat the Oilers, including overtime?",
            game
        ),
        Relation::Inverted
    );
    assert_ne!(
        pair(
            "Will the Celtics beat the Lakers in regulation?",
            "Will the Lakers beat the Celtics in regulation?",
            game
        ),
        Relation::Inverted
    );
    // Two sides of a two-way contest.
    assert_eq!(
        pair(
            "Will a Democrat win the 2028 US presidential election?",
            "Will the Republican win the 2028 US presidential election?",
            close
        ),
        Relation::Inverted
    );
    // A moneyline whose outcomes are the teams has no YES side.
    let mut a = market("a", "platform_a", "Lakers vs. Celtics", game);
    a.outcomes = Some(vec![
        crate::models::Outcome {
            id: "1".into(),
            name: Some("Lakers".into()),
        },
        crate::models::Outcome {
            id: "2".into(),
            name: Some("Celtics".into()),
        },
    ]);
    let b = market("b", "platform_b", "Will the Celtics beat the Lakers?", game);
    let c = classify(&a, &b);
    assert_eq!(c.relation, Relation::Unsure);
    assert_eq!(field(&c, Field::OutcomeMapping).finding, Finding::Missing);
}
