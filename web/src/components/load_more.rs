//! "Showing N of M" and the button that fetches a list's next page.

use super::ErrorNotice;
use crate::api::More;
use crate::format;
use leptos::prelude::*;

/// "Showing N of M" and the button that fetches the next page.
#[component]
pub fn LoadMore(
    #[prop(into)] shown: Signal<usize>,
    total: Option<f64>,
    #[prop(into)] done: Signal<bool>,
    state: RwSignal<More>,
    noun: &'static str,
    on_more: Callback<()>,
) -> impl IntoView {
    let count = move || {
        let shown = shown.get();
        match total {
            Some(t) => format!(
                "Showing {} of {} {noun}",
                format::integer(Some(shown as f64)),
                format::integer(Some(t))
            ),
            None => format!("Showing {} {noun}", format::integer(Some(shown as f64))),
        }
    };
    let loading = move || state.get() == More::Loading;
    view! {
        <div class="load-more">
            <span class="count" aria-live="polite">{count}</span>
            <Show when=move || !done.get()>
                <button
                    type="button"
                    class="primary"
                    disabled=loading
                    aria-busy=move || loading().then_some("true")
                    on:click=move |_| on_more.run(())
                >
                    {move || if loading() { "Loading…" } else { "Load more" }}
                </button>
            </Show>
        </div>
        {move || match state.get() {
            More::Failed(error) => view! { <ErrorNotice error retry=on_more /> }.into_any(),
            _ => ().into_any(),
        }}
    }
}
