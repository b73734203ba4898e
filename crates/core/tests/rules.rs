//! The rules the npm package runs too, against the shared vectors of
//! `tests/fixtures/rules/` (the node tests read the same files): what
//! changed in an order book, which values changed by path, how often a
//! watch asks and which errors end it.

use predmarket_core::change::{self, LevelChange, ValueChange, WatchKind};
use predmarket_core::models::Orderbook;
use serde_json::Value;
use std::path::PathBuf;

fn vectors(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/rules")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn cases(file: &Value) -> &Vec<Value> {
    file["cases"].as_array().expect("a `cases` array")
}

#[test]
fn book_changes_follow_the_vectors() {
    let file = vectors("book_changes.json");
    assert!(cases(&file).len() >= 5);
    for case in cases(&file) {
        let name = case["name"].as_str().unwrap_or("?");
        let book = |v: &Value| -> Orderbook {
            serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let want: Vec<LevelChange> = serde_json::from_value(case["changes"].clone())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = change::book_changes(&book(&case["before"]), &book(&case["after"]));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn value_changes_follow_the_vectors() {
    let file = vectors("value_changes.json");
    assert!(cases(&file).len() >= 5);
    for case in cases(&file) {
        let name = case["name"].as_str().unwrap_or("?");
        let want: Vec<ValueChange> = serde_json::from_value(case["changes"].clone())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            change::value_changes(&case["before"], &case["after"]),
            want,
            "{name}"
        );
    }
}

#[test]
fn watch_intervals_and_endings_follow_the_vectors() {
    let file = vectors("watch.json");
    let intervals = file["default_interval_ms"].as_object().expect("intervals");
    assert_eq!(
        intervals.len(),
        WatchKind::ALL.len(),
        "one interval per kind"
    );
    for kind in WatchKind::ALL {
        assert_eq!(
            intervals[kind.name()].as_f64(),
            Some(kind.default_interval_ms()),
            "{}",
            kind.name()
        );
        assert_eq!(WatchKind::from_name(kind.name()), Some(kind));
    }
    let endings = file["ends_watch"].as_array().expect("ends_watch");
    for case in endings {
        let status = case["status"].as_u64().map(|s| s as u16);
        let code = case["code"].as_str().unwrap_or("");
        assert_eq!(
            change::ends_watch(status, code),
            case["ends"].as_bool().expect("ends"),
            "{case}"
        );
    }
}

/// No retry policy disagrees with the watch: what a watch retries at its
/// next interval is what the client retries within a call.
#[test]
fn a_watch_ends_on_what_the_client_would_not_retry() {
    use predmarket_core::error::Error;
    for status in [
        400u16, 401, 403, 404, 405, 408, 410, 413, 422, 429, 431, 500, 502, 503, 504,
    ] {
        let error = Error::from_response(status, "", None);
        assert_eq!(
            change::ends_watch(error.status(), error.code().as_str()),
            !error.is_retryable(),
            "status {status}"
        );
    }
}

#[test]
fn export_follows_the_vectors() {
    use predmarket_core::export::{self, CsvOptions};
    let file = vectors("export.json");
    assert!(cases(&file).len() >= 5);
    for case in cases(&file) {
        let name = case["name"].as_str().unwrap_or("?");
        let rows = export::rows(&case["input"]);
        assert_eq!(Value::Array(rows.clone()), case["rows"], "{name}: rows");
        // Without `spreadsheet_safe` the case is written as by default.
        let options = match case["spreadsheet_safe"].as_bool() {
            Some(spreadsheet_safe) => CsvOptions { spreadsheet_safe },
            None => CsvOptions::default(),
        };
        let given: Option<Vec<String>> = case
            .get("given_columns")
            .map(|c| serde_json::from_value(c.clone()).unwrap_or_else(|e| panic!("{name}: {e}")));
        if given.is_none() {
            let want: Vec<String> = serde_json::from_value(case["columns"].clone())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(export::columns(&rows), want, "{name}: columns");
        }
        let csv = export::to_csv(&rows, given.as_deref(), options);
        assert_eq!(Some(csv.as_str()), case["csv"].as_str(), "{name}: csv");
        if let Some(ndjson) = case.get("ndjson") {
            assert_eq!(
                Some(export::to_ndjson(&rows).as_str()),
                ndjson.as_str(),
                "{name}: ndjson"
            );
        }
    }
    for pair in file["numbers"].as_array().expect("a `numbers` array") {
        assert_eq!(
            Some(export::cell(&pair[0]).as_str()),
            pair[1].as_str(),
            "{pair}"
        );
    }
}
