//! The JS face in headless Chromium. The test page is served by
//! wasm-bindgen-test-runner on its own port and the server on another, so
//! every call is cross-origin and CORS (with the X-API-Key preflight) is
//! really exercised. Run by `cargo xtask test`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Names the keys this run uses (see `api::runner_key`).
const RUNNER: &str = "browser";

mod api;
