//! predmarket-js-values: what the npm package's wasm modules (the client's,
//! crates/wasm, and the pure functions', crates/math) share to cross into
//! JS: reading and building plain JS values ([`json`]) and the core's
//! errors thrown as the package's `PredmarketError` ([`errors`]). Each
//! module links its own copy of what it uses; neither pulls the other's
//! exports.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod errors;
pub mod json;
