//! The error notice: what a person can do about each error (a key to set,
//! a countdown after a 429, a retry).

use leptos::prelude::*;
use leptos::task::tick;
use predmarket_client::Error;
use predmarket_client::core::ApiFailure;
use predmarket_web::components::ErrorNotice;
use wasm_bindgen_test::*;

use super::support::*;

#[wasm_bindgen_test]
async fn unauthorized_asks_for_a_key_with_a_link_to_settings() {
    let (root, _h) = mount(|| view! { <ErrorNotice error=failure(401, "UNAUTHORIZED", None) /> });
    tick().await;
    let alert = find(&root, "[role=alert]").expect("an alert");
    assert_eq!(
        alert.get_attribute("data-code").as_deref(),
        Some("UNAUTHORIZED")
    );
    assert!(text(&root, "strong").contains("API key"));
    assert!(find(&root, r#"a[href="/app/settings"]"#).is_some());
    assert!(
        find(&root, "button").is_none(),
        "a wrong key is not worth retrying"
    );
}

#[wasm_bindgen_test]
async fn rate_limited_counts_down_then_retries_by_itself() {
    let retries = RwSignal::new(0);
    let (root, _h) = mount(move || {
        view! { <ErrorNotice error=failure(429, "RATE_LIMITED", Some(2000)) retry=Callback::new(move |_| retries.update(|n| *n += 1)) /> }
    });
    tick().await;
    assert_eq!(text(&root, ".secs"), "2");
    let state = || {
        find(&root, ".countdown")
            .and_then(|c| c.get_attribute("data-state"))
            .unwrap_or_default()
    };
    assert_eq!(state(), "counting");
    // Each second shows in turn, however late a busy machine runs the
    // timer: waited for, not slept through.
    assert!(eventually(15_000, || text(&root, ".secs") == "1").await);
    assert_eq!(retries.get_untracked(), 0);
    assert!(
        eventually(15_000, || text(&root, ".secs") == "0"
            && retries.get_untracked() > 0)
        .await
    );
    assert_eq!(
        retries.get_untracked(),
        1,
        "retried once when the count reached zero"
    );
    // And only once: the clock that retries has stopped, so nothing is
    // left that could retry again (waited for, not slept through).
    assert!(
        eventually(15_000, || state() == "done").await,
        "the countdown's clock stops at zero"
    );
    assert_eq!(retries.get_untracked(), 1, "and only once");
}

#[wasm_bindgen_test]
async fn retry_now_skips_the_wait() {
    let retries = RwSignal::new(0);
    let (root, _h) = mount(move || {
        view! { <ErrorNotice error=failure(429, "RATE_LIMITED", None) retry=Callback::new(move |_| retries.update(|n| *n += 1)) /> }
    });
    tick().await;
    assert_eq!(
        text(&root, ".secs"),
        "5",
        "five seconds when the service does not say"
    );
    find(&root, ".countdown button").expect("retry now").click();
    tick().await;
    assert_eq!(retries.get_untracked(), 1);
    assert_eq!(
        find(&root, ".countdown").and_then(|c| c.get_attribute("data-state")),
        Some("done".into()),
        "and the clock stopped: it will not retry again"
    );
}

#[wasm_bindgen_test]
async fn a_server_error_offers_try_again_and_an_abort_shows_nothing() {
    let retries = RwSignal::new(0);
    let (root, _h) = mount(move || {
        view! {
            <div id="server"><ErrorNotice error=failure(500, "INTERNAL_ERROR", None) retry=Callback::new(move |_| retries.update(|n| *n += 1)) /></div>
            <div id="aborted"><ErrorNotice error=Error::Aborted /></div>
        }
    });
    tick().await;
    find(&root, "#server button").expect("try again").click();
    tick().await;
    assert_eq!(retries.get_untracked(), 1);
    assert_eq!(count(&root, "#aborted *"), 0);
}

#[wasm_bindgen_test]
async fn error_details_from_the_service_are_text() {
    let error = Error::from_failure(ApiFailure {
        status: 500,
        code: "INTERNAL_ERROR".into(),
        message: HOSTILE.into(),
        details: None,
        retry_after_ms: None,
    });
    let (root, _h) = mount(move || view! { <ErrorNotice error /> });
    tick().await;
    assert!(text(&root, ".detail").contains("<script>"));
    assert_eq!(count(&root, "script, img"), 0);
}
