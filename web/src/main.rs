//! The demo's entry point: mounts the app on the page's body.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(predmarket_web::App);
}
