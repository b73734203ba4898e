//! The checks cargo runs over the workspace: fmt, clippy (native and
//! wasm32), doc; and which server suites run a second time through a proxy.

use crate::util::{Result, cmd, exec};

/// `cargo fmt --check` over the workspace.
pub(super) fn fmt_check() -> Result {
    exec(cmd("cargo").args(["fmt", "--all", "--check"]))
}

/// clippy with warnings as errors: natively for every crate but the demo
/// (a wasm-only app), then the two wasm crates for their own target, where
/// their `cfg(target_arch = "wasm32")` code lives. The workspace lints of
/// the root Cargo.toml apply to all.
pub(super) fn clippy(wasm: bool) -> Result {
    exec(cmd("cargo").args([
        "clippy",
        "--workspace",
        "--exclude",
        "predmarket-web",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    if !wasm {
        return Ok(());
    }
    exec(cmd("cargo").args([
        "clippy",
        "-p",
        "predmarket-wasm",
        "-p",
        "predmarket-js-values",
        "-p",
        "predmarket-math",
        "-p",
        "predmarket-watch",
        "-p",
        "predmarket-venues",
        "-p",
        "predmarket-venues-fees",
        "-p",
        "predmarket-web",
        "--target",
        "wasm32-unknown-unknown",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))
}

/// `cargo doc` of the workspace's own crates with rustdoc warnings (broken
/// intra-doc links among them) as errors.
pub(super) fn doc_check() -> Result {
    exec(
        cmd("cargo")
            .args([
                "doc",
                "--no-deps",
                "--workspace",
                "--exclude",
                "predmarket-web",
            ])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )
}
/// The server's test suites that check the rules of service.md over HTTP
/// (not its hardening or its proxy mode): run a second time with a proxy in
/// front (`crates/server/tests/common`, `THROUGH_PROXY`).
pub(super) const SPEC_SUITES: [&str; 9] = [
    "rules",
    "markets",
    "events",
    "trades",
    "sports",
    "platforms",
    "renamed",
    "client",
    "openapi",
];

/// Set for the tests and examples that need `redis-server`: missing, it
/// fails them instead of a SKIPPED line.
pub(super) const REQUIRE_REDIS: &str = "PREDMARKET_REQUIRE_REDIS";
