//! The demo's entry point: mounts the app on the page's body.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(predmarket_web::App);
}
