//! HTTP/1.1 written and read by hand over one socket, so that the attack
//! controls every byte it sends and sees every byte of the answer.

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One answer's status and body, over a keep-alive connection.
pub(crate) async fn exchange(
    stream: &mut TcpStream,
    request: &[u8],
) -> Result<(u16, Vec<u8>), String> {
    stream.write_all(request).await.map_err(|e| e.to_string())?;
    read_response(stream).await
}

pub(crate) async fn read_response(stream: &mut TcpStream) -> Result<(u16, Vec<u8>), String> {
    let mut buffer = Vec::with_capacity(16 * 1024);
    let mut chunk = [0u8; 16 * 1024];
    let header_end = loop {
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed".into());
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..header_end]).to_ascii_lowercase();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buffer.len() < header_end + length {
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed mid-body".into());
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    Ok((status, buffer[header_end..header_end + length].to_vec()))
}

pub(crate) fn get(addr: SocketAddr, path: &str, key: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-API-Key: {key}\r\nAccept: application/json\r\n\r\n")
        .into_bytes()
}

/// A keep-alive connection to one address, opened (again) when a request
/// needs it: the loop every client of the attack runs, whose answers
/// decide when the connection is given up ([`KeepAlive::close`]).
pub(crate) struct KeepAlive {
    addr: SocketAddr,
    stream: Option<TcpStream>,
    /// How long a failed connect waits before it says so, so that a
    /// client looping on it does not spin.
    pause: std::time::Duration,
    nodelay: bool,
}

impl KeepAlive {
    pub(crate) fn new(addr: SocketAddr, pause: std::time::Duration) -> Self {
        Self {
            addr,
            stream: None,
            pause,
            nodelay: false,
        }
    }

    /// Connections opened with `TCP_NODELAY` (the good client's).
    pub(crate) fn with_nodelay(mut self) -> Self {
        self.nodelay = true;
        self
    }

    /// The open connection, or a new one; a connect error after `pause`.
    pub(crate) async fn stream(&mut self) -> Result<&mut TcpStream, String> {
        if self.stream.is_none() {
            match TcpStream::connect(self.addr).await {
                Ok(stream) => {
                    if self.nodelay {
                        let _ = stream.set_nodelay(true);
                    }
                    self.stream = Some(stream);
                }
                Err(error) => {
                    tokio::time::sleep(self.pause).await;
                    return Err(error.to_string());
                }
            }
        }
        self.stream
            .as_mut()
            .ok_or_else(|| "no connection".to_owned())
    }

    /// Gives the connection up: the next request opens another.
    pub(crate) fn close(&mut self) {
        self.stream = None;
    }
}
