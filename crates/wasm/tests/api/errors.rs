//! Each error code surfacing as a typed error with its fields. (UNAUTHORIZED,
//! NETWORK_ERROR, ABORTED, TIMEOUT and RATE_LIMITED are in mod.rs and
//! resilience.rs; PAGINATION_LOOP needs a misbehaving server and is covered
//! by the client's fake-transport tests.)

use super::*;

fn parameter(error: &JsValue) -> Option<String> {
    string(error, "parameter")
}

#[wasm_bindgen_test]
async fn client_side_checks_reject_with_validation_error_before_sending() {
    let named = ids().await;
    let c = client();
    let error = rejection(c.list_markets(object(&[("limit", 0.into())]), U)).await;
    assert_eq!(code(&error), "VALIDATION_ERROR");
    assert_eq!(parameter(&error).as_deref(), Some("limit"));
    assert!(get(&error, "status").is_undefined(), "nothing was sent");

    let error = rejection(c.list_markets(object(&[("includeRaw", true.into())]), U)).await;
    assert_eq!(parameter(&error).as_deref(), Some("includeRaw"));
    let message = string(&error, "message").unwrap_or_default();
    assert!(
        message.contains("include_raw"),
        "suggests the wire name: {message}"
    );

    let error =
        rejection(c.get_market("x".into(), object(&[("platform", named.platform(0))]))).await;
    assert_eq!(
        parameter(&error).as_deref(),
        Some("platform"),
        "a parameter passed as an option"
    );

    let error = rejection(c.get_game("".into(), U)).await;
    assert_eq!(parameter(&error).as_deref(), Some("game_id"));

    let error =
        rejection(c.list_series(object(&[("platform", "platform_a,platform_b".into())]), U)).await;
    assert_eq!(parameter(&error).as_deref(), Some("platform"));

    let ids: Array = (0..11).map(|i| JsValue::from(format!("m{i}"))).collect();
    let error = rejection(c.get_price_history(object(&[("market_ids", ids.into())]), U)).await;
    assert_eq!(parameter(&error).as_deref(), Some("market_ids"));

    let error = rejection(c.get_profile_info(object(&[("platform", named.platform(0))]), U)).await;
    assert_eq!(parameter(&error).as_deref(), Some("user"));

    let error =
        rejection(c.list_platforms(object(&[("signal", JsValue::NULL), ("x", 1.into())]), U)).await;
    assert_eq!(parameter(&error).as_deref(), Some("x"));
}

#[wasm_bindgen_test]
async fn a_value_of_the_wrong_type_is_an_error_naming_its_parameter() {
    let c = client();
    // The failing member is not the first: the error's position in the
    // parameters' JSON text must map to the right key.
    let error = rejection(c.list_markets(
        object(&[
            ("query", "a \"quoted\" word, with: punctuation".into()),
            ("limit", "many".into()),
            ("include_raw", true.into()),
        ]),
        U,
    ))
    .await;
    assert_eq!(code(&error), "VALIDATION_ERROR");
    assert_eq!(parameter(&error).as_deref(), Some("limit"));
    let message = string(&error, "message").unwrap_or_default();
    assert!(message.contains("whole number"), "{message}");
    assert!(!message.contains("line 1"), "no JSON position: {message}");

    let error = rejection(c.list_markets(
        object(&[("limit", 5.into()), ("include_raw", "perhaps".into())]),
        U,
    ))
    .await;
    assert_eq!(parameter(&error).as_deref(), Some("include_raw"));
}

#[wasm_bindgen_test]
async fn a_parameter_the_service_rejects_is_a_validation_error_with_details() {
    let error = rejection(client().list_markets(object(&[("status", "weird".into())]), U)).await;
    assert_eq!(code(&error), "VALIDATION_ERROR");
    assert_eq!(get(&error, "status").as_f64(), Some(400.0));
    assert_eq!(
        path(&error, &["details", "parameter"])
            .as_string()
            .as_deref(),
        Some("status")
    );
}

#[wasm_bindgen_test]
async fn a_foreign_cursor_is_invalid_cursor() {
    let error =
        rejection(client().list_markets(object(&[("cursor", "not-a-cursor".into())]), U)).await;
    assert_eq!(code(&error), "INVALID_CURSOR");
    assert_eq!(get(&error, "status").as_f64(), Some(400.0));
}

#[wasm_bindgen_test]
async fn an_unknown_id_is_not_found() {
    let error = rejection(client().get_market("no-such-market".into(), U)).await;
    assert_eq!(code(&error), "NOT_FOUND");
    assert_eq!(get(&error, "status").as_f64(), Some(404.0));
}

#[wasm_bindgen_test]
async fn a_failing_platform_queried_alone_is_platform_unavailable() {
    let named = ids().await;
    let c = client();
    let futures = resolve(c.list_futures(
        object(&[("league", named.league(0)), ("limit", 1.into())]),
        U,
    ))
    .await;
    let id = string(&array(&path(&futures, &["data", "futures"])).get(0), "id").expect("id");
    let error = rejection(c.get_future(
        object(&[("id", id.into()), ("platform", named.platform(7))]),
        U,
    ))
    .await;
    assert_eq!(code(&error), "PLATFORM_UNAVAILABLE");
    assert_eq!(get(&error, "status").as_f64(), Some(503.0));
}

#[wasm_bindgen_test]
async fn an_answer_that_is_not_the_promised_json_is_a_decode_error() {
    // Every path under this base URL lands on /openapi.json: valid JSON,
    // but not a page of markets.
    let base = format!("{}/openapi.json?path=", server_url());
    let pager = client_with(server_key(), &base)
        .markets(U, U)
        .class::<predmarket_wasm::MarketsPager>("pager");
    let error = rejection(pager.next_page()).await;
    assert_eq!(code(&error), "DECODE_ERROR");
}
