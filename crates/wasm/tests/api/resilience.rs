//! The machinery around each call against real servers: the rate budget
//! on a low-limit key, coalescing and the cache (shown through keys that
//! allow one request a minute), retries of injected 429/5xx, abort, timeout.

use super::*;

fn elapsed_since(start: f64) -> f64 {
    js_sys::Date::now() - start
}

#[wasm_bindgen_test]
async fn the_budget_waits_instead_of_running_into_a_429() {
    // The server allows this key 3 requests a minute and says so in its
    // headers; the client starts with the default 100 and learns.
    let c = client_with(&runner_key("low"), server_url());
    for _ in 0..3 {
        resolve(c.list_platforms(U, U)).await;
    }
    assert_eq!(c.rate_budget_remaining(), 0);
    let start = js_sys::Date::now();
    // With no retries, a request sent now would reject at once with
    // RATE_LIMITED; instead the call waits for the budget until aborted.
    let error = rejection(c.list_platforms(U, signal_after(1_500))).await;
    assert_eq!(code(&error), "ABORTED");
    assert!(elapsed_since(start) >= 1_400.0, "it waited");
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
    let c = client_of(
        &runner_key("once"),
        server_url(),
        &[("maxRetries", 0.into()), ("cacheTtlMs", 60_000.into())],
    );
    resolve(c.list_platforms(U, U)).await;
    // The key's only request of the minute is spent: only the cache can
    // answer this one in time.
    let again = resolve(c.list_platforms(U, signal_after(2_000))).await;
    assert_eq!(array(&get(&again, "platforms")).length(), 8);
    c.clear_cache();
    let error = rejection(c.list_platforms(U, signal_after(500))).await;
    assert_eq!(
        code(&error),
        "ABORTED",
        "waits for the budget once the cache is cleared"
    );
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

#[wasm_bindgen_test]
async fn an_abort_mid_flight_rejects_at_once() {
    // The flaky server answers after 200 ms.
    let c = client_with(server_key(), flaky_url());
    // The abort lands while the answer is still 150 ms away. No upper bound
    // on the time is asserted: on a loaded machine it would flake.
    let error = rejection(c.list_markets(object(&[("limit", 10.into())]), signal_after(50))).await;
    assert_eq!(code(&error), "ABORTED");

    let pager = c.markets(U, signal_after(50)).expect("pager");
    let error = rejection(pager.next_page()).await;
    assert_eq!(code(&error), "ABORTED");
}

#[wasm_bindgen_test]
async fn a_slow_answer_times_out() {
    let c = client_of(
        server_key(),
        flaky_url(),
        &[("maxRetries", 0.into()), ("timeoutMs", 50.into())],
    );
    let error = rejection(c.list_platforms(U, U)).await;
    assert_eq!(code(&error), "TIMEOUT");
}
