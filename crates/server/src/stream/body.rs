//! One stream's bytes: the preamble, each resource's first events, then
//! live events and heartbeats, until the client goes or falls behind.
//!
//! Nothing is copied per subscriber but the `event:`/`id:` head: an
//! event's JSON is one `Bytes` shared by every stream that sends it, and
//! goes out as its own chunk. A resource's first events (its snapshot,
//! built for the age the data has then) are made only when the stream
//! gets to them, one resource after another, as the client reads: a
//! stream that does not read holds the one event being written, not a
//! snapshot of each of its resources. Live events wait in their topic's
//! channel, shared and bounded (`Settings::replay`); a client further
//! behind than it holds is dropped.

use super::frame::{self, Frame, Position};
use super::topic::Topic;
use bytes::Bytes;
use futures::StreamExt;
use futures::stream::{self, BoxStream, SelectAll};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// One item of a stream: an event of resource `usize`, a sign that the
/// client fell too far behind, or a heartbeat.
enum Item {
    Event(usize, Arc<Frame>),
    Behind,
    Heartbeat,
}

/// Where a stream's body is.
struct Body<H, F> {
    topics: Vec<Arc<Topic>>,
    /// What the stream holds while it lasts (its caps and topics),
    /// released when the body is dropped.
    _hold: H,
    /// Told when the client fell too far behind (the stream then ends).
    on_behind: F,
    /// Where the client said it was (`Last-Event-ID`), per resource.
    last: Option<Position>,
    position: Position,
    /// The next resource to subscribe to.
    next: usize,
    /// First events of the resource subscribed last, not sent yet.
    first: VecDeque<Arc<Frame>>,
    first_of: usize,
    live: SelectAll<BoxStream<'static, Item>>,
    /// Live events and heartbeats, once every resource is subscribed.
    merged: Option<BoxStream<'static, Item>>,
    heartbeat: Duration,
}

/// The stream's bytes for `topics` (`last`: where a reconnecting client
/// was), holding `hold` until it ends; `on_behind` is called when the
/// client fell too far behind.
pub(super) fn events<H, F>(
    topics: Vec<Arc<Topic>>,
    hold: H,
    last: Option<Position>,
    heartbeat: Duration,
    on_behind: F,
) -> BoxStream<'static, Result<Bytes, Infallible>>
where
    H: Send + 'static,
    F: Fn() + Send + 'static,
{
    // Until a resource is subscribed, its place in the stream's id is
    // where the client was, or its numbering's start.
    let position = Position(
        topics
            .iter()
            .enumerate()
            .map(|(i, topic)| {
                last.as_ref()
                    .and_then(|p| p.0.get(i).copied())
                    .unwrap_or((topic.epoch(), 0))
            })
            .collect(),
    );
    let body = Body {
        topics,
        _hold: hold,
        on_behind,
        last,
        position,
        next: 0,
        first: VecDeque::new(),
        first_of: 0,
        live: SelectAll::new(),
        merged: None,
        heartbeat: heartbeat.max(Duration::from_millis(100)),
    };
    let preamble = stream::once(async { Ok(frame::preamble()) });
    let chunks = stream::unfold(body, |mut body| async move {
        let chunks = body.step().await?;
        Some((stream::iter(chunks.into_iter().map(Ok)), body))
    })
    .flatten();
    preamble.chain(chunks).boxed()
}

impl<H, F: Fn()> Body<H, F> {
    /// The next chunks to send; `None` ends the stream.
    async fn step(&mut self) -> Option<Vec<Bytes>> {
        loop {
            if let Some(frame) = self.first.pop_front() {
                return Some(self.render(self.first_of, &frame));
            }
            if self.next < self.topics.len() {
                self.subscribe_next();
                continue;
            }
            let merged = self.merged.get_or_insert_with(|| {
                let every = self.heartbeat;
                let beats = stream::unfold((), move |()| async move {
                    tokio::time::sleep(every).await;
                    Some((Item::Heartbeat, ()))
                })
                .boxed();
                stream::select(std::mem::take(&mut self.live), beats).boxed()
            });
            return match merged.next().await? {
                Item::Event(i, frame) => Some(self.render(i, &frame)),
                Item::Heartbeat => Some(vec![Bytes::from_static(frame::HEARTBEAT)]),
                Item::Behind => {
                    (self.on_behind)();
                    None
                }
            };
        }
    }

    /// Subscribes to the next resource: its first events to send, its
    /// live ones merged in.
    fn subscribe_next(&mut self) {
        let i = self.next;
        self.next += 1;
        let Some(topic) = self.topics.get(i) else {
            return;
        };
        let from = self.last.as_ref().and_then(|p| p.0.get(i).copied());
        let start = topic.subscribe(from);
        if let Some(slot) = self.position.0.get_mut(i) {
            *slot = match from {
                Some((epoch, seq)) if epoch == start.epoch => (epoch, seq),
                _ => (start.epoch, 0),
            };
        }
        self.first = start.frames.into();
        self.first_of = i;
        self.live.push(receive(i, start.receiver));
    }

    /// An event of resource `i` as this stream sends it: its own head,
    /// then the shared JSON.
    fn render(&mut self, i: usize, frame: &Frame) -> Vec<Bytes> {
        if let Some(slot) = self.position.0.get_mut(i) {
            *slot = (frame.epoch, frame.seq);
        }
        Vec::from(frame::render(frame, &self.position))
    }
}

/// A topic's live events for stream resource `i`; `Behind` once the client
/// fell further behind than the channel holds (then the stream ends).
fn receive(i: usize, receiver: broadcast::Receiver<Arc<Frame>>) -> BoxStream<'static, Item> {
    stream::unfold(Some(receiver), move |receiver| async move {
        let mut receiver = receiver?;
        match receiver.recv().await {
            Ok(frame) => Some((Item::Event(i, frame), Some(receiver))),
            Err(broadcast::error::RecvError::Lagged(_)) => Some((Item::Behind, None)),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    })
    .boxed()
}
