//! The page of a route the demo does not have.

use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Page not found"</h1>
            <p class="empty">"There is nothing at this address."</p>
            <p><a href="/app/markets" class="button">"Browse markets"</a></p>
        </section>
    }
}
