//! Timing assertions in tests, which tidy (`tidy.rs`) refuses: a test
//! that asserts how long something took passes or fails with the load of
//! the machine. Durations are measured by the benchmarks (ratios against
//! a baseline in the same run); tests check the order of events.
//!
//! The rule: an assertion (`assert!`, `assert_eq!`, `assert.ok(`,
//! `assert.equal(`, …) never reads the clock, whether directly
//! (`elapsed()`, `Instant::now()`, `SystemTime::now()`, `Date.now()`,
//! `performance.now()`) or through a variable the file set from one (`let
//! took = started.elapsed()`), and never compares a measured duration
//! (a field or variable named for an age, an elapsed time or how long
//! something took: `ageMs`, `took_ms`) with a number other than 0. Its
//! messages (string literals) are not read.
//!
//! A wait's ceiling is not a timing assertion: an assertion inside a loop
//! (`loop`, `while`, `for`) that polls for something is how long the test
//! is willing to wait, and so is an `if` that panics or throws
//! (`if (Date.now() > deadline) throw …`); both are left alone.

/// The clock readings.
const CLOCKS: [&str; 5] = [
    "elapsed()",
    "Instant::now()",
    "SystemTime::now()",
    "Date.now()",
    "performance.now()",
];
/// How an assertion starts, in Rust and in node's `assert`.
const ASSERTIONS: [&str; 5] = [
    "assert!(",
    "assert_eq!(",
    "assert_ne!(",
    "assert.",
    "assert(",
];

/// The timing assertions of a test file: `(line, why)`, lines from 1.
pub fn timing_assertions(text: &str) -> Vec<(usize, String)> {
    let clocked = clocked_names(text);
    let mut found = Vec::new();
    for (start, args) in assertions(text) {
        if in_loop(text, start) {
            continue;
        }
        let args = without_strings(&args);
        let line = text[..start].matches('\n').count() + 1;
        if let Some(clock) = CLOCKS.iter().find(|c| args.contains(**c)) {
            found.push((line, format!("an assertion reads the clock (`{clock}`)")));
        } else if let Some(name) = clocked.iter().find(|n| has_word(&args, n)) {
            found.push((
                line,
                format!("an assertion reads `{name}`, which the file set from the clock"),
            ));
        } else if let Some(field) = duration_compared(&args) {
            found.push((
                line,
                format!("an assertion compares the duration `{field}` with a number"),
            ));
        }
    }
    found
}

/// Whether the code at `at` is inside a loop's body, within its function:
/// the headers of the blocks around it, innermost first, up to the first
/// that is a function's.
fn in_loop(text: &str, at: usize) -> bool {
    let mut depth = 0usize;
    for (i, c) in text[..at].char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth > 0 => depth -= 1,
            '{' => {
                let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
                let header = text[line_start..i].trim();
                if header.contains("fn ") || header.contains("function") || header.contains("=>") {
                    return false;
                }
                // `loop {`, `let body = loop {`, `while x {`, `for (;;) {`.
                if header
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| matches!(w, "loop" | "while" | "for"))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// `text` without its string literals (an assertion's message may name a
/// duration without asserting one).
fn without_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                    out.push(c);
                }
            }
            None => {
                if matches!(c, '"' | '`') {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

/// Each assertion's start and its arguments (up to the matching `)`).
fn assertions(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some((at, opener)) = ASSERTIONS
        .iter()
        .filter_map(|a| text[from..].find(a).map(|i| (from + i, *a)))
        .min_by_key(|(i, _)| *i)
    {
        from = at + opener.len();
        // `xassert!(`, `my_assert(` are other things.
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let Some(open) = text[at..].find('(').map(|i| at + i) else {
            break;
        };
        let mut depth = 0usize;
        let mut end = text.len();
        for (i, c) in text[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((at, text[open + 1..end].to_owned()));
    }
    out
}

/// Names the file binds to a clock reading: `let took = x.elapsed()`,
/// `const t0 = Date.now()`, `let now = SystemTime::now()…`.
fn clocked_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for statement in text.split(';') {
        let s = statement.trim_start();
        let rest = ["let mut ", "let ", "const ", "var "]
            .iter()
            .find_map(|k| s.strip_prefix(k));
        let Some((name, value)) = rest.and_then(|r| r.split_once('=')) else {
            continue;
        };
        let name = name.split(':').next().unwrap_or("").trim();
        let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        // A deadline is a clock reading too, but it is only ever read by
        // a wait's `if`; asserting on it is caught by its clock reading.
        if plain && CLOCKS.iter().any(|c| value.contains(c)) && !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}

fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// A measured duration (`ageMs`, `age_ms`, `elapsedMs`, `took_ms`,
/// `durationMs`) compared by `<`, `>`, `<=` or `>=` with a number other
/// than 0. A duration the code decided (`waitMs`, `intervalMs`) is a
/// value like any other.
fn duration_compared(args: &str) -> Option<String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    for (i, op) in tokens.iter().enumerate() {
        if !matches!(*op, "<" | ">" | "<=" | ">=") || i == 0 {
            continue;
        }
        let left = tokens[i - 1].trim_start_matches('(');
        let right = tokens
            .get(i + 1)
            .map_or("", |t| t.trim_end_matches([',', ')']));
        for (field, number) in [(left, right), (right, left)] {
            let name = field.rsplit(['.', ':']).next().unwrap_or("");
            let lower = name.to_ascii_lowercase();
            let duration = (lower.ends_with("ms") || lower.ends_with("secs"))
                && ["age", "elapsed", "took", "duration"]
                    .iter()
                    .any(|m| lower.starts_with(m) || lower.contains(&format!("_{m}")));
            let literal =
                !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '_');
            if duration && literal && !number.trim_matches(['0', '_']).is_empty() {
                return Some(name.to_owned());
            }
        }
    }
    None
}

/// Whether `path` (relative to the root) is a test file.
pub fn is_test_file(path: &str) -> bool {
    path.ends_with(".test.mjs")
        || path.ends_with(".test.js")
        || (path.ends_with(".rs") && path.contains("/tests/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_assertion_on_a_duration_is_found() {
        let rust =
            "let took = started.elapsed();\nassert!(took < Duration::from_secs(2), \"fast\");";
        assert_eq!(timing_assertions(rust).len(), 1);
        let direct =
            "assert!(\n    std::time::Instant::now() < deadline,\n    \"never closed\"\n);";
        assert_eq!(timing_assertions(direct)[0].0, 1);
        let now = "let now = std::time::SystemTime::now()\n    .duration_since(UNIX_EPOCH);\nassert!(now >= polled + 29_000);";
        assert_eq!(timing_assertions(now)[0].0, 3);
        let js =
            "const t0 = performance.now();\nawait x();\nassert.ok(performance.now() - t0 < 500);";
        assert_eq!(timing_assertions(js)[0].0, 3);
        let field = "assert.ok(rest.at(-1).ageMs < 2_000, \"fresh again\");";
        assert!(timing_assertions(field)[0].1.contains("ageMs"));
        // A loop that is not a wait around it does not excuse it... but
        // an `if` in a function is not a loop.
        let in_if =
            "fn f() {\n    if ready {\n        assert!(started.elapsed() < LIMIT);\n    }\n}";
        assert_eq!(timing_assertions(in_if).len(), 1);
    }

    #[test]
    fn waits_and_values_that_are_not_durations_are_left_alone() {
        let wait = "const deadline = Date.now() + CEILING_MS;\nwhile (!done()) {\n  if (Date.now() > deadline) throw new Error(\"not within\");\n}";
        assert!(timing_assertions(wait).is_empty());
        let rust_wait =
            "if self.started.elapsed() >= CEILING {\n    panic!(\"waited in vain\");\n}";
        assert!(timing_assertions(rust_wait).is_empty());
        let rust_loop = "loop {\n    if done() { break; }\n    assert!(started.elapsed() < CEILING, \"never done\");\n}";
        assert!(timing_assertions(rust_loop).is_empty());
        let js_loop =
            "for (;;) {\n  if (x) {\n    assert.ok(Date.now() < deadline, \"never\");\n  }\n}";
        assert!(timing_assertions(js_loop).is_empty());
        let message = "let elapsed = started.elapsed();\nassert!(count <= allowed, \"{count} in {elapsed:.1} s\");";
        assert!(timing_assertions(message).is_empty());
        let values = "assert.ok(e.retryAfterMs > 0);\nassert.equal(watch.intervalMs, 2000);\nassert.ok(e.waitMs > 500);\nassert!(at_ms >= 1000);";
        assert!(
            timing_assertions(values).is_empty(),
            "{:?}",
            timing_assertions(values)
        );
        let order = "assert.ok(Date.parse(live.asOf) > Date.parse(stale.asOf));";
        assert!(timing_assertions(order).is_empty());
    }

    #[test]
    fn test_files_are_told_apart() {
        assert!(is_test_file("tests/node/stream.test.mjs"));
        assert!(is_test_file("crates/server/tests/proxy_paths.rs"));
        assert!(!is_test_file("tests/bench/venues.mjs"));
        assert!(!is_test_file("crates/server/src/stream/mod.rs"));
    }
}
