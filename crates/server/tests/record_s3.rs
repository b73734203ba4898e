//! The recorder against an S3-compatible server: moto's (`moto_server`,
//! PyPI `moto[server]`), started on a loopback port. Every part the
//! recorder writes is put under its hive path in the bucket, byte for
//! byte. Without `moto_server` the test says SKIPPED and passes, unless
//! `PREDMARKET_REQUIRE_MOTO` (or `CI`) is set: then it fails.
//! `PREDMARKET_MOTO_SERVER` names the program (default: `moto_server` on
//! the PATH).

mod common;
#[path = "common/recording.rs"]
mod recording;

use futures::TryStreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt};
use predmarket_server::record::layout;
use recording::*;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Set (to anything but `0`) to make a missing moto a failure.
const REQUIRE: &str = "PREDMARKET_REQUIRE_MOTO";
const BUCKET: &str = "predmarket-archive";

fn required() -> bool {
    ["CI", REQUIRE]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0"))
}

/// moto's server, stopped (by its own pid) when dropped.
struct Moto {
    child: Child,
    endpoint: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts moto on a free loopback port; `None` when it is not installed
/// and not required.
async fn moto() -> Option<Moto> {
    let program =
        std::env::var("PREDMARKET_MOTO_SERVER").unwrap_or_else(|_| "moto_server".to_owned());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = match Command::new(&program)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(error) if required() => panic!(
            "{program} cannot be started ({error}), and {REQUIRE} or CI is set: \
             the recorder's S3 backend must be tested here (pip install 'moto[server]')"
        ),
        Err(_) => {
            eprintln!(
                "\n!!!!! SKIPPED: {program} is not installed, so the recorder's S3 backend is NOT \
                 tested; pip install 'moto[server]' (or set PREDMARKET_MOTO_SERVER) !!!!!\n"
            );
            return None;
        }
    };
    let mut moto = Moto {
        child,
        endpoint: format!("http://127.0.0.1:{port}"),
    };
    let client = reqwest::Client::new();
    let started = Instant::now();
    while client.get(&moto.endpoint).send().await.is_err() {
        // A launcher that finds no moto behind it (a pyenv shim) exits.
        if let Ok(Some(status)) = moto.child.try_wait() {
            assert!(
                !required(),
                "{program} exited ({status}), and {REQUIRE} or CI is set: \
                 the recorder's S3 backend must be tested here"
            );
            eprintln!(
                "\n!!!!! SKIPPED: {program} exited ({status}), so the recorder's S3 backend is \
                 NOT tested; pip install 'moto[server]' !!!!!\n"
            );
            return None;
        }
        assert!(
            started.elapsed() < CEILING,
            "moto did not answer within {CEILING:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Some(moto)
}

#[tokio::test]
async fn every_part_is_put_in_an_s3_bucket_under_its_hive_path() {
    let Some(moto) = moto().await else {
        return;
    };
    let created = reqwest::Client::new()
        .put(format!("{}/{BUCKET}", moto.endpoint))
        .send()
        .await
        .expect("moto answers");
    assert!(created.status().is_success(), "{}", created.status());
    let dir = archive_dir("s3");
    // The endpoint, its plain HTTP and moto's made-up credentials in the
    // URL's query (real credentials come from AWS_*, never a URL).
    let url = format!(
        "s3://{BUCKET}/archive?endpoint={}&allow_http=true&region=us-east-1\
         &access_key_id=moto&secret_access_key=moto",
        moto.endpoint
    );
    let recorder = storing_recorder(&dir, url);
    record_three_days(&recorder);
    assert_eq!(recorder.stats.store_errors.load(Ordering::Relaxed), 0);
    assert_eq!(recorder.stats.parts_stored.load(Ordering::Relaxed), 3);

    // Read back as any S3 client would.
    let bucket = AmazonS3Builder::new()
        .with_bucket_name(BUCKET)
        .with_endpoint(&moto.endpoint)
        .with_allow_http(true)
        .with_access_key_id("moto")
        .with_secret_access_key("moto")
        .with_region("us-east-1")
        .build()
        .expect("a client");
    let mut listed: Vec<String> = bucket
        .list(Some(&StorePath::from("archive")))
        .map_ok(|meta| meta.location.to_string())
        .try_collect()
        .await
        .expect("lists");
    listed.sort();
    let local = layout::parts(&dir);
    let mut expected: Vec<String> = local
        .iter()
        .map(|part| {
            let relative = part.path.strip_prefix(&dir).expect("under the archive");
            format!("archive/{}", relative.to_string_lossy())
        })
        .collect();
    expected.sort();
    assert_eq!(listed, expected);
    for part in &local {
        let relative = part.path.strip_prefix(&dir).expect("under the archive");
        let key = StorePath::from(format!("archive/{}", relative.to_string_lossy()));
        let copy = bucket
            .get(&key)
            .await
            .expect("gets")
            .bytes()
            .await
            .expect("reads");
        assert_eq!(
            copy.as_ref(),
            std::fs::read(&part.path).expect("reads").as_slice(),
            "{key}"
        );
    }
    drop(recorder);
    drop(moto);
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}
