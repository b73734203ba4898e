//! The equivalence classifier on the second labelled sets
//! (tests/fixtures/equivalence/dev-v2.json and test-v2.json): pairs worded
//! as the public platforms word them, a third and more of them hard
//! negatives (one subject, one date, another question), split at random
//! before the classifier was run on them.
//!
//! Both are development data now: test-v2 was reported once (the rule
//! table's first version) and then tuned to, so the held-out figure comes from
//! test-v3 (crates/core/tests/equivalence_v3.rs), then test-v4
//! (equivalence_v4.rs). Each must meet the bar: no pair of another
//! relation called `same` or `inverted`, and no less recall of either
//! than [`RECALL_FLOOR`].

mod labelled;

use labelled::{development_bar, load, never_compared, well_formed};
use predmarket_core::equivalence::{Relation, classify};

const DEV: &str = "dev-v2.json";
const TEST: &str = "test-v2.json";

/// The lowest recall of `same` and of `inverted` each set must show.
/// The bar is 0.8; since the third round a `same` is earned
/// (every part of each side accounted for, `unexplained_difference`),
/// which lowered the recall of `same` to 0.68 (dev-v2) and 0.75
/// (test-v2); the fourth round raised it to 0.80 and 0.93 (inverted 1.00
/// and 0.89; docs/benchmarks.md, "Fourth round"), so both sets meet the
/// issue's bar again.
const RECALL_FLOOR: f64 = 0.8;

#[test]
fn sets_are_well_formed_and_disjoint() {
    let (dev, test) = (load(DEV), load(TEST));
    well_formed(&dev, 80);
    well_formed(&test, 150);
    let dev_ids: std::collections::BTreeSet<&str> =
        dev.pairs.iter().map(|p| p.id.as_str()).collect();
    for p in &test.pairs {
        assert!(!dev_ids.contains(p.id.as_str()), "{} is in both sets", p.id);
    }
    // A third of the test set asks another question of the same subject.
    let hard = test
        .pairs
        .iter()
        .filter(|p| {
            p.truth == "different"
                && (p.kind.starts_with("hard") || p.kind.starts_with("lookalike"))
        })
        .count();
    assert!(hard * 3 >= test.pairs.len(), "{hard} hard negatives");
}

fn meets_the_bar(name: &str) {
    development_bar(name, RECALL_FLOOR, RECALL_FLOOR);
}

#[test]
fn development_set_meets_the_bar() {
    meets_the_bar(DEV);
}

/// test-v2, reported once and then tuned to: development data too.
#[test]
fn first_test_set_now_development_data_meets_the_bar() {
    meets_the_bar(TEST);
}

/// `find_pairs` compares every labelled pair of both sets the classifier
/// gets right (the search is not tuned by the labels: it reads names and
/// days only).
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    for name in [DEV, TEST] {
        let lost = never_compared(&load(name));
        assert!(lost.is_empty(), "{name}: never compared: {lost:?}");
    }
}

/// A veto always makes the answer `different` and is explained by a
/// reason of its own rule; `same` and `inverted` carry no veto.
#[test]
fn vetoes_are_explained() {
    for name in [DEV, TEST] {
        for p in load(name).pairs {
            let c = classify(&p.a, &p.b);
            for veto in &c.vetoes {
                assert!(
                    c.reasons.iter().any(|r| r.rule == *veto),
                    "{}: {veto:?} without a reason",
                    p.id
                );
            }
            if !c.vetoes.is_empty() {
                assert_eq!(c.relation, Relation::Different, "{}", p.id);
            }
            assert_eq!(
                c.allows_gap(),
                matches!(c.relation, Relation::Same | Relation::Inverted),
                "{}",
                p.id
            );
        }
    }
}
