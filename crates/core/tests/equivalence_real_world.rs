//! The equivalence classifier measured on wordings it was not written
//! with: tests/fixtures/equivalence/real-world.json holds cross-platform
//! pairs worded as the public platforms word them, in the market shape the
//! public service sends, labelled by hand before the classifier was run on
//! them. Reports precision and recall per relation and every
//! misclassification; asserts precision 1.00 for `same` and `inverted`,
//! no look-alike called `same`, and overall recall no lower than
//! [`RECALL_FLOOR`] (0.8 before the third round made `same` earned:
//! real-world.json's recall fell to 0.73, docs/benchmarks.md "Third
//! round"; the fourth round brought it to 0.87, held-out.json's to 0.90;
//! the fifth, after relabelling two held-out pairs, to 0.90 and 0.89; the
//! sixth to 0.92 and 0.95).

mod labelled;

use labelled::{Fixture, Measure, load, measure, never_compared, ratio, well_formed};
use predmarket_core::equivalence::Relation;

/// The lowest overall recall (same, inverted, subset, superset) either
/// set must show: the sixth round's figures, rounded down.
const RECALL_FLOOR: f64 = 0.92;

fn fixture() -> Fixture {
    load("real-world.json")
}

#[test]
fn fixtures_are_well_formed() {
    for (name, at_least) in [("real-world.json", 60), ("held-out.json", 25)] {
        well_formed(&load(name), at_least);
    }
}

#[test]
fn real_world_wordings_meet_the_bar() {
    meets_the_bar(&measure(&fixture()));
}

/// The pairs written after the reading was improved on real-world.json:
/// the same bar on wordings the improvements were not made for.
#[test]
fn held_out_wordings_meet_the_bar() {
    meets_the_bar(&measure(&load("held-out.json")));
}

fn meets_the_bar(m: &Measure) {
    let report = m.report();
    eprintln!("{report}");
    let (same, inverted) = (
        ratio(m.precision(Relation::Same)),
        ratio(m.precision(Relation::Inverted)),
    );
    let recall = ratio(m.overall_recall());
    assert!(
        m.lookalikes_called_same.is_empty(),
        "look-alikes called same:\n{report}"
    );
    assert!(same >= 1.0, "precision of same {same:.2}:\n{report}");
    assert!(
        inverted >= 1.0,
        "precision of inverted {inverted:.2}:\n{report}"
    );
    assert!(recall >= RECALL_FLOOR, "recall {recall:.2}:\n{report}");
}

/// The candidate search finds the labelled pairs in one list of all the
/// fixture's markets: a pair the classifier would get right is lost if
/// `find_pairs` never compares it.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&fixture());
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
