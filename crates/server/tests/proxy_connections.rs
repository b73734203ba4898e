//! The proxy's connection bounds, over real loopback sockets: the
//! in-flight slot held by a slow reader, the write timeout, the
//! per-address connection cap. The upstream is the small counting fake of
//! `common/fake_upstream.rs`.

use fake_upstream::{CEILING, LARGE, VISITOR, get, proxy, proxy_config, upstream};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[path = "common/fake_upstream.rs"]
mod fake_upstream;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;

/// A client that reads with a tiny receive buffer: the server's answer
/// stays in the server's hands while it does not read.
async fn slow_client(addr: SocketAddr, path: &str) -> (TcpStream, usize, Vec<u8>) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(addr).await.expect("connect");
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nX-API-Key: {VISITOR}\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    // The head, and whatever of the body came with it.
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    let end = loop {
        let n = tokio::time::timeout(CEILING, stream.read(&mut buf))
            .await
            .expect("an answer")
            .expect("read");
        assert!(n > 0, "closed before the head");
        seen.extend_from_slice(&buf[..n]);
        if let Some(at) = memchr::memmem::find(&seen, b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a content-length");
    let body = seen.split_off(end);
    (stream, length, body)
}

/// Until the server answers `/openapi.json` (a slot of `--max-in-flight`
/// is free), at most `CEILING`.
async fn slot_frees(addr: SocketAddr) -> bool {
    tokio::time::timeout(CEILING, async {
        loop {
            if get(addr, "/openapi.json").await.0 == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_holds_its_in_flight_slot_until_its_answer_is_sent() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    config.max_in_flight = 1;
    config.idle_timeout_secs = 3_600.0;
    config.write_timeout_secs = 3_600.0;
    let proxy = proxy(config).await;
    let (reader, length, _) = slow_client(proxy.addr, "/markets").await;
    assert!(length > LARGE);
    // The reader's answer has begun and cannot be sent: its slot is taken.
    let (status, _, body) = get(proxy.addr, "/openapi.json").await;
    assert_eq!(status, 503, "{body:.300}");
    assert!(body.contains("overloaded"), "{body:.300}");
    drop(reader);
    assert!(slot_frees(proxy.addr).await, "the slot stays taken");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_write_timeout_drops_a_reader_that_trickles() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    config.max_in_flight = 1;
    // The idle timer never fires (the reader keeps reading); only the
    // deadline of the whole answer can end it.
    config.idle_timeout_secs = 3_600.0;
    config.write_timeout_secs = 1.0;
    let proxy = proxy(config).await;
    let (mut reader, length, mut body) = slow_client(proxy.addr, "/markets").await;
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let trickle = tokio::spawn(async move {
        // 4 KiB every 50 ms: the 12 MiB would take minutes.
        let mut buf = vec![0u8; 4096];
        while !*stopped.borrow() {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
            tokio::select! {
                _ = stopped.changed() => {}
                () = tokio::time::sleep(Duration::from_millis(50)) => {}
            }
        }
        (reader, body)
    });
    assert!(
        slot_frees(proxy.addr).await,
        "the trickling reader still holds its answer"
    );
    let _ = stop.send(true);
    let (mut reader, mut body) = trickle.await.unwrap();
    // What was sent before the deadline arrives; then the connection ends
    // short of the whole answer.
    let rest = tokio::time::timeout(CEILING, async {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(rest.is_ok(), "the connection stays open");
    assert!(body.len() < length, "{} of {length} bytes", body.len());
}

/// A connection from `from` that has been served one answer (and so was
/// accepted and counted), kept open.
async fn served_connection(addr: SocketAddr, from: [u8; 4]) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback source address");
    let mut stream = socket.connect(addr).await.ok()?;
    stream
        .write_all(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .ok()?;
    let mut head = [0u8; 12];
    match tokio::time::timeout(CEILING, stream.read_exact(&mut head)).await {
        Ok(Ok(_)) if &head == b"HTTP/1.1 200" => Some(stream),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_above_the_per_address_cap_are_closed() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    config.max_connections_per_address = 2;
    config.header_read_timeout_secs = 3_600.0;
    config.idle_timeout_secs = 3_600.0;
    config.write_timeout_secs = 3_600.0;
    let proxy = proxy(config).await;
    let one = [127, 0, 0, 1];
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(served_connection(proxy.addr, one).await.expect("served"));
    }
    // A third from the same address is closed unanswered.
    assert!(served_connection(proxy.addr, one).await.is_none());
    // Another address is served.
    let other = served_connection(proxy.addr, [127, 0, 0, 2]).await;
    assert!(other.is_some(), "a second address is refused too");
    // Once one closes, the first address is served again (asked until the
    // server has seen the close).
    drop(held.pop());
    let served = tokio::time::timeout(CEILING, async {
        loop {
            if let Some(stream) = served_connection(proxy.addr, one).await {
                return stream;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "no connection served after one closed");
}
