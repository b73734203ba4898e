//! A slow network in front of a TCP server (the slow Redis of scenario
//! 11): every byte arrives `delay` after it was sent, each way, however
//! many are in flight (latency, not a throughput cap: replies pipelined
//! on one connection are not queued behind each other's delay).

use crate::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Listens on loopback and relays each connection to `target` with
/// `delay` each way; its address. Runs until the runtime ends.
pub(crate) async fn slow_link(target: SocketAddr, delay: Duration) -> Result<SocketAddr, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("slow link: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            tokio::spawn(async move {
                let Ok(server) = tokio::net::TcpStream::connect(target).await else {
                    return;
                };
                let (client_read, client_write) = client.into_split();
                let (server_read, server_write) = server.into_split();
                tokio::join!(
                    delayed(client_read, server_write, delay),
                    delayed(server_read, client_write, delay),
                );
            });
        }
    });
    Ok(addr)
}

/// Copies `from` to `to`, each chunk written `delay` after it was read.
async fn delayed(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
) {
    let (queue, mut due) = tokio::sync::mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((at, bytes)) = due.recv().await {
            tokio::time::sleep_until((at + delay).into()).await;
            if to.write_all(&bytes).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if queue.send((Instant::now(), buffer[..n].to_vec())).is_err() {
                    break;
                }
            }
        }
    }
    drop(queue);
    let _ = writer.await;
}
