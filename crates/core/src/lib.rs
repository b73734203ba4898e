//! predmarket-core: everything the library, the demo and the reference server
//! share about the service of `service.md`: models, one request type per
//! operation with its checks, pagination, odds and orderbook math, errors.
//!
//! No I/O happens here, so all of it is tested natively and quickly.
//!
//! - [`models`]: every resource and one response type per operation, as on
//!   the wire (open enums for status-like values);
//! - [`request`]: one request type per operation; `to_http` runs the spec's
//!   checks and renders path and query; list requests implement [`Paged`];
//! - [`pagination`]: the [`Pager`] state machine (cursor and offset models,
//!   loop guard, `max_items`, restart on filter change or invalid cursor);
//! - [`game_id`]: `{Away}v{Home}{YYYYMMDD}@{LEAGUE}` ids;
//! - [`odds`]: notations, overround, no-vig, best prices, arbitrage;
//! - [`orderbook`]: top of book, depth, VWAP/slippage, yes/no complement;
//! - [`equivalence`]: is a market on one platform the same question as one
//!   on another (same, inverted, subset, superset, different, unsure, with
//!   reasons), and the candidate pairs of a list;
//! - [`fees`]: fee models per platform, a price gap between two markets net
//!   of fees at a size, with the age of its quotes;
//! - [`capabilities`]: which platform serves what (server and display only);
//! - [`rate`], [`retry`]: client-side rate budget and backoff, sans-IO;
//! - [`ledger`]: the budget one key shares across tabs (its arithmetic);
//! - [`schedule`]: the intervals of watches within the budget;
//! - [`change`]: what changed between two answers (book levels, values by
//!   path) and which errors end a watch;
//! - [`export`]: lists as CSV or NDJSON (rows, columns by path, quoting);
//! - [`history`]: the contract of `GET /history` (its path, bounds and the
//!   continuity of recorded rows);
//! - [`live`]: the contract of `GET /stream` (event kinds, stale reasons,
//!   the event's JSON, the `epoch:seq` id, caps, heartbeat and deadlines),
//!   which the server writes and every reader reads;
//! - [`sse`]: reading `GET /stream` (events from text chunks, positions
//!   for `Last-Event-ID`, the silence rule, a watcher's state, backoff,
//!   discovery);
//! - [`error`]: the one error type.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

#[macro_use]
mod open_enum;

pub mod capabilities;
pub mod change;
pub mod equivalence;
pub mod error;
pub mod export;
pub mod fees;
pub mod game_id;
pub mod history;
pub mod ledger;
pub mod live;
pub mod models;
pub mod number;
pub mod odds;
pub mod orderbook;
pub mod pagination;
pub mod rate;
pub mod request;
pub mod retry;
pub mod schedule;
pub mod sse;
pub mod time;

/// The API key the reference server accepts when started without keys, and
/// the demo's default. Public by design: it guards nothing but local data.
pub const DEMO_API_KEY: &str = "pm_demo_key";

pub use error::{ApiFailure, Error, ErrorBody, ErrorCode, FieldError};
pub use pagination::{Pager, Walk};
pub use request::{HttpRequest, PagePosition, Paged, Request};

/// TypeScript declarations of the types the derive macros cannot describe
/// (open enums), each made by `open_enum!` from its variants' wire names.
/// The wasm crate puts them into its `.d.ts`.
pub fn typescript_declarations() -> String {
    models::OPEN_ENUM_TS.join("\n")
}
