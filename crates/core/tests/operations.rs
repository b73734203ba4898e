//! The operation table against the request types and response models: each
//! list's declared item keys are the ones its response model reads, at the
//! top level and inside `data`, and its paging model is the one its
//! `Paged` implementation walks.

use predmarket_core::request::{Operation, PagePosition, Paged, Paging, Request};
use serde_json::json;

/// The response of `R` decoded from `body`, with its item count.
fn items_of<R: Paged>(body: serde_json::Value) -> Result<usize, String> {
    serde_json::from_value::<R::Response>(body)
        .map(|r| R::items(&r).len())
        .map_err(|e| e.to_string())
}

fn check_list<R: Paged>(op: Operation) {
    assert_eq!(R::OP, op);
    assert_eq!(op.paging(), Some(R::PAGING), "{op}");
    for key in op.items() {
        for body in [json!({ *key: [] }), json!({ "data": { *key: [] } })] {
            assert_eq!(items_of::<R>(body.clone()), Ok(0), "{op}: {body}");
        }
    }
    // A body without any declared key is not this list's answer.
    assert!(
        items_of::<R>(json!({ "not_a_list_key": [] })).is_err(),
        "{op} reads a key the table does not declare"
    );
    let mut request = serde_json::from_value::<R>(json!({})).unwrap_or_else(|_| {
        // Lists with a required parameter: a request with it.
        serde_json::from_value::<R>(json!({
            "market_id": "m", "league": "l", "platform": "p", "user": "u"
        }))
        .expect("a request")
    });
    let position = match R::PAGING {
        Paging::Cursor => PagePosition::Cursor("c".into()),
        Paging::Offset => PagePosition::Offset(5),
    };
    request.set_position(Some(position.clone()));
    assert_eq!(request.position(), Some(position), "{op}");
}

fn check_single<R: Request>(op: Operation) {
    assert_eq!(R::OP, op);
    assert_eq!(op.paging(), None, "{op}");
    assert!(op.items().is_empty(), "{op}");
}

/// How the JS method takes its parameters (`args(..)`) fits the request:
/// `optional` only when no parameter is required, `required` when one is,
/// `id "key"` when `key` is a required parameter.
fn check_args<R: Request>(op: Operation, form: &str) {
    let required = R::PARAMS.iter().any(|p| p.required);
    match (form, op.id_param()) {
        ("optional", None) => assert!(!required, "{op}: optional, but a parameter is required"),
        ("required", None) => assert!(required, "{op}: required, but no parameter is"),
        ("id", Some(key)) => assert!(
            R::PARAMS.iter().any(|p| p.name == key && p.required),
            "{op}: {key} is not a required parameter"
        ),
        _ => panic!("{op}: args({form}) and id_param {:?}", op.id_param()),
    }
}

macro_rules! check_all {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($form:ident $($key:literal)?) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        $(check_all!(@one $variant($request) $paging);)+
        $(check_args::<$request>(Operation::$variant, stringify!($form));)+
        // Every variant was checked, in the table's order.
        let checked = [$(Operation::$variant),+];
        assert_eq!(&checked[..], Operation::ALL);
        $(
            assert_eq!(<$request as Request>::OPERATION, $name);
            assert_eq!(<$request as Request>::PATH, $path);
        )+
    };
    (@one $variant:ident($request:path) single) => {
        check_single::<$request>(Operation::$variant);
    };
    (@one $variant:ident($request:path) $paging:ident) => {
        check_list::<$request>(Operation::$variant);
    };
}

#[test]
fn the_table_matches_the_requests_and_models() {
    predmarket_core::for_each_operation!(check_all);
}

#[test]
fn ids_that_would_leave_the_path_are_refused_by_the_request_checks() {
    use predmarket_core::request::{GetGame, GetMarket, GetOrderbook, GetSeries};
    for id in [
        "",
        " ",
        ".",
        "..",
        "../x",
        "a/..",
        "..\\..\\account",
        "x\\.\\y",
    ] {
        assert!(GetMarket::new(id).checked().is_err(), "{id:?}");
        assert!(GetOrderbook::new(id).to_http().is_err(), "{id:?}");
        assert!(GetSeries::new(id).checked().is_err(), "{id:?}");
        let err = GetGame::new(id).to_http().unwrap_err();
        assert_eq!(err.parameter(), Some("game_id"), "{id:?}");
    }
    for (id, path) in [
        ("a\\b", "/markets/a%5Cb"),
        ("%2e%2e", "/markets/%252e%252e"),
        (".%2e", "/markets/.%252e"),
        ("a/b.c/..d", "/markets/a%2Fb.c%2F..d"),
        ("...", "/markets/..."),
    ] {
        assert_eq!(
            GetMarket::new(id).to_http().map(|h| h.path).as_deref(),
            Ok(path)
        );
    }
}
