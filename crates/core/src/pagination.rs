//! A sans-IO pager for both paging models of the service (cursor and
//! offset). The caller does the I/O:
//!
//! ```text
//! let mut pager = Pager::new(ListMarkets::default()).with_max_items(500);
//! while let Some(request) = pager.next_request()? {
//!     match send(request).await {
//!         Ok(page) => items.extend(pager.on_page(page)?),
//!         Err(err) => pager.on_error(err)?, // Ok(()) after a restart
//!     }
//! }
//! ```
//!
//! The words, once:
//! - *pagination*: the object a list answer carries (`Pagination`, with a
//!   cursor or an offset; `OffsetPagination` for the offset-only lists);
//! - *paging model* (`request::Paging`): how an operation pages, cursor,
//!   offset or not at all, as the operation table declares;
//! - *position* (`request::PagePosition`): where one page starts, a cursor
//!   or an offset, read from one answer and set on the next request;
//! - *paged* (`request::Paged`): a list request the pager can walk (its
//!   items, its position, the next position of an answer);
//! - *pager* (`Pager`) and *walk* (`Walk`): one session of pages, typed
//!   over a request, or the same rules without a request type (the npm
//!   package's pagers); the Rust client's and the demo's pagers wrap them.
//!
//! Rules:
//! - cursor model: continue while `has_more` and `next_cursor` is not null;
//!   offset model: continue with `next_offset` (see `Pagination::next`,
//!   `OffsetPagination::next`);
//! - loop guard: a cursor or offset that was already requested in this
//!   session, or an offset that does not move forward, ends paging with
//!   `Error::PaginationLoop` (never an endless loop). So do
//!   [`MAX_EMPTY_PAGES`] empty pages in a row that still claim more. The
//!   items of the page that carried the bad position are still delivered;
//!   the error comes from the next `next_request`;
//! - `max_items` caps the items delivered (the last page is truncated);
//! - `reset` / `reset_with` restart from the first page: when a filter
//!   changes, the service's cursor is no longer valid (service.md,
//!   pagination rule 4);
//! - a 400 `INVALID_CURSOR` (expired or foreign cursor) restarts from the
//!   first page once per session, skipping as many items as were already
//!   delivered, so the caller still sees each item once if the list did not
//!   change meanwhile (if it did, a few items may be missed or repeated: the
//!   service gives no stable way to resume). A second `INVALID_CURSOR`, or
//!   one on the first page, ends paging with that error.

use crate::error::Error;
use crate::request::{PagePosition, Paged};
use std::collections::HashSet;
use std::ops::Range;

/// Empty pages in a row that still claim more before paging stops. Some
/// empty pages are legitimate (the service filters some items out after
/// paging, e.g. platform_b's MVE markets), so this is generous.
pub const MAX_EMPTY_PAGES: u32 = 10;

/// The paging state of one list session.
#[derive(Debug, Clone)]
pub struct Pager<R: Paged> {
    template: R,
    walk: Walk,
}

impl<R: Paged> Pager<R> {
    /// A session starting where `request` starts (its cursor or offset, or
    /// the first page).
    pub fn new(request: R) -> Self {
        let walk = Walk::new(request.position());
        Self {
            template: request,
            walk,
        }
    }

    /// Deliver at most `max` items in total.
    pub fn with_max_items(mut self, max: usize) -> Self {
        self.set_max_items(Some(max));
        self
    }

    pub fn set_max_items(&mut self, max: Option<usize>) {
        self.walk.set_max_items(max);
    }

    /// The request of the next page; `Ok(None)` when paging is over;
    /// the error that ended paging, if one did.
    pub fn next_request(&self) -> Result<Option<R>, Error> {
        Ok(self.walk.next_position()?.map(|position| {
            let mut request = self.template.clone();
            request.set_position(position);
            request
        }))
    }

    /// Whether paging is over (finished, capped or failed).
    pub fn is_done(&self) -> bool {
        self.walk.is_done()
    }

    /// Items delivered so far in this session.
    pub fn delivered(&self) -> usize {
        self.walk.delivered()
    }

    /// Pages accepted so far in this session.
    pub fn pages(&self) -> usize {
        self.walk.pages()
    }

    /// The request the session was built from (first-page form).
    pub fn request(&self) -> &R {
        &self.template
    }

    /// Takes a page's items: those to deliver, in order.
    pub fn on_page(&mut self, response: R::Response) -> Result<Vec<R::Item>, Error> {
        let range = self.accept(&response)?;
        let mut items = R::into_items(response);
        items.truncate(range.end);
        items.drain(..range.start.min(items.len()));
        Ok(items)
    }

    /// Takes a page by reference: the range of `R::items(response)` to
    /// deliver. Advances the session.
    pub fn accept(&mut self, response: &R::Response) -> Result<Range<usize>, Error> {
        self.accept_page(R::items(response).len(), R::next_position(response))
    }

    /// [`Pager::accept`] for a page the caller did not decode into
    /// `R::Response`: `len` items, and the position of the next page as
    /// `R::next_position` would give it. See [`Walk::accept_page`].
    pub fn accept_page(
        &mut self,
        len: usize,
        next: Option<PagePosition>,
    ) -> Result<Range<usize>, Error> {
        self.walk.accept_page(len, next)
    }

    /// See [`Walk::on_error`].
    pub fn on_error(&mut self, error: Error) -> Result<(), Error> {
        self.walk.on_error(error)
    }

    /// Starts over from the first page with the same request (e.g. after
    /// the caller changed its mind about what it has seen).
    pub fn reset(&mut self) {
        let mut template = self.template.clone();
        template.set_position(None);
        self.reset_with(template);
    }

    /// Starts over from the first page with new filters. A cursor in
    /// `request` is dropped: cursors belong to the filters they came with.
    pub fn reset_with(&mut self, mut request: R) {
        request.set_position(None);
        let max = self.walk.max_items;
        *self = Self::new(request);
        self.walk.max_items = max;
    }
}

/// The rules of the pager without the request: which position comes next,
/// which items of a page to deliver, when paging ends. Not generic, so a
/// caller that builds requests its own way (the npm package, from its
/// parameter table) uses it directly and compiles it once.
#[derive(Debug, Clone)]
pub struct Walk {
    /// The page to request next (`None`: the first page).
    pending: Option<PagePosition>,
    done: bool,
    failure: Option<Error>,
    seen: HashSet<PagePosition>,
    delivered: usize,
    /// Items still to drop after a restart (already delivered before it).
    skip: usize,
    max_items: Option<usize>,
    restarted: bool,
    empty_pages: u32,
    pages: usize,
}

impl Walk {
    /// A session starting at `start` (`None`: the first page).
    pub fn new(start: Option<PagePosition>) -> Self {
        Self {
            pending: start,
            done: false,
            failure: None,
            seen: HashSet::new(),
            delivered: 0,
            skip: 0,
            max_items: None,
            restarted: false,
            empty_pages: 0,
            pages: 0,
        }
    }

    /// Deliver at most `max` items in total (`None`: no cap).
    pub fn set_max_items(&mut self, max: Option<usize>) {
        self.max_items = max;
        if max.is_some_and(|m| self.delivered >= m) {
            self.done = true;
        }
    }

    /// Where the next page starts (`Some(None)`: the first page);
    /// `Ok(None)` when paging is over; the error that ended paging, if one
    /// did.
    pub fn next_position(&self) -> Result<Option<Option<PagePosition>>, Error> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        if self.done {
            return Ok(None);
        }
        Ok(Some(self.pending.clone()))
    }

    /// Whether paging is over (finished, capped or failed).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Items delivered so far in this session.
    pub fn delivered(&self) -> usize {
        self.delivered
    }

    /// Pages accepted so far in this session.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Takes a page of `len` items whose next page is at `next`: the range
    /// of its items to deliver. Advances the session.
    pub fn accept_page(
        &mut self,
        len: usize,
        next: Option<PagePosition>,
    ) -> Result<Range<usize>, Error> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        if self.done {
            return Ok(0..0);
        }
        self.pages += 1;
        let start = self.skip.min(len);
        self.skip -= start;
        let mut end = len;
        if let Some(max) = self.max_items {
            end = end.min(start.saturating_add(max.saturating_sub(self.delivered)));
        }
        self.delivered += end - start;

        let current = self.pending.take();
        if let Some(current) = &current {
            self.seen.insert(current.clone());
        }
        if self.max_items.is_some_and(|m| self.delivered >= m) {
            self.done = true;
            return Ok(start..end);
        }
        let Some(next) = next else {
            self.done = true;
            return Ok(start..end);
        };

        let repeated = self.seen.contains(&next)
            || match (&current, &next) {
                (Some(PagePosition::Offset(at)), PagePosition::Offset(to)) => to <= at,
                (None, PagePosition::Offset(to)) => *to == 0,
                _ => false,
            };
        self.empty_pages = if len == 0 { self.empty_pages + 1 } else { 0 };
        if repeated {
            self.fail(Error::PaginationLoop {
                repeated: next.to_string(),
            });
        } else if self.empty_pages >= MAX_EMPTY_PAGES {
            self.fail(Error::PaginationLoop {
                repeated: format!("{MAX_EMPTY_PAGES} empty pages in a row, next {next}"),
            });
        } else {
            self.pending = Some(next);
        }
        Ok(start..end)
    }

    /// Reacts to the failure of the last page request: `Ok(())` when the
    /// session restarted after an invalid cursor (ask `next_position`
    /// again), else the error back. Other errors leave the session as it
    /// was, so the same page can be requested again (e.g. after a retry
    /// delay).
    pub fn on_error(&mut self, error: Error) -> Result<(), Error> {
        let had_position = self.pending.is_some();
        if matches!(error, Error::InvalidCursor(_)) {
            if had_position && !self.restarted {
                self.restarted = true;
                self.pending = None;
                self.seen.clear();
                self.skip = self.delivered;
                self.empty_pages = 0;
                return Ok(());
            }
            self.fail(error.clone());
        }
        Err(error)
    }

    fn fail(&mut self, error: Error) {
        self.done = true;
        self.failure = Some(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiFailure;
    use crate::models::{
        Future, FuturesPage, League, ListFuturesResponse, Market, MarketsResponse,
        OffsetPagination, Pagination,
    };
    use crate::request::{ListFutures, ListMarkets, Request};
    use proptest::prelude::*;

    /// A cursor service over `items`: the cursor is the index of the next
    /// item, disguised. `page` is the page size it applies.
    fn cursor_page(items: &[String], request: &ListMarkets, page: usize) -> MarketsResponse {
        let http = request.to_http().unwrap();
        let start = http
            .get("cursor")
            .map(|c| c.trim_start_matches("c-").parse::<usize>().unwrap())
            .unwrap_or(0);
        let end = (start + page).min(items.len());
        let has_more = end < items.len();
        MarketsResponse {
            skipped: Vec::new(),
            pagination: Some(Pagination {
                total: Some(items.len() as f64),
                limit: Some(page as f64),
                has_more: Some(has_more),
                next_cursor: has_more.then(|| format!("c-{end}")),
                ..Default::default()
            }),
            markets: items[start..end].iter().map(Market::new).collect(),
            meta: None,
        }
    }

    fn future(id: &str) -> Future {
        serde_json::from_value(serde_json::json!({ "id": id })).unwrap()
    }

    fn offset_page(items: &[String], request: &ListFutures, page: usize) -> ListFuturesResponse {
        let start = request.offset.unwrap_or(0) as usize;
        let end = (start + page).min(items.len());
        let has_more = end < items.len();
        ListFuturesResponse {
            data: FuturesPage {
                skipped: Vec::new(),
                futures: items[start.min(end)..end]
                    .iter()
                    .map(|i| future(i))
                    .collect(),
                pagination: Some(OffsetPagination {
                    total: Some(items.len() as f64),
                    limit: Some(page as f64),
                    offset: Some(start as f64),
                    has_more: Some(has_more),
                    next_offset: has_more.then_some(end as f64),
                }),
            },
            meta: None,
        }
    }

    fn invalid_cursor() -> Error {
        Error::InvalidCursor(ApiFailure {
            status: 400,
            code: "INVALID_CURSOR".into(),
            message: "expired".into(),
            details: None,
            retry_after_ms: None,
        })
    }

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("item{i}")).collect()
    }

    fn drain_cursor(items: &[String], page: usize, max: Option<usize>) -> Vec<String> {
        let mut pager = Pager::new(ListMarkets::default());
        pager.set_max_items(max);
        let mut out = Vec::new();
        let mut guard = 0;
        while let Some(request) = pager.next_request().unwrap() {
            let got = pager.on_page(cursor_page(items, &request, page)).unwrap();
            out.extend(got.into_iter().map(|m| m.id));
            guard += 1;
            assert!(guard <= items.len() + 2, "pager did not stop");
        }
        out
    }

    proptest! {
        #[test]
        fn cursor_paging_yields_every_item_once(n in 0usize..300, page in 1usize..60) {
            let items = ids(n);
            prop_assert_eq!(drain_cursor(&items, page, None), items);
        }

        #[test]
        fn offset_paging_yields_every_item_once(n in 0usize..300, page in 1usize..60) {
            let items = ids(n);
            let mut pager = Pager::new(ListFutures::new(League::LeagueA));
            let mut out = Vec::new();
            while let Some(request) = pager.next_request().unwrap() {
                let got = pager.on_page(offset_page(&items, &request, page)).unwrap();
                out.extend(got.into_iter().map(|f| f.id));
                prop_assert!(pager.pages() <= n + 1);
            }
            prop_assert_eq!(out, items);
        }

        #[test]
        fn max_items_caps(n in 0usize..200, page in 1usize..40, max in 0usize..250) {
            let items = ids(n);
            let out = drain_cursor(&items, page, Some(max));
            prop_assert_eq!(&out[..], &items[..n.min(max)]);
        }

        #[test]
        fn an_invalid_cursor_restarts_once_and_still_yields_each_item_once(
            n in 2usize..200,
            page in 1usize..30,
            fail_at in 1usize..10,
        ) {
            let items = ids(n);
            let mut pager = Pager::new(ListMarkets::default());
            let mut out = Vec::new();
            let mut requests = 0;
            let mut failed = false;
            while let Some(request) = pager.next_request().unwrap() {
                requests += 1;
                if requests == fail_at + 1 && !failed && request.cursor.is_some() {
                    failed = true;
                    pager.on_error(invalid_cursor()).unwrap();
                    continue;
                }
                let got = pager.on_page(cursor_page(&items, &request, page)).unwrap();
                out.extend(got.into_iter().map(|m| m.id));
            }
            prop_assert_eq!(out, items);
        }
    }

    #[test]
    fn a_repeated_cursor_ends_paging_after_delivering_the_page() {
        let mut pager = Pager::new(ListMarkets::default());
        let stuck = |ids: &[&str]| MarketsResponse {
            skipped: Vec::new(),
            pagination: Some(Pagination {
                has_more: Some(true),
                next_cursor: Some("same".into()),
                ..Default::default()
            }),
            markets: ids.iter().map(|i| Market::new(*i)).collect(),
            meta: None,
        };
        let first = pager.next_request().unwrap().unwrap();
        assert_eq!(first.cursor, None);
        assert_eq!(pager.on_page(stuck(&["a"])).unwrap().len(), 1);
        let second = pager.next_request().unwrap().unwrap();
        assert_eq!(second.cursor.as_deref(), Some("same"));
        assert_eq!(pager.on_page(stuck(&["b"])).unwrap().len(), 1, "page kept");
        let err = pager.next_request().unwrap_err();
        assert_eq!(err.code(), crate::ErrorCode::PaginationLoop);
        assert!(err.to_string().contains("same"), "{err}");
        assert!(pager.is_done());
    }

    #[test]
    fn an_offset_that_does_not_advance_is_a_loop() {
        let mut pager = Pager::new(ListFutures::new(League::LeagueA));
        let page = |offset: f64, next: f64| ListFuturesResponse {
            data: FuturesPage {
                skipped: Vec::new(),
                futures: vec![future("f")],
                pagination: Some(OffsetPagination {
                    offset: Some(offset),
                    has_more: Some(true),
                    next_offset: Some(next),
                    ..Default::default()
                }),
            },
            meta: None,
        };
        pager.on_page(page(0.0, 10.0)).unwrap();
        assert_eq!(pager.next_request().unwrap().unwrap().offset, Some(10));
        pager.on_page(page(10.0, 5.0)).unwrap();
        assert_eq!(
            pager.next_request().unwrap_err().code(),
            crate::ErrorCode::PaginationLoop
        );
    }

    #[test]
    fn endless_empty_pages_stop() {
        let mut pager = Pager::new(ListMarkets::default());
        let mut i = 0;
        let result = loop {
            match pager.next_request() {
                Ok(Some(_)) => {
                    i += 1;
                    pager
                        .on_page(MarketsResponse {
                            skipped: Vec::new(),
                            pagination: Some(Pagination {
                                has_more: Some(true),
                                next_cursor: Some(format!("c{i}")),
                                ..Default::default()
                            }),
                            markets: vec![],
                            meta: None,
                        })
                        .unwrap();
                }
                other => break other,
            }
        };
        assert!(result.is_err());
        assert_eq!(i, MAX_EMPTY_PAGES as usize);
    }

    #[test]
    fn invalid_cursor_on_the_first_page_or_twice_fails() {
        let mut pager = Pager::new(ListMarkets::default());
        assert!(pager.on_error(invalid_cursor()).is_err());
        assert!(pager.next_request().is_err());

        let items = ids(10);
        let mut pager = Pager::new(ListMarkets::default());
        let r = pager.next_request().unwrap().unwrap();
        pager.on_page(cursor_page(&items, &r, 3)).unwrap();
        assert_eq!(pager.on_error(invalid_cursor()), Ok(()));
        assert_eq!(pager.next_request().unwrap().unwrap().cursor, None);
        let r = pager.next_request().unwrap().unwrap();
        pager.on_page(cursor_page(&items, &r, 3)).unwrap();
        assert!(pager.on_error(invalid_cursor()).is_err());
        assert!(pager.is_done());
    }

    #[test]
    fn other_errors_leave_the_page_to_retry() {
        let items = ids(10);
        let mut pager = Pager::new(ListMarkets::default());
        let r = pager.next_request().unwrap().unwrap();
        pager.on_page(cursor_page(&items, &r, 3)).unwrap();
        let before = pager.next_request().unwrap();
        assert!(pager.on_error(Error::Timeout { after_ms: 10 }).is_err());
        assert_eq!(pager.next_request().unwrap(), before);
    }

    #[test]
    fn reset_with_new_filters_restarts_from_the_first_page() {
        let items = ids(10);
        let mut pager = Pager::new(ListMarkets::default()).with_max_items(100);
        let r = pager.next_request().unwrap().unwrap();
        pager.on_page(cursor_page(&items, &r, 3)).unwrap();
        assert!(pager.next_request().unwrap().unwrap().cursor.is_some());
        pager.reset_with(ListMarkets {
            query: Some("x".into()),
            cursor: Some("stale".into()),
            ..Default::default()
        });
        let r = pager.next_request().unwrap().unwrap();
        assert_eq!((r.cursor, r.query.as_deref()), (None, Some("x")));
        assert_eq!(pager.delivered(), 0);
        pager.reset();
        assert_eq!(pager.next_request().unwrap().unwrap().cursor, None);
    }

    #[test]
    fn a_request_with_a_cursor_resumes_there() {
        let pager = Pager::new(ListMarkets {
            cursor: Some("c-6".into()),
            ..Default::default()
        });
        assert_eq!(
            pager.next_request().unwrap().unwrap().cursor.as_deref(),
            Some("c-6")
        );
    }
}
