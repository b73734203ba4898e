//! How `GET /stream` admits an open. Every open has its viewer
//! (`audience::Viewer`) and the budget lane its first polls wait in. In
//! public mode (`--public-proxy`) an open is one more request of its
//! visitor: it takes a token of the visitor's request bucket, each topic
//! it creates is one of the visitor's misses (`--visitor-misses`: that
//! topic's first poll goes upstream), and past either the answer is the
//! visitors' JSON 429. An open from another site's page is refused there
//! (a 403 with a JSON error): the open is a simple GET that any page can
//! make its visitors' browsers send, and CORS only stops the page reading
//! the answer, not the polls it causes.

use super::audience::Viewer;
use crate::error::ApiError;
use crate::proxy::visitors::{Refusal, Visitor, Visitors};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use predmarket_core::ErrorCode;
use serde_json::json;
use std::net::IpAddr;
use std::sync::Arc;

/// What an open is admitted by.
#[derive(Clone, Default)]
pub struct Door {
    /// With `--public-proxy`: the visitors' buckets, and cross-site opens
    /// refused.
    pub visitors: Option<Arc<Visitors>>,
    /// `--cors-origin`: the other origins whose pages may open streams.
    pub origins: Vec<String>,
}

/// Why an open is turned away at the door.
pub enum Turned {
    /// From another site's page: why it is told so.
    CrossSite(&'static str),
    /// Over the visitor's request bucket or in-flight cap.
    Visitor(Refusal),
}

impl IntoResponse for Turned {
    fn into_response(self) -> Response {
        match self {
            Turned::CrossSite(reason) => {
                let mut response = ApiError::new(
                    ErrorCode::ValidationError,
                    "streams are not opened for another site's page",
                )
                .with_details(json!({ "reason": reason }))
                .into_response();
                *response.status_mut() = StatusCode::FORBIDDEN;
                response
            }
            Turned::Visitor(refusal) => refusal.into_response(),
        }
    }
}

/// An admitted open: its viewer, the lane of its first polls, and (public
/// mode) the visitor its new topics are charged to.
pub struct Admitted {
    pub viewer: Viewer,
    pub lane: u64,
    visitor: Option<Visitor>,
}

impl Admitted {
    /// Charges one new topic (its first poll is a miss) to the visitor.
    pub fn charge_topic(&self) -> Result<(), Refusal> {
        match &self.visitor {
            Some(visitor) => visitor.charge_miss(),
            None => Ok(()),
        }
    }
}

impl Door {
    /// Admits an open of the client at `peer` that showed key `key`, or
    /// says why not.
    pub fn admit(
        &self,
        key: Option<usize>,
        peer: IpAddr,
        headers: &HeaderMap,
    ) -> Result<Admitted, Turned> {
        let trusted = self.visitors.as_ref().map_or(&[][..], |v| v.trusted());
        let viewer = Viewer::of(key, peer, headers, trusted);
        let Some(visitors) = &self.visitors else {
            return Ok(Admitted {
                viewer,
                lane: key.map_or(0, |id| id as u64),
                visitor: None,
            });
        };
        if let Some(reason) = cross_site(headers, &self.origins) {
            return Err(Turned::CrossSite(reason));
        }
        let address = visitors.client_addr(peer, headers);
        let visitor = visitors.admit(address).map_err(Turned::Visitor)?;
        Ok(Admitted {
            viewer,
            lane: visitor.lane(),
            visitor: Some(visitor),
        })
    }
}

/// Why an open comes from another site's page, if it does: the browser
/// says so (`Sec-Fetch-Site: cross-site`), or its `Origin` is neither the
/// server's own (its `Host`) nor one of `allowed`.
fn cross_site(headers: &HeaderMap, allowed: &[String]) -> Option<&'static str> {
    if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"cross-site"))
    {
        return Some("cross_site");
    }
    let origin = headers.get(header::ORIGIN)?.to_str().unwrap_or("null");
    if allowed.iter().any(|a| a == origin) {
        return None;
    }
    let own = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.parse::<axum::http::uri::Authority>().ok());
    let origin = origin.parse::<Uri>().ok();
    let same = match (origin, own) {
        (Some(origin), Some(own)) => {
            let default_port = match origin.scheme_str() {
                Some("https") => 443,
                _ => 80,
            };
            origin
                .host()
                .is_some_and(|h| h.eq_ignore_ascii_case(own.host()))
                && origin.port_u16().unwrap_or(default_port)
                    == own.port_u16().unwrap_or(default_port)
        }
        _ => false,
    };
    (!same).then_some("origin_not_allowed")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut out = HeaderMap::new();
        for (name, value) in pairs {
            out.insert(*name, value.parse().expect("header value"));
        }
        out
    }

    /// Request headers, and what `cross_site` says of them.
    type Case = (
        &'static [(&'static str, &'static str)],
        Option<&'static str>,
    );

    #[test]
    fn opens_from_other_sites_are_told_apart() {
        let allowed = ["https://app.example".to_owned()];
        let cases: [Case; 8] = [
            // No browser word on it: a program, or an old browser's
            // same-origin request.
            (&[("host", "proxy.example")], None),
            (&[("sec-fetch-site", "same-origin")], None),
            (&[("sec-fetch-site", "cross-site")], Some("cross_site")),
            (
                &[
                    ("host", "proxy.example"),
                    ("origin", "https://proxy.example"),
                ],
                None,
            ),
            (
                &[
                    ("host", "127.0.0.1:8080"),
                    ("origin", "http://127.0.0.1:8080"),
                ],
                None,
            ),
            (
                &[
                    ("host", "proxy.example"),
                    ("origin", "https://evil.example"),
                ],
                Some("origin_not_allowed"),
            ),
            (
                &[("host", "proxy.example"), ("origin", "null")],
                Some("origin_not_allowed"),
            ),
            (
                &[("host", "proxy.example"), ("origin", "https://app.example")],
                None,
            ),
        ];
        for (pairs, want) in cases {
            assert_eq!(cross_site(&headers(pairs), &allowed), want, "{pairs:?}");
        }
    }
}
