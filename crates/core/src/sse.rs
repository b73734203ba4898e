//! The reading side of `GET /stream`, sans-IO: Server-Sent Events parsed
//! from text chunks as they arrive ([`Parser`]), decoded by the contract
//! (`live`), where a client is in each resource of its stream
//! ([`Positions`]: the `id:` lines read, the `Last-Event-ID` of a
//! reconnect), the silence rule ([`Silence`]), one connection read whole
//! ([`Reader`]) and what a watcher of a resource shows ([`Watching`]).
//!
//! The transport (fetch in a browser, anything natively) only hands text
//! over; everything that decides lives here, tested natively and by the
//! vectors in `tests/fixtures/live/`, which the npm package's reader
//! (`crates/wasm/js/watch.js`) is held to as well.

use crate::live::{
    self, Kind, MAX_BACKOFF_MS, MAX_READ_EVENT_BYTES, MIN_RETRY_MS, NO_POSITION, Position,
    StaleReason, StreamEvent,
};

/// One event as the wire gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// `event:` (`message` when none was given).
    pub name: String,
    /// The last `id:` seen, this event's or an earlier one's.
    pub id: Option<String>,
    /// The `data:` lines, joined by `\n`.
    pub data: String,
}

/// What a chunk of the stream brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Event(Event),
    /// `retry:`: the wait before a reconnect the server asks for (ms),
    /// already bounded to [`MIN_RETRY_MS`]..=[`MAX_BACKOFF_MS`].
    Retry(u64),
}

/// The stream sent an event larger than its bound: the connection is
/// dropped (and reopened), not buffered without end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a stream event is larger than {limit} bytes")]
pub struct TooLarge {
    pub limit: usize,
}

/// Server-Sent Events from text chunks, split anywhere (inside a line,
/// between the `\r` and `\n` of a line end).
#[derive(Debug)]
pub struct Parser {
    /// The incomplete line so far.
    line: String,
    /// The previous chunk ended in `\r`: a `\n` first in the next one
    /// belongs to that line end.
    after_cr: bool,
    name: String,
    data: String,
    has_data: bool,
    id: Option<String>,
    limit: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Self::new(MAX_READ_EVENT_BYTES)
    }
}

impl Parser {
    /// A parser that refuses events (and lines) over `limit` bytes.
    pub fn new(limit: usize) -> Self {
        Self {
            line: String::new(),
            after_cr: false,
            name: String::new(),
            data: String::new(),
            has_data: false,
            id: None,
            limit,
        }
    }

    /// Reads `chunk`; returns the events (and `retry:` values) it
    /// completed, in order.
    pub fn feed(&mut self, chunk: &str) -> Result<Vec<Item>, TooLarge> {
        let mut out = Vec::new();
        let mut rest = chunk;
        if self.after_cr {
            self.after_cr = false;
            rest = rest.strip_prefix('\n').unwrap_or(rest);
        }
        while let Some(end) = rest.find(['\r', '\n']) {
            self.line.push_str(&rest[..end]);
            let line = std::mem::take(&mut self.line);
            self.take_line(&line, &mut out)?;
            let ending = &rest[end..];
            if let Some(after) = ending.strip_prefix("\r\n") {
                rest = after;
            } else if ending == "\r" {
                self.after_cr = true;
                rest = "";
            } else {
                rest = &ending[1..];
            }
        }
        self.line.push_str(rest);
        if self.line.len() + self.data.len() > self.limit {
            return Err(TooLarge { limit: self.limit });
        }
        Ok(out)
    }

    fn take_line(&mut self, line: &str, out: &mut Vec<Item>) -> Result<(), TooLarge> {
        if line.is_empty() {
            let name = std::mem::take(&mut self.name);
            let data = std::mem::take(&mut self.data);
            if std::mem::take(&mut self.has_data) {
                out.push(Item::Event(Event {
                    name: if name.is_empty() {
                        "message".into()
                    } else {
                        name
                    },
                    id: self.id.clone(),
                    data,
                }));
            }
            return Ok(());
        }
        // A comment: the heartbeat, nothing to do.
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => value.clone_into(&mut self.name),
            "data" => {
                if self.data.len() + value.len() + 1 > self.limit {
                    return Err(TooLarge { limit: self.limit });
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                let ms = value.parse::<u64>().unwrap_or(MAX_BACKOFF_MS);
                out.push(Item::Retry(ms.clamp(MIN_RETRY_MS, MAX_BACKOFF_MS)));
            }
            _ => {}
        }
        Ok(())
    }
}

/// An event of a stream, decoded; `None` for an event of another name or
/// a JSON that is not one.
pub fn decode(event: &Event) -> Option<(Kind, StreamEvent)> {
    let kind = Kind::from_name(&event.name)?;
    Some((kind, decode_body(&event.data)?))
}

/// An event's `data:` text as the contract's body; `None` for a JSON that
/// is not one.
pub fn decode_body(data: &str) -> Option<StreamEvent> {
    serde_json::from_str::<StreamEvent>(data).ok()
}

/// Where a client is in each resource of its stream: the numbering's run
/// and the last event number, as the stream's `id:` says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Positions {
    /// Per resource (`KIND:ID`): `None` until an id names it, or after
    /// data came from elsewhere (a poll): the stream then resyncs it.
    at: Vec<(String, Option<Position>)>,
}

/// What to do with an event, by its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// New: deliver it.
    New,
    /// Already delivered (the old stream's last events, replayed by the
    /// new one).
    Again,
}

impl Positions {
    /// The position of `resource`, kept if it was there.
    fn slot(&mut self, resource: &str) -> &mut Option<Position> {
        let index = match self.at.iter().position(|(r, _)| r == resource) {
            Some(index) => index,
            None => {
                self.at.push((resource.to_owned(), None));
                self.at.len() - 1
            }
        };
        &mut self.at[index].1
    }

    /// Keeps the positions of `resources` only (the ones watched now).
    pub fn retain(&mut self, resources: &[String]) {
        self.at.retain(|(r, _)| resources.contains(r));
    }

    /// Forgets where the client is in `resource` (its data came from
    /// elsewhere): a stream reopened sends it a fresh snapshot.
    pub fn forget(&mut self, resource: &str) {
        *self.slot(resource) = None;
    }

    /// The `Last-Event-ID` of a stream of `resources` (in that order), or
    /// `None` when there is no position in any (a new stream).
    pub fn last_event_id(&self, resources: &[String]) -> Option<String> {
        let parts: Vec<Position> = resources
            .iter()
            .map(|r| {
                self.at
                    .iter()
                    .find(|(k, _)| k == r)
                    .and_then(|(_, p)| *p)
                    .unwrap_or(NO_POSITION)
            })
            .collect();
        (!parts.iter().all(|p| *p == NO_POSITION)).then(|| live::render_id(&parts))
    }

    /// Reads an event's `id:` (one position per resource of the stream,
    /// in `resources`' order) for `resource`: whether it is new.
    /// A snapshot or resync is always new (compared with what the client
    /// holds instead); an event whose id names no position is new.
    pub fn read(
        &mut self,
        resources: &[String],
        resource: &str,
        id: Option<&str>,
        kind: Kind,
    ) -> Seen {
        let Some(index) = resources.iter().position(|r| r == resource) else {
            return Seen::New;
        };
        let Some(at) = id
            .and_then(|id| live::parse_id(id, resources.len()))
            .and_then(|parts| parts.get(index).copied())
        else {
            return Seen::New;
        };
        let slot = self.slot(resource);
        let again = slot.is_some_and(|p| p.epoch == at.epoch && at.seq <= p.seq);
        if again && !matches!(kind, Kind::Snapshot | Kind::Resync) {
            return Seen::Again;
        }
        *slot = Some(at);
        Seen::New
    }
}

/// Where a watcher of one resource stands, by what the stream said (and
/// what the reader found itself): the state the Rust client, the demo and
/// the npm package show for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Watching {
    /// No data yet.
    Waiting,
    /// Fresh data.
    Live,
    /// Data older than it should be, and why (a [`StaleReason`] name, or
    /// another the server sent).
    Stale(String),
    /// The upstream refused the resource (the `error`'s code): the watch
    /// ends, whatever follows.
    Ended(String),
}

impl Watching {
    /// After an event of the resource. Data ends a reader's own `stale`
    /// (silent, disconnected: the stream speaks again); a `change` leaves
    /// the server's `stale` standing (the server says `live`, or tells
    /// `stale` again after a snapshot if it still is). A `stale` before
    /// any data says nothing: there is no data to be stale. Only the
    /// upstream's own typed refusal (an `error` whose status and code
    /// `change::ends_watch` calls final) ends the watch; any other `error`
    /// leaves held data stale (`poll_failed`), as a failed poll would.
    pub fn after(&self, kind: Kind, body: &StreamEvent) -> Watching {
        match (self, kind) {
            (Watching::Ended(_), _) => self.clone(),
            (_, Kind::Error) => {
                let code = body
                    .code
                    .clone()
                    .unwrap_or_else(|| crate::ErrorCode::InternalError.as_str().to_owned());
                if crate::change::ends_watch(body.status, &code) {
                    Watching::Ended(code)
                } else {
                    self.told(StaleReason::PollFailed)
                }
            }
            (Watching::Stale(reason), Kind::Change) if StaleReason::told_by_server(reason) => {
                self.clone()
            }
            (_, Kind::Snapshot | Kind::Change) if body.data.is_some() => Watching::Live,
            (Watching::Waiting, _) => Watching::Waiting,
            (_, Kind::Live) => Watching::Live,
            (_, Kind::Stale) => Watching::Stale(
                body.reason
                    .clone()
                    .unwrap_or_else(|| StaleReason::PollFailed.name().to_owned()),
            ),
            _ => self.clone(),
        }
    }

    /// The reader found the stream `reason` (silent, disconnected): data
    /// held is stale until the stream speaks again.
    pub fn told(&self, reason: StaleReason) -> Watching {
        match self {
            Watching::Waiting | Watching::Ended(_) => self.clone(),
            _ => Watching::Stale(reason.name().to_owned()),
        }
    }
}

/// The silence rule: a reader that hears nothing (no event, no heartbeat)
/// for longer than the deadline the server announced (the least
/// `stale_after_ms` of its resources; [`live::stale_after_ms`] of the
/// default heartbeat before any was announced) says `stale` (`silent`)
/// itself and reconnects.
#[derive(Debug, Clone)]
pub struct Silence {
    heard_ms: f64,
    /// Per resource: the deadline its last event announced.
    announced: Vec<(String, u64)>,
}

impl Silence {
    /// A stream that answered at `now_ms`.
    pub fn new(now_ms: f64) -> Self {
        Self {
            heard_ms: now_ms,
            announced: Vec::new(),
        }
    }

    /// Bytes came (an event, a heartbeat, anything).
    pub fn heard(&mut self, now_ms: f64) {
        self.heard_ms = self.heard_ms.max(now_ms);
    }

    /// An event of `resource` announced its deadline.
    pub fn announce(&mut self, resource: &str, stale_after_ms: u64) {
        match self.announced.iter_mut().find(|(r, _)| r == resource) {
            Some(slot) => slot.1 = stale_after_ms,
            None => self.announced.push((resource.to_owned(), stale_after_ms)),
        }
    }

    /// The longest the reader waits for the next bytes now.
    pub fn limit_ms(&self) -> f64 {
        self.announced
            .iter()
            .map(|(_, ms)| *ms)
            .min()
            .unwrap_or_else(|| live::stale_after_ms(0.0, live::HEARTBEAT_MS as f64)) as f64
    }

    /// When the stream is silent unless something comes first (ms, the
    /// clock `heard` was given).
    pub fn deadline_ms(&self) -> f64 {
        self.heard_ms + self.limit_ms()
    }

    pub fn is_silent(&self, now_ms: f64) -> bool {
        now_ms >= self.deadline_ms()
    }
}

/// What a stream's bytes brought, read by [`Reader`]; `B` is the event's
/// body as the reader's decoder made it ([`StreamEvent`] by default).
#[derive(Debug, Clone, PartialEq)]
pub enum Read<B = StreamEvent> {
    /// `retry:`, bounded.
    Retry(u64),
    /// An event of one of the stream's resources; `Again` for one already
    /// delivered (the reader leaves it out).
    Event {
        kind: Kind,
        /// Boxed: an answer whole may be in it.
        body: Box<B>,
        seen: Seen,
    },
}

/// What the reader needs of a decoded body: whose event it is and the
/// deadline it announces. A reader in JS decodes bodies with `JSON.parse`
/// (crates/watch/src/live.rs) and reads these two fields from the object,
/// so the package's wasm carries no JSON tree of its own.
pub trait Addressed {
    /// `KIND:ID`, as the stream named it.
    fn resource(&self) -> &str;
    /// The body's `stale_after_ms`, when it is a number of ms.
    fn stale_after_ms(&self) -> Option<u64>;
}

impl<D> Addressed for live::Body<D> {
    fn resource(&self) -> &str {
        &self.resource
    }

    fn stale_after_ms(&self) -> Option<u64> {
        self.stale_after_ms
    }
}

/// One stream of `resources` read from its bytes: events parsed and
/// decoded, positions kept (in the caller's [`Positions`], which outlive
/// a connection), each resource's deadline heard ([`Silence`]). The
/// transport only hands text over and asks [`Reader::is_silent`] on a
/// timer at [`Reader::deadline_ms`].
#[derive(Debug)]
pub struct Reader {
    parser: Parser,
    resources: Vec<String>,
    silence: Silence,
}

impl Reader {
    /// A stream of `resources` (in the order its request named them) that
    /// answered at `now_ms`.
    pub fn new(resources: Vec<String>, now_ms: f64) -> Self {
        Self {
            parser: Parser::default(),
            resources,
            silence: Silence::new(now_ms),
        }
    }

    pub fn resources(&self) -> &[String] {
        &self.resources
    }

    /// Reads `chunk`, which came at `now_ms`, its bodies decoded by
    /// [`decode_body`].
    pub fn feed(
        &mut self,
        chunk: &str,
        now_ms: f64,
        positions: &mut Positions,
    ) -> Result<Vec<Read>, TooLarge> {
        self.feed_with(chunk, now_ms, positions, decode_body)
    }

    /// [`Reader::feed`] with the bodies (the `data:` text of an event of a
    /// known kind) decoded by `decode`; `None` is no event.
    pub fn feed_with<B: Addressed>(
        &mut self,
        chunk: &str,
        now_ms: f64,
        positions: &mut Positions,
        mut decode: impl FnMut(&str) -> Option<B>,
    ) -> Result<Vec<Read<B>>, TooLarge> {
        self.silence.heard(now_ms);
        let mut out = Vec::new();
        for item in self.parser.feed(chunk)? {
            match item {
                Item::Retry(ms) => out.push(Read::Retry(ms)),
                Item::Event(event) => {
                    let Some(kind) = Kind::from_name(&event.name) else {
                        continue;
                    };
                    let Some(body) = decode(&event.data) else {
                        continue;
                    };
                    let resource = body.resource();
                    if !self.resources.iter().any(|r| r == resource) {
                        continue;
                    }
                    if let Some(ms) = body.stale_after_ms() {
                        self.silence.announce(resource, ms);
                    }
                    let seen = positions.read(&self.resources, resource, event.id.as_deref(), kind);
                    out.push(Read::Event {
                        kind,
                        body: Box::new(body),
                        seen,
                    });
                }
            }
        }
        Ok(out)
    }

    /// When the stream is silent unless bytes come first.
    pub fn deadline_ms(&self) -> f64 {
        self.silence.deadline_ms()
    }

    pub fn is_silent(&self, now_ms: f64) -> bool {
        self.silence.is_silent(now_ms)
    }

    /// The `stale` (`silent`) a reader tells each resource of a silent
    /// stream itself, as the server would word it.
    pub fn silent_events(&self, now_ms: f64) -> Vec<StreamEvent> {
        self.resources
            .iter()
            .map(|resource| {
                let mut body = StreamEvent::new(resource, 0);
                body.reason = Some(StaleReason::Silent.name().to_owned());
                // Whole ms, written as an integer: a float's `Display`
                // costs the package's wasm 4 KB of code and tables.
                body.message = Some(format!(
                    "nothing heard from the stream for {} ms",
                    (now_ms - self.silence.heard_ms).max(0.0).round() as u64
                ));
                body
            })
            .collect()
    }
}

/// The wait before the `failures`-th reopening in a row (from 1): the
/// server's `retry` doubled per failure up to [`MAX_BACKOFF_MS`], spread
/// by `jitter` (0..1) over ±20 %, never before `retry_after_ms`.
pub fn backoff_ms(retry_ms: u64, failures: u32, jitter: f64, retry_after_ms: Option<u64>) -> u64 {
    let doubled = retry_ms.saturating_mul(1 << failures.saturating_sub(1).min(10));
    let base = doubled.min(MAX_BACKOFF_MS) as f64;
    let spread = base * (0.8 + 0.4 * jitter.clamp(0.0, 1.0));
    (spread as u64).max(retry_after_ms.unwrap_or(0))
}

/// Whether an answer to `GET /stream` means this server has no streams:
/// 404 or 405 (no such path), a redirect, another 4xx but 408 and 429, or
/// a 200 of something else than `text/event-stream`. 408, 429 and 5xx are
/// refusals for now (retried); 200 of an event stream is a stream.
pub fn has_no_streams(status: u16, content_type: Option<&str>) -> bool {
    match status {
        200 => !content_type.is_some_and(|t| {
            t.trim_start()
                .to_ascii_lowercase()
                .starts_with(live::MEDIA_TYPE)
        }),
        408 | 429 => false,
        s if s >= 500 => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(items: Vec<Item>) -> Vec<Event> {
        items
            .into_iter()
            .filter_map(|i| match i {
                Item::Event(e) => Some(e),
                Item::Retry(_) => None,
            })
            .collect()
    }

    #[test]
    fn events_split_anywhere_read_the_same() {
        let wire = "retry: 2000\n\n: heartbeat\n\nevent: snapshot\nid: a:1\ndata: {\"x\":1}\n\nevent: change\r\nid: a:2\r\ndata: one\r\ndata: two\r\n\r\ndata:bare\rid\r\r";
        let whole = Parser::default().feed(wire).expect("fits");
        assert_eq!(whole[0], Item::Retry(2000));
        let got = events(whole.clone());
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].name, "snapshot");
        assert_eq!(got[0].id.as_deref(), Some("a:1"));
        assert_eq!(got[0].data, "{\"x\":1}");
        assert_eq!(got[1].name, "change");
        assert_eq!(got[1].data, "one\ntwo");
        // No `event:`: a message; an empty `id` line sets the id to "".
        assert_eq!(got[2].name, "message");
        assert_eq!(got[2].data, "bare");
        assert_eq!(got[2].id.as_deref(), Some(""));
        // Every split point, including between `\r` and `\n`.
        for at in 0..=wire.len() {
            let mut parser = Parser::default();
            let mut items = parser.feed(&wire[..at]).expect("fits");
            items.extend(parser.feed(&wire[at..]).expect("fits"));
            assert_eq!(items, whole, "split at {at}");
        }
    }

    #[test]
    fn retry_is_bounded_and_an_event_too_large_is_refused() {
        let items = Parser::default().feed("retry: 1\n\nretry: 99999999\n\nretry: x\n\n");
        assert_eq!(
            items,
            Ok(vec![Item::Retry(MIN_RETRY_MS), Item::Retry(MAX_BACKOFF_MS)])
        );
        let mut parser = Parser::new(16);
        assert_eq!(parser.feed("data: 0123456789\n"), Ok(vec![]));
        assert_eq!(
            parser.feed("data: 0123456789\n"),
            Err(TooLarge { limit: 16 })
        );
        // A line that never ends is bounded too.
        assert!(Parser::new(16).feed(&"x".repeat(17)).is_err());
    }

    #[test]
    fn events_decode_by_name() {
        let event = Event {
            name: "stale".into(),
            id: Some("1:2".into()),
            data: r#"{"resource":"orderbook:m","seq":2,"reason":"poll_failed","age_ms":1000,"status":503,"code":"PLATFORM_UNAVAILABLE"}"#.into(),
        };
        let (kind, body) = decode(&event).expect("an event");
        assert_eq!(kind, Kind::Stale);
        assert_eq!(body.resource, "orderbook:m");
        assert_eq!(body.reason.as_deref(), Some("poll_failed"));
        assert_eq!(body.status, Some(503));
        assert_eq!(body.age_ms, Some(1000));
        let other = Event {
            name: "message".into(),
            ..event.clone()
        };
        assert!(decode(&other).is_none());
        let broken = Event {
            data: "{".into(),
            ..event
        };
        assert!(decode(&broken).is_none());
    }

    #[test]
    fn positions_skip_replays_and_resume() {
        let resources = vec!["orderbook:a".to_owned(), "game:b".to_owned()];
        let mut at = Positions::default();
        assert_eq!(at.last_event_id(&resources), None, "a new stream");
        assert_eq!(
            at.read(&resources, "orderbook:a", Some("ff:1,0:0"), Kind::Snapshot),
            Seen::New
        );
        assert_eq!(
            at.read(&resources, "orderbook:a", Some("ff:2,0:0"), Kind::Change),
            Seen::New
        );
        assert_eq!(at.last_event_id(&resources).as_deref(), Some("ff:2,0:0"));
        // Replayed by a reopened stream: already seen.
        assert_eq!(
            at.read(&resources, "orderbook:a", Some("ff:2,1:1"), Kind::Change),
            Seen::Again
        );
        // A snapshot is compared by the caller, never skipped.
        assert_eq!(
            at.read(&resources, "orderbook:a", Some("ff:2,1:1"), Kind::Snapshot),
            Seen::New
        );
        // Another run of the poller: new.
        assert_eq!(
            at.read(&resources, "orderbook:a", Some("1a:1,1:1"), Kind::Change),
            Seen::New
        );
        // Malformed ids are no position (delivered).
        for bad in ["1a:1", "zz:1,1:1", "1a:x,1:1", ""] {
            assert_eq!(
                at.read(&resources, "orderbook:a", Some(bad), Kind::Change),
                Seen::New,
                "{bad}"
            );
        }
        at.forget("orderbook:a");
        at.read(&resources, "game:b", Some("0:0,7:3"), Kind::Snapshot);
        assert_eq!(at.last_event_id(&resources).as_deref(), Some("0:0,7:3"));
        at.retain(&resources[..1]);
        assert_eq!(at.last_event_id(&resources), None);
    }

    #[test]
    fn backoff_doubles_to_its_cap_and_respects_retry_after() {
        assert_eq!(backoff_ms(2_000, 1, 0.5, None), 2_000);
        assert_eq!(backoff_ms(2_000, 2, 0.5, None), 4_000);
        assert_eq!(backoff_ms(2_000, 40, 0.5, None), MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(2_000, 1, 0.0, None), 1_600);
        assert_eq!(backoff_ms(2_000, 1, 1.0, None), 2_400);
        assert_eq!(backoff_ms(2_000, 1, 0.5, Some(9_000)), 9_000);
    }

    #[test]
    fn what_an_answer_to_the_stream_request_means() {
        assert!(!has_no_streams(200, Some("text/event-stream")));
        assert!(!has_no_streams(
            200,
            Some("Text/Event-Stream; charset=utf-8")
        ));
        assert!(has_no_streams(200, Some("application/json")));
        assert!(has_no_streams(200, None));
        for s in [301, 302, 400, 401, 404, 405] {
            assert!(has_no_streams(s, None), "{s}");
        }
        for s in [408, 429, 500, 502, 503] {
            assert!(!has_no_streams(s, None), "{s}");
        }
    }
}
