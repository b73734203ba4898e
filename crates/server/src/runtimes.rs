//! The runtime shape: one current-thread tokio runtime per core, each
//! accepting on a listener of its own bound to the same address
//! (`SO_REUSEPORT`: the kernel spreads new connections among them) and
//! serving the connections it accepts on its own thread, as nginx runs a
//! worker process per core: no work stealing, no wake-ups between
//! workers, a connection's tasks on one thread. Against tokio's
//! multi-thread runtime it served 1.1 – 1.5× the requests in the load
//! bench (docs/benchmarks.md, "Answers at the speed of a static file
//! server").
//!
//! What the runtimes share is held by `Arc` and works from any runtime:
//! per-key limits and semaphores, the in-flight cap, the connection caps
//! (`listen::Caps`: counted in total, not per runtime), the kept middles,
//! the proxy's cache and upstream budget. What runs in the background (the
//! streams' scheduler and pollers, `stream::Hub::start`) runs on the first
//! runtime, the one `serve` is called on, whichever loop the request that
//! started it came in on; the recorder has a thread of its own.

use crate::listen::{self, Caps, ConnectionLimits};
use socket2::{Domain, Protocol, Socket, Type};
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};

/// Connections a listener queues before they are accepted (tokio's and
/// std's choice).
const BACKLOG: i32 = 1024;

/// How many runtimes (and listeners) a server runs: one per core it may
/// use. One where the kernel does not spread a port's connections among
/// its listeners (`SO_REUSEPORT` balances on Linux only).
pub fn count() -> usize {
    if cfg!(target_os = "linux") {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        1
    }
}

/// Binds `count` listeners on `addr` (with port 0, on the port the first
/// was given). Fails with `AddrInUse` when something listens there
/// already: `SO_REUSEPORT` alone would let a second server share the
/// port and silently take half its connections.
pub fn bind(addr: SocketAddr, count: usize) -> io::Result<Vec<std::net::TcpListener>> {
    let shared = count > 1;
    if shared && addr.port() != 0 {
        // Bound without `SO_REUSEPORT`, so it fails if anyone listens;
        // dropped before the real listeners bind.
        drop(socket(addr, false)?);
    }
    let first = listener(addr, shared)?;
    let addr = first.local_addr()?;
    let mut listeners = vec![first];
    for _ in 1..count {
        listeners.push(listener(addr, true)?);
    }
    Ok(listeners)
}

/// Says how many runtimes serve (after the "listening on" line, which
/// scripts read up to its end).
pub fn log(listeners: &[std::net::TcpListener]) {
    tracing::info!(
        "{} runtimes, one listener each (SO_REUSEPORT)",
        listeners.len()
    );
}

fn socket(addr: SocketAddr, reuse_port: bool) -> io::Result<Socket> {
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
    // As tokio's `TcpListener::bind`: a restart need not wait for the last
    // run's connections to leave TIME_WAIT.
    socket.set_reuse_address(true)?;
    #[cfg(target_os = "linux")]
    socket.set_reuse_port(reuse_port)?;
    #[cfg(not(target_os = "linux"))]
    let _ = reuse_port;
    socket.bind(&addr.into())?;
    Ok(socket)
}

fn listener(addr: SocketAddr, reuse_port: bool) -> io::Result<std::net::TcpListener> {
    let socket = socket(addr, reuse_port)?;
    socket.listen(BACKLOG)?;
    socket.set_nonblocking(true)?;
    Ok(socket.into())
}

/// Serves `app` on `listeners` until `shutdown` completes: the first on
/// the runtime this is called on, each other on a current-thread runtime
/// of its own thread. Then every loop stops accepting and lets its
/// requests in progress finish (`listen::accept`), all within one
/// `limits.shutdown_grace`. Returns how many connections each listener
/// served, in order.
pub async fn serve(
    listeners: Vec<std::net::TcpListener>,
    app: impl Into<crate::front::Served>,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<Vec<u64>> {
    let app: crate::front::Served = app.into();
    let caps = Caps::new(&limits);
    // Dropped (on return, or on an early error) as well as sent: either
    // stops the other loops, and either lets their runtimes end.
    let (stop, stopped) = watch::channel(false);
    let (release, released) = watch::channel(false);
    let mut listeners = listeners.into_iter();
    let first = listeners
        .next()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no listener to serve"))?;
    let mut others = Vec::new();
    for (index, listener) in listeners.enumerate() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (done, served) = oneshot::channel();
        let (app, caps, mut stopped, mut released) =
            (app.clone(), caps.clone(), stopped.clone(), released.clone());
        std::thread::Builder::new()
            .name(format!("predmarket-worker-{}", index + 1))
            .spawn(move || {
                runtime.block_on(async move {
                    let outcome = match TcpListener::from_std(listener) {
                        Ok(listener) => {
                            let stop = async move {
                                let _ = stopped.wait_for(|stop| *stop).await;
                            };
                            Ok(listen::accept(listener, app, limits, &caps, stop).await)
                        }
                        Err(error) => {
                            // The listener is closed (dropped), so the
                            // kernel routes no connection to it.
                            tracing::error!(%error, "a worker runtime could not take its listener");
                            Err(error)
                        }
                    };
                    let _ = done.send(outcome);
                    // Kept running until every loop is done: a task this
                    // runtime holds (a pooled upstream connection, a
                    // flight of the proxy) may serve another loop's
                    // request still in its grace.
                    let _ = released.wait_for(|release| *release).await;
                });
            })?;
        others.push(served);
    }
    let first = TcpListener::from_std(first)?;
    let stop_all = async move {
        shutdown.await;
        let _ = stop.send(true);
    };
    let mut counts = vec![listen::accept(first, app, limits, &caps, stop_all).await];
    for served in others {
        let served = served
            .await
            .map_err(|_| io::Error::other("a worker runtime ended before its loop"))??;
        counts.push(served);
    }
    let _ = release.send(true);
    Ok(counts)
}
