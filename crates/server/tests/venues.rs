//! The core's equivalence classifier measured on the served markets: the
//! generator's labelled cross-platform pairs (same, inverted, narrower,
//! look-alikes, no counterpart) are kept apart from the markets, and the
//! classifier sees only the markets as the service serves them.

mod common;

use predmarket_core::equivalence::{PairOptions, Relation, find_pairs};
use predmarket_core::models::Market;
use predmarket_server::data::Dataset;
use predmarket_server::data::venues::Variant;
use std::collections::{BTreeMap, HashMap};

/// Precision, recall and look-alikes called `same`, for one data set.
struct Score {
    called_same: usize,
    right_same: usize,
    called_inverted: usize,
    right_inverted: usize,
    labelled: usize,
    found: usize,
    lookalikes_called_same: Vec<String>,
    misses: Vec<String>,
}

fn score(data: &Dataset) -> Score {
    // The markets as served: every visible row's JSON, read by the core's
    // model, nothing else.
    let markets: Vec<Market> = data
        .catalog
        .markets
        .iter()
        .filter(|row| !row.mve)
        .map(|row| serde_json::from_str(&row.json).expect("served market JSON is a Market"))
        .collect();
    let index: HashMap<&str, usize> = markets
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id.as_str(), i))
        .collect();
    let pairs = find_pairs(&markets, &PairOptions::default());
    let found: HashMap<(usize, usize), Relation> = pairs
        .iter()
        .map(|p| ((p.a, p.b), p.classification.relation))
        .collect();

    // The truth of a pair whose first or second market is labelled; any
    // two labelled markets outside one group are different (each group's
    // subject is its own).
    let mut labelled_market = vec![false; markets.len()];
    let mut truth: HashMap<(usize, usize), (Relation, Variant)> = HashMap::new();
    for label in data.venue_labels() {
        let a = index[&*label.anchor];
        labelled_market[a] = true;
        if let Some(c) = &label.counterpart {
            let b = index[&**c];
            labelled_market[b] = true;
            // Pairs are ordered by index; the label reads anchor → counterpart.
            let t = if a < b {
                label.truth
            } else {
                flip(label.truth)
            };
            truth.insert((a.min(b), a.max(b)), (t, label.variant));
        }
    }
    let truth_of = |key: (usize, usize)| truth.get(&key).map_or(Relation::Different, |t| t.0);

    let mut s = Score {
        called_same: 0,
        right_same: 0,
        called_inverted: 0,
        right_inverted: 0,
        labelled: 0,
        found: 0,
        lookalikes_called_same: Vec::new(),
        misses: Vec::new(),
    };
    for (&(a, b), &relation) in &found {
        if !(labelled_market[a] || labelled_market[b]) {
            continue;
        }
        let t = truth_of((a, b));
        match relation {
            Relation::Same => {
                s.called_same += 1;
                s.right_same += usize::from(t == Relation::Same);
            }
            Relation::Inverted => {
                s.called_inverted += 1;
                s.right_inverted += usize::from(t == Relation::Inverted);
            }
            _ => {}
        }
    }
    for (&(a, b), &(t, variant)) in &truth {
        let got = found.get(&(a, b)).copied().unwrap_or(Relation::Different);
        let name = || {
            format!(
                "{variant:?}: {:?} / {:?} → {got:?}",
                markets[a].title, markets[b].title
            )
        };
        if matches!(
            variant,
            Variant::LookalikeDate | Variant::LookalikeThreshold | Variant::LookalikeName
        ) && got == Relation::Same
        {
            s.lookalikes_called_same.push(name());
        }
        if t != Relation::Different {
            s.labelled += 1;
            if got == t {
                s.found += 1;
            } else {
                s.misses.push(name());
            }
        }
    }
    s
}

fn flip(r: Relation) -> Relation {
    match r {
        Relation::Subset => Relation::Superset,
        Relation::Superset => Relation::Subset,
        other => other,
    }
}

fn data_at(anchor: &str, seed: u64) -> Dataset {
    let mut config = common::config();
    config.anchor_date = Some(anchor.to_owned());
    config.seed = seed;
    Dataset::generate(&config.data_options())
}

#[test]
fn labelled_pairs_are_found_with_the_required_precision_and_recall() {
    let mut report = BTreeMap::new();
    for (anchor, seed) in [(common::ANCHOR, 0), ("2026-12-30", 11)] {
        let data = data_at(anchor, seed);
        let labels = data.venue_labels();
        assert!(labels.iter().any(|l| l.variant == Variant::Alone));
        assert!(labels.iter().any(|l| l.variant == Variant::LookalikeDate));
        let s = score(&data);
        let precision_same = s.right_same as f64 / s.called_same.max(1) as f64;
        let precision_inverted = s.right_inverted as f64 / s.called_inverted.max(1) as f64;
        let recall = s.found as f64 / s.labelled.max(1) as f64;
        report.insert(
            anchor,
            (
                s.called_same,
                precision_same,
                s.called_inverted,
                precision_inverted,
                s.labelled,
                recall,
            ),
        );
        eprintln!("{anchor}: missed {:#?}", s.misses);
        assert!(
            s.called_same >= 10 && s.called_inverted >= 10,
            "{anchor}: too few calls to measure"
        );
        assert!(
            precision_same >= 0.95,
            "{anchor}: precision of same {precision_same}"
        );
        assert!(
            precision_inverted >= 0.95,
            "{anchor}: precision of inverted {precision_inverted}"
        );
        assert!(
            recall >= 0.8,
            "{anchor}: recall {recall} ({}/{}); missed: {:#?}",
            s.found,
            s.labelled,
            s.misses
        );
        assert!(
            s.lookalikes_called_same.is_empty(),
            "{anchor}: {:#?}",
            s.lookalikes_called_same
        );
    }
    eprintln!("called same, precision, called inverted, precision, labelled, recall: {report:#?}");
}

#[test]
fn labels_are_not_in_the_served_markets() {
    let data = common::default_data();
    for label in data.venue_labels() {
        let row = data
            .market(&label.anchor)
            .expect("labelled market is served");
        for needle in [
            "Same",
            "Inverted",
            "Lookalike",
            "Narrower",
            "Alone",
            "truth",
            "label",
        ] {
            assert!(!row.json.contains(needle), "{needle} in {}", row.json);
        }
    }
}
