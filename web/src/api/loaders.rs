//! The resource of a page about one item (a market, an event, a game):
//! asked once (or kept live), cancelled when the page is left, a 404 when
//! the answer has no such item.

use super::live::{Feed, Source, follow, watch};
use super::session::{Inflight, Revalidate, client, send_swr};
use leptos::prelude::*;
use predmarket_client::core::change::WatchKind;
use predmarket_client::core::request::Request;
use predmarket_client::{CancelToken, Error};

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
    let inflight = Inflight::new();
    let revalidate = Revalidate::new();
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

/// [`item_by_id`], kept live: through the tab's stream where the server
/// has one ([`follow`]), else (or while it is down) asked again about
/// every interval of `kind` when `poll` (as the page's watch scheduler
/// and the rate budget allow). The feed says how fresh it is.
pub fn item_by_id_live<R, T, I>(
    id: String,
    what: &'static str,
    request: impl Fn(String) -> R + 'static,
    take: impl Fn(R::Response) -> I + Copy + 'static,
    kind: WatchKind,
    poll: bool,
) -> (LocalResource<Result<T, Error>>, Feed)
where
    R: Request + Clone + 'static,
    I: IntoIterator<Item = T>,
    T: 'static,
{
    let feed = follow(kind, &id, &request(id.clone()));
    let inflight = Inflight::new();
    let revalidate = Revalidate::new();
    if poll {
        watch(kind.default_interval_ms(), revalidate, Some(feed));
    }
    let resource = LocalResource::new(move || {
        revalidate.track();
        let source = feed.source();
        let request = request(id.clone());
        let id = id.clone();
        let token = inflight.next();
        async move {
            take(live_answer(&request, source, feed, &token, revalidate).await?)
                .into_iter()
                .next()
                .ok_or_else(|| missing(what, &id))
        }
    });
    (resource, feed)
}

/// The answer of a live view from where its feed says: the stream's last
/// one; while the stream opens, what this device kept, the feed saying
/// how old (else nothing yet: the view's resource runs again when the
/// stream's answer comes); else the service's, asked now.
pub async fn live_answer<R>(
    request: &R,
    source: Source,
    feed: Feed,
    token: &CancelToken,
    revalidate: Revalidate,
) -> Result<R::Response, Error>
where
    R: Request + Clone + 'static,
{
    match source {
        Source::Wait => {
            if let Some((kept, age_ms)) = client()?.stored(request).await {
                feed.kept(age_ms);
                return Ok(kept);
            }
            // Waited for here, not left pending: a Leptos 0.8 resource
            // whose future is pending is not run again when what it read
            // changes.
            match feed.settled().await {
                Source::Stream(value) => decode::<R>(&value),
                _ => poll(request, feed, token, revalidate).await,
            }
        }
        Source::Stream(value) => decode::<R>(&value),
        Source::Poll => poll(request, feed, token, revalidate).await,
    }
}

fn decode<R: Request>(value: &serde_json::Value) -> Result<R::Response, Error> {
    serde_json::from_value::<R::Response>(value.clone())
        .map_err(|e| Error::decode(Some(200), e, ""))
}

async fn poll<R>(
    request: &R,
    feed: Feed,
    token: &CancelToken,
    revalidate: Revalidate,
) -> Result<R::Response, Error>
where
    R: Request + Clone + 'static,
{
    let answer = send_swr(request, token, 0.0, revalidate.trigger()).await?;
    feed.polled();
    Ok(answer)
}
