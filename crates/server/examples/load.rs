//! A small load generator: a bounded number of keep-alive HTTP/1.1 GETs
//! over loopback, from a fixed number of connections, reporting requests per
//! second and latency percentiles.
//!
//! Against a running server (recommended: the server and this tool then
//! compete for the cores as they would in production):
//!
//! ```text
//! cargo run --release -p predmarket-server -- --api-key bench:unlimited --quiet &
//! cargo run --release -p predmarket-server --example load -- \
//!     --url http://127.0.0.1:8787 --key bench --requests 200000 --connections 32
//! ```
//!
//! Without `--url` it starts the server in-process on an ephemeral port.
//! Only loopback addresses are accepted, and every run stops by itself.

use clap::Parser;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

// The server binary's allocator (src/main.rs), so the in-process server
// runs as the binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
struct Args {
    /// Base URL of a running server (loopback only); default: in-process.
    #[arg(long)]
    url: Option<String>,
    /// API key (with an unlimited budget: `--api-key KEY:unlimited`).
    #[arg(long, default_value = "bench")]
    key: String,
    /// Path and query to request.
    #[arg(long, default_value = "/markets?limit=25")]
    path: String,
    /// Total number of requests.
    #[arg(long, default_value_t = 100_000)]
    requests: u64,
    /// Concurrent keep-alive connections.
    #[arg(long, default_value_t = 32)]
    connections: usize,
    /// Requests sent first and not measured.
    #[arg(long, default_value_t = 2_000)]
    warmup: u64,
    /// Scale of the in-process server's data.
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
    /// `Accept-Encoding` to send (none by default: an identity client).
    #[arg(long)]
    accept_encoding: Option<String>,
    /// Writes every measured request to this file, one line each: when it
    /// was sent (µs since the run began), its latency (µs) and its
    /// connection, so the slow ones can be placed in time
    /// (`bench/tail_times.py`).
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
}

fn main() {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("runtime: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = runtime.block_on(run(args)) {
        eprintln!("load: {e}");
        std::process::exit(1);
    }
}

async fn run(args: Args) -> Result<(), String> {
    let addr = match &args.url {
        Some(url) => {
            let host = url
                .trim_start_matches("http://")
                .trim_end_matches('/')
                .to_owned();
            let addr: SocketAddr = host.parse().map_err(|e| format!("{host}: {e}"))?;
            if !addr.ip().is_loopback() {
                return Err("only loopback addresses are load-tested".into());
            }
            addr
        }
        None => start_in_process(&args).await?,
    };
    let accept_encoding = args
        .accept_encoding
        .as_ref()
        .map(|coding| format!("Accept-Encoding: {coding}\r\n"))
        .unwrap_or_default();
    let request = Arc::new(
        format!(
            "GET {} HTTP/1.1\r\nHost: {addr}\r\nX-API-Key: {}\r\nAccept: application/json\r\n{accept_encoding}\r\n",
            args.path, args.key
        )
        .into_bytes(),
    );
    // Warm-up: connections, caches, the allocator.
    drive(addr, &request, args.warmup, args.connections).await?;
    let started = Instant::now();
    let began_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_micros());
    let sent = drive(addr, &request, args.requests, args.connections).await?;
    let elapsed = started.elapsed();
    if let Some(path) = &args.trace {
        write_trace(path, began_unix, &sent).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut latencies: Vec<u64> = sent.iter().map(|request| request.latency_us).collect();
    latencies.sort_unstable();
    let pct = |p: f64| {
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        Duration::from_micros(latencies.get(i).copied().unwrap_or(0))
    };
    println!(
        "{} requests of GET {} over {} connections in {:.2} s: {:.0} req/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        args.path,
        args.connections,
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0,
        pct(1.0).as_secs_f64() * 1000.0,
    );
    Ok(())
}

async fn start_in_process(args: &Args) -> Result<SocketAddr, String> {
    let mut config =
        predmarket_server::config::Config::for_tests(&format!("{}:unlimited", args.key));
    config.scale = args.scale;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let app = predmarket_server::app(&config);
    // The server's own connection loop (timeouts, connection cap), as the
    // binary runs it.
    let limits = config.connection_limits();
    tokio::spawn(predmarket_server::listen::serve(
        listener,
        app,
        limits,
        std::future::pending(),
    ));
    Ok(addr)
}

/// One request sent: when (µs after `drive` began), how long its answer
/// took (µs), on which connection.
struct Sent {
    at_us: u64,
    latency_us: u64,
    connection: usize,
}

/// Sends `total` requests over `connections` connections.
async fn drive(
    addr: SocketAddr,
    request: &Arc<Vec<u8>>,
    total: u64,
    connections: usize,
) -> Result<Vec<Sent>, String> {
    let next = Arc::new(AtomicU64::new(0));
    let began = Instant::now();
    let mut tasks = Vec::with_capacity(connections);
    for connection in 0..connections.max(1) {
        let next = next.clone();
        let request = request.clone();
        tasks.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
            stream.set_nodelay(true).map_err(|e| e.to_string())?;
            let mut buffer = Vec::with_capacity(64 * 1024);
            let mut sent = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let at = Instant::now();
                stream
                    .write_all(&request)
                    .await
                    .map_err(|e| e.to_string())?;
                read_response(&mut stream, &mut buffer).await?;
                sent.push(Sent {
                    at_us: at.duration_since(began).as_micros() as u64,
                    latency_us: at.elapsed().as_micros() as u64,
                    connection,
                });
            }
            Ok::<_, String>(sent)
        }));
    }
    let mut all = Vec::with_capacity(total as usize);
    for task in tasks {
        all.extend(task.await.map_err(|e| e.to_string())??);
    }
    Ok(all)
}

/// `sent` as lines of `at_us latency_us connection`, in the order sent,
/// after a line `# began_unix_us N` (the wall clock at `at_us` 0, to line
/// the trace up with logs and `perf` records).
fn write_trace(path: &std::path::Path, began_unix_us: u128, sent: &[Sent]) -> std::io::Result<()> {
    use std::io::Write;
    let mut ordered: Vec<&Sent> = sent.iter().collect();
    ordered.sort_unstable_by_key(|request| request.at_us);
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "# began_unix_us {began_unix_us}")?;
    for request in ordered {
        writeln!(
            out,
            "{} {} {}",
            request.at_us, request.latency_us, request.connection
        )?;
    }
    out.flush()
}

/// Reads one response (headers with Content-Length, then the body); fails
/// on anything but 200. Reads go straight into `buffer`, in large steps:
/// the generator shares the cores with the server it measures, so every
/// copy and system call it saves is left to the server.
async fn read_response(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> Result<(), String> {
    buffer.clear();
    let header_end = loop {
        if let Some(i) = find(buffer, b"\r\n\r\n") {
            break i + 4;
        }
        fill(stream, buffer, READ_STEP).await?;
    };
    let head = &buffer[..header_end];
    if !head.starts_with(b"HTTP/1.1 200") {
        let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
        return Err(format!(
            "unexpected answer: {}",
            String::from_utf8_lossy(line)
        ));
    }
    let length = content_length(head).ok_or("no content-length")?;
    let end = header_end + length;
    while buffer.len() < end {
        fill(stream, buffer, end - buffer.len()).await?;
    }
    Ok(())
}

const READ_STEP: usize = 64 * 1024;

/// Appends what the next read gives (at most `want` bytes) to `buffer`.
async fn fill(stream: &mut TcpStream, buffer: &mut Vec<u8>, want: usize) -> Result<(), String> {
    buffer.reserve(want);
    let mut limited = (&mut *stream).take(want as u64);
    let n = limited.read_buf(buffer).await.map_err(|e| e.to_string())?;
    if n == 0 {
        return Err("connection closed".into());
    }
    Ok(())
}

/// The `Content-Length` of a response head (names are case-insensitive).
fn content_length(head: &[u8]) -> Option<usize> {
    head.split(|&b| b == b'\n').find_map(|line| {
        let (name, value) = line.split_at_checked(b"content-length:".len())?;
        if !name.eq_ignore_ascii_case(b"content-length:") {
            return None;
        }
        std::str::from_utf8(value).ok()?.trim().parse().ok()
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}
