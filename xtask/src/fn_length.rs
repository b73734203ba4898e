//! How long each function of a Rust file is, for `tidy`'s rule that the
//! matcher's functions stay short enough to read as one rule each.
//!
//! The files are rustfmt's output (the `fmt` step holds that), so a
//! function ends at the first line that is its header's indentation
//! followed by a lone `}`: no parser is needed, and a brace inside a
//! string or a comment cannot mislead the count.

/// The matcher's folder, whose functions [`LIMIT`] holds.
pub const MATCHER: &str = "crates/core/src/equivalence/";

/// The most lines a function of the matcher may span, its header and its
/// closing brace included.
pub const LIMIT: usize = 120;

/// One function longer than a limit: where its header is (1-based), its
/// name and how many lines it spans.
#[derive(Debug, PartialEq)]
pub struct LongFunction {
    pub line: usize,
    pub name: String,
    pub lines: usize,
}

/// Every function of `text` (free functions, methods, nested ones: a
/// nested function counts on its own and inside its parent) that spans
/// more than `limit` lines.
pub fn long_functions(text: &str, limit: usize) -> Vec<LongFunction> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some((indent, name)) = header(line) else {
            continue;
        };
        let close = format!("{indent}}}");
        let Some(end) = lines[start + 1..]
            .iter()
            .position(|l| l.trim_end() == close)
        else {
            continue;
        };
        let span = end + 2;
        if span > limit {
            found.push(LongFunction {
                line: start + 1,
                name: name.to_string(),
                lines: span,
            });
        }
    }
    found
}

/// A function header with a body (`fn name(` not ending in `;`, as a
/// trait's declaration does): its indentation and name.
fn header(line: &str) -> Option<(&str, &str)> {
    let indent = &line[..line.len() - line.trim_start().len()];
    let mut rest = line.trim_start();
    if rest.starts_with("//") || rest.trim_end().ends_with(';') {
        return None;
    }
    // Qualifiers rustfmt writes before `fn`, in its order.
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some((indent, &rest[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(indent: &str, name: &str, body_lines: usize) -> String {
        let mut text = format!("{indent}pub(crate) fn {name}(x: u8) -> u8 {{\n");
        for _ in 0..body_lines {
            text.push_str(&format!("{indent}    let _ = \"}}\";\n"));
        }
        text.push_str(&format!("{indent}}}\n"));
        text
    }

    #[test]
    fn a_function_over_the_limit_is_named_with_its_span() {
        let text = format!(
            "//! doc\n{}{}",
            function("", "short", 3),
            function("", "long", 10)
        );
        assert_eq!(
            long_functions(&text, 11),
            vec![LongFunction {
                line: 7,
                name: "long".to_string(),
                lines: 12
            }]
        );
    }

    #[test]
    fn a_method_ends_at_its_own_indentation_and_a_declaration_has_no_body() {
        let text = format!(
            "trait T {{\n    fn declared(&self);\n}}\nimpl S {{\n{}}}\n",
            function("    ", "method", 5)
        );
        let found = long_functions(&text, 6);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].name.as_str(), found[0].lines), ("method", 7));
        assert!(long_functions(&text, 7).is_empty());
    }
}
