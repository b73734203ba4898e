//! Public mode (`--public-proxy`): every client address is a visitor of
//! its own. Each has a lane in the upstream queue (`budget`), a bucket of
//! requests per minute (`--visitor-requests`), a smaller one of cache
//! misses (`--visitor-misses`: what spends the operator's upstream budget)
//! and a cap on its requests in progress (`--visitor-in-flight`). Over
//! any of them the answer is a JSON 429 `RATE_LIMITED` with `Retry-After`,
//! as the server's own limiter answers.
//!
//! The address is the TCP peer's, unless the peer is one of the
//! `--trusted-proxy` networks: then it is the rightmost address of
//! `X-Forwarded-For` that is not trusted (the one the last trusted proxy
//! saw; what a client writes to the left of it is not believed). IPv6
//! addresses count by their /64, the block one subscriber usually holds.
//!
//! Buckets refill continuously and hold a quarter of their minute, so a
//! page load of a few requests passes at once and a steady client gets
//! its per-minute share. A visitor whose buckets are full and who has
//! nothing in progress is the same as one never seen, so the table drops
//! such entries when it grows, and stays bounded by the visitors active
//! in the last minute or so (and by `MAX_VISITORS`).

use crate::error::ApiError;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use predmarket_core::ErrorCode;
use serde_json::json;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Addresses tracked at most; past it (after dropping idle ones) new
/// addresses share one entry, so they are still served, in one lane.
pub const MAX_VISITORS: usize = 100_000;
/// The table is swept for idle entries when it reaches this size, then
/// again at twice what is left.
const FIRST_SWEEP: usize = 4096;

/// One network of `--trusted-proxy`: an address and a prefix length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    prefix: u8,
}

impl Network {
    /// `10.0.0.0/8`, `2001:db8::/32`, or one address.
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("--trusted-proxy {text:?}: not an IP address or CIDR network");
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text.trim(), None),
        };
        let addr = canonical(addr.parse::<IpAddr>().map_err(|_| bad())?);
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(bad)?,
            None => max,
        };
        Ok(Self { addr, prefix })
    }

    pub fn contains(&self, addr: IpAddr) -> bool {
        match (self.addr, canonical(addr)) {
            (IpAddr::V4(net), IpAddr::V4(a)) => {
                masked(u32::from(net).into(), self.prefix, 32)
                    == masked(u32::from(a).into(), self.prefix, 32)
            }
            (IpAddr::V6(net), IpAddr::V6(a)) => {
                masked(u128::from(net), self.prefix, 128) == masked(u128::from(a), self.prefix, 128)
            }
            _ => false,
        }
    }
}

fn masked(bits: u128, prefix: u8, width: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        bits >> (width - prefix)
    }
}

/// IPv4-mapped IPv6 addresses as the IPv4 address they are.
fn canonical(addr: IpAddr) -> IpAddr {
    addr.to_canonical()
}

/// The client's address: the peer, or with a trusted peer the rightmost
/// untrusted `X-Forwarded-For` entry (all entries trusted: the leftmost).
pub fn client_addr(peer: IpAddr, headers: &HeaderMap, trusted: &[Network]) -> IpAddr {
    let is_trusted = |a: IpAddr| trusted.iter().any(|n| n.contains(a));
    let mut client = canonical(peer);
    if !is_trusted(client) {
        return client;
    }
    // Every X-Forwarded-For line, in order, as one list.
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    for hop in forwarded.iter().rev() {
        // An entry that is no address (garbage, `unknown`) ends the walk:
        // the trusted hop that handed it over is the client as far as the
        // proxy can tell.
        let Ok(addr) = hop.trim().parse::<IpAddr>() else {
            break;
        };
        client = canonical(addr);
        if !is_trusted(client) {
            break;
        }
    }
    client
}

/// What a visitor is counted as: its address, IPv6 by its /64 (the
/// streams count their viewers alike: `stream::audience`).
pub fn visitor_key(addr: IpAddr) -> IpAddr {
    match canonical(addr) {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        v4 => v4,
    }
}

/// A bucket of `per_minute` tokens a minute, holding a quarter of them.
#[derive(Debug, Clone, Copy)]
struct Rate {
    per_minute: u32,
    per_ms: f64,
    capacity: f64,
}

impl Rate {
    fn new(per_minute: u32) -> Self {
        let per_minute = per_minute.max(1);
        Self {
            per_minute,
            per_ms: f64::from(per_minute) / 60_000.0,
            capacity: f64::from((per_minute / 4).max(1)),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at_ms: f64,
}

impl Bucket {
    fn full(rate: Rate, now_ms: f64) -> Self {
        Self {
            tokens: rate.capacity,
            at_ms: now_ms,
        }
    }

    fn refill(&mut self, rate: Rate, now_ms: f64) {
        let elapsed = (now_ms - self.at_ms).max(0.0);
        self.tokens = (self.tokens + elapsed * rate.per_ms).min(rate.capacity);
        self.at_ms = now_ms;
    }

    /// Takes a token, or says how many ms until one is there.
    fn take(&mut self, rate: Rate, now_ms: f64) -> Result<(), f64> {
        self.refill(rate, now_ms);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err((1.0 - self.tokens) / rate.per_ms)
        }
    }

    fn is_full(&self, rate: Rate, now_ms: f64) -> bool {
        let mut bucket = *self;
        bucket.refill(rate, now_ms);
        bucket.tokens >= rate.capacity
    }
}

struct Slot {
    requests: Bucket,
    misses: Bucket,
    in_flight: usize,
}

struct Table {
    slots: HashMap<IpAddr, Slot>,
    sweep_at: usize,
    swept_ms: f64,
}

/// The limits of `--visitor-requests`, `--visitor-misses`,
/// `--visitor-in-flight` and `--trusted-proxy`.
#[derive(Debug, Clone)]
pub struct Limits {
    pub requests_per_minute: u32,
    pub misses_per_minute: u32,
    pub in_flight: usize,
    pub trusted: Vec<Network>,
}

pub struct Visitors {
    requests: Rate,
    misses: Rate,
    in_flight: usize,
    trusted: Vec<Network>,
    table: Mutex<Table>,
    started: Instant,
}

/// A visitor's request in progress (in the request's extensions): who,
/// and its lane of the upstream queue. Dropping it ends the request's
/// count against `--visitor-in-flight`.
#[derive(Clone)]
pub struct Visitor(Arc<Admitted>);

struct Admitted {
    key: IpAddr,
    lane: u64,
    visitors: Arc<Visitors>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut table = lock(&self.visitors.table);
        if let Some(slot) = table.slots.get_mut(&self.key) {
            slot.in_flight = slot.in_flight.saturating_sub(1);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Why a visitor is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Over `--visitor-requests`.
    Requests { limit: u32, retry_after_secs: u64 },
    /// Over `--visitor-misses`.
    Misses { limit: u32, retry_after_secs: u64 },
    /// At `--visitor-in-flight`.
    InFlight { limit: usize },
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (message, details, retry) = match self {
            Self::Requests {
                limit,
                retry_after_secs,
            } => (
                format!("more than {limit} requests per minute from this address"),
                json!({ "reason": "visitor_requests", "limit": limit,
                        "retry_after_seconds": retry_after_secs }),
                retry_after_secs,
            ),
            Self::Misses {
                limit,
                retry_after_secs,
            } => (
                format!(
                    "more than {limit} requests per minute from this address that the cache \
                     cannot answer"
                ),
                json!({ "reason": "visitor_misses", "limit": limit,
                        "retry_after_seconds": retry_after_secs }),
                retry_after_secs,
            ),
            Self::InFlight { limit } => (
                format!("this address has {limit} requests in progress, its limit"),
                json!({ "reason": "visitor_in_flight", "limit": limit,
                        "retry_after_seconds": 1 }),
                1,
            ),
        };
        let mut response = ApiError::new(ErrorCode::RateLimited, message)
            .with_details(details)
            .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(retry));
        response
    }
}

fn retry_secs(wait_ms: f64) -> u64 {
    (wait_ms / 1000.0).ceil().max(1.0) as u64
}

impl Visitors {
    pub fn new(limits: Limits) -> Arc<Self> {
        Arc::new(Self {
            requests: Rate::new(limits.requests_per_minute),
            misses: Rate::new(limits.misses_per_minute),
            in_flight: limits.in_flight.max(1),
            trusted: limits.trusted,
            table: Mutex::new(Table {
                slots: HashMap::new(),
                sweep_at: FIRST_SWEEP,
                swept_ms: f64::MIN,
            }),
            started: Instant::now(),
        })
    }

    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    /// Admits one request of the client at `addr`: a request token and a
    /// place under its cap of requests in progress.
    pub fn admit(self: &Arc<Self>, addr: IpAddr) -> Result<Visitor, Refusal> {
        let now = self.now_ms();
        let mut key = visitor_key(addr);
        let mut table = lock(&self.table);
        // At most one sweep a second, so a table full of active visitors
        // costs no sweep per request.
        if !table.slots.contains_key(&key)
            && table.slots.len() >= table.sweep_at
            && now - table.swept_ms >= 1000.0
        {
            table.swept_ms = now;
            let (requests, misses) = (self.requests, self.misses);
            table.slots.retain(|_, s| {
                s.in_flight > 0
                    || !s.requests.is_full(requests, now)
                    || !s.misses.is_full(misses, now)
            });
            table.sweep_at = (table.slots.len() * 2).clamp(FIRST_SWEEP, MAX_VISITORS);
        }
        if !table.slots.contains_key(&key) && table.slots.len() >= MAX_VISITORS {
            key = IpAddr::V6(Ipv6Addr::UNSPECIFIED);
        }
        let slot = table.slots.entry(key).or_insert_with(|| Slot {
            requests: Bucket::full(self.requests, now),
            misses: Bucket::full(self.misses, now),
            in_flight: 0,
        });
        if slot.in_flight >= self.in_flight {
            return Err(Refusal::InFlight {
                limit: self.in_flight,
            });
        }
        slot.requests
            .take(self.requests, now)
            .map_err(|wait| Refusal::Requests {
                limit: self.requests.per_minute,
                retry_after_secs: retry_secs(wait),
            })?;
        slot.in_flight += 1;
        drop(table);
        Ok(Visitor(Arc::new(Admitted {
            key,
            lane: lane_of(key),
            visitors: self.clone(),
        })))
    }

    /// The `--trusted-proxy` networks.
    pub fn trusted(&self) -> &[Network] {
        &self.trusted
    }

    /// The client's address of a request (see the module's doc).
    pub fn client_addr(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        client_addr(peer, headers, &self.trusted)
    }
}

impl Visitor {
    /// The visitor's lane of the upstream queue.
    pub fn lane(&self) -> u64 {
        self.0.lane
    }

    /// Charges one cache miss (a request that goes upstream).
    pub fn charge_miss(&self) -> Result<(), Refusal> {
        let visitors = &self.0.visitors;
        let now = visitors.now_ms();
        let mut table = lock(&visitors.table);
        let Some(slot) = table.slots.get_mut(&self.0.key) else {
            // Swept can only be an idle entry, and this one is in progress.
            return Ok(());
        };
        slot.misses
            .take(visitors.misses, now)
            .map_err(|wait| Refusal::Misses {
                limit: visitors.misses.per_minute,
                retry_after_secs: retry_secs(wait),
            })
    }
}

/// A lane number from an address, out of the way of the refresh lane.
fn lane_of(key: IpAddr) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish().min(super::budget::REFRESH_LANE - 1)
}

/// The middleware of public mode: admits the request as its client
/// address's, or answers 429.
pub async fn admit(
    State(visitors): State<Arc<Visitors>>,
    mut request: Request,
    next: Next,
) -> Response {
    // Without the connection's address (a router served by other means)
    // every client is one visitor, as before per-address limits.
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED), |c| c.0.ip());
    let addr = visitors.client_addr(peer, request.headers());
    match visitors.admit(addr) {
        Ok(visitor) => {
            request.extensions_mut().insert(visitor.clone());
            let response = next.run(request).await;
            drop(visitor);
            response
        }
        Err(refusal) => refusal.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn networks_parse_and_match() {
        let net = Network::parse("10.0.0.0/8").unwrap();
        assert!(net.contains(ip("10.1.2.3")));
        assert!(!net.contains(ip("11.0.0.1")));
        assert!(net.contains(ip("::ffff:10.0.0.1")));
        let one = Network::parse("127.0.0.1").unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        assert!(Network::parse("::/0").unwrap().contains(ip("2001:db8::1")));
        assert!(Network::parse("0.0.0.0/0").unwrap().contains(ip("8.8.8.8")));
        for bad in ["10.0.0.0/33", "example.com", "1.2.3.4/x", ""] {
            assert!(Network::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_peers() {
        let trusted = [Network::parse("10.0.0.0/8").unwrap()];
        let spoofed = headers(&["6.6.6.6, 1.2.3.4"]);
        // An untrusted peer: its own address, whatever it writes.
        assert_eq!(
            client_addr(ip("5.5.5.5"), &spoofed, &trusted),
            ip("5.5.5.5")
        );
        // A trusted load balancer appended the client (1.2.3.4); what the
        // client wrote to the left (6.6.6.6) is not believed.
        assert_eq!(
            client_addr(ip("10.0.0.9"), &spoofed, &trusted),
            ip("1.2.3.4")
        );
        // Two trusted hops, across two header lines.
        let chained = headers(&["6.6.6.6", "1.2.3.4, 10.0.0.7"]);
        assert_eq!(
            client_addr(ip("10.0.0.9"), &chained, &trusted),
            ip("1.2.3.4")
        );
        // Garbage to the right of the last trusted hop: that hop.
        let garbage = headers(&["1.2.3.4, unknown"]);
        assert_eq!(
            client_addr(ip("10.0.0.9"), &garbage, &trusted),
            ip("10.0.0.9")
        );
        // No header: the peer.
        assert_eq!(
            client_addr(ip("10.0.0.9"), &headers(&[]), &trusted),
            ip("10.0.0.9")
        );
    }

    #[test]
    fn buckets_refuse_past_their_burst_and_refill() {
        let visitors = Visitors::new(Limits {
            requests_per_minute: 8,
            misses_per_minute: 4,
            in_flight: 100,
            trusted: Vec::new(),
        });
        let a = ip("192.0.2.1");
        // A quarter of 8 per minute at once, then a refusal.
        let admitted: Vec<_> = (0..2).map(|_| visitors.admit(a).unwrap()).collect();
        let refused = visitors.admit(a).err();
        assert!(
            matches!(refused, Some(Refusal::Requests { limit: 8, retry_after_secs }) if retry_after_secs >= 1),
            "{refused:?}"
        );
        // The miss bucket holds one (a quarter of 4).
        assert!(admitted[0].charge_miss().is_ok());
        assert!(matches!(
            admitted[1].charge_miss(),
            Err(Refusal::Misses { .. })
        ));
        // Another address is untouched.
        assert!(visitors.admit(ip("192.0.2.2")).is_ok());
        // IPv6 counts by /64.
        let v6 = Visitors::new(Limits {
            requests_per_minute: 4,
            misses_per_minute: 4,
            in_flight: 100,
            trusted: Vec::new(),
        });
        assert!(v6.admit(ip("2001:db8::1")).is_ok());
        assert!(v6.admit(ip("2001:db8::2")).is_err());
        assert!(v6.admit(ip("2001:db8:0:1::1")).is_ok());
    }

    #[test]
    fn requests_in_progress_are_capped_and_released() {
        let visitors = Visitors::new(Limits {
            requests_per_minute: 1000,
            misses_per_minute: 1000,
            in_flight: 2,
            trusted: Vec::new(),
        });
        let a = ip("192.0.2.1");
        let first = visitors.admit(a).unwrap();
        let _second = visitors.admit(a).unwrap();
        assert!(matches!(
            visitors.admit(a),
            Err(Refusal::InFlight { limit: 2 })
        ));
        drop(first);
        assert!(visitors.admit(a).is_ok());
    }
}
