//! What tidy (`tidy.rs`) asks of a doc's text, line by line: no figure
//! typed by hand (sizes and measured durations come from
//! `docs/figures.md`, written by the commands that measure them), pointers whose symbol is in the file they
//! name, and code blocks that either run in CI or say why not.

/// Units of a measured size. Configured limits are written in KiB and MiB
/// (`maxBytes` 512 KiB), measurements in B, KB and MB: a size in those
/// units, or any size said to be gzip'd, is a measurement.
const MEASURED_UNITS: [&str; 5] = ["B", "KB", "kB", "MB", "GB"];
const LIMIT_UNITS: [&str; 2] = ["KiB", "MiB"];

/// The sizes a line states by hand: a number with a unit of
/// [`MEASURED_UNITS`], or of [`LIMIT_UNITS`] followed by "gzip".
/// Backticked text is left out (a figure's id, a flag's value).
pub fn hand_typed_figures(line: &str) -> Vec<String> {
    let prose = without_backticks(line);
    let words: Vec<&str> = prose.split_whitespace().collect();
    let mut found = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let word = word.trim_start_matches(['(', '~', '≈', '[']);
        // "107,655 B" and "107,655B"; "105.1 KB", "1 000 KB".
        let (number, unit) = match split_number(word) {
            Some((n, "")) => match words.get(i + 1) {
                Some(next) => (n, next.trim_end_matches([',', '.', ';', ':', ')', ']'])),
                None => continue,
            },
            Some((n, unit)) => (n, unit.trim_end_matches([',', '.', ';', ':', ')', ']'])),
            None => continue,
        };
        let after = words
            .get(i + if word.ends_with(unit) { 1 } else { 2 })
            .copied()
            .unwrap_or("");
        let measured = MEASURED_UNITS.contains(&unit)
            || (LIMIT_UNITS.contains(&unit) && after.starts_with("gzip"));
        if measured {
            found.push(format!("{number} {unit}"));
        }
    }
    found
}

/// Words that make a duration a measurement ("ready in 649 s", "about
/// 1 min warm", "took 3 s") rather than a setting ("polled every 5 s",
/// "a timeout of 10 s"), which docs state as they are configured.
const MEASURED_TIME_CUES: [&str; 8] = [
    "took", "measured", "ready", "wall", "warm", "cold", "finished", "elapsed",
];
const TIME_UNITS: [&str; 8] = [
    "ms", "s", "min", "mins", "seconds", "minutes", "hour", "hours",
];

/// The durations a line states by hand as measured: a number with a
/// unit of [`TIME_UNITS`] in a line that also says how it was measured
/// (a word of [`MEASURED_TIME_CUES`]). Backticked text is left out.
pub fn hand_typed_timings(line: &str) -> Vec<String> {
    let prose = without_backticks(line).to_lowercase();
    let words: Vec<&str> = prose
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | ';' | '(' | ')' | '~' | '≈'))
        .filter(|w| !w.is_empty())
        .collect();
    let cued = words
        .iter()
        .any(|w| MEASURED_TIME_CUES.contains(&w.trim_end_matches([',', '.'])));
    if !cued {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let (number, unit) = match split_number(word) {
            Some((n, "")) => match words.get(i + 1) {
                Some(next) => (n, next.trim_end_matches([',', '.'])),
                None => continue,
            },
            Some((n, unit)) => (n, unit.trim_end_matches([',', '.'])),
            None => continue,
        };
        if TIME_UNITS.contains(&unit) {
            found.push(format!("{number} {unit}"));
        }
    }
    found
}

/// A leading number (digits, with `,` `.` `_` between digits) and the
/// rest of the word.
fn split_number(word: &str) -> Option<(&str, &str)> {
    let end = word
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || (matches!(c, ',' | '.' | '_')
                    && word[i + 1..].starts_with(|d: char| d.is_ascii_digit())))
        })
        .map_or(word.len(), |(i, _)| i);
    (end > 0 && word.starts_with(|c: char| c.is_ascii_digit()))
        .then(|| (&word[..end], &word[end..]))
}

fn without_backticks(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// Pointers a line makes from a symbol to a file: "`SYMBOL` in `PATH`"
/// and "`SYMBOL` (`PATH`)". Each is `(symbol, path)`, the symbol reduced
/// to the name the file must hold (`for_each_operation!` →
/// `for_each_operation`, `change::ends_watch()` → `ends_watch`).
pub fn pointers(line: &str) -> Vec<(&str, &str)> {
    let parts: Vec<&str> = line.split('`').collect();
    let mut found = Vec::new();
    // Odd indices are backticked; the text between two of them decides.
    let mut i = 1;
    while i + 2 < parts.len() {
        let between = parts[i + 1].trim();
        if between == "in" || between == "(" || between == "in the file" {
            let name = parts[i]
                .trim_end_matches("()")
                .trim_end_matches('!')
                .rsplit("::")
                .next()
                .unwrap_or("");
            let ident = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if ident && parts[i + 2].contains('/') {
                found.push((name, parts[i + 2]));
            }
        }
        i += 2;
    }
    found
}

/// Nouns that point at one symbol: "the table in `PATH`" must name it
/// ("the table, `for_each_operation!` in `PATH`"), or tidy cannot tell
/// when it moves elsewhere.
const POINTING_NOUNS: [&str; 8] = [
    "table", "list", "constant", "function", "rule", "column", "struct", "enum",
];

/// Files a line points into with a noun and no symbol ("the table in
/// `crates/server/src/proxy/cache.rs`"): the paths.
pub fn unnamed_pointers(line: &str) -> Vec<&str> {
    let parts: Vec<&str> = line.split('`').collect();
    let mut found = Vec::new();
    let mut i = 1;
    while i < parts.len() {
        let before: Vec<&str> = parts[i - 1].split_whitespace().collect();
        let path = parts[i];
        let file = path.contains('/') && path.rsplit('/').next().is_some_and(|n| n.contains('.'));
        if let [.., noun, "in"] = before.as_slice()
            && POINTING_NOUNS.contains(&noun.trim_start_matches('('))
            && file
        {
            found.push(path);
        }
        i += 2;
    }
    found
}

/// The languages whose fenced blocks are code that can run.
const CODE: [&str; 8] = [
    "js",
    "javascript",
    "mjs",
    "ts",
    "typescript",
    "sh",
    "bash",
    "shell",
];
/// Languages the tests run (tests/node/examples.mjs: Node, a shell, or
/// Chromium for `js browser`).
const RUN: [&str; 6] = ["js", "javascript", "mjs", "sh", "bash", "shell"];
/// What the paragraph after a block that is not run begins with.
pub const NOT_RUN: &str = "*Not run by the tests: ";

/// A code block's problem: its language has no runner and it does not
/// say why it is not run, or its marker gives no reason. `None` for a
/// block that runs, says why not, or is not code (output, a tree).
/// `lines` is the doc; `open` the index of the fence that opens the
/// block. Returns the index of the closing fence too, so the caller
/// skips the block.
pub fn code_block(lines: &[&str], open: usize) -> (usize, Option<String>) {
    let lang = lines[open]
        .trim_start()
        .trim_start_matches('`')
        .split_whitespace()
        .next()
        .unwrap_or("");
    let Some(close) = (open + 1..lines.len()).find(|&i| lines[i].trim_start().starts_with("```"))
    else {
        return (
            lines.len(),
            Some("a code block that is never closed".into()),
        );
    };
    if !CODE.contains(&lang) {
        return (close, None);
    }
    let after: Vec<&str> = lines[close + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .copied()
        .collect();
    let after = after.join(" ");
    let problem = match after.strip_prefix(NOT_RUN) {
        Some(rest) => {
            let reason = rest.trim_end_matches('*').trim();
            (!rest.ends_with('*') || reason.len() < 3)
                .then(|| format!("its `{NOT_RUN}…*` line gives no reason"))
        }
        None => (!RUN.contains(&lang)).then(|| {
            format!("a `{lang}` block the tests cannot run, with no `{NOT_RUN}REASON.*` after it")
        }),
    };
    (close, problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_typed_size_is_found() {
        assert_eq!(
            hand_typed_figures("its wasm is 107,655 B gzip (105.1 KB)."),
            ["107,655 B", "105.1 KB"]
        );
        assert_eq!(
            hand_typed_figures("its own wasm (about 112 KB gzip)"),
            ["112 KB"]
        );
        assert_eq!(hand_typed_figures("package ≤ 150KB gzip"), ["150 KB"]);
        assert_eq!(hand_typed_figures("the limit: 108 KiB gzip"), ["108 KiB"]);
        assert_eq!(hand_typed_figures("9.3 MB of JSON"), ["9.3 MB"]);
    }

    #[test]
    fn limits_ids_and_counts_are_not_figures() {
        assert!(hand_typed_figures("none whose JSON is over `maxBytes` (512 KiB).").is_empty());
        assert!(hand_typed_figures("see `package-wasm-gzip` in figures.md").is_empty());
        assert!(hand_typed_figures("`--cache-mb 64`, 100 requests a minute").is_empty());
        assert!(hand_typed_figures("`107,655 B` in a code span").is_empty());
        assert!(hand_typed_figures("plan B is 2 Bees").is_empty());
    }

    #[test]
    fn a_measured_duration_is_found_and_a_setting_is_not() {
        assert_eq!(
            hand_typed_timings("fmt, tidy, clippy: about 1 min warm, no browser"),
            ["1 min"]
        );
        assert_eq!(
            hand_typed_timings("the demo was ready in 649 s."),
            ["649 s"]
        );
        assert_eq!(hand_typed_timings("it took 2.5s (measured)"), ["2.5 s"]);
        assert!(hand_typed_timings("books are polled every 2 s, markets 10 s").is_empty());
        assert!(hand_typed_timings("a timeout of 10 s, then `ready in 3 s`").is_empty());
        assert!(hand_typed_timings("a warm build with 5 steps").is_empty());
    }

    #[test]
    fn pointers_name_a_symbol_and_a_file() {
        assert_eq!(
            pointers("the table in `crates/server/src/proxy/cache.rs`"),
            Vec::<(&str, &str)>::new()
        );
        assert_eq!(
            pointers("`for_each_operation!` in `crates/core/src/request/operation.rs`)"),
            [("for_each_operation", "crates/core/src/request/operation.rs")]
        );
        assert_eq!(
            pointers("the core's `change::ends_watch()` (`crates/core/src/change.rs`)"),
            [("ends_watch", "crates/core/src/change.rs")]
        );
        assert_eq!(pointers("`a` and `b/c`"), Vec::<(&str, &str)>::new());
    }

    #[test]
    fn a_pointer_without_its_symbol_is_found() {
        assert_eq!(
            unnamed_pointers("(table in `crates/server/src/proxy/cache.rs`), then"),
            ["crates/server/src/proxy/cache.rs"]
        );
        assert!(unnamed_pointers("a request struct in `crates/core/src/request/`").is_empty());
        assert!(unnamed_pointers("`for_each_operation!` in `crates/core/src/x.rs`").is_empty());
        assert!(unnamed_pointers("the tests in `tests/node/a.test.mjs`").is_empty());
    }

    #[test]
    fn code_blocks_run_or_say_why_not() {
        let doc = |text: &'static str| text.lines().collect::<Vec<_>>();
        let runs = doc("```js\nx()\n```\nafter");
        assert_eq!(code_block(&runs, 0), (2, None));
        let output = doc("```\n| a |\n```");
        assert_eq!(code_block(&output, 0), (2, None));
        let said =
            doc("```ts\nx\n```\n*Not run by the tests: it needs a key\nof the public service.*\n");
        assert_eq!(code_block(&said, 0), (2, None));
        let silent = doc("```ts\nx\n```\n\ntext");
        assert!(
            code_block(&silent, 0)
                .1
                .is_some_and(|p| p.contains("`ts` block"))
        );
        let no_reason = doc("```sh\nx\n```\n*Not run by the tests: *");
        assert!(
            code_block(&no_reason, 0)
                .1
                .is_some_and(|p| p.contains("no reason"))
        );
        let open = doc("```sh\nx");
        assert!(code_block(&open, 0).1.is_some());
    }
}
