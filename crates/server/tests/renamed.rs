//! `--rename-ids`: every platform and league id on the wire is a name
//! unrelated to the spec's labels, in answers and in parameters alike.

mod common;

use common::{TestServer, config, enc};
use serde_json::Value;

async fn renamed() -> TestServer {
    let mut config = config();
    config.api_key = vec![format!("{}:unlimited", common::KEY)];
    config.rename_ids = true;
    // Given as a label: the flag takes either spelling.
    config.fail_platforms = vec!["platform_h".to_owned()];
    TestServer::generated(config).await
}

/// Whether `text` holds a label of service.md (`platform_a` … `platform_h`,
/// `league_a` … `league_d`) as a word of its own. `platform_errors` or
/// `platform_ids` are field names, not labels.
fn has_label(text: &str) -> bool {
    let bytes = text.as_bytes();
    [("platform_", b'a'..=b'h'), ("league_", b'a'..=b'd')]
        .iter()
        .any(|(prefix, letters)| {
            text.match_indices(prefix).any(|(at, _)| {
                let letter = bytes.get(at + prefix.len());
                let after = bytes.get(at + prefix.len() + 1);
                letter.is_some_and(|l| letters.contains(l))
                    && !after.is_some_and(u8::is_ascii_alphanumeric)
            })
        })
}

#[test]
fn the_label_detector_tells_labels_from_field_names() {
    assert!(has_label(r#"{"platform":"platform_a"}"#));
    assert!(has_label("league_d_championship_2025"));
    assert!(!has_label("https://img.platform-a.example/x.png"));
    assert!(!has_label(r#"{"platform_errors":{},"platform_ids":{}}"#));
}

#[tokio::test]
async fn every_answer_is_free_of_the_labels() {
    let server = renamed().await;
    let platforms = server.ok("/platforms").await;
    let ids: Vec<&str> = platforms["platforms"]
        .as_array()
        .expect("platforms")
        .iter()
        .filter_map(|p| p["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "kestrel", "heron", "osprey", "plover", "wren", "merlin", "tern", "lark"
        ]
    );
    assert_eq!(platforms["platforms"][0]["name"], "Kestrel");
    let leagues = server.ok("/league-info").await;
    let league = leagues["data"][0]["id"]
        .as_str()
        .expect("league id")
        .to_owned();
    assert_eq!(league, "ridge");

    let markets = server.ok("/markets?platform=kestrel&limit=3").await;
    let market = markets["markets"][0]["id"]
        .as_str()
        .expect("market")
        .to_owned();
    let games = server
        .ok(&format!("/list-games?league={league}&limit=2"))
        .await;
    let game = games["data"]["games"][0]["id"]
        .as_str()
        .expect("game")
        .to_owned();
    let futures = server
        .ok(&format!("/list-futures?league={league}&limit=2"))
        .await;
    let future = futures["data"]["futures"][0]["id"]
        .as_str()
        .expect("future")
        .to_owned();
    assert!(future.starts_with("ridge_"), "{future}");
    let awards = server
        .ok(&format!("/list-awards?league={league}&limit=2"))
        .await;
    let award = awards["data"]["awards"][0]["id"]
        .as_str()
        .expect("award")
        .to_owned();
    let trades = server
        .ok(&format!("/trades?market_id={}&limit=2", enc(&market)))
        .await;
    let user = trades["trades"][0]["user"]["name"]
        .as_str()
        .expect("trader")
        .to_owned();
    let answers: Vec<(String, Value)> = {
        let mut out = vec![
            ("/platforms".to_owned(), platforms.clone()),
            ("/league-info".to_owned(), leagues.clone()),
            ("/markets".to_owned(), markets.clone()),
            ("/list-games".to_owned(), games.clone()),
            ("/list-futures".to_owned(), futures.clone()),
            ("/list-awards".to_owned(), awards.clone()),
            ("/trades".to_owned(), trades.clone()),
        ];
        for path in [
            format!("/markets/{}?include_raw=true", enc(&market)),
            format!("/markets/{}/orderbook", enc(&market)),
            format!("/price-history?market_ids={}&limit=3", enc(&market)),
            "/events?include_nested=true&limit=3".to_owned(),
            "/series?include_nested=true&limit=3".to_owned(),
            format!("/league-info?league={league}&include_teams=true"),
            format!("/games/{}", enc(&game)),
            format!("/futures/{}", enc(&future)),
            format!("/awards/{}", enc(&award)),
            format!("/profile/info?platform=kestrel&user={}", enc(&user)),
            format!(
                "/profile/trades?platform=kestrel&user={}&limit=3",
                enc(&user)
            ),
        ] {
            let body = server.ok(&path).await;
            out.push((path, body));
        }
        out
    };
    let doc: Value = reqwest::get(server.url("/openapi.json"))
        .await
        .expect("document")
        .json()
        .await
        .expect("JSON");
    let platform = doc["paths"]["/markets"]["get"]["parameters"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "platform"))
        .expect("platform parameter");
    if common::through_proxy() {
        // A proxy's document is its own: it lists no ids (the upstream's
        // answers do) and is not the renamed server's.
        assert!(platform["schema"].get("enum").is_none(), "{platform}");
    } else {
        let platform_enum = &platform["schema"]["enum"];
        assert_eq!(platform_enum[0], "kestrel", "{platform_enum}");
        let text = doc.to_string();
        assert!(
            !has_label(&text),
            "/openapi.json names a label: {text:.600}"
        );
    }
    for (path, body) in &answers {
        let text = body.to_string();
        assert!(!has_label(&text), "{path} names a label: {text:.600}");
    }
    // The failing platform, configured by its label, answers under its
    // renamed id.
    let future = server.ok(&format!("/futures/{}", enc(&future))).await;
    assert_eq!(
        future["meta"]["platform_errors"]["lark"]["code"],
        "PLATFORM_UNAVAILABLE"
    );
}

#[tokio::test]
async fn parameters_take_the_renamed_ids_and_refuse_the_labels() {
    let server = renamed().await;
    let only = server.ok("/markets?platform=heron&limit=5").await;
    for market in only["markets"].as_array().expect("markets") {
        assert_eq!(market["platform"], "heron");
    }
    let body = server.error("/markets?platform=platform_b", 400).await;
    assert_eq!(body["error"]["code"], "VALIDATION_ERROR");
    assert_eq!(body["error"]["details"]["parameter"], "platform");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("heron") && !has_label(message),
        "{message}"
    );

    let body = server.error("/list-games?league=league_a", 400).await;
    assert_eq!(body["error"]["details"]["parameter"], "league");
    server.ok("/list-games?league=cove&limit=1").await;
    let body = server.error("/futures/x?platform=lark", 503).await;
    assert_eq!(body["error"]["code"], "PLATFORM_UNAVAILABLE");
    assert!(!has_label(&body.to_string()), "{body}");
}
