//! One request type per operation, and each is the single declaration of
//! its operation's parameters (issue "one declaration per operation"):
//!
//! - `Serialize` renders the query string (octocrab style: the struct *is*
//!   the query, with the wire names, absent values skipped);
//! - `Deserialize` reads a query string back ([`Request::from_query`], the
//!   reference server's parsing) and a JS parameter object
//!   ([`Request::from_json`], the npm package); numbers and booleans are
//!   accepted as such or as the strings of the wire;
//! - `schemars::JsonSchema` (feature `schema`) gives the server's OpenAPI
//!   parameters; tsify (feature `tsify`) gives the JS parameter type,
//!   `<Name>Params`;
//! - [`Request::checked`] runs the structural checks (one value, no comma,
//!   not empty, integer ranges, required parameters; limits are capped,
//!   never rejected) and [`Request::to_http`] renders path and query.
//!
//! No check tests membership of an open set (platform, league, status,
//! award or future type, sort, interval, odds format): the public service's
//! ids are not the labels of service.md
//! (`docs/spec/public-service-facts.md`), so the service decides. The
//! platforms each operation serves are in [`crate::capabilities`], for the
//! server and for display.
//!
//! Requests are plain structs with public fields and `Default`, so
//! `ListMarkets { limit: Some(50), ..Default::default() }` works.
//!
//! The operations themselves (names, paths, paging) are the table of
//! [`operation`]: each request type names its entry by [`Request::OP`].

#[macro_use]
mod paging;
#[macro_use]
mod by_id;
#[macro_use]
mod outright;
#[macro_use]
mod group;

mod awards;
pub(crate) mod checks;
mod events;
mod futures;
mod games;
mod league;
mod markets;
pub mod operation;
pub mod params;
mod platforms;
mod price_history;
mod profile;
mod series;
mod trades;
pub(crate) mod wire;

pub use awards::*;
pub use checks::{
    EVENTS_MAX_LIMIT, LIST_MAX_LIMIT, MARKETS_MAX_LIMIT, PRICE_HISTORY_MAX_LIMIT,
    PRICE_HISTORY_MAX_MARKETS, PROFILE_TRADES_MAX_LIMIT, PROFILE_USER_MAX_CHARS, SEASON_MAX,
    SEASON_MIN, SERIES_MAX_LIMIT, TRADES_MAX_LIMIT,
};
pub use events::*;
pub use futures::*;
pub use games::*;
pub use league::*;
pub use markets::*;
pub use operation::{Lifetimes, Operation, Paging};
pub use platforms::*;
pub use price_history::*;
pub use profile::*;
pub use series::*;
pub use trades::*;

use crate::error::Error;
use params::Params;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Characters left as they are in a path segment or a query component
/// (RFC 3986 unreserved).
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// An operation of the service: its parameters are the fields of `Self`.
pub trait Request: Serialize + DeserializeOwned + Clone + Params {
    /// Its entry in the operation table.
    const OP: Operation;
    /// The operation's name as the JS library spells it, e.g. `listPlatforms`.
    const OPERATION: &'static str = Self::OP.name();
    /// The path template, e.g. `/markets/{id}`.
    const PATH: &'static str = Self::OP.path();
    /// The fields that go into the path, not the query (e.g. `["id"]`).
    const PATH_PARAMS: &'static [&'static str] = &[];
    /// What a successful answer decodes into.
    type Response: DeserializeOwned;

    /// The structural checks; returns the request as it is sent: limits
    /// capped, blank text and empty cursors dropped.
    fn checked(&self) -> Result<Self, Error>;

    /// The path, with the path parameters encoded as one segment each.
    fn path(&self) -> Result<String, Error> {
        Ok(Self::PATH.to_owned())
    }

    /// Checks the request and renders it.
    fn to_http(&self) -> Result<HttpRequest, Error> {
        let checked = self.checked()?;
        let path = checked.path()?;
        // The table's renderer, not serde_urlencoded: one function for
        // every request instead of an encoder per type (the contract test
        // holds both to the same output).
        let mut query = Vec::new();
        checked.write_values(&mut query);
        query.retain(|(name, _)| !Self::PATH_PARAMS.contains(&name.as_str()));
        Ok(HttpRequest { path, query })
    }

    /// Reads a request from a query string (`a=1&b=x`, no `?`), with the
    /// path parameters given apart (they win over query keys of the same
    /// name). Unknown query keys are ignored; a repeated key is an error.
    /// Not checked: call [`Request::checked`] or [`Request::to_http`].
    fn from_query(path_params: &[(&str, &str)], query: &str) -> Result<Self, Error> {
        let query = query.strip_prefix('?').unwrap_or(query);
        let text = if path_params.is_empty() {
            query.to_owned()
        } else {
            let mut pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
                .map_err(|e| Error::invalid("query", e.to_string()))?;
            pairs.retain(|(k, _)| !path_params.iter().any(|(p, _)| p == k));
            pairs.extend(
                path_params
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
            );
            serde_urlencoded::to_string(&pairs)
                .map_err(|e| Error::invalid("query", e.to_string()))?
        };
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(text.as_bytes()));
        serde_path_to_error::deserialize(de).map_err(parameter_error)
    }

    /// Reads a request from a JSON object (a JS parameter object after
    /// `JSON.stringify`). Unknown keys are ignored here: the caller checks
    /// them against [`parameter_names`] first, to name them.
    fn from_json(json: &str) -> Result<Self, Error> {
        let mut de = serde_json::Deserializer::from_str(json);
        serde_path_to_error::deserialize(&mut de).map_err(parameter_error)
    }
}

/// The query pairs `request` serializes to, in field order.
pub fn query_pairs<R: Serialize>(request: &R) -> Result<Vec<(String, String)>, Error> {
    let text = serde_urlencoded::to_string(request)
        .map_err(|e| Error::invalid("params", e.to_string()))?;
    Ok(form_urlencoded::parse(text.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect())
}

/// A deserialization failure as a validation error naming the parameter.
fn parameter_error<E: std::fmt::Display>(error: serde_path_to_error::Error<E>) -> Error {
    let path = error.path().to_string();
    let message = error.inner().to_string();
    // serde_json appends the position, which says nothing to a caller.
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    };
    // "invalid value: string \"…\", expected X": the value is the caller's
    // own (and may be a secret pasted into the wrong field), so only what
    // was expected is said.
    let message = match message.find(", expected ") {
        Some(at) if message.starts_with("invalid ") => {
            format!("must be {}", &message[at + ", expected ".len()..])
        }
        _ => message,
    };
    // A missing or repeated field is reported at its parent's path, named
    // in the message between backticks.
    let quoted = message
        .split('`')
        .nth(1)
        .filter(|_| message.starts_with("missing field") || message.starts_with("duplicate field"));
    match quoted {
        Some(field) if message.starts_with("missing") => Error::invalid(field, "is required"),
        Some(field) => Error::invalid(field, "takes exactly one value"),
        None if path.is_empty() || path == "." => Error::invalid("params", message),
        None => Error::invalid(path, message),
    }
}

/// The wire names of the parameters of `R`, in declaration order, read
/// from its `Deserialize` implementation (so they cannot drift from it).
pub fn parameter_names<R: DeserializeOwned>() -> &'static [&'static str] {
    wire::struct_fields::<R>()
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
            Self::Cursor(c) => write!(f, "cursor {}", crate::error::Quoted(c)),
            Self::Offset(o) => write!(f, "offset {o}"),
        }
    }
}

/// A list operation the pager (`crate::pagination::Pager`) can walk.
pub trait Paged: Request {
    /// Its paging model (the operation table declares the same).
    const PAGING: Paging;
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

/// A checked request: path (already encoded) and query pairs (not yet
/// encoded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl HttpRequest {
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            query: Vec::new(),
        }
    }

    /// Adds `name=value` when `value` is present.
    pub fn param(mut self, name: &str, value: Option<impl ToString>) -> Self {
        if let Some(value) = value {
            self.query.push((name.to_owned(), value.to_string()));
        }
        self
    }

    /// The value of a query parameter, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Path and query, encoded, e.g. `/markets?limit=25&query=a%20b`.
    pub fn path_and_query(&self) -> String {
        let mut out = self.path.clone();
        for (i, (name, value)) in self.query.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.extend(utf8_percent_encode(name, COMPONENT));
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

/// An id as one path segment: checked by `checks::path_id` (not blank,
/// not `.` or `..`, which a URL parser would resolve as a step up), and
/// percent-encoded so that `/`, `\`, `?`, `#` or `%` inside it can never
/// change the path.
pub fn path_segment(parameter: &str, id: &str) -> Result<String, Error> {
    checks::path_id(parameter, id)?;
    Ok(utf8_percent_encode(id, COMPONENT).to_string())
}

/// `template` with each `{name}` replaced by its value as one encoded
/// segment ([`path_segment`]).
pub fn render_path(template: &str, params: &[(&str, &str)]) -> Result<String, Error> {
    let mut path = template.to_owned();
    for (name, value) in params {
        path = path.replace(&format!("{{{name}}}"), &path_segment(name, value)?);
    }
    Ok(path)
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
        for id in [".", "..", "", "../x", "a\\..\\b"] {
            assert!(path_segment("id", id).is_err(), "{id:?}");
        }
        // Dots elsewhere, backslashes and percent signs stay one segment.
        assert_eq!(path_segment("id", "...").as_deref(), Ok("..."));
        assert_eq!(
            path_segment("id", "a\\..b%2e").as_deref(),
            Ok("a%5C..b%252e")
        );
        assert_eq!(
            render_path("/markets/{id}/orderbook", &[("id", "a/b")]).as_deref(),
            Ok("/markets/a%2Fb/orderbook")
        );
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
