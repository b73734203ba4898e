//! predmarket-core: everything the library, the demo and the reference server
//! share about the service of `service.md`: models, one request type per
//! operation with its checks, pagination, odds and orderbook math, errors.
//!
//! No I/O happens here, so all of it is tested natively and quickly.

#[macro_use]
mod open_enum;

pub mod error;
pub mod game_id;
pub mod models;
pub mod odds;
pub mod orderbook;
pub mod pagination;
pub mod rate;
pub mod request;
pub mod retry;

/// The API key the reference server accepts when started without keys, and
/// the demo's default. Public by design: it guards nothing but local data.
pub const DEMO_API_KEY: &str = "pm_demo_key";

pub use error::{ApiFailure, Error, ErrorBody, ErrorCode};
pub use pagination::Pager;
pub use request::{HttpRequest, PagePosition, Paged, Request};

/// TypeScript declarations of the types the derive macros cannot describe
/// (open enums). The wasm crate puts them into its `.d.ts`.
pub fn typescript_declarations() -> String {
    models::OPEN_ENUM_TS.join("\n")
}
