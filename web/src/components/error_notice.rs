//! An error as a person can act on it: a key to set, a countdown after a 429,
//! or a retry.

use leptos::leptos_dom::helpers::IntervalHandle;
use leptos::prelude::*;
use predmarket_client::{Error, ErrorCode};
use std::time::Duration;

/// Seconds to wait after a 429 that did not say how long.
const DEFAULT_RETRY_SECS: u64 = 5;

/// An error as a person can act on it: a 401 asks for a key (with the way
/// to Settings), a 429 counts down and retries by itself, failures that may
/// pass offer "Try again". An aborted request shows nothing: the user left.
#[component]
pub fn ErrorNotice(
    error: Error,
    #[prop(optional, into)] retry: Option<Callback<()>>,
) -> impl IntoView {
    let code = error.code();
    if code == ErrorCode::Aborted {
        return ().into_any();
    }
    let detail = error.to_string();
    let (title, hint): (&str, &str) = match code {
        ErrorCode::Unauthorized => (
            "The service refused the API key.",
            "Enter a valid key in Settings, then come back.",
        ),
        ErrorCode::RateLimited => ("Too many requests.", "The service asked us to slow down."),
        ErrorCode::NetworkError => (
            "The service could not be reached.",
            "Check the base URL in Settings and that the server is running.",
        ),
        ErrorCode::Timeout => ("The service took too long to answer.", ""),
        ErrorCode::NotFound => (
            "Nothing was found under this id.",
            "It may have been removed, or the link is wrong.",
        ),
        ErrorCode::PlatformUnavailable => ("A platform behind the service is unavailable.", ""),
        ErrorCode::ValidationError => ("The request was not accepted.", ""),
        ErrorCode::InvalidCursor => ("The list moved on while paging.", "Start the list again."),
        ErrorCode::DecodeError => ("The answer could not be read.", ""),
        ErrorCode::PaginationLoop => ("Paging stopped: the service repeated a page.", ""),
        _ => ("The service failed to answer.", ""),
    };
    let retry_after = (code == ErrorCode::RateLimited).then(|| {
        error
            .retry_after_ms()
            .map(|ms| ms.div_ceil(1000))
            .unwrap_or(DEFAULT_RETRY_SECS)
            .max(1)
    });
    let retryable = retry.is_some() && (error.is_retryable() || code == ErrorCode::InvalidCursor);
    view! {
        <div class="notice error" role="alert" data-code=code.as_str()>
            <strong>{title}</strong>
            {(!hint.is_empty()).then(|| view! { <span class="hint">" " {hint}</span> })}
            {(code == ErrorCode::Unauthorized).then(|| view! {
                <p><a href="/app/settings" class="button">"Open Settings"</a></p>
            })}
            {match (retry_after, retry) {
                (Some(secs), Some(retry)) => view! { <Countdown secs retry /> }.into_any(),
                (_, Some(retry)) if retryable => view! {
                    <p><button type="button" on:click=move |_| retry.run(())>"Try again"</button></p>
                }
                .into_any(),
                _ => ().into_any(),
            }}
            <p class="detail">{detail}</p>
        </div>
    }
    .into_any()
}

/// "Retrying in N s", then retries once; "Retry now" skips the wait. The
/// clock stops when it reaches zero (`data-state="done"`): a notice left on
/// screen after its retry never retries again.
#[component]
fn Countdown(secs: u64, retry: Callback<()>) -> impl IntoView {
    let left = RwSignal::new(secs);
    let clock = StoredValue::new_local(None::<IntervalHandle>);
    let stop = move || {
        if let Some(h) = clock.try_update_value(Option::take).flatten() {
            h.clear();
        }
    };
    let handle = set_interval_with_handle(
        move || {
            let current = left.get_untracked();
            if current <= 1 {
                stop();
                left.set(0);
                retry.run(());
            } else {
                left.set(current - 1);
            }
        },
        Duration::from_secs(1),
    )
    .ok();
    clock.set_value(handle);
    // Leaving the page (or the retry replacing this notice) stops the clock.
    on_cleanup(stop);
    let stop_and_retry = move |_| {
        stop();
        left.set(0);
        retry.run(());
    };
    let state = move || {
        // Re-read whenever the count changes: the clock stops as it
        // reaches zero.
        left.track();
        if clock.with_value(Option::is_some) {
            "counting"
        } else {
            "done"
        }
    };
    view! {
        <p class="countdown" aria-live="polite" data-state=state>
            "Retrying in " <span class="secs">{move || left.get()}</span> " s… "
            <button type="button" on:click=stop_and_retry>"Retry now"</button>
        </p>
    }
}
