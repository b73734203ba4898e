//! Labelled pairs of markets and what the classifier makes of them,
//! shared by the tests that measure it on hand-labelled sets
//! (tests/fixtures/equivalence/): the fixture's shape, the confusion
//! table, precision and recall per relation, and a report listing every
//! miss.

#![allow(dead_code)]

use predmarket_core::equivalence::{Field, Finding, PairOptions, Relation, classify, find_pairs};
use predmarket_core::models::Market;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

#[derive(Deserialize)]
pub struct Fixture {
    pub pairs: Vec<Labelled>,
}

#[derive(Deserialize)]
pub struct Labelled {
    pub id: String,
    pub kind: String,
    pub truth: String,
    pub note: String,
    pub a: Market,
    pub b: Market,
}

pub fn load(name: &str) -> Fixture {
    let path = format!(
        "{}/../../tests/fixtures/equivalence/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn relation_of(label: &str) -> Relation {
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

pub fn flip(r: Relation) -> Relation {
    match r {
        Relation::Subset => Relation::Superset,
        Relation::Superset => Relation::Subset,
        other => other,
    }
}

/// The relations that claim something about the outcomes: the ones whose
/// precision and recall are measured.
pub const CLAIMS: [Relation; 4] = [
    Relation::Same,
    Relation::Inverted,
    Relation::Subset,
    Relation::Superset,
];

pub struct Measure {
    /// (truth, answer) → count.
    pub confusion: BTreeMap<(Relation, Relation), usize>,
    pub misses: Vec<String>,
    pub lookalikes_called_same: Vec<String>,
    /// Pairs whose answer changes (beyond subset ↔ superset) when the two
    /// markets are given in the other order.
    pub asymmetric: Vec<String>,
}

impl Measure {
    pub fn count(&self, pred: impl Fn(Relation, Relation) -> bool) -> usize {
        self.confusion
            .iter()
            .filter(|((t, g), _)| pred(*t, *g))
            .map(|(_, n)| n)
            .sum()
    }

    pub fn precision(&self, r: Relation) -> (usize, usize) {
        (
            self.count(|t, g| g == r && t == r),
            self.count(|_, g| g == r),
        )
    }

    pub fn recall(&self, r: Relation) -> (usize, usize) {
        (
            self.count(|t, g| t == r && g == r),
            self.count(|t, _| t == r),
        )
    }

    pub fn overall_recall(&self) -> (usize, usize) {
        (
            self.count(|t, g| CLAIMS.contains(&t) && t == g),
            self.count(|t, _| CLAIMS.contains(&t)),
        )
    }

    /// The confusion table as Markdown (rows: the label; columns: the
    /// answer), as docs/benchmarks.md shows it.
    pub fn markdown(&self) -> String {
        const ALL: [Relation; 6] = [
            Relation::Same,
            Relation::Inverted,
            Relation::Subset,
            Relation::Superset,
            Relation::Different,
            Relation::Unsure,
        ];
        let mut out = String::from("| label \\ answer |");
        for r in ALL {
            let _ = write!(out, " {} |", r.as_str());
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(ALL.len()));
        out.push('\n');
        for t in ALL {
            let row: Vec<usize> = ALL
                .iter()
                .map(|&g| self.count(|x, y| x == t && y == g))
                .collect();
            if row.iter().sum::<usize>() == 0 {
                continue;
            }
            let _ = write!(out, "| {} |", t.as_str());
            for n in row {
                let _ = write!(out, " {n} |");
            }
            out.push('\n');
        }
        out
    }

    pub fn report(&self) -> String {
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

pub fn measure(f: &Fixture) -> Measure {
    let mut m = Measure {
        confusion: BTreeMap::new(),
        misses: Vec::new(),
        lookalikes_called_same: Vec::new(),
        asymmetric: Vec::new(),
    };
    for p in &f.pairs {
        let truth = relation_of(&p.truth);
        let verdict = classify(&p.a, &p.b);
        let got = verdict.relation;
        let vetoes: Vec<&str> = verdict.vetoes.iter().map(|r| r.as_str()).collect();
        // The rules that kept the pair from agreeing: what a miss is
        // fixed in. A missing source or close time only adds a
        // disagreement (`Classification::disagreements`), never changes
        // the relation: no stop (counted as one until the sixteenth
        // round, it was among the "stoppers" of 446 misses it stopped
        // none of).
        let stopped_by: Vec<String> = verdict
            .reasons
            .iter()
            .filter(|r| matches!(r.finding, Finding::Missing | Finding::Conflicts))
            .filter(|r| {
                !(r.finding == Finding::Missing
                    && matches!(r.field, Field::ResolutionSource | Field::CloseTime))
            })
            .map(|r| format!("{}: {}", r.rule.as_str(), r.note))
            .collect();
        *m.confusion.entry((truth, got)).or_default() += 1;
        let line = || {
            format!(
                "{} [{}]: {:?} / {:?}: truth {}, got {} {:?} stopped by {:?} ({})",
                p.id,
                p.kind,
                p.a.title.as_deref().unwrap_or_default(),
                p.b.title.as_deref().unwrap_or_default(),
                truth.as_str(),
                got.as_str(),
                vetoes,
                stopped_by,
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

/// The checks every labelled set passes: enough pairs, unique ids, known
/// labels, two platforms, titles, every claim represented.
pub fn well_formed(f: &Fixture, at_least: usize) {
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

/// The labelled pairs the classifier gets right that `find_pairs` never
/// compares, over one list of all the fixture's markets: a pair the
/// classifier would get right is lost if the search never meets it.
pub fn never_compared(f: &Fixture) -> Vec<String> {
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
            lost.push(p.id.clone());
        }
    }
    eprintln!(
        "find_pairs: {} markets, {} candidates; {} of {wanted} right answers never compared: {lost:?}",
        markets.len(),
        found.len(),
        lost.len()
    );
    lost
}

/// `n / d`, and 1 when there was nothing to count.
pub fn ratio((n, d): (usize, usize)) -> f64 {
    if d == 0 { 1.0 } else { n as f64 / d as f64 }
}

/// Measures the set `name`, prints its confusion table and every miss
/// (`cargo test … -- --nocapture` shows them for docs/benchmarks.md), and
/// asserts the bar that protects a trader: nothing else is called `same`
/// or `inverted` (precision 1.00 for both). Returns the measure and the
/// printed report, for a test that asserts more.
pub fn claims_nothing_else(name: &str) -> (Measure, String) {
    let m = measure(&load(name));
    let report = format!("{name}\n{}\n{}", m.markdown(), m.report());
    eprintln!("{report}");
    for r in [Relation::Same, Relation::Inverted] {
        let precision = ratio(m.precision(r));
        assert!(
            precision >= 1.0,
            "{name}: precision of {} {precision:.2}:\n{report}",
            r.as_str()
        );
    }
    (m, report)
}

/// The bar of a development set: nothing else called `same` or
/// `inverted` ([`claims_nothing_else`]), and the recall of each no lower
/// than its floor (the figure last reached on it, so that a change that
/// loses recall there is seen).
pub fn development_bar(name: &str, same_floor: f64, inverted_floor: f64) {
    let (m, report) = claims_nothing_else(name);
    for (r, floor) in [
        (Relation::Same, same_floor),
        (Relation::Inverted, inverted_floor),
    ] {
        let recall = ratio(m.recall(r));
        assert!(
            recall >= floor,
            "{name}: recall of {} {recall:.2} under {floor}:\n{report}",
            r.as_str()
        );
    }
}

/// The labelled sets in the order they were written: a held-out set must
/// be new against every set before it.
const WRITTEN_IN_ORDER: [&str; 18] = [
    "dev-v2.json",
    "test-v2.json",
    "test-v3.json",
    "test-v4.json",
    "test-v5.json",
    "test-v6.json",
    "test-v7.json",
    "test-v8.json",
    "test-v9.json",
    "test-v10.json",
    "test-v11.json",
    "test-v12.json",
    "test-v13.json",
    "test-v14.json",
    "test-v15.json",
    "test-v16.json",
    "test-v17.json",
    "test-v18.json",
];

/// What makes `name` a held-out set: well formed with `at_least` pairs, a
/// third of it hard negatives (another question of the same subject), and
/// no pair id or title of the sets written before it
/// (`WRITTEN_IN_ORDER`, where a new set is added last).
pub fn held_out_and_new(name: &str, at_least: usize) {
    let position = WRITTEN_IN_ORDER
        .iter()
        .position(|set| *set == name)
        .unwrap_or_else(|| panic!("{name} is not in WRITTEN_IN_ORDER"));
    let earlier = &WRITTEN_IN_ORDER[..position];
    let test = load(name);
    well_formed(&test, at_least);
    let hard = test
        .pairs
        .iter()
        .filter(|p| p.truth == "different" && p.kind.starts_with("hard"))
        .count();
    assert!(
        hard * 3 >= test.pairs.len(),
        "{name}: {hard} hard negatives"
    );
    let mut seen = std::collections::BTreeSet::new();
    for earlier in earlier {
        for p in load(earlier).pairs {
            seen.insert(p.id);
            seen.extend([p.a.title, p.b.title].into_iter().flatten());
        }
    }
    for p in &test.pairs {
        assert!(!seen.contains(&p.id), "{} is a development pair", p.id);
        for t in [&p.a.title, &p.b.title].into_iter().flatten() {
            assert!(!seen.contains(t), "{}: {t:?} is a development title", p.id);
        }
    }
}
