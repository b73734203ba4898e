//! The import graph of a crate's source files, for `tidy`: an edge from a
//! file to every file whose module it names (`use crate::…`, `super::…`,
//! an inline `crate::a::b` path, a `mod` declaration), and the circles in
//! it longer than two files. Two files that name each other (a module and
//! its parent's re-exports) are one idea split in two; a longer circle is
//! a knot a reader has to hold whole.
//!
//! Text-level on purpose (no parser dependency): it reads `use` trees and
//! `crate::`/`super::`/`self::` paths, and ignores comments and strings
//! well enough for this project's code.

use std::collections::{BTreeMap, BTreeSet};

/// One source file: its path under the crate's `src/` (`api/mod.rs`) and
/// its text.
pub struct Source {
    pub path: String,
    pub text: String,
}

/// The module path of a file under `src/`: `lib.rs` and `main.rs` are the
/// root, `a/mod.rs` and `a.rs` are `a`, `a/b.rs` is `a::b`.
fn module_of(path: &str) -> Vec<String> {
    let trimmed = path.strip_suffix(".rs").unwrap_or(path);
    let mut parts: Vec<String> = trimmed.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

/// The text with comments, string and char literals blanked out (so a
/// path in a doc comment or a message is not read as an import), cut
/// before its `#[cfg(test)]` module (whose `super` is the file itself).
fn code_only(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let ident_before = i > 0 && is_ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i - 1] == '*' && chars[i] == '/') {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c == 'r' && !ident_before && matches!(next, Some('#') | Some('"')) {
            // A raw string: r"…" or r#"…"#, ended by a quote and as many #.
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            i += hashes + 2;
            while i < chars.len()
                && !(chars[i] == '"'
                    && chars[i + 1..].iter().take_while(|&&c| c == '#').count() >= hashes)
            {
                i += 1;
            }
            i += hashes + 1;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            // '\n', '\'', '\u{…}': to the closing quote.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Expands a `use` tree (`crate::a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let Some(inner) = tree[open + 1..].strip_suffix('}') else {
        return vec![tree];
    };
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// Every path of the file that starts at `crate`, `super` or `self`, as
/// written (`super::super::x`), and the modules it declares (`mod x;`).
fn references(code: &str) -> (Vec<String>, Vec<String>) {
    let mut paths = Vec::new();
    let mut children = Vec::new();
    for statement in code.split(';') {
        let trimmed = statement.trim_start();
        let body = trimmed.strip_prefix("pub ").unwrap_or(trimmed);
        let body = body
            .strip_prefix("pub(crate) ")
            .or_else(|| body.strip_prefix("pub(super) "))
            .unwrap_or(body);
        // Only the last line of a statement can hold a `mod x` or `use`
        // start: attributes and doc comments come before it.
        let last = body.rsplit('\n').next().unwrap_or(body).trim();
        if let Some(name) = last
            .strip_prefix("mod ")
            .or_else(|| last.strip_prefix("pub mod "))
            .or_else(|| last.strip_prefix("pub(crate) mod "))
            && name.chars().all(is_ident)
        {
            children.push(name.to_owned());
        }
        if let Some(at) = statement.find("use ")
            && statement[..at]
                .chars()
                .last()
                .is_none_or(|c| !is_ident(c) && c != ':')
        {
            paths.extend(expand(&statement[at + 4..]));
        }
    }
    // Inline paths (`crate::api::client()`), anywhere in the code.
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let begin = from + at;
            from = begin + start.len();
            if code[..begin]
                .chars()
                .last()
                .is_some_and(|c| is_ident(c) || c == ':')
            {
                continue;
            }
            let end = code[begin..]
                .find(|c: char| !(is_ident(c) || c == ':'))
                .map_or(code.len(), |e| begin + e);
            // `super::{a, b}` names `a` and `b`, which the `use` tree above
            // reads; cut at the brace, it would name the parent instead.
            if code[end..].starts_with('{') {
                continue;
            }
            paths.push(code[begin..end].trim_end_matches(':').to_owned());
        }
    }
    (paths, children)
}

/// The module a path names, absolute, or `None` for a path outside the
/// crate (`std::…`, another crate).
fn absolute(path: &str, here: &[String]) -> Option<Vec<String>> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut out: Vec<String> = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") | Some("super") => here.to_vec(),
        _ => return None,
    };
    // A file `a/b.rs` or `a/b/mod.rs` is module `a::b`: its `super` is `a`.
    while let Some(s) = segments.peek().copied() {
        match s {
            "self" => {
                segments.next();
            }
            "super" => {
                segments.next();
                out.pop()?;
            }
            _ => break,
        }
    }
    out.extend(segments.map(str::to_owned));
    Some(out)
}

/// File → files it names, keyed by path under `src/`.
pub fn graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = sources
        .iter()
        .map(|s| (module_of(&s.path), s.path.clone()))
        .collect();
    let mut edges = BTreeMap::new();
    for source in sources {
        let here = module_of(&source.path);
        let (paths, children) = references(&code_only(&source.text));
        let mut to = BTreeSet::new();
        for child in children {
            let mut module = here.clone();
            module.push(child);
            if let Some(file) = modules.get(&module) {
                to.insert(file.clone());
            }
        }
        for path in paths {
            let Some(mut module) = absolute(&path, &here) else {
                continue;
            };
            // The longest prefix that is a file: `crate::api::Inflight`
            // names `api/mod.rs`; `crate::api::live::watch`, `api/live.rs`.
            while !module.is_empty() && !modules.contains_key(&module) {
                module.pop();
            }
            if let Some(file) = modules.get(&module) {
                to.insert(file.clone());
            }
        }
        to.remove(&source.path);
        edges.insert(source.path.clone(), to);
    }
    edges
}

/// Every simple circle of more than two files, each once (starting at its
/// least file), in order.
pub fn long_cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in edges.keys() {
        let mut path = vec![start.clone()];
        walk(edges, start, &mut path, &mut found);
    }
    found
}

/// Extends `path` (which starts at its least file) over larger files only,
/// so each circle is found once, from its least file.
fn walk(
    edges: &BTreeMap<String, BTreeSet<String>>,
    start: &String,
    path: &mut Vec<String>,
    found: &mut Vec<Vec<String>>,
) {
    let Some(last) = path.last().cloned() else {
        return;
    };
    for next in edges.get(&last).into_iter().flatten() {
        if next == start {
            if path.len() > 2 {
                found.push(path.clone());
            }
        } else if next > start && !path.contains(next) {
            path.push(next.clone());
            walk(edges, start, path, found);
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(files: &[(&str, &str)]) -> Vec<Source> {
        files
            .iter()
            .map(|(path, text)| Source {
                path: (*path).to_owned(),
                text: (*text).to_owned(),
            })
            .collect()
    }

    #[test]
    fn modules_are_named_by_their_files() {
        assert_eq!(module_of("lib.rs"), Vec::<String>::new());
        assert_eq!(module_of("api/mod.rs"), vec!["api"]);
        assert_eq!(module_of("api/live.rs"), vec!["api", "live"]);
        assert_eq!(module_of("format.rs"), vec!["format"]);
    }

    #[test]
    fn use_trees_expand_into_paths() {
        assert_eq!(
            expand("crate::api::{self, Inflight, live::{watch, Tick}}"),
            vec![
                "crate::api::self",
                "crate::api::Inflight",
                "crate::api::live::watch",
                "crate::api::live::Tick"
            ]
        );
    }

    #[test]
    fn the_circle_of_three_files_is_found_and_a_pair_is_not() {
        let files = sources(&[
            ("lib.rs", "//! x\npub mod api;\npub mod components;\n"),
            (
                "api.rs",
                "//! x\nfn f() { crate::components::watch(1.0); }\n",
            ),
            (
                "components/mod.rs",
                "//! x\nmod loader;\npub use loader::Loader;\n",
            ),
            (
                "components/loader.rs",
                "//! x\nuse super::Loading;\n// crate::format is a comment\nfn g() { crate::api::is_gone(r); }\n",
            ),
            ("format.rs", "//! x\n"),
        ]);
        let edges = graph(&files);
        assert!(edges["components/loader.rs"].contains("api.rs"));
        assert!(edges["components/loader.rs"].contains("components/mod.rs"));
        assert!(!edges["components/loader.rs"].contains("format.rs"));
        assert_eq!(
            long_cycles(&edges),
            vec![vec![
                "api.rs".to_owned(),
                "components/mod.rs".to_owned(),
                "components/loader.rs".to_owned()
            ]]
        );
        // A parent and its child naming each other is a pair, not a knot.
        let pair = sources(&[
            ("lib.rs", "//! x\nmod a;\n"),
            ("a/mod.rs", "//! x\nmod b;\npub use b::B;\n"),
            ("a/b.rs", "//! x\nuse super::C;\n"),
        ]);
        assert!(long_cycles(&graph(&pair)).is_empty());
    }

    #[test]
    fn comments_strings_and_tests_are_not_imports() {
        let code = code_only(
            "let a = '\"'; let b = r#\"crate::x \"quoted\"\"#; /* crate::y */ crate::z::f();\n#[cfg(test)]\nmod tests { use super::*; }",
        );
        let (paths, _) = references(&code);
        assert_eq!(paths, vec!["crate::z::f"]);
    }

    #[test]
    fn a_use_group_names_its_members_not_their_parent() {
        let files = sources(&[
            ("lib.rs", "//! x\nmod a;\n"),
            ("a/mod.rs", "//! x\nmod b;\nmod c;\nmod d;\n"),
            ("a/b.rs", "//! x\nuse super::{c, d::D};\n"),
            ("a/c.rs", "//! x\n"),
            ("a/d.rs", "//! x\n"),
        ]);
        let edges = graph(&files);
        assert!(edges["a/b.rs"].contains("a/c.rs"));
        assert!(edges["a/b.rs"].contains("a/d.rs"));
        assert!(!edges["a/b.rs"].contains("a/mod.rs"));
    }

    #[test]
    fn super_climbs_from_the_files_module() {
        let files = sources(&[
            ("lib.rs", "//! x\nmod a;\nmod z;\n"),
            ("a/mod.rs", "//! x\nmod b;\n"),
            ("a/b.rs", "//! x\nuse super::super::z::Z;\n"),
            ("z.rs", "//! x\n"),
        ]);
        assert!(graph(&files)["a/b.rs"].contains("z.rs"));
    }
}
