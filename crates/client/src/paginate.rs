//! Pagers over the list operations, on the core's sans-IO [`Pager`]: the
//! same rules for both paging models (cursor and offset), the loop guard,
//! `max_items`, and one restart from the first page on `INVALID_CURSOR`.

use crate::{CallOptions, Client, Error, Transport};
use futures::Stream;
use predmarket_core::Pager;
use predmarket_core::request::Paged;
use std::collections::VecDeque;
use std::ops::Range;

/// One page as the service sent it, and which of its items are new to the
/// caller (all of them, except after a restart or at the `max_items` cap).
pub struct Page<R: Paged> {
    pub response: R::Response,
    pub range: Range<usize>,
}

impl<R: Paged> Clone for Page<R>
where
    R::Response: Clone,
{
    fn clone(&self) -> Self {
        Self {
            response: self.response.clone(),
            range: self.range.clone(),
        }
    }
}

impl<R: Paged> std::fmt::Debug for Page<R>
where
    R::Response: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Page")
            .field("response", &self.response)
            .field("range", &self.range)
            .finish()
    }
}

impl<R: Paged> Page<R> {
    /// The items to deliver, in order.
    pub fn items(&self) -> &[R::Item] {
        R::items(&self.response)
            .get(self.range.clone())
            .unwrap_or_default()
    }

    pub fn into_items(self) -> Vec<R::Item> {
        let mut items = R::into_items(self.response);
        items.truncate(self.range.end);
        items.drain(..self.range.start.min(items.len()));
        items
    }
}

/// Walks a list operation page by page (`next_page`) or item by item
/// (`into_items`), each page through the client (budget, retries, cache,
/// coalescing, cancellation).
pub struct Paginator<T: Transport, R: Paged> {
    client: Client<T>,
    pager: Pager<R>,
    options: CallOptions,
}

impl<T: Transport + 'static, R: Paged + 'static> Paginator<T, R> {
    pub(crate) fn new(client: Client<T>, request: R) -> Self {
        Self {
            client,
            pager: Pager::new(request),
            options: CallOptions::default(),
        }
    }

    /// Goes on with a session kept from an earlier paginator
    /// ([`Paginator::into_pager`]): a list that grows by one page per click
    /// keeps its pager between clicks.
    pub(crate) fn resume(client: Client<T>, pager: Pager<R>) -> Self {
        Self {
            client,
            pager,
            options: CallOptions::default(),
        }
    }

    /// Deliver at most `max` items in total (the last page is truncated).
    pub fn max_items(mut self, max: usize) -> Self {
        self.pager.set_max_items(Some(max));
        self
    }

    /// Options of every page request (e.g. a cancel token for the session).
    pub fn with_options(mut self, options: CallOptions) -> Self {
        self.options = options;
        self
    }

    /// The paging state (items and pages so far, done or not).
    pub fn pager(&self) -> &Pager<R> {
        &self.pager
    }

    /// The paging state, to keep and go on with later
    /// ([`Client::paginate_from`]).
    pub fn into_pager(self) -> Pager<R> {
        self.pager
    }

    /// The next page; `Ok(None)` when paging is over. After an error other
    /// than a pagination loop or a second invalid cursor, calling again
    /// asks for the same page again.
    pub async fn next_page(&mut self) -> Result<Option<Page<R>>, Error> {
        loop {
            let Some(request) = self.pager.next_request()? else {
                return Ok(None);
            };
            match self.client.send(&request, &self.options).await {
                Ok(response) => {
                    let range = self.pager.accept(&response)?;
                    return Ok(Some(Page { response, range }));
                }
                // Ok(()) when the session restarted: ask again.
                Err(error) => self.pager.on_error(error)?,
            }
        }
    }

    /// Every remaining item, in order, as a stream. The stream ends after
    /// its first error.
    pub fn into_items(self) -> impl Stream<Item = Result<R::Item, Error>> {
        futures::stream::unfold(
            (self, VecDeque::new(), false),
            |(mut pages, mut buffer, mut failed)| async move {
                loop {
                    if let Some(item) = buffer.pop_front() {
                        return Some((Ok(item), (pages, buffer, failed)));
                    }
                    if failed {
                        return None;
                    }
                    match pages.next_page().await {
                        Ok(Some(page)) => buffer.extend(page.into_items()),
                        Ok(None) => return None,
                        Err(error) => {
                            failed = true;
                            return Some((Err(error), (pages, buffer, failed)));
                        }
                    }
                }
            },
        )
    }

    /// Every remaining page, as a stream that ends after its first error.
    pub fn into_pages(self) -> impl Stream<Item = Result<Page<R>, Error>> {
        futures::stream::unfold((self, false), |(mut pages, failed)| async move {
            if failed {
                return None;
            }
            match pages.next_page().await {
                Ok(Some(page)) => Some((Ok(page), (pages, false))),
                Ok(None) => None,
                Err(error) => Some((Err(error), (pages, true))),
            }
        })
    }

    /// Every remaining item in one `Vec` (mind `max_items` on long lists).
    pub async fn collect_items(mut self) -> Result<Vec<R::Item>, Error> {
        let mut out = Vec::new();
        while let Some(page) = self.next_page().await? {
            out.extend(page.into_items());
        }
        Ok(out)
    }
}
