//! `tidy`: keeps the docs and the code together, as rust-analyzer's tidy
//! test does. It fails when
//!
//! - a Rust source file does not start with its module doc (`//!`);
//! - a repository path named in `docs/*.md` or a README no longer exists,
//!   or a symbol named there (`Type::item`, `function()`, a test's
//!   snake_case name) appears in no source file;
//! - a code comment (in the code folders or a file at the repository's
//!   root, such as `Cargo.toml`) cites a path outside the repository
//!   (`../shared/…`: a clone has no such folder; what a comment needs from
//!   the spec is copied into `docs/`) or a number of an issue tracker the
//!   repository does not hold;
//! - a doc cites a path outside the repository (`../shared/…`, or a
//!   relative path that climbs out of it);
//! - the files of a crate in [`ACYCLIC`] name each other in a circle of
//!   more than two (see `imports.rs`);
//! - a doc states a measured size by hand instead of citing
//!   `docs/figures.md` (which the commands that measure write), names a
//!   symbol "in" a file that does not hold it, or has a code block that
//!   neither runs in CI nor says why not (see `doc_rules.rs`);
//! - a test asserts a duration (see `timing.rs`);
//! - a function of the matcher spans more than 120 lines (see
//!   `fn_length.rs`).

use crate::fn_length;
use crate::util::{Result, root};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Folders and files of the repository's code (scanned for comments and
/// for the names the docs cite).
const CODE_ROOTS: [&str; 5] = ["crates", "web", "xtask", "tests", ".ci"];
const CODE_EXTENSIONS: [&str; 8] = ["rs", "js", "mjs", "cjs", "ts", "toml", "sh", "py"];
/// What a run makes (the docs may name it; a clone has none of it).
const GENERATED: [&str; 3] = ["tests/artifacts/", "dist/", "target/"];
/// Top-level names a repository path in the docs starts with.
const REPO_TOP: [&str; 13] = [
    "crates/",
    "web/",
    "tests/",
    "docs/",
    "xtask/",
    ".cargo/",
    ".ci/",
    "Cargo.toml",
    "Cargo.lock",
    "Trunk.toml",
    "index.html",
    "README.md",
    "CHANGELOG.md",
];

/// Docs that may state measured sizes and durations: the generated file
/// of figures and the records of runs, each with its machine and command
/// (the benchmarks, and CI's own timings and fresh-machine runs).
const FIGURE_DOCS: [&str; 3] = [crate::figures::FILE, "docs/benchmarks.md", "docs/ci.md"];

/// Crate sources whose files must not import each other in a circle of
/// more than two files.
const ACYCLIC: [&str; 2] = ["web/src", "crates/server/src"];

pub fn run() -> Result {
    let root = root();
    let mut code = Vec::new();
    for dir in CODE_ROOTS {
        walk(&root.join(dir), &mut code)?;
    }
    // The root's own files (the workspace manifest, Trunk.toml), not its
    // folders: those outside CODE_ROOTS are docs or what a run makes.
    for entry in fs::read_dir(&root).map_err(|e| format!("{}: {e}", root.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_file() {
            code.push(path);
        }
    }
    code.retain(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| CODE_EXTENSIONS.contains(&e))
    });
    code.sort();

    let mut problems = Vec::new();
    let mut words = HashSet::new();
    for file in &code {
        let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        collect_words(&text, &mut words);
        if crate::timing::is_test_file(&shown) {
            for (line, why) in crate::timing::timing_assertions(&text) {
                problems.push(format!(
                    "{shown}:{line}: {why} (tests check the order of events; durations are benchmarks')"
                ));
            }
        }
        if file.extension().is_some_and(|e| e == "rs") && !starts_with_module_doc(&text) {
            problems.push(format!("{shown}: no module doc (`//!`) at the top"));
        }
        if shown.starts_with(fn_length::MATCHER) && shown.ends_with(".rs") {
            for f in fn_length::long_functions(&text, fn_length::LIMIT) {
                problems.push(format!(
                    "{shown}:{}: `{}` spans {} lines, over the matcher's {} (split it by idea)",
                    f.line,
                    f.name,
                    f.lines,
                    fn_length::LIMIT
                ));
            }
        }
        // tidy.rs names what it looks for.
        if file.ends_with("xtask/src/tidy.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            if line.contains("../shared/") {
                problems.push(format!(
                    "{shown}:{}: cites a path outside the repository (copy what it needs into docs/)",
                    n + 1
                ));
            }
            if let Some(number) = tracker_number(line) {
                problems.push(format!(
                    "{shown}:{}: cites \"{number}\" of a tracker the repository does not hold",
                    n + 1
                ));
            }
        }
    }

    let mut docs = vec![root.join("README.md"), root.join("crates/wasm/README.md")];
    walk(&root.join("docs"), &mut docs)?;
    // docs/spec is the service's spec as written, not a map of this code.
    docs.retain(|p| {
        p.extension().is_some_and(|e| e == "md") && !p.starts_with(root.join("docs/spec"))
    });
    for doc in &docs {
        let text = fs::read_to_string(doc).map_err(|e| format!("{}: {e}", doc.display()))?;
        let shown = doc.strip_prefix(&root).unwrap_or(doc).display().to_string();
        let dir = doc.parent().unwrap_or(&root);
        for (n, line) in text.lines().enumerate() {
            if line.contains("../shared/") || outside_paths(line).any(|p| leaves(&root, dir, p)) {
                problems.push(format!(
                    "{shown}:{}: cites a path outside the repository",
                    n + 1
                ));
            }
        }
        let may_state_figures = FIGURE_DOCS.contains(&shown.as_str());
        problems.extend(doc_problems(&root, &shown, &text, may_state_figures));
        for token in backticked(&text) {
            if let Some(path) = repo_path(token)
                && !GENERATED.iter().any(|g| path.starts_with(g))
                && !root.join(path).exists()
            {
                problems.push(format!("{shown}: names `{token}`, which does not exist"));
            } else if let Some(names) = symbol(token)
                && let Some(missing) = names.iter().find(|n| !words.contains(**n))
            {
                problems.push(format!(
                    "{shown}: names `{token}`, but `{missing}` is in no source file"
                ));
            }
        }
    }

    for dir in ACYCLIC {
        let src = root.join(dir);
        let mut files = Vec::new();
        walk(&src, &mut files)?;
        let mut sources = Vec::new();
        for file in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        {
            let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let path = file.strip_prefix(&src).unwrap_or(file);
            sources.push(crate::imports::Source {
                path: path.to_string_lossy().replace('\\', "/"),
                text,
            });
        }
        for cycle in crate::imports::long_cycles(&crate::imports::graph(&sources)) {
            let mut shown = cycle.join(" → ");
            shown.push_str(&format!(" → {}", cycle[0]));
            problems.push(format!(
                "{dir}: an import circle of {} files: {shown}",
                cycle.len()
            ));
        }
    }

    if problems.is_empty() {
        eprintln!(
            "tidy: {} code files and {} docs: nothing to report",
            code.len(),
            docs.len()
        );
        Ok(())
    } else {
        for p in &problems {
            eprintln!("tidy: {p}");
        }
        Err(format!("tidy: {} problems", problems.len()))
    }
}

/// What `doc_rules` finds in one doc (`shown`: its path from the root):
/// hand-typed sizes (unless `may_state_figures`), pointers to a file that
/// does not hold their symbol, code blocks that neither run nor say why.
fn doc_problems(root: &Path, shown: &str, text: &str, may_state_figures: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut n = 0;
    while n < lines.len() {
        let line = lines[n];
        if line.trim_start().starts_with("```") {
            let (close, problem) = crate::doc_rules::code_block(&lines, n);
            if let Some(problem) = problem {
                problems.push(format!("{shown}:{}: {problem}", n + 1));
            }
            n = close + 1;
            continue;
        }
        if !may_state_figures {
            let figures = crate::doc_rules::hand_typed_figures(line)
                .into_iter()
                .chain(crate::doc_rules::hand_typed_timings(line));
            for figure in figures {
                problems.push(format!(
                    "{shown}:{}: states `{figure}` by hand: cite its id in {} (written by the command that measures it)",
                    n + 1,
                    crate::figures::FILE
                ));
            }
        }
        // Pointers are read by paragraph: "`symbol` in" may end a line.
        if n == 0 || lines[n - 1].trim().is_empty() {
            let paragraph: Vec<&str> = lines[n..]
                .iter()
                .take_while(|l| !l.trim().is_empty() && !l.trim_start().starts_with("```"))
                .copied()
                .collect();
            problems.extend(pointer_problems(
                root,
                &format!("{shown}:{}", n + 1),
                &paragraph.join(" "),
            ));
        }
        n += 1;
    }
    problems
}

/// A paragraph's pointers into files that do not hold their symbol, and
/// its pointers that name no symbol (`at`: where it starts).
fn pointer_problems(root: &Path, at: &str, paragraph: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (symbol, path) in crate::doc_rules::pointers(paragraph) {
        let file = root.join(path.trim_end_matches(['.', ',', ':']));
        if let Ok(source) = fs::read_to_string(&file) {
            let mut words = HashSet::new();
            collect_words(&source, &mut words);
            if !words.contains(symbol) {
                problems.push(format!(
                    "{at}: points at `{symbol}` in `{path}`, which does not hold it"
                ));
            }
        }
    }
    for path in crate::doc_rules::unnamed_pointers(paragraph) {
        problems.push(format!(
            "{at}: points into `{path}` without naming the symbol (\"the table, `NAME` in `{path}`\"), so a move cannot be caught"
        ));
    }
    problems
}

/// The relative paths that climb (`../…`) in a line of a doc, as a
/// backticked name or a Markdown link's target.
fn outside_paths(line: &str) -> impl Iterator<Item = &str> {
    line.split(['`', '(', ')', ' '])
        .filter(|token| token.starts_with("../"))
}

/// Whether `path`, relative to `dir`, names a place outside `root`.
fn leaves(root: &Path, dir: &Path, path: &str) -> bool {
    let mut at: Vec<_> = dir
        .strip_prefix(root)
        .map(|d| d.components().collect())
        .unwrap_or_default();
    for part in path.split('/') {
        match part {
            ".." if at.pop().is_none() => return true,
            ".." | "." | "" => {}
            _ => at.push(std::path::Component::Normal(part.as_ref())),
        }
    }
    false
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    if !dir.exists() {
        return Ok(());
    }
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if matches!(
            name,
            "target" | "node_modules" | "dist" | "artifacts" | "locks"
        ) {
            continue;
        }
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn starts_with_module_doc(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with("//!"))
}

fn collect_words(text: &str, words: &mut HashSet<String>) {
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if !word.is_empty() && !words.contains(word) {
            words.insert(word.to_owned());
        }
    }
}

/// "issue 12", "Issue #7", "issues 3": a number of the project's tracker,
/// which a clone does not hold. Another project's tracker, named with its
/// repository (`trunk-rs/trunk#1022`), is fine.
fn tracker_number(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("issue") {
        let start = from + at;
        from = start + "issue".len();
        let before_ok = start == 0 || !lower.as_bytes()[start - 1].is_ascii_alphanumeric();
        let rest = lower[from..].strip_prefix('s').unwrap_or(&lower[from..]);
        let rest = rest.strip_prefix(' ').unwrap_or("");
        let rest = rest.strip_prefix('#').unwrap_or(rest);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if before_ok && !digits.is_empty() {
            return Some(format!("issue {digits}"));
        }
    }
    None
}

/// The text between single backticks, outside fenced code blocks.
fn backticked(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
            out.push(inside);
        }
    }
    out
}

/// A path of this repository (`crates/core/src/lib.rs`), without the
/// placeholders and globs docs use for families of files.
fn repo_path(token: &str) -> Option<&str> {
    let path = token.trim_end_matches(['.', ',', ':']);
    let plain = !path.contains(['<', '>', '*', '?', ' ', '{', '}', '…']);
    (plain && REPO_TOP.iter().any(|top| path.starts_with(top))).then_some(path)
}

/// The names a symbol reference asks for: `Type::item` and
/// `module::function()` (each segment), `function()`, and test names
/// (snake_case with at least two underscores).
fn symbol(token: &str) -> Option<Vec<&str>> {
    let name = token.strip_suffix("()").unwrap_or(token);
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    let segments: Vec<&str> = name.split("::").collect();
    if !segments.iter().all(|s| ident(s)) {
        return None;
    }
    let called = token.ends_with("()");
    let test_name = segments.len() == 1
        && name.matches('_').count() >= 2
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
    (segments.len() > 1 || called || test_name).then_some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracker_numbers_are_found_and_other_trackers_are_not() {
        assert_eq!(tracker_number("see issue 12"), Some("issue 12".into()));
        assert_eq!(tracker_number("(Issue #7)"), Some("issue 7".into()));
        assert_eq!(tracker_number("issues 3 and 4"), Some("issue 3".into()));
        assert_eq!(tracker_number("trunk-rs/trunk#1022"), None);
        assert_eq!(tracker_number("an issue with 3 parts"), None);
        assert_eq!(tracker_number("reissue 5"), None);
    }

    #[test]
    fn docs_tokens_are_read_as_paths_or_symbols() {
        assert_eq!(
            repo_path("crates/core/src/lib.rs"),
            Some("crates/core/src/lib.rs")
        );
        assert_eq!(repo_path("crates/core/src/request/<group>.rs"), None);
        assert_eq!(repo_path("/markets"), None);
        assert_eq!(symbol("Request::to_http"), Some(vec!["Request", "to_http"]));
        assert_eq!(symbol("awards()"), Some(vec!["awards"]));
        assert_eq!(
            symbol("a_pager_ends_on_a_list"),
            Some(vec!["a_pager_ends_on_a_list"])
        );
        assert_eq!(symbol("limit"), None);
        assert_eq!(symbol("next_cursor"), None);
    }

    #[test]
    fn fenced_blocks_are_not_read() {
        let text = "a `crates/x` b\n```\n`crates/y`\n```\nc `z()`";
        assert_eq!(backticked(text), vec!["crates/x", "z()"]);
    }

    #[test]
    fn paths_that_climb_out_of_the_repository_are_found() {
        let root = Path::new("/r");
        let docs = Path::new("/r/docs");
        let cited: Vec<_> = outside_paths("see `../shared/a.md` and [b](../README.md)").collect();
        assert_eq!(cited, ["../shared/a.md", "../README.md"]);
        assert!(leaves(root, docs, "../../shared/a.md"));
        assert!(!leaves(root, docs, "../README.md"));
        assert!(leaves(root, root, "../x"));
    }

    /// A repository of one source file, for the doc rules.
    fn repository(test: &str) -> PathBuf {
        let root = std::env::temp_dir().join(format!("tidy-{test}-{}", std::process::id()));
        let src = root.join("crates/core/src");
        fs::create_dir_all(&src).unwrap();
        fs::write(
            src.join("operation.rs"),
            "macro_rules! for_each_operation {}",
        )
        .unwrap();
        fs::write(src.join("cache.rs"), "pub struct Cache;").unwrap();
        root
    }

    #[test]
    fn a_hand_typed_size_fails_tidy_and_a_cited_one_does_not() {
        let root = repository("a_hand_typed_size_fa");
        let typed = "The wasm is 107,655 B gzip (`cargo xtask size`).\n";
        let problems = doc_problems(&root, "README.md", typed, false);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("states `107,655 B` by hand"));
        let cited = "Its size is `package-wasm-gzip` in docs/figures.md.\n";
        assert!(doc_problems(&root, "README.md", cited, false).is_empty());
        // The generated file and the record of runs state them.
        assert!(doc_problems(&root, "docs/figures.md", typed, true).is_empty());
        let timed = "The demo is ready in 649 s on a cold clone.\n";
        let problems = doc_problems(&root, "README.md", timed, false);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("states `649 s` by hand"));
    }

    #[test]
    fn a_pointer_to_a_file_without_its_symbol_fails_tidy() {
        let root = repository("a_pointer_to_a_file_");
        let stale = "the table (`for_each_operation!` in\n`crates/core/src/cache.rs`)\n";
        let problems = doc_problems(&root, "docs/proxy.md", stale, false);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("points at `for_each_operation`"));
        // The issue's own case: a table said to be in a file, unnamed.
        let unnamed = "league info 5 min (table in `crates/core/src/cache.rs`), then\n";
        let problems = doc_problems(&root, "docs/proxy.md", unnamed, false);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("without naming the symbol"));
        let right = "the table (`for_each_operation!` in `crates/core/src/operation.rs`)\n";
        assert!(doc_problems(&root, "docs/proxy.md", right, false).is_empty());
    }

    #[test]
    fn a_code_block_that_neither_runs_nor_says_why_fails_tidy() {
        let root = repository("a_code_block_that_ne");
        let silent = "text\n```ts\nconst x = 1;\n```\n";
        assert_eq!(doc_problems(&root, "README.md", silent, false).len(), 1);
        let said = "text\n```ts\nconst x = 1;\n```\n*Not run by the tests: a fragment.*\n";
        assert!(doc_problems(&root, "README.md", said, false).is_empty());
        // Sizes inside a code block are its output, not prose.
        let output = "```\n107,655 B\n```\n";
        assert!(doc_problems(&root, "README.md", output, false).is_empty());
    }

    #[test]
    fn module_docs_may_follow_blank_lines() {
        assert!(starts_with_module_doc("\n//! doc\nfn x() {}"));
        assert!(!starts_with_module_doc("// plain\n//! doc"));
    }
}
