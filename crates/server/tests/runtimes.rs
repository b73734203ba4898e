//! The server as its binary runs it: one current-thread runtime per
//! listener, all on one address (`predmarket_server::runtimes`). A key's
//! limits hold however its requests are spread over the runtimes, and so
//! does the cap of connections in total.

mod common;

use predmarket_server::config::Config;
use predmarket_server::runtimes;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// Listeners (and runtimes) each test serves on: more than one, whatever
/// the machine's cores.
const RUNTIMES: usize = 2;

/// Connections opened: enough that each listener gets some (the kernel
/// spreads them by a hash of the client's port; all on one of two
/// listeners has odds of 2^-39).
const CONNECTIONS: usize = 40;

/// A server on `RUNTIMES` runtimes, as `main` starts it (the first
/// runtime current-thread, on a thread of its own here).
struct Served {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    thread: JoinHandle<std::io::Result<Vec<u64>>>,
}

impl Served {
    fn start(config: Config) -> Self {
        let listeners = runtimes::bind(config.addr, RUNTIMES).expect("bind");
        let addr = listeners[0].local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async move {
                let app = predmarket_server::app_with_data(&config, common::default_data());
                let stop = async move {
                    let _ = stopped.await;
                };
                runtimes::serve(listeners, app, config.connection_limits(), stop).await
            })
        });
        Self { addr, stop, thread }
    }

    /// Stops the server; how many connections each listener served.
    fn stop(self) -> Vec<u64> {
        let _ = self.stop.send(());
        self.thread
            .join()
            .expect("server thread")
            .expect("server ran")
    }
}

/// Sends one request of `key` on its own connection and reads the answer's
/// status (or `None`: the connection was closed without one).
fn status_on_new_connection(addr: SocketAddr, key: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).ok()?;
    let request = format!(
        "GET /platforms HTTP/1.1\r\nHost: {addr}\r\nX-API-Key: {key}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let head = String::from_utf8_lossy(&answer[..answer.len().min(32)]).into_owned();
    head.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

#[test]
fn a_keys_rate_limit_holds_across_runtimes() {
    let mut config = common::config();
    config.api_key = vec!["limited:10".into()];
    let server = Served::start(config);
    let statuses: Vec<Option<u16>> = (0..CONNECTIONS)
        .map(|_| status_on_new_connection(server.addr, "limited"))
        .collect();
    let served = server.stop();
    assert_eq!(served.len(), RUNTIMES);
    assert!(
        served.iter().all(|&n| n > 0),
        "every listener served connections: {served:?}"
    );
    assert_eq!(served.iter().sum::<u64>(), CONNECTIONS as u64);
    let ok = statuses.iter().filter(|s| **s == Some(200)).count();
    let limited = statuses.iter().filter(|s| **s == Some(429)).count();
    assert_eq!(
        (ok, limited),
        (10, CONNECTIONS - 10),
        "10 requests a minute, wherever they came in: {statuses:?}"
    );
}

#[test]
fn a_keys_in_flight_cap_holds_across_runtimes() {
    let mut config = common::unlimited();
    config.max_in_flight_per_key = 2;
    // Holds each request's slot long enough that all are in progress at
    // once: the requests are all sent before any answer is read.
    config.latency_ms = 3_000;
    let server = Served::start(config);
    let addr = server.addr;
    let mut streams: Vec<TcpStream> = (0..CONNECTIONS)
        .map(|_| TcpStream::connect(addr).expect("connect"))
        .collect();
    for stream in &mut streams {
        let request = format!(
            "GET /platforms HTTP/1.1\r\nHost: {addr}\r\nX-API-Key: {}\r\nConnection: close\r\n\r\n",
            common::KEY
        );
        stream.write_all(request.as_bytes()).expect("send");
    }
    let statuses: Vec<Option<u16>> = streams
        .into_iter()
        .map(|mut stream| {
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).ok()?;
            let head = String::from_utf8_lossy(&answer[..answer.len().min(32)]).into_owned();
            head.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
        })
        .collect();
    let served = server.stop();
    assert!(
        served.iter().all(|&n| n > 0),
        "every listener served connections: {served:?}"
    );
    let ok = statuses.iter().filter(|s| **s == Some(200)).count();
    let shed = statuses.iter().filter(|s| **s == Some(503)).count();
    assert_eq!(
        (ok, shed),
        (2, CONNECTIONS - 2),
        "2 requests of one key in progress at once, wherever they came in: {statuses:?}"
    );
}

#[test]
fn the_connection_cap_counts_every_runtimes_connections() {
    let mut config = common::unlimited();
    config.max_connections = 5;
    config.max_connections_per_address = 100;
    let server = Served::start(config);
    // Held open (each after one answer), so they count until the end.
    let mut open = Vec::new();
    let mut refused = 0;
    for _ in 0..CONNECTIONS {
        let Ok(mut stream) = TcpStream::connect(server.addr) else {
            refused += 1;
            continue;
        };
        let request = format!(
            "GET /platforms HTTP/1.1\r\nHost: {}\r\nX-API-Key: {}\r\n\r\n",
            server.addr,
            common::KEY
        );
        let mut head = [0u8; 12];
        let answered = stream.write_all(request.as_bytes()).is_ok()
            && stream.read_exact(&mut head).is_ok()
            && head.starts_with(b"HTTP/1.1 200");
        if answered {
            open.push(stream);
        } else {
            refused += 1;
        }
    }
    let served = server.stop();
    assert_eq!(
        (open.len(), refused),
        (5, CONNECTIONS - 5),
        "5 connections in total; per listener: {served:?}"
    );
}
