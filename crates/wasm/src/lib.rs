//! predmarket-wasm: the JS face of predmarket.
//!
//! Responses cross into JS the fastest way measured (docs/benchmarks.md):
//! the body stays a JS string, the JS engine's `JSON.parse` builds the
//! objects, and Rust reads only what it needs from them (pagination, error
//! fields). The TypeScript types of responses come from the core's models
//! (tsify), so they cannot drift from what the Rust side decodes.
//!
//! Naming: methods, functions and options are camelCase (`listMarkets`,
//! `maxItems`); every key of a parameter object or a response is the
//! service's wire name (`include_raw`, `next_cursor`), so what a caller
//! sends reads like what comes back (as in stripe-node and octokit).

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Natively only the declarations are tested; the JS-facing code is used
// from wasm alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod call_options;
mod errors;
mod operations;
mod ops;
mod options;
mod params;
mod watch;

// The JS values' helpers, shared with the pure functions' wasm (crates/math).
use predmarket_js_values::json;

#[cfg(target_arch = "wasm32")]
mod client;
#[cfg(target_arch = "wasm32")]
mod pager;

#[cfg(target_arch = "wasm32")]
pub use client::Client;
pub use errors::is_api_error;
#[cfg(target_arch = "wasm32")]
pub use pager::{
    AwardsPager, EventsPager, FuturesPager, GamesPager, MarketsPager, PagerIterator,
    ProfileTradesPager, SeriesPager, TradesPager,
};

// The parameter types (`ListMarketsParams`, ...) are derived from the core's
// request structs (tsify); the core's contract test holds them to the
// struct's serde names, JSON Schema and query rendering. What wasm-bindgen
// does not declare is in js/types/*.d.ts, appended by `cargo xtask npm`.

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// The hand-written declarations (js/types/), with their names.
    fn declarations() -> Vec<(PathBuf, String)> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("js/types");
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("js/types") {
            let path = entry.expect("js/types entry").path();
            let text = std::fs::read_to_string(&path).expect("a declaration file");
            files.push((path, text));
        }
        assert!(!files.is_empty(), "{} holds no declarations", dir.display());
        files
    }

    #[test]
    fn the_declared_error_codes_are_the_cores() {
        let union = predmarket_core::ErrorCode::typescript_union();
        let (_, text) = declarations()
            .into_iter()
            .find(|(path, _)| path.ends_with("error-code.d.ts"))
            .expect("js/types/error-code.d.ts");
        assert!(
            text.lines().any(|line| line == union),
            "js/types/error-code.d.ts does not declare {union}"
        );
    }

    #[test]
    fn no_any_in_the_hand_written_declarations() {
        for (path, text) in declarations() {
            assert!(
                !text.contains(": any") && !text.contains("<any>"),
                "{} declares `any`",
                path.display()
            );
        }
    }
}
