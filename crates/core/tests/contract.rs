//! The contract of "one declaration per operation": for every operation,
//! the request struct's serde names, its JSON Schema (the server's OpenAPI
//! parameters), its TypeScript declaration (the JS parameter type) and its
//! rendering (`to_http`) agree, and a filled request survives the trip
//! through its query string and through a JS-style JSON object.

use predmarket_core::models::*;
use predmarket_core::request::*;
use std::collections::BTreeSet;
use std::fmt::Debug;

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    names.into_iter().map(str::to_owned).collect()
}

/// `(key, optional)` of every member of the declaration `decl`.
fn ts_members(decl: &str) -> Vec<(String, bool)> {
    // Doc comments may hold braces and colons: drop them first.
    let mut code = String::new();
    let mut rest = decl;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = rest[start..]
            .split_once("*/")
            .map_or("", |(_, after)| after);
    }
    code.push_str(rest);
    let Some(open) = code.find('{') else {
        return Vec::new();
    };
    let body = &code[open + 1..code.rfind('}').unwrap_or(code.len())];
    body.split([';', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let (key, _) = l.split_once(':')?;
            let optional = key.ends_with('?');
            Some((key.trim_end_matches('?').to_owned(), optional))
        })
        .collect()
}

fn check<R>(filled: R, path_values: &[(&str, &str)])
where
    R: Request + schemars::JsonSchema + tsify::Tsify + PartialEq + Debug,
{
    let op = R::OPERATION;
    let names = set(parameter_names::<R>().iter().copied());

    // Serialize writes exactly the names Deserialize reads.
    let json = serde_json::to_value(&filled).expect("serializes");
    let written: BTreeSet<String> = json
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    assert_eq!(written, names, "{op}: serialized keys (fill every field)");

    // JSON Schema: the same properties; required = the non-Option fields.
    let schema = serde_json::to_value(schemars::schema_for!(R)).expect("schema");
    let properties: BTreeSet<String> = schema["properties"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    assert_eq!(properties, names, "{op}: schema properties");
    let required: BTreeSet<String> = schema["required"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();

    // TypeScript: `<Operation>Params`, the same keys, the same required ones.
    let decl = R::DECL;
    let mut pascal = op.to_owned();
    pascal[..1].make_ascii_uppercase();
    let ts_name = format!("{pascal}Params");
    assert!(
        decl.contains(&format!("interface {ts_name} "))
            || decl.contains(&format!("type {ts_name} = ")),
        "{op}: declared as {ts_name}: {decl}"
    );
    let members = ts_members(decl);
    assert_eq!(
        set(members.iter().map(|(k, _)| k.as_str())),
        names,
        "{op}: TS keys"
    );
    let ts_required = set(members.iter().filter(|(_, o)| !o).map(|(k, _)| k.as_str()));
    assert_eq!(ts_required, required, "{op}: required in TS and schema");
    assert!(
        !decl.contains(": any") && !decl.contains("<any>"),
        "{op}: no any in {decl}"
    );

    // Rendering: path parameters in the path, every other one in the query.
    let http = filled.to_http().expect("a filled request is valid");
    let query_keys: BTreeSet<String> = http.query.iter().map(|(k, _)| k.clone()).collect();
    let path_params = set(R::PATH_PARAMS.iter().copied());
    let expected: BTreeSet<String> = names.difference(&path_params).cloned().collect();
    assert_eq!(query_keys, expected, "{op}: query keys");
    for name in R::PATH_PARAMS {
        assert!(
            R::PATH.contains(&format!("{{{name}}}")),
            "{op}: {name} in the path"
        );
    }
    assert!(!http.path.contains('{'), "{op}: path filled: {}", http.path);

    // Round trips: the query string the client sends is what the server
    // reads; a JS object with the same values reads the same.
    let query = http.path_and_query();
    let query = query.split_once('?').map_or("", |(_, q)| q);
    let parsed = R::from_query(path_values, query).expect("the query parses back");
    assert_eq!(
        parsed,
        filled.checked().expect("valid"),
        "{op}: query round trip"
    );
    let text = serde_json::to_string(&filled).expect("json");
    assert_eq!(
        R::from_json(&text).expect("json parses back"),
        filled,
        "{op}: JSON round trip"
    );

    // The parameter table (`#[derive(Params)]`), which the npm package reads
    // JS objects with and `to_http` renders with: serde's names in serde's
    // order, the schema's required list, kinds that match the values serde
    // writes, the query serde_urlencoded writes, and the same request back
    // from the JSON object and from the query string.
    let table: Vec<&str> = R::PARAMS.iter().map(|p| p.name).collect();
    assert_eq!(table, parameter_names::<R>(), "{op}: table names and order");
    let table_required = set(R::PARAMS.iter().filter(|p| p.required).map(|p| p.name));
    assert_eq!(
        table_required, required,
        "{op}: required in table and schema"
    );
    for param in R::PARAMS {
        let value = &json[param.name];
        let fits = match param.kind {
            params::Kind::Text | params::Kind::List => value.is_string(),
            params::Kind::Whole { .. } => value.is_u64() || value.is_i64(),
            params::Kind::Flag => value.is_boolean(),
        };
        assert!(
            fits,
            "{op}: {} is {:?}, serde writes {value}",
            param.name, param.kind
        );
    }
    let checked = filled.checked().expect("valid");
    let mut written = Vec::new();
    checked.write_values(&mut written);
    assert_eq!(
        written,
        query_pairs(&checked).expect("serde_urlencoded"),
        "{op}: the table renders what serde renders"
    );
    let raw = |value: &serde_json::Value| match value {
        serde_json::Value::Bool(b) => params::Raw::Flag(*b),
        serde_json::Value::Number(n) => params::Raw::Number(n.as_f64().expect("f64")),
        serde_json::Value::String(s) => params::Raw::Text(s.clone()),
        other => panic!("{op}: no parameter holds {other}"),
    };
    let pairs = json
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), raw(v)))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let values = params::read(R::PARAMS, pairs, |k| format!("unknown {k}")).expect("reads");
    assert_eq!(
        R::from_values(values),
        filled,
        "{op}: table read of the JSON object"
    );
    let pairs = written
        .into_iter()
        .map(|(k, v)| (k, params::Raw::Text(v)))
        .collect::<Vec<_>>();
    let values = params::read(R::PARAMS, pairs, |k| format!("unknown {k}")).expect("reads");
    assert_eq!(
        R::from_values(values),
        checked,
        "{op}: table read of the query"
    );
}

#[test]
fn every_operation_has_one_declaration() {
    let platform = || Some(PlatformId::from("polymarket"));
    check(
        ListSeries {
            limit: Some(10),
            cursor: Some("c 1".into()),
            offset: Some(50),
            platform: platform(),
            query: Some("rates & cuts".into()),
            include_raw: Some(true),
            include_nested: Some(false),
        },
        &[],
    );
    check(
        GetSeries {
            id: "se/1".into(),
            platform: platform(),
            include_raw: Some(false),
            include_nested: Some(true),
        },
        &[("id", "se/1")],
    );
    check(
        ListMarkets {
            limit: Some(250),
            cursor: Some("c".into()),
            offset: Some(50),
            platform: platform(),
            status: Some("open".into()),
            query: Some("q".into()),
            category: Some("sports".into()),
            event_id: Some("ev".into()),
            series_id: Some("se".into()),
            sort: Some(MarketSort::Liquidity),
            order: Some(SortOrder::Asc),
            include_raw: Some(true),
        },
        &[],
    );
    check(
        GetMarket {
            id: "0x12".into(),
            platform: platform(),
            include_raw: Some(true),
        },
        &[("id", "0x12")],
    );
    check(
        GetOrderbook {
            id: "a#b".into(),
            platform: platform(),
            include_raw: Some(false),
        },
        &[("id", "a#b")],
    );
    check(
        ListEvents {
            limit: Some(5),
            cursor: Some("c".into()),
            offset: Some(50),
            platform: platform(),
            query: Some("q".into()),
            series_id: Some("s".into()),
            category: Some("Politics".into()),
            include_raw: Some(true),
            include_nested: Some(true),
        },
        &[],
    );
    check(
        GetEvent {
            id: "ev_1".into(),
            platform: platform(),
            include_raw: Some(true),
            include_nested: Some(false),
        },
        &[("id", "ev_1")],
    );
    check(
        ListTrades {
            market_id: "m1".into(),
            limit: Some(1000),
            cursor: Some("c".into()),
            offset: Some(50),
            taker_only: Some(true),
        },
        &[],
    );
    check(
        GetLeagueInfo {
            league: Some("nfl".into()),
            include_teams: Some(true),
        },
        &[],
    );
    check(
        ListGames {
            league: "nfl".into(),
            status: Some(GameStatus::Final),
            from: Some("2025-02-01".into()),
            to: Some("2025-02-09".into()),
            limit: Some(25),
            cursor: Some("c".into()),
            offset: Some(50),
        },
        &[],
    );
    check(
        GetGame {
            game_id: "KCvSF20250209@NFL".into(),
            platform: platform(),
        },
        &[("game_id", "KCvSF20250209@NFL")],
    );
    check(ListPlatforms, &[]);
    check(
        GetFuture {
            id: "nfl_championship_2025".into(),
            platform: platform(),
            odds_format: Some(OddsFormat::American),
        },
        &[("id", "nfl_championship_2025")],
    );
    check(
        ListFutures {
            league: "nfl".into(),
            future_type: Some(FutureType::Division),
            season: Some(2025),
            platform: platform(),
            odds_format: Some(OddsFormat::Decimal),
            limit: Some(20),
            offset: Some(40),
        },
        &[],
    );
    check(
        GetAward {
            id: "nfl_mvp_2025".into(),
            platform: platform(),
            odds_format: Some(OddsFormat::Probability),
        },
        &[("id", "nfl_mvp_2025")],
    );
    check(
        ListAwards {
            league: "nba".into(),
            award_type: Some("sixth_man".into()),
            season: Some(2026),
            platform: platform(),
            odds_format: Some(OddsFormat::American),
            limit: Some(3),
            offset: Some(3),
        },
        &[],
    );
    check(
        GetPriceHistory {
            market_ids: vec!["a".into(), "b".into()],
            start_ts: Some(1),
            end_ts: Some(2),
            interval: Some(PriceInterval::OneHour),
            limit: Some(100),
        },
        &[],
    );
    check(
        GetProfileInfo {
            platform: "polymarket".into(),
            user: "0xabc".into(),
            include_metrics: Some(true),
        },
        &[],
    );
    check(
        ListProfileTrades {
            platform: "kalshi".into(),
            user: "bob".into(),
            limit: Some(50),
            cursor: Some("c".into()),
            offset: Some(50),
        },
        &[],
    );
}
