//! The demo's components in headless Chromium: mount, interact, let the
//! reactive system tick, assert on the DOM. Pure components need nothing
//! else; the tests of `server` talk to the reference server when
//! PREDMARKET_TEST_URL / PREDMARKET_TEST_KEY are set at build time (as
//! `cargo xtask test` does). Run with
//! `cargo test -p predmarket-web --target wasm32-unknown-unknown`.
//!
//! One test crate, one module per area of the demo; `support` holds the
//! helpers they share.
#![cfg(target_arch = "wasm32")]

#[macro_use]
mod support;

mod book;
mod capabilities;
mod charts;
mod download;
mod errors;
mod format;
mod history;
mod hostile;
mod lists;
mod odds;
mod outrights;
mod public;
mod scaffold;
mod server;
mod venues;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
