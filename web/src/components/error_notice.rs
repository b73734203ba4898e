use leptos::prelude::*;
use predmarket_client::{Error, ErrorCode};

/// An error as a person can act on it.
#[component]
pub fn ErrorNotice(error: Error) -> impl IntoView {
    let hint = match error.code() {
        ErrorCode::Unauthorized => "The service refused the API key. Check it in Settings.",
        ErrorCode::RateLimited => "Too many requests: wait a moment and try again.",
        ErrorCode::NetworkError => "The service could not be reached. Is the server running?",
        ErrorCode::NotFound => "Nothing was found under this id.",
        _ => "Something went wrong.",
    };
    view! {
        <div class="notice error" role="alert">
            <strong>{hint}</strong>
            <p class="detail">{error.to_string()}</p>
        </div>
    }
}
