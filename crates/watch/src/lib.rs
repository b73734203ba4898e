//! predmarket-watch: the wasm of the npm package's watch streams
//! (crates/wasm/js/watch.js): predmarket-core's change rules (what
//! changed between two answers, the default intervals, which errors end a
//! watch: `change`) and, with the `live` feature, its live contract and
//! stream reader, as JS functions and classes.
//!
//! They were in the client's wasm, so every client app carried them
//! whether it watched or not. Here they are a module of their own, which
//! the package instantiates at the first watch (its generated
//! `watch-load.js`; watch.js itself is loaded by the first `watch*` call).
//! The public change rules (`bookChanges`, `valueChanges`,
//! `watchIntervalMs`, `endsWatch`) are also linked, without `live`, into
//! `predmarket/math`'s wasm (crates/math), the pure functions' entry,
//! which the main entry re-exports: one source, and an app that only
//! calls them loads no watch machinery. They read and build JS values
//! with predmarket-js-values' helpers (Reflect, not serde).

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Natively only the declarations are tested; the JS-facing code is used
// from wasm alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod change;
#[cfg(feature = "live")]
mod live;

use predmarket_js_values::json;

pub use change::{book_changes, ends_watch, value_changes, watch_interval_ms};
