//! The connection loop. `axum::serve` installs no timer,
//! so hyper's header-read timeout never fired, and it has no idle timeout,
//! connection cap or shutdown deadline; this loop serves the same router
//! with hyper's HTTP/1 builder and all four.
//!
//! HTTP/1 only: the service is plain HTTP/1.1 behind whatever terminates
//! TLS, and HTTP/2 would need its own set of limits.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// Largest request head (request line and headers) read; above it hyper
/// answers 431 and closes the connection. (hyper's smallest allowed
/// buffer is 8 KiB.)
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What bounds connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Time to send a request's head; hyper also runs it while an idle
    /// keep-alive connection waits for its next request.
    pub header_read_timeout: Duration,
    /// Time without a byte in either direction.
    pub idle_timeout: Duration,
    /// Open connections at most.
    pub max_connections: usize,
    /// Time requests in progress get to finish at shutdown.
    pub shutdown_grace: Duration,
}

impl ConnectionLimits {
    pub fn from_config(config: &crate::config::Config) -> Self {
        Self {
            header_read_timeout: Duration::from_secs_f64(config.header_read_timeout_secs),
            idle_timeout: Duration::from_secs_f64(config.idle_timeout_secs),
            max_connections: config.max_connections,
            shutdown_grace: Duration::from_secs_f64(config.shutdown_grace_secs),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then stops
/// accepting, lets requests in progress finish (idle connections close at
/// once) and returns after at most `limits.shutdown_grace`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(true);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
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
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(IdleTimeout::new(stream, limits.idle_timeout));
        // The peer's address, for `ConnectInfo` (public mode's per-address
        // limits).
        let service = TowerToHyperService::new(app.clone().map_request(
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                request
            },
        ));
        let connection = graceful.watch(http.serve_connection(io, service.clone()));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
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
    Ok(())
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
/// direction for `timeout` while hyper waits on it. The timer is re-armed
/// only when it fires, not on every read, so busy connections pay one clock
/// read per I/O call.
pub struct IdleTimeout {
    stream: TcpStream,
    timeout: Duration,
    last_activity: Instant,
    timer: Pin<Box<Sleep>>,
}

impl IdleTimeout {
    pub fn new(stream: TcpStream, timeout: Duration) -> Self {
        let now = Instant::now();
        Self {
            stream,
            timeout,
            last_activity: now,
            timer: Box::pin(tokio::time::sleep_until(now + timeout)),
        }
    }

    fn touch(&mut self) {
        self.last_activity = Instant::now();
    }

    /// Called when the stream is not ready: `Ready(Err)` once idle too long.
    fn poll_idle(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        loop {
            if self.timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            let deadline = self.last_activity + self.timeout;
            if Instant::now() >= deadline {
                return Poll::Ready(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "connection idle for too long",
                ));
            }
            self.timer.as_mut().reset(deadline);
        }
    }
}

impl AsyncRead for IdleTimeout {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.touch();
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
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(result) => {
                this.touch();
                Poll::Ready(result)
            }
            Poll::Pending => this.poll_idle(cx).map(Err),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.stream).poll_write_vectored(cx, bufs) {
            Poll::Ready(result) => {
                this.touch();
                Poll::Ready(result)
            }
            Poll::Pending => this.poll_idle(cx).map(Err),
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
