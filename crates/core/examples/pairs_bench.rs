//! `find_pairs` natively over a JSON array of markets (a file), to see
//! where its time goes: the candidates it compares and the time of each
//! way of calling it, medians of several rounds.
//!
//! `cargo run --release -p predmarket-core --example pairs_bench -- MARKETS.json [RUN]`
//!
//! With `RUN` (0, 1 or 2), only that way of calling it: `0` is the one
//! the npm package's `findPairs` takes (no reasons), the one to profile.
//!
//! `cargo xtask bench venues` measures the same in Node through the npm
//! package's `predmarket/venues` entry, which is the figure users get.

use predmarket_core::equivalence::{PairOptions, Relation, find_pairs};
use predmarket_core::models::Market;
use std::time::Instant;

const ROUNDS: usize = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: pairs_bench MARKETS.json")?;
    let only: Option<usize> = std::env::args().nth(2).map(|n| n.parse()).transpose()?;
    let markets: Vec<Market> = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let runs: [(&str, PairOptions); 3] = [
        (
            "every candidate (include_different, no reasons)",
            PairOptions {
                include_different: true,
                without_reasons: true,
                ..PairOptions::default()
            },
        ),
        ("default (with reasons)", PairOptions::default()),
        (
            "relations same, inverted",
            PairOptions {
                relations: Some(vec![Relation::Same, Relation::Inverted]),
                ..PairOptions::default()
            },
        ),
    ];
    println!("{} markets, median of {ROUNDS} rounds", markets.len());
    for (n, (what, options)) in runs.into_iter().enumerate() {
        if only.is_some_and(|only| only != n) {
            continue;
        }
        let mut times = Vec::with_capacity(ROUNDS);
        let mut count = 0;
        for _ in 0..ROUNDS {
            let started = Instant::now();
            count = std::hint::black_box(find_pairs(&markets, &options)).len();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!("{what}: {count} pairs, {:.1} ms", times[ROUNDS / 2]);
    }
    Ok(())
}
