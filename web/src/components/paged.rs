//! A list that grows page by page, with the platforms that failed and the
//! items that could not be read.

use super::LoadMore;
use super::{PlatformWarnings, UnreadNotice};
use crate::api::{Inflight, Listing, Loaded, PagedList};
use crate::routes::UrlState;
use leptos::prelude::*;
use predmarket_client::core::request::Paged;

/// A list that grows page by page: the platforms that failed and the
/// items that could not be read, then `empty` when the first page has
/// nothing, else `table` of the items and "load more". With `url`, the
/// number of pages on screen goes into `?pages=` so a reload shows them.
#[component]
pub fn PagedResults<R, T, V>(
    loaded: Loaded<R>,
    inflight: Inflight,
    /// Plural of what is listed ("markets").
    noun: &'static str,
    #[prop(into)] empty: ViewFnOnce,
    /// Draws the items (a table).
    table: T,
    #[prop(optional)] url: Option<UrlState>,
) -> impl IntoView
where
    R: Paged + Send + Sync + 'static,
    R::Item: Clone + Send + Sync + 'static,
    R::Response: Clone + Listing,
    T: FnOnce(Signal<Vec<R::Item>>) -> V,
    V: IntoView + 'static,
{
    let total = loaded.first.total();
    let warnings = view! { <PlatformWarnings errors=loaded.first.platform_errors() /> };
    if loaded.items.is_empty() {
        // A page whose every item was unreadable is not "empty": say so.
        let unread = loaded.unread;
        return view! {
            {warnings}
            <UnreadNotice unread=Signal::stored(unread) noun />
            {empty.run()}
        }
        .into_any();
    }
    let list = PagedList::new(loaded.items, loaded.pager, loaded.unread);
    let on_more = Callback::new(move |_| {
        list.more(inflight.current(), move |pages| {
            if let Some(url) = url {
                url.set_pages(pages);
            }
        });
    });
    view! {
        {warnings}
        <UnreadNotice unread=list.unread noun />
        {table(list.items.into())}
        <LoadMore shown=Signal::derive(move || list.items.with(Vec::len)) total done=list.done state=list.state noun on_more />
    }
    .into_any()
}
