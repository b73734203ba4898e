//! Lists as CSV or NDJSON: the one rule the demo's downloads and the npm
//! package's export functions follow (the package has it in plain JS, held
//! to this module by the vectors of `tests/fixtures/rules/export.json`).
//!
//! The rule:
//!
//! - **Rows** ([`rows`]): an answer's list (`data`, `markets`, `events`,
//!   `series`, `trades`, `games`, `futures`, `awards`, `platforms`, the
//!   first of them that is an array), one row per price level for an order
//!   book (`outcome`, `side`, `price`, `size`, with the book's `market_id`
//!   and `platform`), the object itself for a single answer.
//! - **Columns** ([`columns`]): objects are flattened by path, keys joined
//!   with `.` and visited in byte order (as [`crate::change::value_changes`]
//!   names paths); a path is a column where it holds a scalar, an array or
//!   an empty object. Arrays stay one cell: their length varies from row to
//!   row and one column per index would make the header depend on the
//!   longest. The header is the union of the rows' paths in first-seen
//!   order, or the caller's own list.
//! - **Cells** ([`cell`]): `null` or missing is empty; a string as is; a
//!   number as JavaScript's `String(n)` writes it; `true`/`false`; an array
//!   or an object (a column the caller cut at an object) as compact JSON
//!   with keys in byte order.
//! - **Extra**: with a fixed header (the caller's, or a stream's taken from
//!   its first rows), what a later row holds outside it is not dropped: the
//!   header ends with an `_extra` column holding those values as a JSON
//!   object by path (empty when there are none).
//! - **CSV** (RFC 4180): fields with `,`, `"`, CR or LF are quoted, quotes
//!   doubled; records end with CRLF. Spreadsheet-safe, the default
//!   (`spreadsheet_safe`; off only when the caller says so), puts a `'`
//!   before a string cell that starts with `=`, `+`, `-`, `@`, tab or CR,
//!   header cells included (they are data keys), so a spreadsheet shows
//!   it instead of running it as a formula.
//! - **NDJSON**: one compact JSON text per row, each ended by `\n`; rows
//!   are not flattened.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

/// The fields of an answer that hold its list, in the order looked at.
pub const LIST_FIELDS: [&str; 9] = [
    "data",
    "markets",
    "events",
    "series",
    "trades",
    "games",
    "futures",
    "awards",
    "platforms",
];

/// The column that holds what lies outside a fixed header.
pub const EXTRA_COLUMN: &str = "_extra";

/// How CSV is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsvOptions {
    /// Prefix string cells a spreadsheet would run as formulas with `'`,
    /// header cells too. On by default: titles come from whoever listed
    /// the market.
    pub spreadsheet_safe: bool,
}

impl Default for CsvOptions {
    fn default() -> Self {
        Self {
            spreadsheet_safe: true,
        }
    }
}

/// The rows of an answer as the service sends it (see the module doc).
pub fn rows(answer: &Value) -> Vec<Value> {
    match answer {
        Value::Array(items) => items.clone(),
        Value::Object(fields) => {
            if let Some(book) = fields.get("data").filter(|d| is_book(d)) {
                return book_rows(book);
            }
            if is_book(answer) {
                return book_rows(answer);
            }
            for name in LIST_FIELDS {
                if let Some(Value::Array(items)) = fields.get(name) {
                    return items.clone();
                }
            }
            match fields.get("data") {
                Some(data @ Value::Object(_)) => vec![data.clone()],
                _ => vec![answer.clone()],
            }
        }
        other => vec![other.clone()],
    }
}

fn is_book(value: &Value) -> bool {
    ["yes", "no"].iter().any(|outcome| {
        value
            .get(outcome)
            .is_some_and(|b| b.get("bids").is_some() || b.get("asks").is_some())
    })
}

/// One row per level of an order book: `market_id`, `platform`, `outcome`,
/// `side`, `price`, `size`, as the book holds them.
fn book_rows(book: &Value) -> Vec<Value> {
    let mut rows = Vec::new();
    for outcome in ["yes", "no"] {
        for side in ["bids", "asks"] {
            let levels = book
                .get(outcome)
                .and_then(|b| b.get(side))
                .and_then(Value::as_array);
            for level in levels.into_iter().flatten() {
                let mut row = Map::new();
                row.insert("market_id".into(), field(book, "market_id"));
                row.insert("platform".into(), field(book, "platform"));
                row.insert("outcome".into(), outcome.into());
                row.insert("side".into(), side.into());
                row.insert("price".into(), field(level, "price"));
                row.insert("size".into(), field(level, "size"));
                rows.push(Value::Object(row));
            }
        }
    }
    rows
}

fn field(value: &Value, name: &str) -> Value {
    value.get(name).cloned().unwrap_or(Value::Null)
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// A row that is not an object is read as `{ "value": row }`.
fn as_object(row: &Value) -> Value {
    match row {
        Value::Object(_) => row.clone(),
        other => {
            let mut map = Map::new();
            map.insert("value".into(), other.clone());
            Value::Object(map)
        }
    }
}

/// The header of `rows`: every path, in first-seen order.
pub fn columns<'a>(rows: impl IntoIterator<Item = &'a Value>) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for row in rows {
        let mut paths = Vec::new();
        leaf_paths(&as_object(row), "", &mut paths);
        for path in paths {
            if seen.insert(path.clone()) {
                out.push(path);
            }
        }
    }
    out
}

fn leaf_paths(value: &Value, prefix: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, child) in map {
                leaf_paths(child, &join(prefix, key), out);
            }
        }
        _ => out.push(prefix.to_owned()),
    }
}

/// The cells of one row under `columns`, and what lies outside them (by
/// path, for the [`EXTRA_COLUMN`]).
pub fn cells(row: &Value, columns: &[String]) -> (Vec<Value>, BTreeMap<String, Value>) {
    let wanted: HashSet<&str> = columns.iter().map(String::as_str).collect();
    // Paths above a column: an object there is walked into, not cut.
    let mut above = HashSet::new();
    for column in columns {
        let mut end = column.len();
        while let Some(dot) = column[..end].rfind('.') {
            above.insert(&column[..dot]);
            end = dot;
        }
    }
    let mut found = BTreeMap::new();
    let mut extra = BTreeMap::new();
    let row = as_object(row);
    if let Value::Object(map) = &row {
        for (key, child) in map {
            walk(child, key.clone(), &wanted, &above, &mut found, &mut extra);
        }
    }
    let cells = columns
        .iter()
        .map(|c| found.remove(c.as_str()).unwrap_or(Value::Null))
        .collect();
    (cells, extra)
}

fn walk(
    value: &Value,
    path: String,
    wanted: &HashSet<&str>,
    above: &HashSet<&str>,
    found: &mut BTreeMap<String, Value>,
    extra: &mut BTreeMap<String, Value>,
) {
    match value {
        Value::Object(map) if !map.is_empty() && above.contains(path.as_str()) => {
            for (key, child) in map {
                walk(child, join(&path, key), wanted, above, found, extra);
            }
        }
        _ if wanted.contains(path.as_str()) => {
            found.insert(path, value.clone());
        }
        _ => {
            extra.insert(path, value.clone());
        }
    }
}

/// A value as its cell's text (before CSV quoting).
pub fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(_) | Value::Array(_) | Value::Object(_) => json(value),
    }
}

/// Compact JSON with keys in byte order and numbers written as JavaScript
/// writes them.
pub fn json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_f64() {
            Some(f) if !(n.is_u64() || n.is_i64()) => out.push_str(&js_number(f)),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => out.push_str(&Value::String(s.clone()).to_string()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

/// `String(n)` of JavaScript: the shortest digits that read back as `n`,
/// plain from 1e-6 up to 1e21, with an exponent (`1e+21`, `1e-7`) beyond.
pub fn js_number(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    let abs = n.abs();
    if (1e-6..1e21).contains(&abs) {
        // Rust's `Display` writes the shortest round-trip digits, never an
        // exponent.
        return format!("{n}");
    }
    let text = format!("{n:e}");
    match text.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
        _ => text,
    }
}

/// One CSV field: quoted when it holds `,`, `"`, CR or LF.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn csv_cell(value: &Value, options: CsvOptions) -> String {
    let text = cell(value);
    if value.is_string() {
        csv_text(&text, options)
    } else {
        csv_field(&text)
    }
}

/// A text field: with a `'` first when it would start a formula and the
/// options say spreadsheet-safe.
fn csv_text(text: &str, options: CsvOptions) -> String {
    if options.spreadsheet_safe && text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        csv_field(&format!("'{text}"))
    } else {
        csv_field(text)
    }
}

/// One CSV record of `fields`, CRLF ended.
pub fn csv_record<I: IntoIterator<Item = String>>(fields: I) -> String {
    let mut line = fields.into_iter().collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

/// The header record of `columns` (with the [`EXTRA_COLUMN`] when `extra`).
pub fn csv_header(columns: &[String], extra: bool, options: CsvOptions) -> String {
    let names = columns.iter().map(|c| csv_text(c, options));
    if extra {
        csv_record(names.chain([EXTRA_COLUMN.to_owned()]))
    } else {
        csv_record(names)
    }
}

/// One row as a CSV record under `columns` (and its `_extra` cell when
/// `extra`: what lies outside `columns` is otherwise left out).
pub fn csv_row(row: &Value, columns: &[String], extra: bool, options: CsvOptions) -> String {
    let (cells, rest) = cells(row, columns);
    let mut fields: Vec<String> = cells.iter().map(|v| csv_cell(v, options)).collect();
    if extra {
        fields.push(if rest.is_empty() {
            String::new()
        } else {
            csv_field(&json(&Value::Object(rest.into_iter().collect())))
        });
    }
    csv_record(fields)
}

/// Rows as one CSV text: the header of [`columns`] (or `given`, then with
/// the `_extra` column), then a record per row.
pub fn to_csv(rows: &[Value], given: Option<&[String]>, options: CsvOptions) -> String {
    let (columns, extra) = match given {
        Some(given) => (given.to_vec(), true),
        None => (self::columns(rows), false),
    };
    let mut out = csv_header(&columns, extra, options);
    for row in rows {
        out.push_str(&csv_row(row, &columns, extra, options));
    }
    out
}

/// Rows as NDJSON: one compact JSON text a line.
pub fn to_ndjson(rows: &[Value]) -> String {
    let mut out = String::new();
    for row in rows {
        let _ = writeln!(out, "{}", json(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_read_as_javascript_writes_them() {
        for (n, text) in [
            (0.85, "0.85"),
            (1200.0, "1200"),
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1.5e22, "1.5e+22"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (123456789012.5, "123456789012.5"),
        ] {
            assert_eq!(js_number(n), text, "{n}");
        }
    }

    #[test]
    fn a_header_cut_at_an_object_holds_its_json_and_leaves_the_rest_to_extra() {
        let row = json!({ "id": "m1", "meta": { "b": 2, "a": [1, "x"] }, "more": { "k": null } });
        let columns = vec!["id".to_owned(), "meta".to_owned()];
        assert_eq!(
            csv_row(&row, &columns, true, CsvOptions::default()),
            "m1,\"{\"\"a\"\":[1,\"\"x\"\"],\"\"b\"\":2}\",\"{\"\"more\"\":{\"\"k\"\":null}}\"\r\n"
        );
    }

    #[test]
    fn a_null_where_others_hold_an_object_leaves_their_columns_empty() {
        let rows = [json!({ "p": null }), json!({ "p": { "close": 0.5 } })];
        let columns = columns(&rows);
        assert_eq!(columns, ["p", "p.close"]);
        assert_eq!(
            to_csv(&rows, None, CsvOptions::default()),
            "p,p.close\r\n,\r\n,0.5\r\n"
        );
    }
}
