//! predmarket-web: the demo, a Leptos single-page app over predmarket-client
//! (the same Rust client the npm package wraps).

pub mod api;
pub mod components;
pub mod pages;

use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

/// Where the reference server serves the demo (`--web DIR`).
pub const BASE: &str = "/app";

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router base=BASE>
            <header class="top">
                <A href="/app/" attr:class="brand">"predmarket"</A>
                <nav aria-label="Main">
                    <A href="/app/platforms">"Platforms"</A>
                </nav>
            </header>
            <main id="main">
                <Routes fallback=|| view! { <p class="empty">"This page does not exist."</p> }>
                    <Route path=path!("/") view=pages::platforms::PlatformsPage />
                    <Route path=path!("/platforms") view=pages::platforms::PlatformsPage />
                </Routes>
            </main>
        </Router>
    }
}
