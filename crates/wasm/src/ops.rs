//! Every operation of the JS client as data: its parameter table, where
//! its id goes when the caller passes the id alone, how its lists page, and
//! one function that turns read values into the checked HTTP request.
//!
//! Why: each exported method used to be generic over its request type, so
//! every method (and every pager) carried its own copy of reading,
//! checking, rendering and paging, most of the package's wasm. Now the
//! methods hand a descriptor to one function compiled once; what is left
//! per operation is [`build`], whose checks and rendering are the core
//! request's own (`R::from_values`, `Request::to_http`), so nothing here
//! restates a rule. How each list pages and where its items are come from
//! the core's operation table; [`op`] is an exhaustive `match` on it.

use predmarket_client::Error;
use predmarket_client::core::request::params::{Param, Value};
use predmarket_client::core::request::*;

/// Where a list's items are in a page and how it pages, as the core's
/// operation table declares: each item key is looked for inside `data`
/// first, then at the top level; the pagination object at the top level
/// first, then inside `data` (the public service wraps some lists in
/// `data` and not others; the core's response models read by this rule).
pub struct Layout {
    pub items: &'static [&'static str],
    /// Offset paging (`next_offset`) rather than cursor paging.
    pub offset: bool,
}

/// The places to look for the pagination object, in order.
pub const PAGINATION: &[&[&str]] = &[&["pagination"], &["data", "pagination"]];

/// Which page a request asks for.
pub enum At {
    /// As the caller's parameters say (a `cursor` or `offset` of theirs).
    Given,
    /// A page of a paging session (`None`: the first).
    Page(Option<PagePosition>),
}

/// A request ready to send, and where the caller's parameters start.
pub struct Built {
    pub http: HttpRequest,
    pub start: Option<PagePosition>,
}

pub struct Op {
    pub params: &'static [Param],
    /// The parameter the first argument fills when it is a string.
    pub id_key: Option<&'static str>,
    pub build: fn(Vec<Option<Value>>, At) -> Result<Built, Error>,
    /// Lists: how their pages are laid out.
    pub layout: Option<Layout>,
}

/// The request of an operation on one item or of a list without paging.
fn build<R: Request>(values: Vec<Option<Value>>, _: At) -> Result<Built, Error> {
    Ok(Built {
        http: R::from_values(values).to_http()?,
        start: None,
    })
}

/// The request of a list at a page.
fn build_page<R: Paged>(values: Vec<Option<Value>>, at: At) -> Result<Built, Error> {
    let mut request = R::from_values(values);
    let start = request.position();
    if let At::Page(position) = at {
        request.set_position(position);
    }
    Ok(Built {
        http: request.to_http()?,
        start,
    })
}

const fn one<R: Request>(id_key: Option<&'static str>) -> Op {
    Op {
        params: R::PARAMS,
        id_key,
        build: build::<R>,
        layout: None,
    }
}

const fn list<R: Paged>(id_key: Option<&'static str>) -> Op {
    Op {
        params: R::PARAMS,
        id_key,
        build: build_page::<R>,
        layout: Some(Layout {
            items: R::OP.items(),
            offset: matches!(R::PAGING, Paging::Offset),
        }),
    }
}

static LIST_SERIES: Op = list::<ListSeries>(None);
static GET_SERIES: Op = one::<GetSeries>(Some("id"));
static LIST_MARKETS: Op = list::<ListMarkets>(None);
static GET_MARKET: Op = one::<GetMarket>(Some("id"));
static GET_ORDERBOOK: Op = one::<GetOrderbook>(Some("id"));
static LIST_EVENTS: Op = list::<ListEvents>(None);
static GET_EVENT: Op = one::<GetEvent>(Some("id"));
static LIST_TRADES: Op = list::<ListTrades>(Some("market_id"));
static GET_LEAGUE_INFO: Op = one::<GetLeagueInfo>(None);
static LIST_GAMES: Op = list::<ListGames>(None);
static GET_GAME: Op = one::<GetGame>(Some("game_id"));
static LIST_PLATFORMS: Op = one::<ListPlatforms>(None);
static GET_FUTURE: Op = one::<GetFuture>(Some("id"));
static LIST_FUTURES: Op = list::<ListFutures>(None);
static GET_AWARD: Op = one::<GetAward>(Some("id"));
static LIST_AWARDS: Op = list::<ListAwards>(None);
static GET_PRICE_HISTORY: Op = one::<GetPriceHistory>(None);
static GET_PROFILE_INFO: Op = one::<GetProfileInfo>(None);
static LIST_PROFILE_TRADES: Op = list::<ListProfileTrades>(None);

/// The descriptor of each operation: a table entry without one does not
/// compile.
pub fn op(operation: Operation) -> &'static Op {
    match operation {
        Operation::ListSeries => &LIST_SERIES,
        Operation::GetSeries => &GET_SERIES,
        Operation::ListMarkets => &LIST_MARKETS,
        Operation::GetMarket => &GET_MARKET,
        Operation::GetOrderbook => &GET_ORDERBOOK,
        Operation::ListEvents => &LIST_EVENTS,
        Operation::GetEvent => &GET_EVENT,
        Operation::ListTrades => &LIST_TRADES,
        Operation::GetLeagueInfo => &GET_LEAGUE_INFO,
        Operation::ListGames => &LIST_GAMES,
        Operation::GetGame => &GET_GAME,
        Operation::ListPlatforms => &LIST_PLATFORMS,
        Operation::GetFuture => &GET_FUTURE,
        Operation::ListFutures => &LIST_FUTURES,
        Operation::GetAward => &GET_AWARD,
        Operation::ListAwards => &LIST_AWARDS,
        Operation::GetPriceHistory => &GET_PRICE_HISTORY,
        Operation::GetProfileInfo => &GET_PROFILE_INFO,
        Operation::ListProfileTrades => &LIST_PROFILE_TRADES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_page_by_the_tables_model() {
        for &operation in Operation::ALL {
            let op = op(operation);
            match (&op.layout, operation.paging()) {
                (Some(layout), Some(paging)) => {
                    assert_eq!(layout.offset, paging == Paging::Offset, "{operation}");
                    assert_eq!(layout.items, operation.items());
                    let key = if layout.offset { "offset" } else { "cursor" };
                    assert!(op.params.iter().any(|p| p.name == key), "{key}");
                }
                (None, None) => {}
                _ => panic!("{operation}: layout and paging disagree"),
            }
        }
    }

    #[test]
    fn a_page_replaces_the_callers_position() {
        let values = |cursor: &str| {
            LIST_MARKETS
                .params
                .iter()
                .map(|p| (p.name == "cursor").then(|| Value::Text(cursor.to_owned())))
                .collect::<Vec<_>>()
        };
        let given = (LIST_MARKETS.build)(values("c1"), At::Given).unwrap();
        assert_eq!(given.http.get("cursor"), Some("c1"));
        assert_eq!(given.start, Some(PagePosition::Cursor("c1".to_owned())));
        let next = PagePosition::Cursor("c2".to_owned());
        let page = (LIST_MARKETS.build)(values("c1"), At::Page(Some(next))).unwrap();
        assert_eq!(page.http.get("cursor"), Some("c2"));
        let first = (LIST_MARKETS.build)(values("c1"), At::Page(None)).unwrap();
        assert_eq!(first.http.get("cursor"), None);
    }

    #[test]
    fn ids_go_under_the_operations_key() {
        for op in [
            &GET_SERIES,
            &GET_MARKET,
            &LIST_TRADES,
            &GET_GAME,
            &GET_AWARD,
        ] {
            let key = op.id_key.expect("takes an id");
            assert!(
                op.params.iter().any(|p| p.name == key && p.required),
                "{key}"
            );
        }
    }

    /// The JS method names (in `client.rs`, compiled for wasm only) are
    /// `#[wasm_bindgen]` literals: each must be the name of the operation
    /// its method calls, and every operation of the core's table must have
    /// one.
    #[test]
    fn js_methods_are_held_to_the_operation_table() {
        let source = include_str!("client.rs");
        let mut called = Vec::new();
        // A method is a block between blank lines: its doc, its attribute
        // with the JS name, its body.
        for body in source.split("\n\n").filter(|b| b.contains("pub fn ")) {
            let js_name = body
                .split("js_name = ")
                .nth(1)
                .and_then(|rest| rest.split([',', ')']).next())
                .map(|name| name.trim().trim_matches('"'));
            let operation = |call: &str| {
                body.split(call).nth(1).map(|rest| {
                    let rest = rest.trim_start_matches(['(', '\n', ' ']);
                    let variant = rest
                        .strip_prefix("Operation::")
                        .and_then(|r| r.split(|c: char| !c.is_alphanumeric()).next())
                        .unwrap_or_else(|| panic!("not an operation: {rest:.60}"));
                    *Operation::ALL
                        .iter()
                        .find(|op| format!("{op:?}") == variant)
                        .unwrap_or_else(|| panic!("no operation {variant}"))
                })
            };
            if let Some(op) = operation("self.call(") {
                assert_eq!(js_name, Some(op.name()), "the method calling {op:?}");
                called.push(op);
            }
            if let Some(op) = operation("self.session(") {
                assert!(
                    op.paging().is_some(),
                    "a pager of {op}, which does not page"
                );
            }
        }
        called.sort();
        let mut all = Operation::ALL.to_vec();
        all.sort();
        assert_eq!(called, all, "one JS method per operation");
    }
}
