//! One request type per operation. A request *is* its path and query string;
//! `to_http` runs the spec's checks first, so nothing invalid is ever sent.

use crate::error::Error;
use crate::models::PlatformsResponse;
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

/// `GET /platforms`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListPlatforms;

impl Request for ListPlatforms {
    const OPERATION: &'static str = "listPlatforms";
    type Response = PlatformsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/platforms"))
    }
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
