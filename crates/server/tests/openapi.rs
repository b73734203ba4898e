//! The OpenAPI document describes every operation as served: each route is
//! in it, and real answers (successes and errors) validate against its
//! schemas.

mod common;

use common::TestServer;
use serde_json::Value;

/// A small validator for the JSON Schema subset the document uses: type
/// (string or list), properties, required, items, additionalProperties,
/// enum, oneOf and local `$ref`s.
fn validate(doc: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.trim_start_matches("#/components/schemas/");
        let target = &doc["components"]["schemas"][name];
        assert!(!target.is_null(), "dangling $ref {reference}");
        return validate(doc, target, value, at, errors);
    }
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let matching = options
            .iter()
            .filter(|option| {
                let mut inner = Vec::new();
                validate(doc, option, value, at, &mut inner);
                inner.is_empty()
            })
            .count();
        if matching != 1 {
            errors.push(format!("{at}: matches {matching} of oneOf"));
        }
        return;
    }
    if let Some(kinds) = schema.get("type") {
        let kinds: Vec<&str> = match kinds {
            Value::String(s) => vec![s.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let fits = kinds.iter().any(|k| match *k {
            "string" => value.is_string(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            "boolean" => value.is_boolean(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            "null" => value.is_null(),
            _ => false,
        });
        if !fits {
            errors.push(format!("{at}: {value:.60} is not {kinds:?}"));
            return;
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        errors.push(format!("{at}: {value} not in enum"));
    }
    if let Some(object) = value.as_object() {
        for name in schema["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap_or_default();
            if !object.contains_key(name) {
                errors.push(format!("{at}: missing required {name}"));
            }
        }
        for (key, item) in object {
            if let Some(property) = schema["properties"].get(key) {
                validate(doc, property, item, &format!("{at}.{key}"), errors);
            } else if let Some(extra) = schema.get("additionalProperties")
                && extra.is_object()
            {
                validate(doc, extra, item, &format!("{at}.{key}"), errors);
            }
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), value.as_array()) {
        for (i, item) in list.iter().enumerate() {
            validate(doc, items, item, &format!("{at}[{i}]"), errors);
        }
    }
}

#[tokio::test]
async fn the_document_is_public_and_covers_every_operation() {
    let server = TestServer::start().await;
    let response = reqwest::get(server.url("/openapi.json"))
        .await
        .expect("doc");
    assert_eq!(response.status(), 200);
    let doc: Value = response.json().await.expect("JSON");
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().expect("paths");
    let expected = [
        "/series",
        "/series/{id}",
        "/markets",
        "/markets/{id}",
        "/markets/{id}/orderbook",
        "/events",
        "/events/{id}",
        "/trades",
        "/price-history",
        "/profile/info",
        "/profile/trades",
        "/platforms",
        "/league-info",
        "/list-games",
        "/games/{game_id}",
        "/list-futures",
        "/futures/{id}",
        "/list-awards",
        "/awards/{id}",
    ];
    assert_eq!(paths.len(), expected.len());
    for path in expected {
        let op = &paths[path]["get"];
        assert!(op["operationId"].is_string(), "{path}");
        for status in ["200", "401", "429", "500"] {
            assert!(op["responses"][status].is_object(), "{path} {status}");
        }
    }
    let choices = doc["x-where-the-spec-is-silent"]
        .as_object()
        .expect("choices");
    for topic in ["cursor", "limits", "errors", "markets", "sports"] {
        assert!(choices.contains_key(topic), "{topic}");
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["ApiKey"]["name"],
        "X-API-Key"
    );
    // The validator below does catch what does not fit.
    let mut errors = Vec::new();
    let market = serde_json::json!({"$ref": "#/components/schemas/Market"});
    validate(
        &doc,
        &market,
        &serde_json::json!({"id": 5, "unique_traders": 1.5}),
        "m",
        &mut errors,
    );
    validate(
        &doc,
        &market,
        &serde_json::json!({"title": "x"}),
        "m",
        &mut errors,
    );
    assert_eq!(errors.len(), 3, "{errors:?}");
}

#[tokio::test]
async fn answers_validate_against_the_document() {
    let server = TestServer::unlimited().await;
    let doc: Value = reqwest::get(server.url("/openapi.json"))
        .await
        .expect("doc")
        .json()
        .await
        .expect("JSON");
    let a = server
        .ok("/markets?platform=platform_a&status=open&sort=volume_total&limit=1")
        .await["markets"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let event = server.ok("/events?limit=1").await["events"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let series = server.ok("/series?limit=1").await["series"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let game = server.ok("/list-games?league=league_a&limit=1").await["data"]["games"][0]["id"]
        .as_str()
        .unwrap()
        .replace('@', "%40");
    let user =
        server.ok(&format!("/trades?market_id={a}&limit=1")).await["trades"][0]["user"]["name"]
            .as_str()
            .unwrap()
            .to_owned();
    let samples: Vec<(&str, String, u16)> = vec![
        ("/series", "/series?include_nested=true&limit=3".into(), 200),
        ("/series", "/series?query=bitcoin".into(), 200),
        (
            "/series/{id}",
            format!("/series/{series}?include_nested=true"),
            200,
        ),
        ("/markets", "/markets?limit=50&include_raw=true".into(), 200),
        ("/markets", "/markets?status=resolved&limit=20".into(), 200),
        ("/markets", "/markets?limit=0".into(), 400),
        ("/markets", "/markets?cursor=abc".into(), 400),
        ("/markets/{id}", format!("/markets/{a}"), 200),
        ("/markets/{id}", "/markets/nope".into(), 404),
        (
            "/markets/{id}/orderbook",
            format!("/markets/{a}/orderbook?include_raw=true"),
            200,
        ),
        ("/events", "/events?include_nested=true&limit=5".into(), 200),
        (
            "/events/{id}",
            format!("/events/{event}?include_nested=true"),
            200,
        ),
        ("/trades", format!("/trades?market_id={a}&limit=20"), 200),
        (
            "/price-history",
            format!("/price-history?market_ids={a}&limit=10"),
            200,
        ),
        (
            "/profile/info",
            format!("/profile/info?platform=platform_a&user={user}"),
            200,
        ),
        (
            "/profile/trades",
            format!("/profile/trades?platform=platform_a&user={user}"),
            200,
        ),
        ("/platforms", "/platforms".into(), 200),
        (
            "/league-info",
            "/league-info?include_teams=true".into(),
            200,
        ),
        (
            "/league-info",
            "/league-info?league=league_b&include_teams=true".into(),
            200,
        ),
        ("/list-games", "/list-games?league=league_d".into(), 200),
        ("/games/{game_id}", format!("/games/{game}"), 200),
        ("/games/{game_id}", "/games/bad".into(), 400),
        (
            "/list-futures",
            "/list-futures?league=league_a&limit=3".into(),
            200,
        ),
        (
            "/futures/{id}",
            "/futures/league_b_championship_2025?odds_format=decimal".into(),
            200,
        ),
        ("/list-awards", "/list-awards?league=league_c".into(), 200),
        ("/awards/{id}", "/awards/league_c_mvp_2025".into(), 200),
    ];
    let mut errors = Vec::new();
    for (template, path, status) in samples {
        let (got, body) = server.json(&path).await;
        assert_eq!(got, status, "{path}: {body}");
        let schema = &doc["paths"][template]["get"]["responses"][status.to_string()]["content"]["application/json"]
            ["schema"];
        assert!(!schema.is_null(), "{template} documents {status}");
        validate(&doc, schema, &body, &path, &mut errors);
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
