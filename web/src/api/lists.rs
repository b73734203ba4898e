//! Lists on screen: what a list shows beside its items (total, failed
//! platforms, unreadable items), its first pages, and "load more". Pages
//! come through the client's paginator, the one paging loop.

use super::session::client;
use leptos::prelude::*;
use predmarket_client::core::Pager;
use predmarket_client::core::models::{
    EventsResponse, ListAwardsResponse, ListFuturesResponse, ListGamesResponse, MarketsResponse,
    PlatformError, ProfileTradesResponse, SeriesResponse, Skipped, SkippedItem, TradesResponse,
};
use predmarket_client::core::request::Paged;
use predmarket_client::{CallOptions, CancelToken, Error, Page};
use std::collections::BTreeMap;

/// Page size of every list.
pub const PAGE_SIZE: u32 = 25;

/// What a list shows beside its items, from its first page: the total
/// count and the platforms that failed (the rest of the page is served);
/// from every page (`Skipped`): the items that could not be read.
pub trait Listing: Skipped {
    fn total(&self) -> Option<f64>;
    fn platform_errors(&self) -> Option<BTreeMap<String, PlatformError>>;
}

macro_rules! listing {
    ($($response:ty: |$r:ident| $total:expr, $errors:expr;)*) => {$(
        #[allow(unused_variables)]
        impl Listing for $response {
            fn total(&self) -> Option<f64> {
                let $r = self;
                $total
            }
            fn platform_errors(&self) -> Option<BTreeMap<String, PlatformError>> {
                let $r = self;
                $errors
            }
        }
    )*};
}

listing! {
    MarketsResponse: |r| r.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    EventsResponse: |r| r.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    SeriesResponse: |r| r.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    TradesResponse: |r| r.pagination.as_ref().and_then(|p| p.total), None;
    ProfileTradesResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    ListGamesResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    ListFuturesResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
    ListAwardsResponse: |r| r.data.pagination.as_ref().and_then(|p| p.total),
        r.meta.as_ref().and_then(|m| m.platform_errors.clone());
}

/// A list item the service sent that could not be read, and the page
/// (1-based) it came in: item indices restart on every page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub page: usize,
    pub item: SkippedItem,
}

/// A page's items to show and those that could not be read, numbered
/// with the page (`number`, 1-based).
fn split_page<R: Paged>(page: Page<R>, number: usize) -> (Vec<R::Item>, Vec<Unread>)
where
    R::Response: Skipped,
{
    let unread = page
        .response
        .skipped()
        .iter()
        .cloned()
        .map(|item| Unread { page: number, item })
        .collect();
    (page.into_items(), unread)
}

/// The first pages of a list and the pager to go on with.
#[derive(Clone)]
pub struct Loaded<R: Paged>
where
    R::Item: Clone,
    R::Response: Clone,
{
    pub items: Vec<R::Item>,
    pub pager: Pager<R>,
    /// The first page as the service sent it (for totals, meta, warnings).
    pub first: R::Response,
    /// The items of those pages that could not be read (the rest is shown).
    pub unread: Vec<Unread>,
}

impl<R: Paged> Loaded<R>
where
    R::Item: Clone,
    R::Response: Clone + Skipped,
{
    /// A list of one page, as `request`'s first page `response` makes it
    /// (what the pages get from [`load_pages`] for one page).
    pub fn from_first_page(request: R, response: R::Response) -> Result<Self, Error> {
        let mut pager = Pager::new(request);
        let range = pager.accept(&response)?;
        let first = response.clone();
        let (items, unread) = split_page(Page::<R> { response, range }, pager.pages());
        Ok(Self {
            items,
            pager,
            first,
            unread,
        })
    }
}

/// Loads the first `pages` pages of a list (at least one). A failure
/// after the first page ends the load with what came (the pager asks for
/// that page again on "load more"); a failure of the first is the error.
pub async fn load_pages<R: Paged + 'static>(
    request: R,
    pages: usize,
    cancel: &CancelToken,
) -> Result<Loaded<R>, Error>
where
    R::Item: Clone,
    R::Response: Clone + Skipped,
{
    let mut paginator = client()?
        .paginate(request)
        .with_options(CallOptions::with_cancel(cancel.clone()));
    let mut items = Vec::new();
    let mut unread = Vec::new();
    let mut first = None;
    while first.is_none() || paginator.pager().pages() < pages.max(1) {
        let page = match paginator.next_page().await {
            Ok(Some(page)) => page,
            Ok(None) => break,
            Err(e) if first.is_some() => {
                leptos::logging::warn!("stopped loading earlier pages: {e}");
                break;
            }
            Err(e) => return Err(e),
        };
        if first.is_none() {
            first = Some(page.response.clone());
        }
        let (page_items, page_unread) = split_page(page, paginator.pager().pages());
        items.extend(page_items);
        unread.extend(page_unread);
    }
    let first = first.ok_or_else(|| Error::Decode {
        status: None,
        message: "the list answered no page".into(),
        body_snippet: String::new(),
    })?;
    Ok(Loaded {
        items,
        pager: paginator.into_pager(),
        first,
        unread,
    })
}

/// The next page of a kept session, and the session to keep.
async fn next_page<R: Paged + 'static>(
    pager: Pager<R>,
    cancel: &CancelToken,
) -> (Pager<R>, Result<(Vec<R::Item>, Vec<Unread>), Error>)
where
    R::Response: Skipped,
{
    let client = match client() {
        Ok(c) => c,
        Err(e) => return (pager, Err(e)),
    };
    let mut paginator = client
        .paginate_from(pager)
        .with_options(CallOptions::with_cancel(cancel.clone()));
    let result = match paginator.next_page().await {
        Ok(Some(page)) => Ok(split_page(page, paginator.pager().pages())),
        Ok(None) => Ok((Vec::new(), Vec::new())),
        Err(e) => Err(e),
    };
    (paginator.into_pager(), result)
}

/// What "load more" is doing.
#[derive(Debug, Clone, PartialEq)]
pub enum More {
    Idle,
    Loading,
    Failed(Error),
}

/// A list on screen that grows page by page.
pub struct PagedList<R: Paged + Send + Sync + 'static>
where
    R::Item: Clone + Send + Sync + 'static,
{
    pub items: RwSignal<Vec<R::Item>>,
    /// The items of the pages on screen that could not be read.
    pub unread: RwSignal<Vec<Unread>>,
    pub state: RwSignal<More>,
    pager: StoredValue<Pager<R>>,
    pub done: RwSignal<bool>,
}

impl<R: Paged + Send + Sync + 'static> Clone for PagedList<R>
where
    R::Item: Clone + Send + Sync + 'static,
{
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Paged + Send + Sync + 'static> Copy for PagedList<R> where
    R::Item: Clone + Send + Sync + 'static
{
}

impl<R: Paged + Send + Sync + 'static> PagedList<R>
where
    R::Item: Clone + Send + Sync + 'static,
    R::Response: Clone + Skipped,
{
    pub fn new(items: Vec<R::Item>, pager: Pager<R>, unread: Vec<Unread>) -> Self {
        let done = pager.is_done();
        Self {
            items: RwSignal::new(items),
            unread: RwSignal::new(unread),
            state: RwSignal::new(More::Idle),
            pager: StoredValue::new(pager),
            done: RwSignal::new(done),
        }
    }

    pub fn pages(&self) -> usize {
        self.pager.with_value(|p| p.pages())
    }

    /// Fetches the next page and appends it; `then` runs after a page
    /// arrived (e.g. to record the page count in the URL).
    pub fn more(&self, cancel: CancelToken, then: impl Fn(usize) + 'static) {
        if self.state.get_untracked() == More::Loading || self.done.get_untracked() {
            return;
        }
        self.state.set(More::Loading);
        let this = *self;
        leptos::task::spawn_local(async move {
            let (pager, result) = next_page(this.pager.get_value(), &cancel).await;
            if cancel.is_cancelled() {
                return;
            }
            this.done.set(pager.is_done());
            let pages = pager.pages();
            this.pager.set_value(pager);
            match result {
                Ok((items, unread)) => {
                    this.items.update(|all| all.extend(items));
                    if !unread.is_empty() {
                        this.unread.update(|all| all.extend(unread));
                    }
                    this.state.set(More::Idle);
                    then(pages);
                }
                Err(e) => this.state.set(More::Failed(e)),
            }
        });
    }
}
