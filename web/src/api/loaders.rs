//! The resource of a page about one item (a market, an event, a game):
//! asked once (or kept live), cancelled when the page is left, a 404 when
//! the answer has no such item.

use super::live::watch;
use super::session::{Inflight, Revalidate, send_swr};
use leptos::prelude::*;
use predmarket_client::Error;
use predmarket_client::core::request::Request;

/// A 404 for an answer that came back without the item asked for.
pub fn missing(what: &str, id: &str) -> Error {
    Error::from_failure(predmarket_client::core::ApiFailure {
        status: 404,
        code: "NOT_FOUND".into(),
        message: format!("no {what} {id:?}"),
        details: None,
        retry_after_ms: None,
    })
}

/// The resource of a page about one item: sends `request(id)` (again
/// only on a retry; the page is rebuilt when the id changes), cancelled
/// when the page is left, and takes the item out of the answer, a 404
/// when it has none.
pub fn item_by_id<R, T, I>(
    id: String,
    what: &'static str,
    request: impl Fn(String) -> R + 'static,
    take: impl Fn(R::Response) -> I + Copy + 'static,
) -> LocalResource<Result<T, Error>>
where
    R: Request + Clone + 'static,
    I: IntoIterator<Item = T>,
    T: 'static,
{
    item_by_id_every(id, what, request, take, None)
}

/// [`item_by_id`], kept live: asked again about every `every_ms` (when
/// given), as the page's watch scheduler and the rate budget allow.
pub fn item_by_id_every<R, T, I>(
    id: String,
    what: &'static str,
    request: impl Fn(String) -> R + 'static,
    take: impl Fn(R::Response) -> I + Copy + 'static,
    every_ms: Option<f64>,
) -> LocalResource<Result<T, Error>>
where
    R: Request + Clone + 'static,
    I: IntoIterator<Item = T>,
    T: 'static,
{
    let inflight = Inflight::new();
    let revalidate = Revalidate::new();
    if let Some(every) = every_ms {
        watch(every, revalidate);
    }
    LocalResource::new(move || {
        revalidate.track();
        let request = request(id.clone());
        let id = id.clone();
        let token = inflight.next();
        async move {
            take(send_swr(&request, &token, 0.0, revalidate.trigger()).await?)
                .into_iter()
                .next()
                .ok_or_else(|| missing(what, &id))
        }
    })
}
