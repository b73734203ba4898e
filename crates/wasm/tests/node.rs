//! The JS face in Node, against the reference server over loopback.
//! Run by `cargo xtask test` (it starts the server and sets its URL).
#![cfg(target_arch = "wasm32")]

/// Names the keys this run uses (see `api::runner_key`).
const RUNNER: &str = "node";

mod api;
