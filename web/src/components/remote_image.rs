//! Pictures the service points to, loaded lazily without a referrer and
//! hidden when broken.

use crate::format;
use leptos::prelude::*;

/// A picture the service points to (a market's image, a user's avatar).
/// Only a plain http(s) URL is loaded; the request carries no referrer (the
/// image host learns nothing about what the user reads), waits until the
/// picture is near the viewport, and an image that fails to load is hidden
/// rather than shown broken. `alt` is untrusted text and stays an
/// attribute value; empty for a picture that only decorates a named item.
#[component]
pub fn RemoteImage(
    url: Option<String>,
    #[prop(into)] alt: String,
    class: &'static str,
    #[prop(default = 64)] size: u32,
) -> impl IntoView {
    let src = format::safe_url(url.as_deref())?;
    let failed = RwSignal::new(false);
    Some(view! {
        <img
            class=class
            src=src
            alt=alt
            width=size
            height=size
            loading="lazy"
            decoding="async"
            referrerpolicy="no-referrer"
            hidden=move || failed.get()
            on:error=move |_| failed.set(true)
        />
    })
}
