//! Proxy mode: `predmarket-server --upstream URL` serves the operations of
//! the core's table from another service (the public one, or another
//! predmarket-server) instead of local data. It forwards operations, never
//! paths.
//!
//! A request's way: the visitor's key is checked as on the local server
//! (`auth::check`), or with `--public-proxy` the visitor is its client
//! address, admitted by its buckets and cap (`visitors`); the route of its
//! operation reads it with the operation's core request type, as the local
//! server does (a bad parameter is the same 400; undeclared ones are
//! dropped), and renders the request to send from that typed value, which
//! is also the cache key; its URL must stay under the upstream's base path
//! (`upstream::Target`). A fresh entry is served at once, one past its
//! freshness is served while one background request refreshes it;
//! otherwise the request joins the identical request in flight or starts
//! one (single flight). That one request asks Redis (with `--redis`), then
//! passes the circuit breaker (`breaker`; a half-open circuit first sends
//! the proxy's own probe), waits for a slot of the upstream budget in its
//! visitor's fair queue (`budget`) and goes upstream with the upstream key
//! (`upstream`). Its answer is judged (`judge`): JSON objects are served
//! and cached, typed errors pass through with the upstream's codes, faults
//! become typed errors, and when the upstream fails a stale entry is served
//! instead, marked `X-Cache: STALE` and `meta.stale`.
//!
//! The parts, in the order of a request's phases: `request` (routes, who
//! asks) → `key` (the cache key and what the cache holds for it) → `admit`
//! (single flight, Redis, the breaker) → `budget` (an upstream slot) →
//! `send` (the request upstream) → `judge` (the verdict on its answer) →
//! `store` (the cache, Redis) → `respond` (the visitor's answer; `stale`
//! marks a stale one). `state` holds what they share and starts it.

mod admit;
pub mod breaker;
pub mod budget;
pub mod cache;
pub mod fresh;
pub mod judge;
mod key;
pub mod metrics;
mod request;
mod respond;
mod send;
pub mod settings;
pub mod shared;
pub mod stale;
mod state;
mod store;
pub mod upstream;
pub mod visitors;

pub use request::{behind_visitor_key, metrics_router, operations, poll};
pub use settings::ProxyArgs;
pub use state::{AbortOnDrop, ProxyState, Settings, start};
