//! The facts read from titles: dates, thresholds, names, negation.

use super::*;

fn ms(date: &str) -> Option<i64> {
    timestamp_ms(date)
}

#[test]
fn reads_thresholds_with_units_and_comparators() {
    let f = Facts::of_text("Will BTC close above $95k on Mar 3?", ms("2026-03-03"));
    let t = f.threshold.unwrap();
    assert_eq!(
        (t.comparator, t.value, t.unit.as_str()),
        (Comparator::Above, 95_000.0, "$")
    );
    assert_eq!(f.entities, ["bitcoin"]);
    let d = f.date.unwrap();
    assert_eq!(d.to_string(), "2026-03-03");
    assert!(d.year_inferred);

    let t = Facts::of_text("Bitcoin at or below $95,000 on March 3, 2026?", None)
        .threshold
        .unwrap();
    assert_eq!((t.comparator, t.value), (Comparator::AtMost, 95_000.0));
    let t = Facts::of_text("Fed decision: Cut 50 bps or more?", None)
        .threshold
        .unwrap();
    assert_eq!(
        (t.comparator, t.value, t.unit.as_str()),
        (Comparator::AtLeast, 50.0, "bps")
    );
    let t = Facts::of_text("Opening weekend above $120 million?", None)
        .threshold
        .unwrap();
    assert_eq!((t.value, t.unit.as_str()), (120e6, "$"));
    let t = Facts::of_text("CPI between 2.5% and 3.0% in May 2026?", None)
        .threshold
        .unwrap();
    assert_eq!(
        (t.comparator, t.value, t.upper),
        (Comparator::Between, 2.5, Some(3.0))
    );
    assert_eq!(t.to_string(), "between 2.5% and 3%");
}

#[test]
fn reads_dates_and_deadlines() {
    let f = Facts::of_text("Will Acme release a VR headset before June 1, 2026?", None);
    let d = f.date.unwrap();
    assert!(d.deadline);
    assert_eq!(d.to_string(), "by 2026-06-01");
    assert!(f.words.contains("release") && f.words.contains("headset"));
    let f = Facts::of_text("Acme Q3 2026 EPS above $1.20?", None);
    assert_eq!(f.date.unwrap().to_string(), "2026-07-01 to 2026-09-30");
    let f = Facts::of_text("Inflation for May 2026", None);
    assert_eq!(f.date.unwrap().to_string(), "2026-05-01 to 2026-05-31");
    // "may" as a verb is no date.
    assert!(Facts::of_text("Who may win?", None).date.is_none());
    let f = Facts::of_text("Highest temperature on 2026-07-04 above 90°F?", None);
    assert_eq!(f.date.unwrap().to_string(), "2026-07-04");
    assert_eq!(f.threshold.unwrap().unit, "°F");
}

#[test]
fn reads_names_negation_and_other_numbers() {
    let f = Facts::of_text(
        "Will Jane Doe not win the 2026 Freedonia president election?",
        None,
    );
    assert!(f.negated);
    assert_eq!(f.entities, ["doe", "freedonia", "jane"]);
    let f = Facts::of_text("Will \"Blue Skies\" be #2 on the chart?", None);
    assert!(f.entities.contains(&"blue skies".to_owned()));
    assert_eq!(f.numbers, ["2"]);
    // The first rank is the top of the chart.
    let f = Facts::of_text("Will \"Blue Skies\" be #1 on the chart?", None);
    assert!(f.words.contains("top") && f.numbers.is_empty());
}

#[test]
fn reads_the_wordings_of_real_platforms() {
    // Tickers, demonyms, multi-word names and possessives fold.
    let f = Facts::of_text("Will NVDA's market cap be above $5T on 12/31/2026?", None);
    assert_eq!(f.entities, ["nvidia"]);
    assert_eq!(f.date.unwrap().to_string(), "2026-12-31");
    assert_eq!(f.threshold.unwrap().to_string(), "above $5000000000000");
    let f = Facts::of_text("Will the United States and the French strike?", None);
    assert_eq!(f.entities, ["france", "us"]);
    let f = Facts::of_text("European Central Bank cut in April 2026?", None);
    assert_eq!(f.entities, ["ecb"]);
    // "before" a month or a year ends the day before it starts.
    let d = Facts::of_text("Ceasefire before 2027?", None).date.unwrap();
    assert_eq!(d.to_string(), "by 2026-12-31");
    let d = Facts::of_text("Strike before July 2026?", None)
        .date
        .unwrap();
    assert_eq!(d.to_string(), "by 2026-06-30");
    let d = Facts::of_text("ETH $10k by end of 2026?", None)
        .date
        .unwrap();
    assert_eq!(d.to_string(), "by 2026-12-31");
    let d = Facts::of_text("Oilers win the 2025-26 NHL title?", None)
        .date
        .unwrap();
    assert_eq!(d.to_string(), "2026-01-01 to 2026-12-31");
    // Ranges, a size alone, a sign.
    let t = Facts::of_text("Bitcoin on Mar 31: $96,000 to $97,999.99?", None)
        .threshold
        .unwrap();
    assert_eq!(
        (t.comparator, t.value, t.upper),
        (Comparator::Between, 96_000.0, Some(97_999.99))
    );
    let t = Facts::of_text("Cut 25bps", None).threshold.unwrap();
    assert_eq!(t.to_string(), "exactly 25 bps");
    let t = Facts::of_text("GDP growth negative in Q1 2026?", None)
        .threshold
        .unwrap();
    assert_eq!((t.comparator, t.value), (Comparator::Below, 0.0));
    // Negation in other words; who must win.
    assert!(Facts::of_text("No change in Fed rates in June?", None).negated);
    assert!(Facts::of_text("Will the Fed hold or hike rates in June?", None).negated);
    assert!(Facts::of_text("Will the US avoid a recession?", None).negated);
    let f = Facts::of_text("Boston Celtics to win vs Los Angeles Lakers?", None);
    assert_eq!(f.winner.as_deref(), Some("boston celtics"));
}

proptest::proptest! {
    // Titles are user input: any text is read without a panic.
    #[test]
    fn any_text_is_read(text in "\\PC{0,60}", digits in "[0-9$%°,.+<>= -]{0,20}") {
        let _ = Facts::of_text(&text, Some(0));
        let _ = Facts::of_text(&format!("{text}{digits}{text}"), None);
    }
}
