//! The build of the npm package (the demo's is `web_build`): one cargo run
//! per wasm module, then each entry's files, each part in a file of its
//! own under `build/`:
//!
//! - `client_entry`: the main entry (`predmarket`): the client's glue and
//!   wasm, its declarations and hand-written JS;
//! - `venues`: the `predmarket/venues` entry, its matcher's wasm;
//! - `fees`: that entry's fee wasm;
//! - `inline`: a wasm inlined, compressed, into an ES module, and the one
//!   decoder those modules share;
//! - `commonjs`: an entry's CommonJS copy;
//! - `declarations`: what the glue's declarations become in the package;
//! - `package_json`: the package's `package.json`.
//!
//! `predmarket/math` and the watch streams' wasm are `math_entry` and
//! `watch_entry`.

mod client_entry;
mod commonjs;
mod declarations;
mod fees;
mod inline;
mod package_json;
mod venues;

pub(crate) use client_entry::{WASM, glue_types_file, js_dir, npm_cargo_wasm};
pub(crate) use commonjs::commonjs;
pub(crate) use declarations::{exported_values, public_types};
pub(crate) use fees::{VENUES_FEES_WASM, venues_fees_cargo_wasm};
pub(crate) use inline::write_inline_module;
pub(crate) use venues::{VENUES_WASM, venues_cargo_wasm};

use crate::util::{Result, built_from, cmd, exec, inputs_hash, root, stamp, target_dir};
use crate::{math_entry, watch_entry};
use std::fs;
use std::path::{Path, PathBuf};

pub const WASM_PROFILE: &str = "wasm-release";
/// The venues entry's profile: `wasm-release` at `opt-level = 3`, since
/// its wasm matches thousands of markets at once and is its own download.
pub const VENUES_PROFILE: &str = "venues-release";

/// The npm package's wasm is built with this nightly, which rebuilds the
/// standard library for it (`-Zbuild-std`): panics abort at once with no
/// message formatting (`-Cpanic=immediate-abort`; on wasm a panic was a
/// trap without a message already), no source locations, and the
/// standard library's size-optimized code paths. −16 KB gzip, the
/// difference between 121.6 and 105.4 KB (docs/benchmarks.md). Pinned, as
/// these flags are unstable; `cargo xtask setup` installs it. Every other
/// build, the wasm tests included, uses the stable toolchain.
pub const NPM_TOOLCHAIN: &str = "nightly-2026-05-20";

/// The nightly build's flags (they replace `.cargo/config.toml`'s
/// `rustflags`, which only the demo's Leptos reads).
const NPM_RUSTFLAGS: &str = "-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none";

/// wasm-opt's passes for a wasm the package ships: size first.
/// `--low-memory-unused` lets binaryen fold constant offsets into loads
/// and stores (−1,023 B gzip of the package's wasm): it holds for Rust's
/// wasm32 layout, where the stack takes the first MiB and grows down, so
/// the low 1 KiB is reached only by a stack already overflowing. `-Os`
/// was 31 B larger, `-O3` 1.1 KB larger (docs/benchmarks.md, "Session
/// 15").
pub const SHIPPED_WASM_PASSES: &[&str] = &["-Oz", "--low-memory-unused"];

/// And without the tools' metadata (`producers`, `target_features`),
/// which no runtime reads (−243 B gzip of the package's wasm).
pub(crate) const STRIP_METADATA: &[&str] = &["--strip-producers", "--strip-target-features"];

/// The npm package folder.
pub fn npm_dir() -> PathBuf {
    target_dir().join("npm/predmarket")
}

pub(crate) fn write(path: &Path, contents: &str) -> Result {
    fs::write(path, contents).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Builds the npm package: one wasm-bindgen build (`--target web` glue,
/// instantiated by hand) and one small entry per kind of runtime, chosen
/// by the `exports` conditions:
///
/// - `index.js` (ES module; browsers and every bundler, Node `import`, Bun,
///   Deno, web workers): instantiates the wasm synchronously from bytes
///   inlined (deflate-compressed, as base64) in `wasm-inline.js`. No file to locate at run time,
///   so it works unchanged where a bundler does not copy `.wasm` files
///   (esbuild, Rollup) and in server bundles that have no `__dirname`
///   (webpack `target: node`, esbuild `--platform=node`); no top-level
///   await, so it also loads through `require(esm)` and old targets.
/// - `index.cjs` (`require`): the same, as one CommonJS file (esbuild).
/// - `edge.js` (`workerd`): `import wasm from "./predmarket_bg.wasm"`, the
///   form edge runtimes require (they refuse to compile wasm from bytes).
///
/// So the wasm ships as a file (`predmarket_bg.wasm`, also exported as
/// `predmarket/wasm`) and inlined in the two JS entries; a runtime loads
/// one of them. The declarations (`index.d.ts`, `index.d.cts`) are
/// self-contained and omit wasm-bindgen's init functions and memory.
pub fn npm() -> Result<PathBuf> {
    // Several test steps need the package: build it once per xtask run
    // (wasm-opt alone takes 10-60 s on the 2-core machines).
    static BUILT: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    let mut built = BUILT.lock().map_err(|_| "npm build lock poisoned")?;
    if let Some(dir) = &*built {
        return Ok(dir.clone());
    }
    // And once per change of its inputs: the demo after the tests, or a
    // second test run, reuses the package (wasm-opt alone is 10-60 s).
    let hash = inputs_hash(NPM_INPUTS)?;
    let stamp_file = target_dir().join("npm/predmarket.stamp");
    let dir = if built_from(&npm_dir().join(WASM), &stamp_file, hash) {
        eprintln!(
            "npm package: up to date with its sources ({})",
            npm_dir().display()
        );
        npm_dir()
    } else {
        eprintln!("npm package: building (first build about 4 min, then about 1 min)");
        let _ = fs::remove_file(&stamp_file);
        let dir = build_npm()?;
        stamp(&stamp_file, hash)?;
        dir
    };
    *built = Some(dir.clone());
    Ok(dir)
}

/// Everything the npm package is built from: when none of it changed, the
/// package on disk is what a build would make.
const NPM_INPUTS: &[&str] = &[
    "crates/core",
    "crates/client",
    "crates/model-derive",
    "crates/wasm",
    "crates/js-values",
    "crates/math",
    "crates/watch",
    "crates/venues",
    "crates/venues-fees",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo/config.toml",
    "xtask/src/build.rs",
    "xtask/src/build",
    "xtask/src/math_entry.rs",
    "xtask/src/watch_entry.rs",
    // fflate's version, bundled into the inlined wasm's module.
    "tests/package-lock.json",
    "CHANGELOG.md",
    "LICENSE-MIT",
    "LICENSE-APACHE",
];

/// The nightly's own target directory, beside the stable one: the two
/// compilers' artifacts would otherwise invalidate each other.
pub fn npm_target_dir() -> PathBuf {
    target_dir().join("npm-build")
}

/// A wasm module as cargo built it for the package: `file` of `profile`.
pub(crate) fn cargo_output(profile: &str, file: &str) -> PathBuf {
    npm_target_dir()
        .join("wasm32-unknown-unknown")
        .join(profile)
        .join(file)
}

fn build_npm() -> Result<PathBuf> {
    // One cargo run per entry: built together, cargo would unify the
    // core's features and the venues and math wasm would carry the main
    // entry's (tsify's TypeScript descriptors).
    for (package, profile) in [
        (client_entry::PACKAGE, WASM_PROFILE),
        (math_entry::PACKAGE, WASM_PROFILE),
        (watch_entry::PACKAGE, WASM_PROFILE),
        (venues::PACKAGE, VENUES_PROFILE),
        (fees::PACKAGE, WASM_PROFILE),
    ] {
        exec(
            cmd("cargo")
                .arg(format!("+{NPM_TOOLCHAIN}"))
                .args([
                    "build",
                    "-p",
                    package,
                    "--target",
                    "wasm32-unknown-unknown",
                    "--profile",
                    profile,
                    "-Zbuild-std=std,panic_abort",
                    "-Zbuild-std-features=optimize_for_size",
                ])
                .env("CARGO_TARGET_DIR", npm_target_dir())
                .env_remove("CARGO_ENCODED_RUSTFLAGS")
                .env("RUSTFLAGS", NPM_RUSTFLAGS),
        )?;
    }
    let out = npm_dir();
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    client_entry::build(&out)?;
    fees::build(&out)?;
    venues::build(&out)?;

    for file in ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"] {
        let from = if file == "README.md" {
            root().join("crates/wasm/README.md")
        } else {
            root().join(file)
        };
        fs::copy(&from, out.join(file)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    write(&out.join("package.json"), &package_json::package_json())?;
    Ok(out)
}
