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
//! restates a rule.

use predmarket_client::Error;
use predmarket_client::core::request::params::{Param, Value};
use predmarket_client::core::request::*;

/// Where a list's items and pagination object are in a page: each is a
/// list of places, the first that holds the right kind of value wins (the
/// public service wraps some lists in `data` and not others, see
/// docs/spec/public-service-facts.md, "Envelopes").
pub struct Layout {
    pub items: &'static [&'static [&'static str]],
    pub pagination: &'static [&'static [&'static str]],
    /// Offset paging (`next_offset`) rather than cursor paging.
    pub offset: bool,
}

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

const fn list<R: Paged>(id_key: Option<&'static str>, layout: Layout) -> Op {
    Op {
        params: R::PARAMS,
        id_key,
        build: build_page::<R>,
        layout: Some(layout),
    }
}

const TOP: &[&[&str]] = &[&["pagination"], &["data", "pagination"]];
const IN_DATA: &[&[&str]] = &[&["data", "pagination"], &["pagination"]];

const fn cursor(
    items: &'static [&'static [&'static str]],
    pagination: &'static [&'static [&'static str]],
) -> Layout {
    Layout {
        items,
        pagination,
        offset: false,
    }
}

const fn offset(
    items: &'static [&'static [&'static str]],
    pagination: &'static [&'static [&'static str]],
) -> Layout {
    Layout {
        offset: true,
        ..cursor(items, pagination)
    }
}

pub static LIST_SERIES: Op = list::<ListSeries>(None, cursor(&[&["series"]], TOP));
pub static GET_SERIES: Op = one::<GetSeries>(Some("id"));
pub static LIST_MARKETS: Op = list::<ListMarkets>(None, cursor(&[&["markets"]], TOP));
pub static GET_MARKET: Op = one::<GetMarket>(Some("id"));
pub static GET_ORDERBOOK: Op = one::<GetOrderbook>(Some("id"));
// Older pages put the events under `markets`.
pub static LIST_EVENTS: Op = list::<ListEvents>(None, cursor(&[&["events"], &["markets"]], TOP));
pub static GET_EVENT: Op = one::<GetEvent>(Some("id"));
// `{trades, pagination}` or `{data: {trades, pagination}}`.
pub static LIST_TRADES: Op = list::<ListTrades>(
    Some("market_id"),
    cursor(&[&["trades"], &["data", "trades"]], TOP),
);
pub static GET_LEAGUE_INFO: Op = one::<GetLeagueInfo>(None);
// `{data: {games, pagination}}` or `{games, pagination}`.
pub static LIST_GAMES: Op =
    list::<ListGames>(None, cursor(&[&["data", "games"], &["games"]], IN_DATA));
pub static GET_GAME: Op = one::<GetGame>(Some("game_id"));
pub static LIST_PLATFORMS: Op = one::<ListPlatforms>(None);
pub static GET_FUTURE: Op = one::<GetFuture>(Some("id"));
// No pagination object at all (2.0.0) ends the list.
pub static LIST_FUTURES: Op =
    list::<ListFutures>(None, offset(&[&["data", "futures"], &["futures"]], IN_DATA));
pub static GET_AWARD: Op = one::<GetAward>(Some("id"));
pub static LIST_AWARDS: Op =
    list::<ListAwards>(None, offset(&[&["data", "awards"], &["awards"]], IN_DATA));
pub static GET_PRICE_HISTORY: Op = one::<GetPriceHistory>(None);
pub static GET_PROFILE_INFO: Op = one::<GetProfileInfo>(None);
pub static LIST_PROFILE_TRADES: Op =
    list::<ListProfileTrades>(None, cursor(&[&["data", "trades"], &["trades"]], IN_DATA));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_page_by_their_own_model() {
        for (op, offset) in [
            (&LIST_MARKETS, false),
            (&LIST_EVENTS, false),
            (&LIST_SERIES, false),
            (&LIST_TRADES, false),
            (&LIST_GAMES, false),
            (&LIST_PROFILE_TRADES, false),
            (&LIST_FUTURES, true),
            (&LIST_AWARDS, true),
        ] {
            let layout = op.layout.as_ref().expect("a list has a layout");
            assert_eq!(layout.offset, offset);
            let key = if offset { "offset" } else { "cursor" };
            assert!(op.params.iter().any(|p| p.name == key), "{key}");
        }
        assert!(GET_MARKET.layout.is_none());
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
}
