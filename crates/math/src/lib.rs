//! predmarket-math: the npm package's `predmarket/math` entry, the pure
//! functions on what the client returns (odds notations and arbitrage,
//! order book analytics, game ids, and the change rules of
//! predmarket-watch: what changed between two answers) in a wasm of their
//! own.
//!
//! Every client app used to carry them in the client's wasm whether it
//! called them or not (about 50 KB of its code; docs/benchmarks.md,
//! "Session 16: pure functions in their own entry"). Here they are their
//! own module, which the package's generated `math.js` instantiates on
//! the first call of any of them, so an app that imports none ships none.
//! They read their inputs and build their results with
//! predmarket-js-values' helpers (Reflect, not serde) and throw the
//! package's `PredmarketError`.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]
// Natively only the declarations are tested; the JS-facing code is used
// from wasm alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod book;
mod game_id;
mod odds;

pub use book::{
    best_ask, best_bid, depth_curve, depth_within, is_crossed, mid_price, normalize_book, spread,
    vwap_to_fill,
};
pub use game_id::{format_game_id, is_same_game, parse_game_id};
// Linked for their exports (`bookChanges`, `valueChanges`,
// `watchIntervalMs`, `endsWatch`): the watch streams' wasm has them too,
// for watch.js, from the same source.
pub use odds::{
    american_to_decimal, american_to_probability, award_quotes, best_prices, decimal_to_american,
    decimal_to_probability, find_arbitrage, future_quotes, game_quotes, implied_probability,
    no_vig_probabilities, overround, probability_to_american, probability_to_decimal,
};
pub use predmarket_watch::{book_changes, ends_watch, value_changes, watch_interval_ms};
