//! Every verdict of the matcher on the labelled sets, one line each, so a
//! change meant to leave every verdict as it is (size, speed) can be
//! checked by a diff against the dump of the code before it.
//!
//! `cargo run -p predmarket-core --example verdicts_dump > after.txt`
//!
//! For each pair of each file of `tests/fixtures/equivalence/*.json`: the
//! classification of a against b and of b against a, with reasons
//! (relation, outcome mapping, every reason's rule, field, finding, texts
//! and note in order, the disagreements and vetoes), and without them (as
//! `find_pairs` classifies a long list). Then `find_pairs` over every
//! market of every file, every candidate, without reasons and with them:
//! the candidate search is part of what must not change. The core's own
//! worked examples and look-alikes are dumped by its unit tests when
//! `VERDICTS_DUMP` names a file (`crates/core/src/equivalence/verdicts_log.rs`).
//!
//! A held-out set not yet reported is left out (its verdicts are the
//! lead's to read once, after a round's last change): a set is unreported
//! while its test (`test-vN.json`'s `crates/core/tests/equivalence_vN.rs`)
//! still ignores its run as "not yet run", so the fact is stated once, there.

use predmarket_core::equivalence::{Classification, PairOptions, classify, find_pairs};
use predmarket_core::models::Market;
use serde::Deserialize;
use std::io::Write as _;

#[derive(Deserialize)]
struct Fixture {
    pairs: Vec<Labelled>,
}

#[derive(Deserialize)]
struct Labelled {
    id: String,
    a: Market,
    b: Market,
}

fn line(c: &Classification) -> Result<String, serde_json::Error> {
    serde_json::to_string(c)
}

/// `classify` without reasons is reached through `find_pairs` of the two
/// markets alone (on one platform or not).
fn without_reasons(a: &Market, b: &Market) -> Result<String, serde_json::Error> {
    let options = PairOptions {
        include_different: true,
        same_platform: true,
        without_reasons: true,
        relations: None,
    };
    let pairs = find_pairs(&[a.clone(), b.clone()], &options);
    match pairs.first() {
        Some(p) => line(&p.classification),
        None => Ok("not a candidate".to_owned()),
    }
}

/// Whether `name`'s held-out run is still ignored as "not yet run".
fn not_yet_reported(name: &str) -> bool {
    let Some(version) = name
        .strip_prefix("test-")
        .and_then(|n| n.strip_suffix(".json"))
    else {
        return false;
    };
    let test = format!(
        "{}/tests/equivalence_{version}.rs",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(test).is_ok_and(|text| text.contains("ignore = \"not yet run"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/equivalence"
    );
    let mut files: Vec<_> = std::fs::read_dir(folder)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut all: Vec<Market> = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        if not_yet_reported(&name) {
            eprintln!("{name}: held out and not yet reported, left out");
            continue;
        }
        let fixture: Fixture = serde_json::from_str(&std::fs::read_to_string(path)?)?;
        for p in fixture.pairs {
            writeln!(
                out,
                "{name}\t{}\tab\t{}",
                p.id,
                line(&classify(&p.a, &p.b))?
            )?;
            writeln!(
                out,
                "{name}\t{}\tba\t{}",
                p.id,
                line(&classify(&p.b, &p.a))?
            )?;
            writeln!(
                out,
                "{name}\t{}\tab-short\t{}",
                p.id,
                without_reasons(&p.a, &p.b)?
            )?;
            writeln!(
                out,
                "{name}\t{}\tba-short\t{}",
                p.id,
                without_reasons(&p.b, &p.a)?
            )?;
            all.push(p.a);
            all.push(p.b);
        }
    }
    for (what, without) in [("find_pairs-short", true), ("find_pairs", false)] {
        let options = PairOptions {
            include_different: true,
            without_reasons: without,
            ..PairOptions::default()
        };
        for p in find_pairs(&all, &options) {
            let (a, b) = (&all[p.a].id, &all[p.b].id);
            writeln!(out, "{what}\t{a}\t{b}\t{}", line(&p.classification)?)?;
        }
    }
    Ok(())
}
