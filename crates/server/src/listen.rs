//! The connection loop. `axum::serve` installs no timer,
//! so hyper's header-read timeout never fired, and it has no idle timeout,
//! write deadline, connection caps or shutdown deadline; this loop serves
//! the same router with hyper's HTTP/1 builder and all of them, a kept
//! answer by the front service before it (`front`).
//!
//! HTTP/1 only: the service is plain HTTP/1.1 behind whatever terminates
//! TLS, and HTTP/2 would need its own set of limits.

use crate::front::{self, Front, Served};
use axum::Router;
use axum::http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::cell::RefCell;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// Largest request head (request line and headers) read; above it hyper
/// answers 431 and closes the connection.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What hyper's buffers hold at most (its `max_buf_size`): the answer's
/// head and body pieces queued for one `writev`, and requests read ahead.
/// Large enough that a page of 25 markets (55 KB) leaves with its head in
/// one system call; at 16 KiB (the head's bound, once used for both) it
/// took four, and the kernel ran the loopback's TCP path four times
/// (docs/benchmarks.md, "Answers at the speed of a static file server").
pub const BUFFER_BYTES: usize = 128 * 1024;

/// What bounds connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Time to send a request's head; hyper also runs it while an idle
    /// keep-alive connection waits for its next request.
    pub header_read_timeout: Duration,
    /// Time without a byte in either direction.
    pub idle_timeout: Duration,
    /// Time one answer may take to write, from its first byte to its last,
    /// however steadily the client reads: the idle timer alone is reset by
    /// every byte, so a client reading a byte a second could hold a
    /// multi-MB answer (and its in-flight slot) for hours.
    pub write_timeout: Duration,
    /// Open connections at most.
    pub max_connections: usize,
    /// Open connections from one client address at most, so one client
    /// cannot take every connection slot.
    pub max_connections_per_address: usize,
    /// Time requests in progress get to finish at shutdown.
    pub shutdown_grace: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes, then stops
/// accepting, lets requests in progress finish (idle connections close at
/// once) and returns after at most `limits.shutdown_grace`.
pub async fn serve(
    listener: TcpListener,
    app: impl Into<Served>,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    accept(listener, app, limits, &Caps::new(&limits), shutdown).await;
    Ok(())
}

/// The connection caps of one server (`max_connections`,
/// `max_connections_per_address`), shared by all its accept loops
/// (`runtimes`), so they count connections in total, whichever loop
/// accepted them.
#[derive(Clone)]
pub struct Caps {
    slots: Arc<Semaphore>,
    per_address: Arc<PerAddress>,
}

impl Caps {
    pub fn new(limits: &ConnectionLimits) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(limits.max_connections)),
            per_address: Arc::new(PerAddress::default()),
        }
    }
}

/// `serve`'s loop, its connections counted against `caps`: serves each
/// connection it accepts on the runtime it runs on. Returns how many
/// connections it served.
pub async fn accept(
    listener: TcpListener,
    app: impl Into<Served>,
    limits: ConnectionLimits,
    caps: &Caps,
    shutdown: impl Future<Output = ()>,
) -> u64 {
    // Every handler made a route once, here, rather than per request: a
    // `Router<()>` called as a service keeps a handler given no state as
    // a boxed handler and turns it into a route (its layers applied anew:
    // the CORS layer cloned, the stack's boxes built) on every request;
    // `with_state` does it once (as `axum::serve`'s `into_make_service`
    // does). The proxy's operations are such handlers
    // (docs/benchmarks.md, "Fifth round: the user-space path").
    let Served { router, front } = app.into();
    let router = router.with_state(());
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(MAX_HEAD_BYTES)
        .max_buf_size(BUFFER_BYTES)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    let mut served = 0;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait rather
                    // than spin; connections in progress go on.
                    if !is_per_connection(&error) {
                        tracing::warn!(%error, "accept failed");
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // At the cap the connection is closed at once: a client sees a
        // reset and may retry, rather than hanging in the accept queue.
        let Ok(slot) = caps.slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let Some(address_slot) = PerAddress::take(
            &caps.per_address,
            peer.ip(),
            limits.max_connections_per_address,
        ) else {
            drop(stream);
            continue;
        };
        served += 1;
        let _ = stream.set_nodelay(true);
        let streaming = Streaming::default();
        let io = TokioIo::new(
            IdleTimeout::new(stream, limits.idle_timeout)
                .with_write_timeout(limits.write_timeout)
                .with_streaming(streaming.clone()),
        );
        let service = Connection {
            router: router.clone(),
            front: front
                .as_ref()
                .map(|front| (front.clone(), RefCell::new(front.stack()))),
            peer,
            streaming,
        };
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
            drop(address_slot);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(limits.shutdown_grace) => {
            tracing::warn!(
                "requests still in progress after {:.1} s; exiting anyway",
                limits.shutdown_grace.as_secs_f64()
            );
        }
    }
    served
}

/// What one connection serves: a kept answer by the front service
/// (`front`), anything else by the router, with the peer's address (for
/// `ConnectInfo`: public mode's per-address limits) and the connection's
/// streaming mark in its extensions.
struct Connection {
    router: Router,
    /// The front service and its stack, this connection's own (hyper's
    /// service is called through `&self`, one request at a time).
    front: Option<(Arc<Front>, RefCell<front::Stack>)>,
    peer: std::net::SocketAddr,
    streaming: Streaming,
}

impl hyper::service::Service<Request<Incoming>> for Connection {
    type Response = axum::response::Response;
    type Error = Infallible;
    type Future = futures::future::Either<
        front::FrontFuture<<front::Stack as tower::Service<Request<front::Found>>>::Future>,
        tower::util::Oneshot<Router, Request<Incoming>>,
    >;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        let started = std::time::Instant::now();
        if let Some((front, stack)) = &self.front
            && let Some(answer) = front.find(&request)
        {
            let mut stack = stack.borrow_mut();
            // tower's contract: `call` only after `poll_ready` said ready.
            // The stack's layers are ready at once (none waits for room:
            // the in-flight caps refuse instead), but should one ever not
            // be, the request goes to the router, which awaits readiness
            // (`Oneshot`); `find` charged nothing, so nothing is undone.
            if ready_now(&mut *stack) {
                let (found, logged) = front.taken(request, answer, started);
                let answer = tower::Service::call(&mut *stack, found);
                return futures::future::Either::Left(front::FrontFuture::new(answer, logged));
            }
        }
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(self.peer));
        request.extensions_mut().insert(self.streaming.clone());
        futures::future::Either::Right(self.router.clone().oneshot(request))
    }
}

/// Whether `service` is ready for a request now, without waiting: polled
/// once with a waker that wakes nothing, as the caller does not wait (it
/// sends the request elsewhere when not).
fn ready_now<S: tower::Service<R>, R>(service: &mut S) -> bool {
    let mut cx = Context::from_waker(std::task::Waker::noop());
    matches!(service.poll_ready(&mut cx), Poll::Ready(Ok(())))
}

/// Open connections per client address. Behind a load balancer every
/// connection comes from its address: raise the cap there
/// (`--max-connections-per-address`).
#[derive(Default)]
struct PerAddress {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection counted against its address until dropped.
struct AddressSlot {
    table: Arc<PerAddress>,
    ip: IpAddr,
}

impl PerAddress {
    fn take(table: &Arc<Self>, ip: IpAddr, cap: usize) -> Option<AddressSlot> {
        let mut open = table
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            table: table.clone(),
            ip,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self
            .table
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Entries go when their last connection does, so the table holds
        // only addresses with connections open.
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Errors of one accepted connection that say nothing about the listener.
fn is_per_connection(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
    )
}

/// A TCP stream that fails with `TimedOut` once no byte has moved in either
/// direction for `timeout` while hyper waits on it, or once an answer has
/// been written for longer than the write timeout. The timer is re-armed
/// only when it fires, not on every read, so busy connections pay one clock
/// read per I/O call.
pub struct IdleTimeout {
    stream: TcpStream,
    timeout: Duration,
    last_activity: Instant,
    timer: Pin<Box<Sleep>>,
    write_timeout: Option<Duration>,
    /// When the answer being written began: the first write after the
    /// request was read. A read of the next request ends it.
    writing_since: Option<Instant>,
    /// The last write found the socket full: only then does the write
    /// deadline arm the timer (an idle keep-alive connection after its
    /// answer is the header-read timeout's business).
    write_blocked: bool,
    streaming: Streaming,
}

/// Set on a connection whose answer is a stream of events (`stream::open`),
/// which changes what its write deadline measures (`IdleTimeout::wrote`).
/// A request extension, shared with the connection's `IdleTimeout`.
#[derive(Debug, Clone, Default)]
pub struct Streaming(Arc<AtomicBool>);

impl Streaming {
    pub fn mark(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn is_marked(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl IdleTimeout {
    pub fn new(stream: TcpStream, timeout: Duration) -> Self {
        let now = Instant::now();
        Self {
            stream,
            timeout,
            last_activity: now,
            timer: Box::pin(tokio::time::sleep_until(now + timeout)),
            write_timeout: None,
            writing_since: None,
            write_blocked: false,
            streaming: Streaming::default(),
        }
    }

    /// Also fails once one answer has been written for `timeout`.
    pub fn with_write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = Some(timeout);
        self
    }

    fn touch(&mut self) {
        self.last_activity = Instant::now();
    }

    /// A write went through. On a stream of events the answer's clock
    /// starts again: it never ends, so only a socket that stays full for
    /// the write timeout (a client that stopped reading) closes it.
    fn wrote(&mut self) {
        self.touch();
        self.write_blocked = false;
        if self.streaming.is_marked() {
            self.writing_since = None;
        }
    }

    /// The connection's mark, set by a handler that answers with a stream.
    pub fn with_streaming(mut self, streaming: Streaming) -> Self {
        self.streaming = streaming;
        self
    }

    /// When the answer being written must be done by.
    fn write_deadline(&self) -> Option<Instant> {
        Some(self.writing_since? + self.write_timeout?)
    }

    /// Called before each write: starts the answer's clock, and fails once
    /// the answer is past its deadline even if the client still reads.
    fn start_write(&mut self) -> Result<(), io::Error> {
        let now = Instant::now();
        if self.writing_since.is_none() {
            self.writing_since = Some(now);
        }
        match self.write_deadline() {
            Some(deadline) if now >= deadline => Err(write_timed_out()),
            _ => Ok(()),
        }
    }

    /// Called when the stream is not ready: `Ready(Err)` once idle too long.
    fn poll_idle(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        // The timer was set for the idle deadline; an answer's deadline may
        // come first.
        if let Some(write) = self.write_deadline().filter(|_| self.write_blocked)
            && write < self.timer.deadline()
        {
            self.timer.as_mut().reset(write);
        }
        loop {
            if self.timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            let idle = self.last_activity + self.timeout;
            let now = Instant::now();
            if now >= idle {
                return Poll::Ready(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "connection idle for too long",
                ));
            }
            let deadline = match self.write_deadline().filter(|_| self.write_blocked) {
                Some(write) if now >= write => return Poll::Ready(write_timed_out()),
                Some(write) => write.min(idle),
                None => idle,
            };
            self.timer.as_mut().reset(deadline);
        }
    }
}

fn write_timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "answer written for too long")
}

impl AsyncRead for IdleTimeout {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.touch();
                if buf.filled().len() > before {
                    // The next request: the answer before it is done.
                    this.writing_since = None;
                }
                Poll::Ready(result)
            }
            Poll::Pending => this.poll_idle(cx).map(Err),
        }
    }
}

impl AsyncWrite for IdleTimeout {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Err(error) = this.start_write() {
            return Poll::Ready(Err(error));
        }
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(result) => {
                this.wrote();
                Poll::Ready(result)
            }
            Poll::Pending => {
                this.write_blocked = true;
                this.poll_idle(cx).map(Err)
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Err(error) = this.start_write() {
            return Poll::Ready(Err(error));
        }
        match Pin::new(&mut this.stream).poll_write_vectored(cx, bufs) {
            Poll::Ready(result) => {
                this.wrote();
                Poll::Ready(result)
            }
            Poll::Pending => {
                this.write_blocked = true;
                this.poll_idle(cx).map(Err)
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A service ready or not as told, counting its calls.
    struct Gate {
        open: bool,
        calls: usize,
    }

    impl tower::Service<()> for Gate {
        type Response = ();
        type Error = Infallible;
        type Future = std::future::Ready<Result<(), Infallible>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            if self.open {
                Poll::Ready(Ok(()))
            } else {
                Poll::Pending
            }
        }

        fn call(&mut self, (): ()) -> Self::Future {
            self.calls += 1;
            std::future::ready(Ok(()))
        }
    }

    #[test]
    fn a_service_not_ready_is_not_called() {
        let mut gate = Gate {
            open: false,
            calls: 0,
        };
        assert!(!ready_now(&mut gate));
        gate.open = true;
        assert!(ready_now(&mut gate));
        assert_eq!(gate.calls, 0, "polling for readiness calls nothing");
    }
}
