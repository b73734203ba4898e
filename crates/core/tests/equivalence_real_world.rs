//! The equivalence classifier measured on wordings it was not written
//! with: tests/fixtures/equivalence/real-world.json holds cross-platform
//! pairs worded as the public platforms word them, in the market shape the
//! public service sends, labelled by hand before the classifier was run on
//! them. Reports precision and recall per relation and every
//! misclassification; asserts the bar the project set for the generator's
//! pairs (precision ≥ 0.95 for `same` and `inverted`, recall ≥ 0.8, no
//! look-alike called `same`).

use predmarket_core::equivalence::{PairOptions, Relation, classify, find_pairs};
use predmarket_core::models::Market;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

#[derive(Deserialize)]
struct Fixture {
    pairs: Vec<Labelled>,
}

#[derive(Deserialize)]
struct Labelled {
    id: String,
    kind: String,
    truth: String,
    note: String,
    a: Market,
    b: Market,
}

fn fixture() -> Fixture {
    load("real-world.json")
}

fn load(name: &str) -> Fixture {
    let path = format!(
        "{}/../../tests/fixtures/equivalence/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn relation_of(label: &str) -> Relation {
    match label {
        "same" => Relation::Same,
        "inverted" => Relation::Inverted,
        "subset" => Relation::Subset,
        "superset" => Relation::Superset,
        "different" => Relation::Different,
        "unsure" => Relation::Unsure,
        other => panic!("unknown relation {other:?}"),
    }
}

fn flip(r: Relation) -> Relation {
    match r {
        Relation::Subset => Relation::Superset,
        Relation::Superset => Relation::Subset,
        other => other,
    }
}

/// The relations that claim something about the outcomes: the ones whose
/// precision and recall are measured.
const CLAIMS: [Relation; 4] = [
    Relation::Same,
    Relation::Inverted,
    Relation::Subset,
    Relation::Superset,
];

struct Measure {
    /// (truth, answer) → count.
    confusion: BTreeMap<(Relation, Relation), usize>,
    misses: Vec<String>,
    lookalikes_called_same: Vec<String>,
    /// Pairs whose answer changes (beyond subset ↔ superset) when the two
    /// markets are given in the other order.
    asymmetric: Vec<String>,
}

impl Measure {
    fn count(&self, pred: impl Fn(Relation, Relation) -> bool) -> usize {
        self.confusion
            .iter()
            .filter(|((t, g), _)| pred(*t, *g))
            .map(|(_, n)| n)
            .sum()
    }

    fn precision(&self, r: Relation) -> (usize, usize) {
        (
            self.count(|t, g| g == r && t == r),
            self.count(|_, g| g == r),
        )
    }

    fn recall(&self, r: Relation) -> (usize, usize) {
        (
            self.count(|t, g| t == r && g == r),
            self.count(|t, _| t == r),
        )
    }

    fn overall_recall(&self) -> (usize, usize) {
        (
            self.count(|t, g| CLAIMS.contains(&t) && t == g),
            self.count(|t, _| CLAIMS.contains(&t)),
        )
    }

    fn report(&self) -> String {
        let ratio = |(n, d): (usize, usize)| {
            if d == 0 {
                "-".to_owned()
            } else {
                format!("{:.2} ({n}/{d})", n as f64 / d as f64)
            }
        };
        let mut out = String::from("relation   precision      recall\n");
        for r in CLAIMS.into_iter().chain([Relation::Different]) {
            let _ = writeln!(
                out,
                "{:<10} {:<14} {}",
                r.as_str(),
                ratio(self.precision(r)),
                ratio(self.recall(r))
            );
        }
        let _ = writeln!(
            out,
            "recall of same/inverted/subset/superset: {}",
            ratio(self.overall_recall())
        );
        let _ = writeln!(
            out,
            "look-alikes called same: {}",
            self.lookalikes_called_same.len()
        );
        out.push_str("confusion (truth → answer: count):\n");
        for ((t, g), n) in &self.confusion {
            let _ = writeln!(out, "  {} → {}: {n}", t.as_str(), g.as_str());
        }
        let _ = writeln!(out, "misclassified ({}):", self.misses.len());
        for m in &self.misses {
            let _ = writeln!(out, "  {m}");
        }
        let _ = writeln!(
            out,
            "answer changes with the order of the pair ({}):",
            self.asymmetric.len()
        );
        for m in &self.asymmetric {
            let _ = writeln!(out, "  {m}");
        }
        out
    }
}

fn measure(f: &Fixture) -> Measure {
    let mut m = Measure {
        confusion: BTreeMap::new(),
        misses: Vec::new(),
        lookalikes_called_same: Vec::new(),
        asymmetric: Vec::new(),
    };
    for p in &f.pairs {
        let truth = relation_of(&p.truth);
        let got = classify(&p.a, &p.b).relation;
        *m.confusion.entry((truth, got)).or_default() += 1;
        let line = || {
            format!(
                "{} [{}]: {:?} / {:?}: truth {}, got {} ({})",
                p.id,
                p.kind,
                p.a.title.as_deref().unwrap_or_default(),
                p.b.title.as_deref().unwrap_or_default(),
                truth.as_str(),
                got.as_str(),
                p.note
            )
        };
        if got != truth {
            m.misses.push(line());
        }
        if p.kind.starts_with("lookalike") && got == Relation::Same {
            m.lookalikes_called_same.push(line());
        }
        let back = classify(&p.b, &p.a).relation;
        if flip(back) != got {
            m.asymmetric.push(format!(
                "{}: a/b {}, b/a {}",
                p.id,
                got.as_str(),
                back.as_str()
            ));
        }
    }
    m
}

#[test]
fn fixtures_are_well_formed() {
    for (name, at_least) in [("real-world.json", 60), ("held-out.json", 25)] {
        well_formed(&load(name), at_least);
    }
}

fn well_formed(f: &Fixture, at_least: usize) {
    assert!(f.pairs.len() >= at_least, "{} pairs", f.pairs.len());
    let mut ids = std::collections::BTreeSet::new();
    for p in &f.pairs {
        assert!(ids.insert(&p.id), "duplicate pair id {}", p.id);
        relation_of(&p.truth);
        assert_ne!(p.a.platform, p.b.platform, "{}: one platform", p.id);
        assert!(p.a.title.is_some() && p.b.title.is_some(), "{}", p.id);
        if p.kind.starts_with("lookalike") {
            assert_eq!(p.truth, "different", "{}", p.id);
        }
    }
    for r in CLAIMS {
        assert!(
            f.pairs.iter().any(|p| relation_of(&p.truth) == r),
            "no pair labelled {}",
            r.as_str()
        );
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
    let value = |(n, d): (usize, usize)| n as f64 / d.max(1) as f64;
    let (same, inverted) = (
        value(m.precision(Relation::Same)),
        value(m.precision(Relation::Inverted)),
    );
    let recall = value(m.overall_recall());
    assert!(
        m.lookalikes_called_same.is_empty(),
        "look-alikes called same:\n{report}"
    );
    assert!(same >= 0.95, "precision of same {same:.2}:\n{report}");
    assert!(
        inverted >= 0.95,
        "precision of inverted {inverted:.2}:\n{report}"
    );
    assert!(recall >= 0.8, "recall {recall:.2}:\n{report}");
}

/// The candidate search finds the labelled pairs in one list of all the
/// fixture's markets: a pair the classifier would get right is lost if
/// `find_pairs` never compares it.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let f = fixture();
    let mut markets: Vec<Market> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut at = |m: &Market, markets: &mut Vec<Market>| {
        // A market used in two pairs is listed once.
        *index.entry(m.id.clone()).or_insert_with(|| {
            markets.push(m.clone());
            markets.len() - 1
        })
    };
    let pairs: Vec<(usize, usize, &Labelled)> = f
        .pairs
        .iter()
        .map(|p| (at(&p.a, &mut markets), at(&p.b, &mut markets), p))
        .collect();
    let found: HashMap<(usize, usize), Relation> = find_pairs(
        &markets,
        &PairOptions {
            include_different: true,
            ..PairOptions::default()
        },
    )
    .into_iter()
    .map(|p| ((p.a, p.b), p.classification.relation))
    .collect();
    let mut lost = Vec::new();
    let mut wanted = 0;
    for (a, b, p) in pairs {
        let truth = relation_of(&p.truth);
        if !CLAIMS.contains(&truth) {
            continue;
        }
        wanted += 1;
        let got = if a < b {
            found.get(&(a, b)).copied()
        } else {
            found.get(&(b, a)).copied().map(flip)
        };
        if got.is_none() && classify(&p.a, &p.b).relation == truth {
            lost.push(p.id.as_str());
        }
    }
    eprintln!(
        "find_pairs: {} markets, {} candidates; {} of {wanted} right answers never compared: {lost:?}",
        markets.len(),
        found.len(),
        lost.len()
    );
    assert!(lost.is_empty(), "never compared: {lost:?}");
}
