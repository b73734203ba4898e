//! The OpenAPI document describes every operation as served: each route is
//! in it, and real answers (successes and errors) validate against its
//! schemas.

mod common;

use common::TestServer;
use predmarket_core::request::Operation;
use serde_json::{Value, json};

/// Closes every object schema that lists its properties and says nothing
/// of others: the server is strict, so a field it sends that the document
/// does not name is a defect (a map, with `additionalProperties`, stays open).
fn close_objects(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".to_owned(), Value::Bool(false));
            }
            map.values_mut().for_each(close_objects);
        }
        Value::Array(list) => list.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// A JSON Schema (2020-12) validator for `schema`, a schema of the
/// document whose `$ref`s point into its components, with every object
/// closed (see `close_objects`).
fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "allOf": [schema],
        "components": {"schemas": doc["components"]["schemas"]},
    });
    close_objects(&mut root);
    jsonschema::validator_for(&root)
        .unwrap_or_else(|e| panic!("the document's schema does not compile: {e}"))
}

/// Every way `value` fails `schema`, as `path: message` lines.
fn violations(doc: &Value, schema: &Value, value: &Value) -> Vec<String> {
    validator(doc, schema)
        .iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
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
    // One entry per operation of the core's table, under its path and
    // with its name as the operationId.
    assert_eq!(paths.len(), Operation::ALL.len());
    for &operation in Operation::ALL {
        let path = operation.path();
        let op = &paths[path]["get"];
        assert_eq!(op["operationId"], operation.name(), "{path}");
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
    // The validator does catch what does not fit: a wrong type, a missing
    // required field, a field the document does not name.
    let market = json!({"$ref": "#/components/schemas/Market"});
    assert!(violations(&doc, &market, &json!({"id": "m1", "title": "x"})).is_empty());
    assert_eq!(violations(&doc, &market, &json!({"id": 5})).len(), 1);
    assert_eq!(violations(&doc, &market, &json!({"title": "x"})).len(), 1);
    let unknown = violations(&doc, &market, &json!({"id": "m1", "surprise": 1}));
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert!(unknown[0].contains("surprise"), "{unknown:?}");
    // The schemas are the strict writer's, derived from the models: a
    // number is a number (the models also read numeric strings), a field
    // the server omits when absent is never `null`, integers are integers.
    assert_eq!(
        violations(&doc, &market, &json!({"id": "m1", "volume_24h": "1.5"})).len(),
        1
    );
    assert_eq!(
        violations(&doc, &market, &json!({"id": "m1", "title": null})).len(),
        1
    );
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Future"]["properties"]["season"]["type"], "integer");
    let pagination = json!({"$ref": "#/components/schemas/Pagination"});
    assert!(violations(&doc, &pagination, &json!({"next_cursor": null})).is_empty());
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
    let mut operations = std::collections::BTreeSet::new();
    for (template, path, status) in samples {
        let (got, body) = server.json(&path).await;
        assert_eq!(got, status, "{path}: {body}");
        let schema = &doc["paths"][template]["get"]["responses"][status.to_string()]["content"]["application/json"]
            ["schema"];
        assert!(!schema.is_null(), "{template} documents {status}");
        errors.extend(
            violations(&doc, schema, &body)
                .into_iter()
                .map(|e| format!("{path} {e}")),
        );
        if status == 200 {
            operations.insert(template);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let documented = doc["paths"].as_object().map_or(0, |p| p.len());
    assert_eq!(
        operations.len(),
        documented,
        "a 200 of every operation: {operations:?}"
    );
}
