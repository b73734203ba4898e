//! predmarket-web: the demo, a Leptos single-page app over predmarket-client
//! (the same Rust client the npm package wraps).
//!
//! - `api`: the data layer (settings, the client and its session, the
//!   platform directory, item loaders, paged lists, live views);
//! - `routes`: URLs and the page state kept in the URL query;
//! - `format`: how values read;
//! - `pages`: one file per page; `components`: shared pieces;
//! - `split`: the pages loaded from their own wasm chunk when first shown.

// Nothing that reaches the network or a user may panic on an unwrap: a
// failure is a typed error. Tests may unwrap.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod api;
pub mod components;
pub mod format;
pub mod pages;
pub mod routes;
mod split;

use leptos::prelude::*;
use leptos_router::components::{A, Router};
use leptos_router::hooks::use_location;
use leptos_router::location::{BrowserUrl, LocationProvider};
use wasm_bindgen::JsCast;

pub use routes::{BASE, Page};

const THEME_KEY: &str = "predmarket.theme";

/// The colour scheme: the system's, or one the user picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    fn load() -> Self {
        let stored = web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(THEME_KEY).ok().flatten());
        match stored.as_deref() {
            Some("light") => Self::Light,
            Some("dark") => Self::Dark,
            _ => Self::System,
        }
    }

    fn next(self) -> Self {
        match self {
            Self::System => Self::Light,
            Self::Light => Self::Dark,
            Self::Dark => Self::System,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::System => "Auto",
            Self::Light => "Light",
            Self::Dark => "Dark",
        }
    }

    /// Sets `data-theme` on `<html>` (the CSS follows the system without
    /// it) and remembers the choice: a colour scheme is not a secret.
    fn apply(self) {
        let Some(window) = web_sys::window() else {
            return;
        };
        if let Some(root) = window.document().and_then(|d| d.document_element()) {
            let _ = match self {
                Self::System => root.remove_attribute("data-theme"),
                Self::Light => root.set_attribute("data-theme", "light"),
                Self::Dark => root.set_attribute("data-theme", "dark"),
            };
        }
        if let Some(storage) = window.local_storage().ok().flatten() {
            let _ = match self {
                Self::System => storage.remove_item(THEME_KEY),
                Self::Light => storage.set_item(THEME_KEY, "light"),
                Self::Dark => storage.set_item(THEME_KEY, "dark"),
            };
        }
    }
}

#[component]
fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new(Theme::load());
    Effect::new(move |_| theme.get().apply());
    view! {
        <button
            type="button"
            class="theme-toggle"
            title="Colour theme: automatic (system), light or dark"
            aria-label=move || format!("Colour theme: {}. Change theme", theme.get().label())
            on:click=move |_| theme.update(|t| *t = t.next())
        >
            <span aria-hidden="true" class="theme-icon">{move || match theme.get() {
                Theme::System => "◐",
                Theme::Light => "☀",
                Theme::Dark => "☾",
            }}</span>
            <span class="theme-label">{move || theme.get().label()}</span>
        </button>
    }
}

/// Moves focus to the page content, past the navigation (the skip link).
fn focus_main(ev: web_sys::MouseEvent) {
    ev.prevent_default();
    let main = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("main"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(main) = main {
        let _ = main.focus();
    }
}

/// The page of the current path. One memo of the path instead of the
/// router's route table: the table's generic matching code was a tenth of
/// the bundle, and a query change (filters, paging) must not rebuild the
/// page, only a path change does.
#[component]
fn Pages() -> impl IntoView {
    let location = use_location();
    let page = Memo::new(move |_| Page::of_path(&location.pathname.get()));
    // The router puts a new path into the address bar only once the view
    // says it is ready (its route table would say so); this view is ready
    // as soon as it has rendered.
    let browser = use_context::<BrowserUrl>();
    Effect::new(move |_| {
        location.pathname.track();
        if let Some(browser) = &browser {
            browser.ready_to_complete();
        }
    });
    move || match page.get() {
        Page::Markets => view! { <pages::markets::MarketsPage /> }.into_any(),
        Page::Market(id) => split::show!(market / load_market(id)),
        Page::Events => split::show!(events / load_events()),
        Page::Event(id) => split::show!(event / load_event(id)),
        Page::SeriesList => split::show!(series_list / load_series_list()),
        Page::Series(id) => split::show!(series / load_series(id)),
        Page::Sports => split::show!(sports / load_sports()),
        Page::Game(id) => split::show!(game / load_game(id)),
        Page::Future(id) => split::show!(future / load_future(id)),
        Page::Award(id) => split::show!(award / load_award(id)),
        Page::Profile(platform, user) => split::show!(profile / load_profile(platform, user)),
        Page::Compare => split::show!(compare / load_compare()),
        Page::Venues => split::show!(venues / load_venues()),
        Page::Platforms => split::show!(platforms / load_platforms()),
        Page::Settings => split::show!(settings / load_settings()),
        Page::NotFound => view! { <pages::not_found::NotFound /> }.into_any(),
    }
}

#[component]
pub fn App() -> impl IntoView {
    api::Directory::provide();
    view! {
        <Router base=BASE>
            <a class="skip-link" href="#main" on:click=focus_main>"Skip to content"</a>
            <header class="top">
                <a href="/app/" class="brand" aria-label="predmarket home">
                    <span class="logo" aria-hidden="true">"◆"</span>
                    "predmarket"
                </a>
                <nav aria-label="Main">
                    <A href="/app/markets">"Markets"</A>
                    <A href="/app/events">"Events"</A>
                    <A href="/app/series">"Series"</A>
                    <A href="/app/venues">"Venues"</A>
                    <A href="/app/sports">"Sports"</A>
                    <A href="/app/platforms">"Platforms"</A>
                    <A href="/app/settings">"Settings"</A>
                </nav>
                <ThemeToggle />
            </header>
            <main id="main" tabindex="-1">
                <Pages />
            </main>
            <footer class="foot">
                <span>"Prediction markets and sports odds from every platform, one API."</span>
                <span>
                    <components::BudgetMeter /> " · Data: " {api::Settings::load().base_url} " · "
                    <a href="/app/settings">"Change"</a>
                </span>
            </footer>
        </Router>
    }
}
