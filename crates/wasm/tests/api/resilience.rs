//! The machinery around each call against real servers: the rate budget
//! on a low-limit key, coalescing and the cache (shown through keys that
//! allow one request a minute), retries of injected 429/5xx, abort, timeout.
//! What a call did is read from its events (`onEvent`), not from a clock.

use super::*;

/// An `onEvent` option that keeps the client's events, and the events.
fn recorder() -> ((&'static str, JsValue), Array) {
    let events = Array::new();
    let kept = events.clone();
    let push = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
        kept.push(&event);
    });
    // The client holds the function for its lifetime; so must the test.
    let function = push.into_js_value();
    (("onEvent", function), events)
}

/// How many of `events` are of `kind` (and, if given, for `reason`).
fn count(events: &Array, kind: &str, reason: Option<&str>) -> usize {
    events
        .iter()
        .filter(|e| string(e, "type").as_deref() == Some(kind))
        .filter(|e| reason.is_none() || string(e, "reason").as_deref() == reason)
        .count()
}

#[wasm_bindgen_test]
async fn the_budget_waits_instead_of_running_into_a_429() {
    // The server allows this key 3 requests a minute and says so in its
    // headers; the client starts with the default 100 and learns.
    let (on_event, events) = recorder();
    let c = client_of(
        &runner_key("low"),
        server_url(),
        &[("maxRetries", 0.into()), on_event],
    );
    for _ in 0..3 {
        resolve(c.list_platforms(U, U)).await;
    }
    assert_eq!(c.rate_budget_remaining(), 0);
    // With no retries, a request sent now would reject at once with
    // RATE_LIMITED; instead the call waits for the budget until aborted.
    let error = rejection(c.list_platforms(U, signal_after(1_500))).await;
    assert_eq!(code(&error), "ABORTED");
    assert!(count(&events, "wait", Some("budget")) > 0, "it waited");
    assert_eq!(count(&events, "request", None), 3, "and sent nothing");
}

#[wasm_bindgen_test]
async fn a_429_surfaces_as_rate_limited_with_retry_after() {
    let key = runner_key("tiny");
    resolve(client_with(&key, server_url()).list_platforms(U, U)).await;
    // A second client does not know the first used the key's only request.
    let error = rejection(client_with(&key, server_url()).list_platforms(U, U)).await;
    assert_eq!(code(&error), "RATE_LIMITED");
    assert_eq!(get(&error, "status").as_f64(), Some(429.0));
    assert!(
        get(&error, "retryAfterMs")
            .as_f64()
            .is_some_and(|ms| ms > 0.0)
    );
}

#[wasm_bindgen_test]
async fn the_cache_answers_without_a_request() {
    let (on_event, events) = recorder();
    let c = client_of(
        &runner_key("once"),
        server_url(),
        &[
            ("maxRetries", 0.into()),
            ("cacheTtlMs", 60_000.into()),
            on_event,
        ],
    );
    resolve(c.list_platforms(U, U)).await;
    assert_eq!(count(&events, "request", None), 1);
    // The key's only request of the minute is spent: only the cache can
    // answer this one (the abort is a ceiling, far below the minute the
    // budget would make it wait).
    let again = resolve(c.list_platforms(U, signal_after(30_000))).await;
    assert_eq!(array(&get(&again, "platforms")).length(), 8);
    assert_eq!(
        count(&events, "request", None),
        1,
        "answered without a request"
    );
    assert_eq!(count(&events, "wait", None), 0, "and without a wait");
    c.clear_cache();
    let error = rejection(c.list_platforms(U, signal_after(500))).await;
    assert_eq!(
        code(&error),
        "ABORTED",
        "waits for the budget once the cache is cleared"
    );
    assert!(count(&events, "wait", Some("budget")) > 0);
    assert_eq!(count(&events, "request", None), 1);
}

#[wasm_bindgen_test]
async fn identical_calls_in_flight_are_sent_once() {
    // One request a minute: two identical calls both succeed only if they
    // share one request.
    let c = client_with(&runner_key("pair"), server_url());
    let (a, b) = futures::join!(
        resolve(c.list_platforms(U, U)),
        resolve(c.list_platforms(U, U))
    );
    assert_eq!(array(&get(&a, "platforms")).length(), 8);
    assert_eq!(array(&get(&b, "platforms")).length(), 8);
}

#[wasm_bindgen_test]
async fn injected_429_and_5xx_are_retried() {
    // Without retries the faults show...
    let bare = client_with(server_key(), flaky_url());
    let mut failures = Vec::new();
    for _ in 0..20 {
        if let Err(error) = JsFuture::from(bare.list_platforms(U, U)).await {
            failures.push(code(&error));
        }
    }
    assert!(!failures.is_empty(), "the flaky server injects faults");
    assert!(
        failures.iter().all(
            |c| ["RATE_LIMITED", "INTERNAL_ERROR", "PLATFORM_UNAVAILABLE"].contains(&c.as_str())
        ),
        "{failures:?}"
    );
    // ...and with them every call succeeds.
    let patient = client_of(server_key(), flaky_url(), &[("maxRetries", 20.into())]);
    for _ in 0..10 {
        let response = resolve(patient.list_platforms(U, U)).await;
        assert_eq!(array(&get(&response, "platforms")).length(), 8);
    }
}

/// A `fetch` option that never answers, and a signal it aborts the moment
/// it is called: the abort lands while the request is in flight, and only
/// the abort can end the call.
fn fetch_aborting_its_call() -> ((&'static str, JsValue), JsValue) {
    let make = js_sys::Function::new_with_args(
        "",
        "const controller = new AbortController(); \
         return { signal: controller.signal, \
                  fetch: () => { controller.abort(); return new Promise(() => {}); } };",
    );
    let pair = make
        .call0(&JsValue::NULL)
        .expect("the fetch and its signal");
    (
        ("fetch", get(&pair, "fetch")),
        object(&[("signal", get(&pair, "signal"))]),
    )
}

/// A `fetch` option whose answer never comes.
fn fetch_never_answering() -> (&'static str, JsValue) {
    let fetch = js_sys::Function::new_with_args("", "return new Promise(() => {});");
    ("fetch", fetch.into())
}

#[wasm_bindgen_test]
async fn an_abort_mid_flight_rejects_at_once() {
    let (fetch, call) = fetch_aborting_its_call();
    let c = client_of(
        server_key(),
        server_url(),
        &[("maxRetries", 0.into()), fetch],
    );
    let error = rejection(c.list_markets(object(&[("limit", 10.into())]), call)).await;
    assert_eq!(code(&error), "ABORTED");

    let (fetch, call) = fetch_aborting_its_call();
    let c = client_of(
        server_key(),
        server_url(),
        &[("maxRetries", 0.into()), fetch],
    );
    let pager = c
        .markets(U, call)
        .class::<predmarket_wasm::MarketsPager>("pager");
    let error = rejection(pager.next_page()).await;
    assert_eq!(code(&error), "ABORTED");
}

#[wasm_bindgen_test]
async fn a_slow_answer_times_out() {
    // An answer that never comes: only the timeout can end the call.
    let c = client_of(
        server_key(),
        server_url(),
        &[
            ("maxRetries", 0.into()),
            ("timeoutMs", 50.into()),
            fetch_never_answering(),
        ],
    );
    let error = rejection(c.list_platforms(U, U)).await;
    assert_eq!(code(&error), "TIMEOUT");
}
