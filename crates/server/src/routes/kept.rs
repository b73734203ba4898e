//! The local server's kept answers for the front service (`front`): a
//! `GET /markets` page, read as its route reads it (`crate::query::read`)
//! and answered by its handler's own code (`markets::list_answer`): the
//! page's middle kept (`encoding::Answers::kept`) between this request's
//! head and tail, in its client's coding from the kept compressions
//! (`encoding::encode`, the encode layer's step). Only what the router's
//! path would answer the same way: no fault drawn per request (those are
//! the operation middleware's), no search (searches run on the blocking
//! pool behind their own permits, `guard::offload`), a page the handler
//! answers (a refused parameter is the router's 400), a client that sends
//! no `Accept-Encoding` or takes gzip or brotli (any other coding is the
//! compression layer's, behind the router).

use super::markets::list_answer;
use crate::access_log::Started;
use crate::auth::Keys;
use crate::encoding::coding::Coding;
use crate::state::SharedState;
use axum::http::{HeaderMap, Uri, header};
use axum::response::Response;
use predmarket_core::request::{ListMarkets, Operation};
use std::time::Instant;

/// Pages of markets, as kept answers.
pub struct MarketPages {
    state: SharedState,
}

impl MarketPages {
    pub fn new(state: SharedState) -> Self {
        Self { state }
    }
}

impl crate::front::KeptAnswers for MarketPages {
    fn find(&self, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
        if uri.path() != Operation::ListMarkets.path()
            || self.state.faults.any_per_request()
            || crate::guard::is_search_of(uri)
        {
            return None;
        }
        let coding = Coding::accepted(headers);
        if coding == Coding::Identity && headers.contains_key(header::ACCEPT_ENCODING) {
            return None;
        }
        let started = Started(Instant::now());
        let request: ListMarkets = crate::query::read(&[], uri.query().unwrap_or("")).ok()?;
        let answer = list_answer(&self.state, &started, &request).ok()?;
        Some(crate::encoding::encode(&self.state.answers, coding, answer))
    }

    fn keys(&self) -> Option<&Keys> {
        Some(&self.state.keys)
    }

    fn served(&self) {}
}
