//! One request type per operation. A request *is* its path and query string;
//! `to_http` runs the spec's checks first, so nothing invalid is ever sent.
//!
//! Requests are plain structs with public `Option` fields and `Default`, so
//! `ListMarkets { limit: Some(50), ..Default::default() }` works; required
//! parameters are checked in `to_http` and named in the error.
//!
//! | operation | request | path |
//! |---|---|---|
//! | listSeries | [`ListSeries`] | `GET /series` |
//! | getSeries | [`GetSeries`] | `GET /series/{id}` |
//! | listMarkets | [`ListMarkets`] | `GET /markets` |
//! | getMarket | [`GetMarket`] | `GET /markets/{id}` |
//! | getOrderbook | [`GetOrderbook`] | `GET /markets/{id}/orderbook` |
//! | listEvents | [`ListEvents`] | `GET /events` |
//! | getEvent | [`GetEvent`] | `GET /events/{id}` |
//! | listTrades | [`ListTrades`] | `GET /trades` |
//! | getLeagueInfo | [`GetLeagueInfo`] | `GET /league-info` |
//! | listGames | [`ListGames`] | `GET /list-games` |
//! | getGame | [`GetGame`] | `GET /games/{game_id}` |
//! | listPlatforms | [`ListPlatforms`] | `GET /platforms` |
//! | getFuture | [`GetFuture`] | `GET /futures/{id}` |
//! | listFutures | [`ListFutures`] | `GET /list-futures` |
//! | getAward | [`GetAward`] | `GET /awards/{id}` |
//! | listAwards | [`ListAwards`] | `GET /list-awards` |
//! | getPriceHistory | [`GetPriceHistory`] | `GET /price-history` |
//! | getProfileInfo | [`GetProfileInfo`] | `GET /profile/info` |
//! | listProfileTrades | [`ListProfileTrades`] | `GET /profile/trades` |

mod awards;
mod checks;
mod events;
mod futures;
mod games;
mod league;
mod markets;
mod platforms;
mod price_history;
mod profile;
mod series;
mod trades;

pub use awards::*;
pub use checks::{
    EVENTS_MAX_LIMIT, LIST_MAX_LIMIT, MARKETS_MAX_LIMIT, PRICE_HISTORY_MAX_LIMIT,
    PRICE_HISTORY_MAX_MARKETS, PROFILE_TRADES_MAX_LIMIT, PROFILE_USER_MAX_CHARS, SERIES_MAX_LIMIT,
    TRADES_MAX_LIMIT,
};
pub use events::*;
pub use futures::*;
pub use games::*;
pub use league::*;
pub use markets::*;
pub use platforms::*;
pub use price_history::*;
pub use profile::*;
pub use series::*;
pub use trades::*;

use crate::error::Error;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::de::DeserializeOwned;

/// Characters left as they are in a path segment or a query component
/// (RFC 3986 unreserved).
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// An operation of the service.
pub trait Request {
    /// The operation's name as the JS library spells it, e.g. `listPlatforms`.
    const OPERATION: &'static str;
    /// What a successful answer decodes into.
    type Response: DeserializeOwned;
    /// Checks the request against the spec and renders it.
    fn to_http(&self) -> Result<HttpRequest, Error>;
}

/// Where a page starts: the service's two paging models.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PagePosition {
    /// An opaque `next_cursor` of a previous page.
    Cursor(String),
    /// An offset into the list (list-futures, list-awards).
    Offset(u64),
}

impl std::fmt::Display for PagePosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cursor(c) => write!(f, "cursor {c:?}"),
            Self::Offset(o) => write!(f, "offset {o}"),
        }
    }
}

/// A list operation the pager (`crate::pagination::Pager`) can walk.
pub trait Paged: Request + Clone {
    /// One item of a page.
    type Item;
    /// Where this request starts (`None`: the first page).
    fn position(&self) -> Option<PagePosition>;
    /// The same request starting at `position` (`None`: the first page).
    fn set_position(&mut self, position: Option<PagePosition>);
    /// The position of the next page, if the response says there is one.
    fn next_position(response: &Self::Response) -> Option<PagePosition>;
    /// The items of a page, in order.
    fn items(response: &Self::Response) -> &[Self::Item];
    /// The items of a page, taken out of it.
    fn into_items(response: Self::Response) -> Vec<Self::Item>;
}

/// A checked request: path (already encoded) and query pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    pub path: String,
    pub query: Vec<(&'static str, String)>,
}

impl HttpRequest {
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            query: Vec::new(),
        }
    }

    /// Adds `name=value` when `value` is present.
    pub fn param(mut self, name: &'static str, value: Option<impl ToString>) -> Self {
        if let Some(value) = value {
            self.query.push((name, value.to_string()));
        }
        self
    }

    /// The value of a query parameter, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Path and query, encoded, e.g. `/markets?limit=25&query=a%20b`.
    pub fn path_and_query(&self) -> String {
        let mut out = self.path.clone();
        for (i, (name, value)) in self.query.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.push_str(name);
            out.push('=');
            out.extend(utf8_percent_encode(value, COMPONENT));
        }
        out
    }

    /// The full URL under `base_url` (with or without a trailing slash).
    pub fn url(&self, base_url: &str) -> String {
        format!(
            "{}{}",
            base_url.trim_end_matches('/'),
            self.path_and_query()
        )
    }
}

/// An id as one path segment: non-empty, and percent-encoded so that `/`,
/// `?` or `#` inside it can never change the path.
pub fn path_segment(parameter: &str, id: &str) -> Result<String, Error> {
    if id.trim().is_empty() {
        return Err(Error::invalid(parameter, "must not be empty"));
    }
    Ok(utf8_percent_encode(id, COMPONENT).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_one_encoded_segment() {
        assert_eq!(
            path_segment("id", "a/b?c#d e").as_deref(),
            Ok("a%2Fb%3Fc%23d%20e")
        );
        assert_eq!(
            path_segment("id", "KCvSF20250209@NFL").as_deref(),
            Ok("KCvSF20250209%40NFL")
        );
        let err = path_segment("market_id", " ").unwrap_err();
        assert_eq!(err.parameter(), Some("market_id"));
    }

    #[test]
    fn query_values_are_encoded_and_absent_ones_skipped() {
        let req = HttpRequest::new("/markets")
            .param("query", Some("a&b=c d"))
            .param("cursor", None::<String>)
            .param("limit", Some(25));
        assert_eq!(
            req.url("http://x/"),
            "http://x/markets?query=a%26b%3Dc%20d&limit=25"
        );
    }
}
