//! `docs/figures.md`: the sizes, timings and counts the docs quote, each
//! written by the command that measures it (`cargo xtask size`, `cargo
//! xtask bench venues`), so a figure is stated once and never by hand.
//! The docs cite a figure by its id (`package-wasm-gzip`); tidy refuses a
//! size typed anywhere else (see `tidy::hand_typed_figure`).
//!
//! The file is a Markdown table between two markers; [`record`] replaces
//! the rows of the figures given (adding those it has not seen) and keeps
//! the others as they are.

use crate::util::{Result, cmd, output, root};
use std::fs;

/// The file, relative to the repository's root.
pub const FILE: &str = "docs/figures.md";
const BEGIN: &str = "<!-- figures:begin -->";
const END: &str = "<!-- figures:end -->";
const HEADER: &str = "| figure | value | written by | measured |\n|---|---|---|---|";

/// One measured figure.
pub struct Figure {
    /// A stable id the docs cite (`package-wasm-gzip`).
    pub id: &'static str,
    pub value: String,
}

/// Writes `figures`, measured by `command`, into `docs/figures.md`.
pub fn record(figures: &[Figure], command: &str) -> Result {
    let path = root().join(FILE);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let when = output(cmd("date").args(["-u", "+%Y-%m-%d %H:%M UTC"])).ok_or("`date` failed")?;
    let updated = with_rows(&text, figures, command, &when)?;
    fs::write(&path, updated).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("{FILE}: {} figures written", figures.len());
    Ok(())
}

/// `text` with the rows of `figures` replaced or added.
fn with_rows(text: &str, figures: &[Figure], command: &str, when: &str) -> Result<String> {
    let start = text
        .find(BEGIN)
        .ok_or(format!("{FILE} has no `{BEGIN}` marker"))?;
    let end = text
        .find(END)
        .filter(|end| *end > start)
        .ok_or(format!("{FILE} has no `{END}` marker after `{BEGIN}`"))?;
    let table = &text[start + BEGIN.len()..end];
    let mut rows: Vec<String> = table
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(str::to_owned)
        .collect();
    for figure in figures {
        let row = format!(
            "| `{}` | {} | `{command}` | {when} |",
            figure.id, figure.value
        );
        let id = format!("| `{}` |", figure.id);
        match rows.iter_mut().find(|r| r.starts_with(&id)) {
            Some(existing) => *existing = row,
            None => rows.push(row),
        }
    }
    Ok(format!(
        "{}{BEGIN}\n{HEADER}\n{}\n{}",
        &text[..start],
        rows.join("\n"),
        &text[end..]
    ))
}

/// A byte count as the docs write it: `109,526 B`.
pub fn bytes(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# Figures\n\nintro\n\n<!-- figures:begin -->\n| figure | value | written by | measured |\n|---|---|---|---|\n| `a` | 1 B | `old` | then |\n| `b` | 2 B | `old` | then |\n<!-- figures:end -->\n\nafter\n";

    #[test]
    fn a_measured_figure_replaces_its_row_and_a_new_one_is_added() {
        let figures = [
            Figure {
                id: "b",
                value: bytes(1234567),
            },
            Figure {
                id: "c",
                value: "3 ms".into(),
            },
        ];
        let out = with_rows(DOC, &figures, "cargo xtask size", "now").unwrap();
        assert!(out.contains("| `a` | 1 B | `old` | then |"), "{out}");
        assert!(
            out.contains("| `b` | 1,234,567 B | `cargo xtask size` | now |"),
            "{out}"
        );
        assert!(out.contains("| `c` | 3 ms | `cargo xtask size` | now |"));
        assert!(!out.contains("| `b` | 2 B"));
        assert!(out.starts_with("# Figures\n\nintro\n\n"));
        assert!(out.ends_with("<!-- figures:end -->\n\nafter\n"));
    }

    #[test]
    fn a_file_without_its_markers_is_an_error() {
        assert!(with_rows("# Figures\n", &[], "x", "now").is_err());
    }

    #[test]
    fn byte_counts_are_grouped_by_thousands() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(109526), "109,526 B");
        assert_eq!(bytes(1000000), "1,000,000 B");
    }
}
