//! A scripted transport on a virtual clock, and an executor that advances
//! the clock only when every task waits for a timer. Tests are exact and
//! take no real time: a one-minute rate-limit wait is one clock jump.

#![allow(dead_code)]

use futures::task::ArcWake;
use predmarket_client::core::rate::RateLimitHeaders;
use predmarket_client::{
    Client, ClientConfig, Error, Transport, TransportRequest, TransportResponse,
};
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::{Pin, pin};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

pub const KEY: &str = "pm_secret_test_key";
pub const BASE: &str = "http://fake.test";

#[derive(Default)]
pub struct Clock {
    now: Cell<u64>,
    timers: RefCell<BTreeSet<u64>>,
}

impl Clock {
    pub fn now(&self) -> u64 {
        self.now.get()
    }

    pub fn sleep(self: &Rc<Self>, ms: u64) -> Sleep {
        Sleep {
            clock: self.clone(),
            deadline: self.now().saturating_add(ms),
        }
    }
}

pub struct Sleep {
    clock: Rc<Clock>,
    deadline: u64,
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.clock.now() >= self.deadline {
            Poll::Ready(())
        } else {
            self.clock.timers.borrow_mut().insert(self.deadline);
            Poll::Pending
        }
    }
}

struct Flag(AtomicBool);

impl ArcWake for Flag {
    fn wake_by_ref(arc_self: &Arc<Self>) {
        arc_self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs `future` to completion on the virtual clock: polled again at once
/// while something woke it (a cancel, a shared answer), and only when it
/// waits for timers alone is the clock moved to the earliest one.
pub fn run<F: Future>(clock: &Rc<Clock>, future: F) -> F::Output {
    let mut future = pin!(future);
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = futures::task::waker(flag.clone());
    let mut cx = Context::from_waker(&waker);
    loop {
        flag.0.store(false, Ordering::SeqCst);
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
        if flag.0.load(Ordering::SeqCst) {
            continue;
        }
        let next = clock.timers.borrow_mut().pop_first();
        match next {
            Some(at) => {
                if at > clock.now() {
                    clock.now.set(at);
                }
            }
            None => panic!("stuck: pending with no timer at {} ms", clock.now()),
        }
    }
}

/// What the fake service answers.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub headers: Vec<(&'static str, String)>,
    pub delay_ms: u64,
    pub network_error: bool,
}

impl Reply {
    pub fn ok(body: impl Into<String>) -> Self {
        Self::status(200, body)
    }

    pub fn status(status: u16, body: impl Into<String>) -> Self {
        Self {
            status,
            body: body.into(),
            headers: Vec::new(),
            delay_ms: 0,
            network_error: false,
        }
    }

    pub fn error(status: u16, code: &str) -> Self {
        Self::status(
            status,
            format!(
                r#"{{"error":{{"code":"{code}","message":"scripted"}},"meta":{{"request_time":0}}}}"#
            ),
        )
    }

    pub fn network() -> Self {
        Self {
            network_error: true,
            ..Self::status(0, "")
        }
    }

    pub fn header(mut self, name: &'static str, value: impl ToString) -> Self {
        self.headers.push((name, value.to_string()));
        self
    }

    pub fn delay(mut self, ms: u64) -> Self {
        self.delay_ms = ms;
        self
    }
}

/// One request the fake service saw.
#[derive(Clone, Debug)]
pub struct Sent {
    pub at_ms: u64,
    pub url: String,
    /// `None` when the client sent no key (a hop to another origin).
    pub api_key: Option<String>,
    /// The further headers sent.
    pub headers: Vec<(String, String)>,
    /// Answered (false while running, or when dropped before the answer).
    pub answered: bool,
    /// Dropped by the client before the answer (aborted).
    pub dropped: bool,
}

type Handler = dyn Fn(&str, usize) -> Reply;

#[derive(Clone)]
pub struct Fake {
    pub clock: Rc<Clock>,
    handler: Rc<Handler>,
    pub log: Rc<RefCell<Vec<Sent>>>,
    /// A different seed for every client made on this transport.
    seeds: Rc<Cell<u64>>,
}

impl Fake {
    /// `handler(url, n)` answers the `n`-th request (from 0) for `url`.
    pub fn new(handler: impl Fn(&str, usize) -> Reply + 'static) -> Self {
        Self {
            clock: Rc::new(Clock::default()),
            handler: Rc::new(handler),
            log: Rc::default(),
            seeds: Rc::default(),
        }
    }

    pub fn sent(&self) -> Vec<Sent> {
        self.log.borrow().clone()
    }

    pub fn count(&self) -> usize {
        self.log.borrow().len()
    }

    pub fn times(&self) -> Vec<u64> {
        self.log.borrow().iter().map(|s| s.at_ms).collect()
    }
}

struct Settle {
    log: Rc<RefCell<Vec<Sent>>>,
    index: usize,
    answered: bool,
}

impl Drop for Settle {
    fn drop(&mut self) {
        if let Some(sent) = self.log.borrow_mut().get_mut(self.index) {
            sent.answered = self.answered;
            sent.dropped = !self.answered;
        }
    }
}

impl Transport for Fake {
    type Body = String;

    async fn get(&self, request: TransportRequest<'_>) -> Result<TransportResponse<String>, Error> {
        let (index, nth) = {
            let mut log = self.log.borrow_mut();
            let nth = log.iter().filter(|s| s.url == request.url).count();
            log.push(Sent {
                at_ms: self.clock.now(),
                url: request.url.to_owned(),
                api_key: request.api_key.map(str::to_owned),
                headers: request.headers.to_vec(),
                answered: false,
                dropped: false,
            });
            (log.len() - 1, nth)
        };
        let reply = (self.handler)(request.url, nth);
        let mut settle = Settle {
            log: self.log.clone(),
            index,
            answered: false,
        };
        if reply.delay_ms > 0 {
            self.clock.sleep(reply.delay_ms).await;
        }
        settle.answered = true;
        drop(settle);
        if reply.network_error {
            return Err(Error::Network {
                message: "connection refused (scripted)".into(),
            });
        }
        let headers = reply.headers.clone();
        if reply.body.len() as u64 > request.max_body_bytes {
            return Err(Error::ResponseTooLarge {
                status: reply.status,
                limit_bytes: request.max_body_bytes,
            });
        }
        Ok(TransportResponse {
            status: reply.status,
            location: headers
                .iter()
                .find(|(n, _)| *n == "location")
                .map(|(_, v)| v.clone()),
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.clone()))
                .collect(),
            rate_limit: RateLimitHeaders::read(|name| {
                headers
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.clone())
            }),
            body: reply.body,
        })
    }

    fn now_ms(&self) -> f64 {
        self.clock.now() as f64
    }

    fn random_seed(&self) -> u64 {
        self.seeds.set(self.seeds.get() + 1);
        self.seeds.get()
    }

    fn sleep(&self, duration: Duration) -> impl Future<Output = ()> {
        self.clock
            .sleep(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX))
    }
}

pub fn config() -> ClientConfig {
    let mut config = ClientConfig::new(BASE, KEY);
    config.jitter_seed = Some(7);
    config
}

pub fn client(fake: &Fake, config: ClientConfig) -> Client<Fake> {
    Client::with_transport(config, fake.clone()).expect("client")
}
