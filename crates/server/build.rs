//! Whether the Redis tests (a real `redis-server` on a free loopback port,
//! tests/common/redis.rs) can run where this is built. Where
//! `redis-server` is not installed, it sets `cfg(redis_missing)`, under
//! which those tests are `#[ignore]`d with their reason, so a plain
//! `cargo test` reports them as ignored instead of passing them untested.
//! With `CI` set they always run, and fail without it; `cargo xtask test`
//! refuses to run the server's tests without it.
//!
//! Only `CI` is read as a rerun trigger: `PREDMARKET_REQUIRE_REDIS` and
//! PATH differ between xtask's steps and a shell, and each change would
//! rebuild this crate.

use std::env;
use std::path::{Path, PathBuf};

/// Where a package manager puts `redis-server` (Debian's is in
/// /usr/bin); installing it there changes the folder, so this runs again.
const PLACES: [&str; 3] = ["/usr/bin", "/usr/local/bin", "/usr/sbin"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(redis_missing)");
    println!("cargo::rerun-if-env-changed=CI");
    let ci = env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0");
    let mut dirs: Vec<PathBuf> = PLACES.iter().map(PathBuf::from).collect();
    if let Some(path) = env::var_os("PATH") {
        dirs.extend(env::split_paths(&path));
    }
    for dir in PLACES.iter().map(Path::new).filter(|d| d.is_dir()) {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    let found = dirs.iter().any(|d| d.join("redis-server").is_file());
    if !ci && !found {
        println!("cargo::rustc-cfg=redis_missing");
    }
}
