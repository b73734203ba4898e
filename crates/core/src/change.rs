//! What changed between two answers of one resource, and how a watch of it
//! behaves: the rules the npm package's `watch*` streams, the demo's live
//! views and any stream of the server share, written once. The JS face
//! runs these same functions (compiled to wasm); the vectors in
//! `tests/fixtures/rules/` hold both sides to them.
//!
//! - [`book_changes`]: price levels new, resized or gone, per outcome
//!   (`yes`/`no`) and side;
//! - [`value_changes`] (and [`tree_changes`] for any JSON-like tree): the
//!   values that changed, by path, leaving out the response's `meta`;
//! - [`WatchKind::default_interval_ms`]: how often each kind of watch asks;
//! - [`ends_watch`]: which errors end a watch instead of being retried at
//!   its next interval.

use crate::Error;
use crate::models::{Orderbook, OrderbookSide, PriceLevel};
use crate::request::{
    GetAward, GetFuture, GetGame, GetMarket, GetOrderbook, HttpRequest, Operation, Request,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a watch follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchKind {
    Orderbook,
    Market,
    Game,
    Future,
    Award,
}

impl WatchKind {
    pub const ALL: [WatchKind; 5] = [
        WatchKind::Orderbook,
        WatchKind::Market,
        WatchKind::Game,
        WatchKind::Future,
        WatchKind::Award,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WatchKind::Orderbook => "orderbook",
            WatchKind::Market => "market",
            WatchKind::Game => "game",
            WatchKind::Future => "future",
            WatchKind::Award => "award",
        }
    }

    pub fn from_name(name: &str) -> Option<WatchKind> {
        WatchKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name of the resource `id` of this kind, `KIND:ID`: what a
    /// stream watches (`?watch=`), an event's `resource`, what a history
    /// is asked for (`?resource=`) and what the recorder keys rows by.
    pub fn resource(self, id: &str) -> String {
        format!("{}:{id}", self.name())
    }

    /// The operation whose answer a watch of this kind follows.
    pub fn operation(self) -> Operation {
        match self {
            WatchKind::Orderbook => Operation::GetOrderbook,
            WatchKind::Market => Operation::GetMarket,
            WatchKind::Game => Operation::GetGame,
            WatchKind::Future => Operation::GetFuture,
            WatchKind::Award => Operation::GetAward,
        }
    }

    /// Where the watched resource sits in its operation's answer, as a JSON
    /// pointer: a market's answer is a list of one (`{markets: [Market],
    /// meta}`), every other kind's is `{data, meta}`. What reads a watched
    /// answer's fields (the recorder's platform and values) starts here.
    pub fn payload_pointer(self) -> &'static str {
        match self {
            WatchKind::Market => "/markets/0",
            WatchKind::Orderbook | WatchKind::Game | WatchKind::Future | WatchKind::Award => {
                "/data"
            }
        }
    }

    /// The time a watched answer says its data is from: the resource's own
    /// `timestamp` (a book's), else the answer's `data_freshness` (in
    /// `meta`, or at the top level as a bare answer carries it). What a
    /// stream's events and a recorded row call `as_of`.
    pub fn as_of(self, answer: &Value) -> Option<String> {
        let text = |pointer: &str| answer.pointer(pointer).and_then(Value::as_str);
        text(&format!("{}/timestamp", self.payload_pointer()))
            .or_else(|| text("/meta/data_freshness"))
            .or_else(|| text("/data_freshness"))
            .map(str::to_owned)
    }

    /// The request a watch of `id` sends, checked as the client checks it
    /// (a blank id, `.` or `..` is refused).
    pub fn request(self, id: &str) -> Result<HttpRequest, Error> {
        match self {
            WatchKind::Orderbook => GetOrderbook::new(id).to_http(),
            WatchKind::Market => GetMarket::new(id).to_http(),
            WatchKind::Game => GetGame::new(id).to_http(),
            WatchKind::Future => GetFuture::new(id).to_http(),
            WatchKind::Award => GetAward::new(id).to_http(),
        }
    }

    /// How often a watch asks when its caller does not say: books move
    /// fastest and are what traders watch; futures and awards move over
    /// days. The scheduler (`schedule::intervals`) may lengthen these.
    pub fn default_interval_ms(self) -> f64 {
        match self {
            WatchKind::Orderbook => 5_000.0,
            WatchKind::Market => 10_000.0,
            WatchKind::Game => 15_000.0,
            WatchKind::Future | WatchKind::Award => 30_000.0,
        }
    }
}

/// Whether an error ends a watch: asking again cannot change the answer.
/// Every 4xx but 408 (timeout) and 429 (rate limited), and parameters the
/// client refused itself (`VALIDATION_ERROR` with no status); network
/// failures, timeouts, 429 and 5xx are retried at the next interval.
pub fn ends_watch(status: Option<u16>, code: &str) -> bool {
    match status {
        Some(s) => (400..500).contains(&s) && s != 408 && s != 429,
        None => code == "VALIDATION_ERROR",
    }
}

/// One outcome's book of a binary market.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookName {
    Yes,
    No,
}

/// One side of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideName {
    Bids,
    Asks,
}

/// A price level new (`from: None`), resized, or gone (`to: None`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LevelChange {
    pub book: BookName,
    pub side: SideName,
    pub price: f64,
    pub from: Option<f64>,
    pub to: Option<f64>,
}

/// Sizes that differ by less than this share are the same size: the sum
/// of one price's levels is a float, and the same levels listed in
/// another order may sum to a neighbouring one.
const SIZE_TOLERANCE: f64 = 1e-9;

fn same_size(a: f64, b: f64) -> bool {
    (a - b).abs() <= SIZE_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// The levels of one side that changed, as `(price, from, to)`, by price
/// ascending. Levels of one price are summed (a platform may list a price
/// twice); prices are compared exactly (they come from the same decimal
/// text every time).
pub fn level_changes(
    before: &[PriceLevel],
    after: &[PriceLevel],
) -> Vec<(f64, Option<f64>, Option<f64>)> {
    // Sorted first, then equal prices summed as neighbours: n log n, not a
    // search of the levels so far for each level (quadratic: a book of a
    // quarter of a million levels held its poller for minutes). The sort
    // is stable, so one price's levels are summed in the order listed.
    let sizes = |levels: &[PriceLevel]| {
        let mut listed: Vec<(f64, f64)> = levels
            .iter()
            .filter(|l| l.price.is_finite() && l.size.is_finite())
            .map(|l| (l.price, l.size))
            .collect();
        listed.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut by_price: Vec<(f64, f64)> = Vec::with_capacity(listed.len());
        for (price, size) in listed {
            match by_price.last_mut() {
                Some((p, sum)) if *p == price => *sum += size,
                _ => by_price.push((price, size)),
            }
        }
        by_price
    };
    let was = sizes(before);
    let now = sizes(after);
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < was.len() || j < now.len() {
        match (was.get(i), now.get(j)) {
            (Some(&(p, old)), Some(&(q, new))) if p == q => {
                if !same_size(old, new) {
                    out.push((p, Some(old), Some(new)));
                }
                i += 1;
                j += 1;
            }
            (Some(&(p, old)), Some(&(q, _))) if p < q => {
                out.push((p, Some(old), None));
                i += 1;
            }
            (Some(&(p, old)), None) => {
                out.push((p, Some(old), None));
                i += 1;
            }
            (_, Some(&(q, new))) => {
                out.push((q, None, Some(new)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

/// Every level that changed between two books: `yes` then `no`, bids then
/// asks, each by price ascending. An absent side is an empty one.
pub fn book_changes(before: &Orderbook, after: &Orderbook) -> Vec<LevelChange> {
    let mut out = Vec::new();
    for (book, was, now) in [
        (BookName::Yes, &before.yes, &after.yes),
        (BookName::No, &before.no, &after.no),
    ] {
        for side in [SideName::Bids, SideName::Asks] {
            let levels = |s: &Option<OrderbookSide>| -> Vec<PriceLevel> {
                s.as_ref()
                    .map(|s| match side {
                        SideName::Bids => s.bids.clone(),
                        SideName::Asks => s.asks.clone(),
                    })
                    .unwrap_or_default()
            };
            for (price, from, to) in level_changes(&levels(was), &levels(now)) {
                out.push(LevelChange {
                    book,
                    side,
                    price,
                    from,
                    to,
                });
            }
        }
    }
    out
}

/// A JSON-like tree, as [`tree_changes`] reads it: serde's `Value` here,
/// the JS values of a parsed response in the npm package.
pub trait Tree: Sized {
    /// An object's keys (not an array's).
    fn object_keys(&self) -> Option<Vec<String>>;
    /// An array's length.
    fn array_len(&self) -> Option<usize>;
    fn key(&self, key: &str) -> Option<Self>;
    fn index(&self, index: usize) -> Option<Self>;
    /// Two values that are neither objects nor arrays: equal as JSON
    /// (numbers by value).
    fn same_leaf(&self, other: &Self) -> bool;
}

/// One value that changed: `from`/`to` absent where the value was or is
/// missing.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeChange<T> {
    pub path: String,
    pub from: Option<T>,
    pub to: Option<T>,
}

/// The values that changed between two answers, by path
/// (`data.markets[0].yes_price`): objects key by key (keys in byte order),
/// arrays index by index; where the kinds differ, or a value appears or
/// goes, the whole value is one change. The top-level `meta` (timings) is
/// left out.
pub fn tree_changes<T: Tree + Clone>(before: &T, after: &T) -> Vec<TreeChange<T>> {
    let mut out = Vec::new();
    match (before.object_keys(), after.object_keys()) {
        (Some(_), Some(_)) => {
            for key in union_keys(before, after) {
                if key != "meta" {
                    diff(before.key(&key), after.key(&key), key, &mut out);
                }
            }
        }
        _ => diff(
            Some(before.clone()),
            Some(after.clone()),
            String::new(),
            &mut out,
        ),
    }
    out
}

fn union_keys<T: Tree>(a: &T, b: &T) -> Vec<String> {
    let mut keys = a.object_keys().unwrap_or_default();
    keys.extend(b.object_keys().unwrap_or_default());
    keys.sort();
    keys.dedup();
    keys
}

fn diff<T: Tree>(from: Option<T>, to: Option<T>, path: String, out: &mut Vec<TreeChange<T>>) {
    let (a, b) = match (from, to) {
        (None, None) => return,
        (Some(a), Some(b)) => (a, b),
        (from, to) => {
            out.push(TreeChange { path, from, to });
            return;
        }
    };
    let objects = a.object_keys().is_some() && b.object_keys().is_some();
    if objects {
        for key in union_keys(&a, &b) {
            let next = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            diff(a.key(&key), b.key(&key), next, out);
        }
        return;
    }
    if let (Some(n), Some(m)) = (a.array_len(), b.array_len()) {
        for i in 0..n.max(m) {
            diff(a.index(i), b.index(i), format!("{path}[{i}]"), out);
        }
        return;
    }
    let leaves = a.object_keys().is_none()
        && a.array_len().is_none()
        && b.object_keys().is_none()
        && b.array_len().is_none();
    if !(leaves && a.same_leaf(&b)) {
        out.push(TreeChange {
            path,
            from: Some(a),
            to: Some(b),
        });
    }
}

impl Tree for &Value {
    fn object_keys(&self) -> Option<Vec<String>> {
        self.as_object().map(|o| o.keys().cloned().collect())
    }
    fn array_len(&self) -> Option<usize> {
        self.as_array().map(Vec::len)
    }
    fn key(&self, key: &str) -> Option<Self> {
        self.as_object().and_then(|o| o.get(key))
    }
    fn index(&self, index: usize) -> Option<Self> {
        self.as_array().and_then(|a| a.get(index))
    }
    fn same_leaf(&self, other: &Self) -> bool {
        match (self.as_f64(), other.as_f64()) {
            (Some(a), Some(b)) => a == b,
            _ => self == other,
        }
    }
}

/// A change of [`value_changes`], as the JS face yields it (`null` where a
/// value was or is missing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueChange {
    pub path: String,
    pub from: Value,
    pub to: Value,
}

/// [`tree_changes`] of two parsed answers.
pub fn value_changes(before: &Value, after: &Value) -> Vec<ValueChange> {
    tree_changes(&before, &after)
        .into_iter()
        .map(|c| ValueChange {
            path: c.path,
            from: c.from.cloned().unwrap_or(Value::Null),
            to: c.to.cloned().unwrap_or(Value::Null),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_price_listed_apart_is_summed_and_levels_come_by_price() {
        let l = PriceLevel::new;
        let before = [l(0.5, 1.0), l(0.2, 2.0), l(0.5, 3.0), l(f64::NAN, 9.0)];
        let after = [
            l(0.2, 2.0),
            l(0.5, 4.0),
            l(0.1, 1.0),
            l(-0.0, 1.0),
            l(0.0, 1.0),
        ];
        assert_eq!(
            level_changes(&before, &after),
            [(-0.0, None, Some(2.0)), (0.1, None, Some(1.0)),],
            "0.5 sums to 4 on both sides; -0 and 0 are one price"
        );
        let many: Vec<PriceLevel> = (0..50_000).map(|i| l(f64::from(i) / 1e6, 1.0)).collect();
        let moved: Vec<PriceLevel> = many.iter().map(|p| l(p.price, 2.0)).collect();
        assert_eq!(level_changes(&many, &moved).len(), 50_000);
    }

    #[test]
    fn a_watched_answer_says_its_time_where_its_kind_keeps_the_resource() {
        let book = serde_json::json!({
            "data": {"timestamp": "2026-11-27T10:00:00Z"},
            "meta": {"data_freshness": "2026-11-27T09:59:00Z"}
        });
        assert_eq!(
            WatchKind::Orderbook.as_of(&book).as_deref(),
            Some("2026-11-27T10:00:00Z")
        );
        // A market's answer is a list of one: its time is the answer's.
        let market = serde_json::json!({
            "markets": [{"id": "m1"}],
            "meta": {"data_freshness": "2026-11-27T09:59:00Z"}
        });
        assert_eq!(WatchKind::Market.payload_pointer(), "/markets/0");
        assert!(
            market
                .pointer(WatchKind::Market.payload_pointer())
                .is_some()
        );
        assert_eq!(
            WatchKind::Market.as_of(&market).as_deref(),
            Some("2026-11-27T09:59:00Z")
        );
        let bare = serde_json::json!({"data": {}, "data_freshness": "2026-11-27T09:58:00Z"});
        assert_eq!(
            WatchKind::Game.as_of(&bare).as_deref(),
            Some("2026-11-27T09:58:00Z")
        );
        assert_eq!(
            WatchKind::Award.as_of(&serde_json::json!({"data": 1})),
            None
        );
    }

    #[test]
    fn a_watch_asks_its_operation_with_one_encoded_segment() {
        for kind in WatchKind::ALL {
            let http = kind.request("a b/c").expect("a plain id is accepted");
            let expected = kind.operation().path().replace("{id}", "a%20b%2Fc");
            assert_eq!(http.path, expected.replace("{game_id}", "a%20b%2Fc"));
            for bad in ["", " ", ".", ".."] {
                assert!(kind.request(bad).is_err(), "{kind:?} {bad:?}");
            }
        }
    }
}
