//! Whether the Redis tests (a real `redis-server` on a free loopback port,
//! tests/common/redis.rs) can run where this is built. Where
//! `redis-server` is not installed and nothing requires it, it sets
//! `cfg(redis_missing)`, under which those tests are `#[ignore]`d with
//! their reason, so a plain `cargo test` reports them as ignored instead
//! of passing them untested. With `CI` or `PREDMARKET_REQUIRE_REDIS` set
//! (`cargo xtask test` sets the latter) they always run, and fail without
//! it.

use std::env;
use std::path::Path;

/// Set (to anything but "0") to make a missing `redis-server` a failure;
/// the tests' own `REQUIRE` (tests/common/redis.rs) names the same.
const REQUIRED_BY: [&str; 2] = ["CI", "PREDMARKET_REQUIRE_REDIS"];
/// Where a package manager puts `redis-server` (Debian's is in
/// /usr/bin). Not PATH: cargo would rebuild this crate whenever PATH
/// differs between two runs, and xtask's differs from a shell's.
const PLACES: [&str; 3] = ["/usr/bin", "/usr/local/bin", "/usr/sbin"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(redis_missing)");
    for name in REQUIRED_BY {
        println!("cargo::rerun-if-env-changed={name}");
    }
    let required = REQUIRED_BY
        .iter()
        .any(|name| env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0"));
    let mut found = false;
    for dir in PLACES.iter().map(Path::new).filter(|d| d.is_dir()) {
        // Installing it changes the folder: this runs again.
        println!("cargo::rerun-if-changed={}", dir.display());
        found |= dir.join("redis-server").is_file();
    }
    if !required && !found {
        println!("cargo::rustc-cfg=redis_missing");
    }
}
