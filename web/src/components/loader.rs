//! The one loading scaffold every page uses: placeholder, value or error with
//! a retry.

use super::{ErrorNotice, Loading};
use leptos::prelude::*;
use predmarket_client::Error;

/// The one loading scaffold of every page: a placeholder while `resource`
/// loads (the last view stays, dimmed through `pending`, while it reloads),
/// then its value through `children`, or the error with a retry.
#[component]
pub fn Loader<T, F, V>(
    resource: LocalResource<Result<T, Error>>,
    /// What is loading, for the placeholder ("Loading markets…").
    #[prop(into)]
    what: String,
    children: F,
    /// Set while a new value is on its way and the old one is shown.
    #[prop(optional)]
    pending: Option<RwSignal<bool>>,
) -> impl IntoView
where
    T: Clone + 'static,
    F: Fn(T) -> V + Clone + Send + 'static,
    V: IntoView + 'static,
{
    let pending = pending.unwrap_or_else(|| RwSignal::new(false));
    view! {
        <Transition fallback=move || view! { <Loading what=what.clone() /> } set_pending=pending>
            {move || {
                let children = children.clone();
                Suspend::new(async move {
                    // First polled on a later tick: by then a fresh answer
                    // may have rebuilt the page around this loader and
                    // disposed its resource (awaiting it would panic).
                    if crate::api::is_gone(resource) {
                        return ().into_any();
                    }
                    match resource.await {
                        Ok(value) => children(value).into_any(),
                        Err(error) => view! {
                            <ErrorNotice error retry=Callback::new(move |_| resource.refetch()) />
                        }
                        .into_any(),
                    }
                })
            }}
        </Transition>
    }
}

/// The frame of a page about one item: a way back to its list, then the
/// item through the scaffold.
#[component]
pub fn ItemPage<T, F, V>(
    /// The page's class (`event-page`).
    class: &'static str,
    /// The list it belongs to: (href, text).
    back: (&'static str, &'static str),
    resource: LocalResource<Result<T, Error>>,
    #[prop(into)] what: String,
    children: F,
) -> impl IntoView
where
    T: Clone + 'static,
    F: Fn(T) -> V + Clone + Send + 'static,
    V: IntoView + 'static,
{
    view! {
        <section class=format!("page {class}")>
            <nav class="crumbs" aria-label="Breadcrumb"><a href=back.0>{back.1}</a></nav>
            <Loader resource what children />
        </section>
    }
}
