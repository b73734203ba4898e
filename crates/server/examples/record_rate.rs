//! The recorder's costs: bytes per watched book per day, and rows written
//! per second.
//!
//! First the local server (in-process, generated data) is recorded while
//! `--books` order books are watched at their usual cadence (one poll
//! every 5 s) for `--seconds`; the archive's bytes, scaled to a day, are
//! the bytes per book per day (parts rolled every `--seconds`: a longer
//! roll compresses at least as well). Then the recorded answers are fed
//! to a recorder as fast as it takes them, `--rows` in all: rows per
//! second, parsing and writing included. Last, with `--fault-5xx`, the
//! same books are recorded through a proxy in front of the local server
//! answering that share of requests with a 5xx, for `--seconds`: the
//! archive's gap rate (rows labelled `gap` per row) under injected faults.
//! With `--replay-server PATH` (the built `predmarket-server`), what
//! replay takes in memory: the binary replays the small cadence archive,
//! then the rate archive (`--rows` rows), and the resident memory of each
//! once it listens gives the memory per archive MB (replay reads the
//! whole archive into memory when it starts).
//!
//! ```text
//! cargo run --release -p predmarket-server --example record_rate -- --books 20 --seconds 60 --rows 100000 --fault-5xx 0.1
//! ```
//!
//! Loopback only; the archives go to a temporary directory, removed after.

use clap::Parser;
use predmarket_core::change::WatchKind;
use predmarket_core::live;
use predmarket_server::config::Config;
use predmarket_server::record::archive::{self, Filter};
use predmarket_server::record::layout;
use predmarket_server::record::{Recorder, writer};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
struct Args {
    /// Order books watched.
    #[arg(long, default_value_t = 20)]
    books: usize,
    /// How long they are recorded at their usual cadence.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Rows fed to the recorder for its rate.
    #[arg(long, default_value_t = 100_000)]
    rows: usize,
    /// The share of the upstream's answers that are 5xx in the last phase
    /// (0: no such phase).
    #[arg(long, default_value_t = 0.0)]
    fault_5xx: f64,
    /// The predmarket-server binary whose `--replay` is measured (none:
    /// no such phase).
    #[arg(long)]
    replay_server: Option<String>,
}

const KEY: &str = "record-rate";

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let root = std::env::temp_dir().join(format!("pm-record-rate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("cadence");
    let mut config = Config::for_tests(&format!("{KEY}:unlimited"));
    config.record.dir = Some(dir.clone());
    config.record.roll_secs = args.seconds as f64;
    config.stream.max_resources_per_stream = args.books.max(1);
    let recorder = Recorder::start(
        config.record.settings().ok_or("no settings")?,
        config.stream.interval_scale,
    )
    .map_err(|e| e.to_string())?;
    let data = std::sync::Arc::new(predmarket_server::data::Dataset::generate(
        &config.data_options(),
    ));
    let app = predmarket_server::app_with_recorder(&config, data, Some(&recorder));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let base = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let client = reqwest::Client::new();
    let markets: serde_json::Value = client
        .get(format!(
            "{base}/markets?status=open&limit=100&platform=platform_a"
        ))
        .header("X-API-Key", KEY)
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let ids: Vec<String> = markets["markets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["id"].as_str().map(str::to_owned))
        .take(args.books)
        .collect();
    let mut query = form_urlencoded::Serializer::new(String::new());
    for id in &ids {
        query.append_pair(live::WATCH_PARAM, &format!("orderbook:{id}"));
    }
    let stream = client
        .get(format!("{base}{}?{}", live::PATH, query.finish()))
        .header("X-API-Key", KEY)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    eprintln!("recording {} books for {} s", ids.len(), args.seconds);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    drop(stream);
    if !recorder.flush(Duration::from_secs(60)) {
        return Err("the writer did not flush".into());
    }
    server.abort();
    let bytes: u64 = layout::parts(&dir).iter().map(|p| p.bytes).sum();
    let rows = archive::read(&dir, &Filter::default(), usize::MAX).map_err(|e| e.to_string())?;
    let per_day = bytes as f64 / ids.len().max(1) as f64 * 86_400.0 / args.seconds as f64;
    println!(
        "cadence: {} rows of {} books in {} s, {} B on disk ({:.0} B per row): {:.1} MB per book per day",
        rows.len(),
        ids.len(),
        args.seconds,
        bytes,
        bytes as f64 / rows.len().max(1) as f64,
        per_day / 1e6
    );

    // The rate: the answers just recorded, fed again as fast as taken.
    let answers: Vec<(String, serde_json::Value)> = rows
        .iter()
        .filter_map(|r| Some((r.row.id.clone(), serde_json::from_str(&r.row.answer).ok()?)))
        .collect();
    if answers.is_empty() {
        return Err("nothing was recorded".into());
    }
    let fast = Recorder::start(
        writer::Settings {
            dir: root.join("rate"),
            max_bytes: None,
            part_bytes: 32 * 1024 * 1024,
            roll: Duration::from_secs(3_600),
            pause: Duration::from_secs(60),
            store: None,
        },
        1.0,
    )
    .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut at = 1_800_000_000_000i64;
    for n in 0..args.rows {
        let (id, body) = &answers[n % answers.len()];
        at += 1;
        fast.answered(WatchKind::Orderbook, id, at, 0, body.clone());
        // The queue holds 4,096: drained before it fills, so none is lost.
        if n % 4_000 == 3_999 {
            fast.flush(Duration::from_secs(600));
        }
    }
    fast.flush(Duration::from_secs(600));
    let took = started.elapsed().as_secs_f64();
    let written = fast
        .stats
        .rows_written
        .load(std::sync::atomic::Ordering::Relaxed);
    let lost = fast
        .stats
        .rows_lost
        .load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "rate: {written} rows written ({lost} lost) in {took:.2} s: {:.0} rows/s",
        written as f64 / took
    );
    if let Some(server) = &args.replay_server {
        let small = replay_rss(server, &dir)?;
        let big = replay_rss(server, &root.join("rate"))?;
        let rows = big.rows.saturating_sub(small.rows).max(1) as f64;
        let held = (big.rss_mib - small.rss_mib) * 1_048_576.0;
        println!(
            "replay: {} rows ({:.2} MB) held in {:.1} MiB; {} rows ({:.2} MB on disk, {:.1} MB of answers) \
             in {:.1} MiB: {:.0} B per row for answers of {:.0} B, {:.1} MiB per archive MB",
            small.rows,
            small.mb,
            small.rss_mib,
            big.rows,
            big.mb,
            big.answer_mb,
            big.rss_mib,
            held / rows,
            (big.answer_mb - small.answer_mb) * 1e6 / rows,
            (big.rss_mib - small.rss_mib) / (big.mb - small.mb).max(f64::EPSILON),
        );
    }
    if args.fault_5xx > 0.0 {
        faults(&args, &ids, &root.join("faults")).await?;
    }
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}

/// What `server --replay dir` holds once it listens.
struct Replayed {
    rows: usize,
    /// The archive on disk.
    mb: f64,
    /// The rows' answers, as text.
    answer_mb: f64,
    rss_mib: f64,
}

/// `server --replay dir`'s resident memory once it listens, with the
/// archive's rows and sizes.
fn replay_rss(server: &str, dir: &std::path::Path) -> Result<Replayed, String> {
    use std::io::BufRead;
    let read = archive::read(dir, &Filter::default(), usize::MAX).map_err(|e| e.to_string())?;
    let rows = read.len();
    let answer_mb = read.iter().map(|r| r.row.answer.len()).sum::<usize>() as f64 / 1e6;
    drop(read);
    let mb = layout::parts(dir).iter().map(|p| p.bytes).sum::<u64>() as f64 / 1e6;
    let mut child = std::process::Command::new(server)
        .args(["--addr", "127.0.0.1:0", "--replay"])
        .arg(dir)
        .env_clear()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{server}: {e}"))?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    let listening = std::io::BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .any(|line| line.contains("listening on"));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
    let _ = child.kill();
    let _ = child.wait();
    if !listening {
        return Err(format!(
            "{server} --replay {} never listened",
            dir.display()
        ));
    }
    let kb: f64 = status
        .map_err(|e| e.to_string())?
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or("no VmRSS")?;
    Ok(Replayed {
        rows,
        mb,
        answer_mb,
        rss_mib: kb / 1024.0,
    })
}

/// The books recorded through a proxy whose upstream fails
/// `args.fault_5xx` of its answers: the share of rows that follow a gap.
async fn faults(args: &Args, ids: &[String], dir: &std::path::Path) -> Result<(), String> {
    const UPSTREAM_KEY: &str = "record-rate-upstream";
    let mut upstream = Config::for_tests(&format!("{UPSTREAM_KEY}:unlimited"));
    upstream.fault_5xx = args.fault_5xx;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let upstream_addr = listener.local_addr().map_err(|e| e.to_string())?;
    let app = predmarket_server::app(&upstream);
    let upstream_task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let key_file = std::env::temp_dir().join(format!("pm-record-rate-key-{}", std::process::id()));
    std::fs::write(&key_file, UPSTREAM_KEY).map_err(|e| e.to_string())?;
    let mut config = Config::for_tests(&format!("{KEY}:unlimited"));
    config.proxy.upstream = Some(format!("http://{upstream_addr}"));
    config.proxy.upstream_key_file = Some(key_file.clone());
    config.proxy.upstream_limit = 6_000;
    config.record.dir = Some(dir.to_owned());
    config.stream.max_resources_per_stream = ids.len().max(1);
    let built = predmarket_server::proxy_mode::build(&config).await?;
    let _ = std::fs::remove_file(&key_file);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let base = format!(
        "http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    let router = built.router.clone();
    let proxy_task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    let mut query = form_urlencoded::Serializer::new(String::new());
    for id in ids {
        query.append_pair(live::WATCH_PARAM, &format!("orderbook:{id}"));
    }
    let stream = reqwest::Client::new()
        .get(format!("{base}{}?{}", live::PATH, query.finish()))
        .header("X-API-Key", KEY)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    drop(stream);
    let recorder = built.recorder.clone().ok_or("not recording")?;
    if !recorder.flush(Duration::from_secs(60)) {
        return Err("the writer did not flush".into());
    }
    proxy_task.abort();
    upstream_task.abort();
    let rows = archive::read(dir, &Filter::default(), usize::MAX).map_err(|e| e.to_string())?;
    let gaps = rows
        .iter()
        .filter(|r| {
            matches!(
                r.row.continuity,
                predmarket_server::record::continuity::Continuity::Gap(_)
            )
        })
        .count();
    println!(
        "faults: {} of the upstream's answers 5xx, {} rows of {} books in {} s, {gaps} gap rows: {:.1} % of rows follow a gap",
        args.fault_5xx,
        rows.len(),
        ids.len(),
        args.seconds,
        gaps as f64 * 100.0 / rows.len().max(1) as f64
    );
    Ok(())
}
