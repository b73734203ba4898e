//! The local server's kept answers for the front service (`front`): a
//! `GET /markets` page, read as its route reads it (`crate::query::read`)
//! and answered by its handler's own code (`markets::list_page`), kept
//! whole per query and coding for the second it is true
//! (`encoding::whole`: only the tail, with this request's time, is
//! written per request). Only what the router's path would answer the
//! same way: no fault drawn per request (those are the operation
//! middleware's), no search (searches run on the blocking pool behind
//! their own permits, `guard::offload`), a page the handler answers (a
//! refused parameter is the router's 400), a client that sends no
//! `Accept-Encoding` or takes gzip or brotli (any other coding is the
//! compression layer's, behind the router).
//!
//! A page is made only after the key's check let its request through
//! (`front::KeptAnswer::Later`): `find` reads and checks the request
//! (`markets::list_refusal`), nothing more, so a key over its budget
//! costs its 429 and no page.

use super::markets::{list_page, list_refusal};
use super::paging::{list_meta_json, list_meta_rest};
use super::respond::{list_head, list_tail_around_time, parts_response};
use crate::access_log::Started;
use crate::auth::Keys;
use crate::data::time::now_unix;
use crate::encoding::coding::Coding;
use crate::encoding::whole::{self, PageParts, WholeAnswers};
use crate::front::KeptAnswer;
use crate::state::SharedState;
use axum::http::{HeaderMap, Uri, header};
use axum::response::{IntoResponse, Response};
use predmarket_core::request::{ListMarkets, Operation};
use std::sync::Arc;
use std::time::Instant;

/// Pages of markets, as kept answers.
pub struct MarketPages {
    state: SharedState,
    wholes: Arc<WholeAnswers>,
}

impl MarketPages {
    pub fn new(state: SharedState) -> Self {
        Self {
            state,
            wholes: Arc::new(WholeAnswers::new(whole::MAX_BYTES)),
        }
    }
}

impl crate::front::KeptAnswers for MarketPages {
    fn find(&self, uri: &Uri, headers: &HeaderMap) -> Option<KeptAnswer> {
        if uri.path() != Operation::ListMarkets.path() {
            return None;
        }
        let coding = Coding::accepted(headers);
        if coding == Coding::Identity && headers.contains_key(header::ACCEPT_ENCODING) {
            return None;
        }
        let started = Started(Instant::now());
        let query = uri.query().unwrap_or("");
        // Only a query that passed every check below was kept, and what
        // they read (the faults, the query) does not change.
        if let Some(whole) = self.wholes.find(query, coding, now_unix()) {
            return Some(KeptAnswer::Whole(whole, started));
        }
        if self.state.faults.any_per_request() || crate::guard::is_search_of(uri) {
            return None;
        }
        let request: ListMarkets = crate::query::read(&[], query).ok()?;
        list_refusal(&self.state, &request).ok()?;
        let (state, wholes, query) = (self.state.clone(), self.wholes.clone(), query.to_owned());
        Some(KeptAnswer::Later(Box::new(move || {
            make(&state, &wholes, (&query, coding), &request, &started)
        })))
    }

    fn keys(&self) -> Option<&Keys> {
        Some(&self.state.keys)
    }

    fn served(&self, _answer: &KeptAnswer) {}
}

/// The page `request` asks for, kept whole for `query` in `coding` when
/// it was made within one second (the second its cursor carries is the
/// one it is kept for), else answered as the router's handler answers it.
fn make(
    state: &SharedState,
    wholes: &WholeAnswers,
    (query, coding): (&str, Coding),
    request: &ListMarkets,
    started: &Started,
) -> Response {
    let second = now_unix();
    let page = match list_page(state, request) {
        Ok(page) => page,
        // Refused now though not when found (a cursor that expired as the
        // second turned): the router's answer to it.
        Err(error) => return error.into_response(),
    };
    if now_unix() == second {
        let head = list_head(&page.pagination);
        let meta_rest = list_meta_rest(state, page.queried(), &page.errors);
        let (tail_before, tail_after) = list_tail_around_time(&meta_rest);
        let parts = PageParts {
            head: &head,
            kept: &page.kept,
            tail_before,
            tail_after: &tail_after,
        };
        if let Some(whole) = wholes.keep(&state.answers, (query, coding), second, &parts) {
            return whole.answer(started.elapsed_ms());
        }
    }
    // As the handler answers it (`markets::list_answer`), from the page
    // made above.
    let meta = list_meta_json(state, started, page.queried(), &page.errors);
    let answer = parts_response(&page.kept, &page.pagination, &meta);
    crate::encoding::encode(&state.answers, coding, answer)
}
