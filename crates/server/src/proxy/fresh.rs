//! The proxy's kept answers for the front service (`front`): a `GET` of
//! an operation whose cache entry is fresh, read and keyed exactly as its
//! route does (`crate::query::read`, `cache::canonical`), answered by the
//! respond phase as a hit (`respond::respond`, `X-Cache: HIT`) in the
//! coding its client takes; one past its freshness but within its
//! revalidation window is answered as the router answers it
//! (`key::updating`: `X-Cache: UPDATING`, the one refresh flight started
//! once the key's check let the request through), so the refresh of a
//! hot entry puts no request on the router's path. Only what the router's path would answer the
//! same way: visitors with keys (with `--public-proxy` the per-address
//! admission is the router's), operations without path parameters, a
//! client that sends no `Accept-Encoding` or takes one of the entry's kept
//! compressions (any other coding is the compression layer's, behind the
//! router).

use super::cache::{self, Freshness, Policy};
use super::key::updating;
use super::respond::respond;
use super::state::{ProxyState, Route};
use crate::auth::Keys;
use crate::encoding::coding::Coding;
use crate::front::KeptAnswer;
use axum::http::{HeaderMap, Uri, header};
use predmarket_core::request::{HttpRequest, Operation, Request as CoreRequest};
use std::sync::Arc;
use std::sync::atomic::Ordering;

macro_rules! fresh_reads {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        /// The request `query` asks of `op`, rendered as it is sent
        /// upstream; `None` for a query its route refuses.
        fn http_of(op: Operation, query: &str) -> Option<HttpRequest> {
            match op {
                $(Operation::$variant => read::<$request>(query),)+
            }
        }
    };
}

predmarket_core::for_each_operation!(fresh_reads);

fn read<R: CoreRequest>(query: &str) -> Option<HttpRequest> {
    crate::query::read::<R>(&[], query).ok()?.to_http().ok()
}

/// The proxy's fresh entries, as kept answers.
pub struct FreshHits {
    state: Arc<ProxyState>,
}

impl FreshHits {
    /// `None` when the proxy's visitors have no keys (`--public-proxy`).
    pub fn new(state: &Arc<ProxyState>) -> Option<Self> {
        (state.keys.is_some() && state.visitors.is_none()).then(|| Self {
            state: state.clone(),
        })
    }
}

impl crate::front::KeptAnswers for FreshHits {
    fn find(&self, uri: &Uri, headers: &HeaderMap) -> Option<KeptAnswer> {
        let path = uri.path();
        // A path with parameters (`{id}`) is the router's to match.
        let op = *Operation::ALL
            .iter()
            .find(|op| op.path() == path && !op.path().contains('{'))?;
        let http = cache::canonical(http_of(op, uri.query().unwrap_or(""))?);
        let key = http.path_and_query();
        let now = cache::now_ms();
        let entry = self.state.cache.get(&key)?;
        let freshness = entry.freshness(now);
        if freshness == Freshness::Stale {
            return None;
        }
        let coding = Coding::accepted(headers);
        let compressions = &self.state.cache.compressions;
        let kept = match coding {
            Coding::Identity => !headers.contains_key(header::ACCEPT_ENCODING),
            Coding::Gzip => entry.compressed(compressions).gzip.is_some(),
            Coding::Brotli => entry.compressed(compressions).brotli.is_some(),
        };
        if !kept {
            return None;
        }
        if freshness == Freshness::Fresh {
            // Made here: a hit is the entry's stored bytes and its headers,
            // as cheap as the refusal a key over its budget gets instead.
            return Some(KeptAnswer::Made(respond(
                &entry,
                "HIT",
                now,
                (coding, compressions),
            )));
        }
        // Within revalidation: the router would check the target first
        // (`key::forward`); a refused one is left to it.
        let target = self.state.upstream.target(&http).ok()?;
        let route = Route {
            op,
            policy: Policy::of(op).scaled(self.state.ttl_scale),
        };
        let state = self.state.clone();
        Some(KeptAnswer::Later(Box::new(move || {
            updating(&state, &entry, key, target, route, coding)
        })))
    }

    fn keys(&self) -> Option<&Keys> {
        self.state.keys.as_ref()
    }

    fn served(&self, answer: &KeptAnswer) {
        // A hit is made at once; an entry being refreshed is counted with
        // the revalidations (`key::updating`).
        if matches!(answer, KeptAnswer::Made(_)) {
            self.state.metrics.hits.fetch_add(1, Ordering::Relaxed);
        }
    }
}
