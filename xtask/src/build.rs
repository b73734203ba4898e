//! The build of the npm package (the demo's is `web_build`).

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

/// Names of the package's files (see [`npm`]).
const GLUE: &str = "predmarket.js";
pub const WASM: &str = "predmarket_bg.wasm";

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

/// The package's wasm, as cargo built it (before wasm-bindgen).
pub fn npm_cargo_wasm() -> PathBuf {
    npm_target_dir()
        .join("wasm32-unknown-unknown")
        .join(WASM_PROFILE)
        .join("predmarket_wasm.wasm")
}

fn build_npm() -> Result<PathBuf> {
    // One cargo run per entry: built together, cargo would unify the
    // core's features and the venues and math wasm would carry the main
    // entry's (tsify's TypeScript descriptors).
    for (package, profile) in [
        ("predmarket-wasm", WASM_PROFILE),
        (math_entry::PACKAGE, WASM_PROFILE),
        (watch_entry::PACKAGE, WASM_PROFILE),
        ("predmarket-venues", VENUES_PROFILE),
        (VENUES_FEES_PACKAGE, WASM_PROFILE),
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
    let wasm = npm_cargo_wasm();
    let out = npm_dir();
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    exec(
        cmd("wasm-bindgen")
            .args(["--target", "web", "--out-name", "predmarket"])
            .arg("--out-dir")
            .arg(&out)
            .arg(&wasm),
    )?;
    let module = out.join(WASM);
    exec(
        cmd("wasm-opt")
            .args(SHIPPED_WASM_PASSES)
            .args(STRIP_METADATA)
            .arg(&module)
            .arg("-o")
            .arg(&module),
    )?;

    // The glue's own loader resolves the .wasm with `new URL(..,
    // import.meta.url)`; unused here, but bundlers would copy the file for
    // it and CommonJS output would warn about `import.meta`.
    let glue_path = out.join(GLUE);
    let glue = read(&glue_path)?;
    let loader = "new URL('predmarket_bg.wasm', import.meta.url)";
    if !glue.contains(loader) {
        return Err(format!(
            "{}: wasm-bindgen's loader changed (no `{loader}`): review npm()",
            glue_path.display()
        ));
    }
    write(
        &glue_path,
        &glue.replace(
            loader,
            "(() => { throw new Error(\"predmarket initialises itself\"); })()",
        ),
    )?;

    let glue_types_path = out.join("predmarket.d.ts");
    let glue_types = read(&glue_types_path)?;
    let declarations = hand_declarations()?;
    // Kept beside the package, not in it: the JS files' type check
    // (`cargo xtask test --only types`) reads the glue's declarations.
    let kept = glue_types_file();
    write(&kept, &format!("{glue_types}\n{declarations}"))?;
    fs::remove_file(&glue_types_path).map_err(|e| format!("{}: {e}", glue_types_path.display()))?;
    let types = format!("{}{declarations}", public_types(&glue_types)?);
    let names = exported_values(&types);
    // The pure functions (the change rules among them) are
    // `predmarket/math`'s (math_entry.rs), which the entries re-export.
    write(
        &out.join("index.d.ts"),
        &format!("{types}\nexport * from \"./math.js\";\n"),
    )?;
    write(
        &out.join("index.d.cts"),
        &format!("{types}\nexport * from \"./math.cjs\";\n"),
    )?;

    write_inflate_module(&out)?;
    write_inline_module(&module, &out.join("wasm-inline.js"))?;
    for file in JS_FILES {
        let from = js_dir().join(file);
        fs::copy(&from, out.join(file)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    // After the JS files (its modules import errors.js), before index.cjs
    // (which bundles them).
    math_entry::build(&out)?;
    watch_entry::build(&out)?;
    // The one generated line of the entries: the glue's public values but
    // `Client`, which api.js exports as client.js makes it.
    let glue_names: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| *n != "Client")
        .collect();
    write(
        &out.join("exports.js"),
        &format!(
            "// The glue's public values but `Client`; generated by `cargo xtask npm`.\nexport {{ {} }} from \"./{GLUE}\";\n",
            glue_names.join(", ")
        ),
    )?;
    // The error classes once for every CommonJS entry (they require it).
    commonjs(&out, "errors.js", "errors.cjs")?;
    commonjs(&out, "index.js", "index.cjs")?;

    venues(&out)?;

    for file in ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"] {
        let from = if file == "README.md" {
            root().join("crates/wasm/README.md")
        } else {
            root().join(file)
        };
        fs::copy(&from, out.join(file)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    write(&out.join("package.json"), &package_json())?;
    Ok(out)
}

/// The venues entry's wasm, as cargo built it.
pub fn venues_cargo_wasm() -> PathBuf {
    npm_target_dir()
        .join("wasm32-unknown-unknown")
        .join(VENUES_PROFILE)
        .join("predmarket_venues.wasm")
}

/// The cargo package of `predmarket/venues`' fee wasm (`feeModel` and
/// `netArbitrage`'s pricing), built at the main entry's profile: it is
/// not the hot path of matching, so size first.
pub const VENUES_FEES_PACKAGE: &str = "predmarket-venues-fees";

/// The venues entry's fee wasm, as cargo built it.
pub fn venues_fees_cargo_wasm() -> PathBuf {
    npm_target_dir()
        .join("wasm32-unknown-unknown")
        .join(WASM_PROFILE)
        .join("predmarket_venues_fees.wasm")
}

/// The venues entry's fee wasm in the package folder (inlined in
/// `fees-inline.js`; not shipped as a file).
pub const VENUES_FEES_WASM: &str = "fees_glue_bg.wasm";

/// The second entry, `predmarket/venues`: the matcher (crates/venues) and
/// the fees (crates/venues-fees) in two wasm modules of their own, each
/// instantiated on the first call that needs it (crates/venues/js/), so
/// the main entry's size budget does not carry them and an app that only
/// matches ships no fee code. Built like the main entry (glue, wasm
/// inlined compressed, a CommonJS copy), from the same cargo runs.
fn venues(out: &Path) -> Result {
    math_entry::bindgen(
        out,
        &venues_fees_cargo_wasm(),
        "fees_glue",
        "predmarket/venues' fees",
    )?;
    write_inline_module(&out.join(VENUES_FEES_WASM), &out.join("fees-inline.js"))?;
    exec(
        cmd("wasm-bindgen")
            .args([
                "--target",
                "web",
                "--no-typescript",
                "--out-name",
                "venues_glue",
            ])
            .arg("--out-dir")
            .arg(out)
            .arg(venues_cargo_wasm()),
    )?;
    let module = out.join(VENUES_WASM);
    exec(
        cmd("wasm-opt")
            .args(SHIPPED_WASM_PASSES)
            .args(STRIP_METADATA)
            .arg(&module)
            .arg("-o")
            .arg(&module),
    )?;
    let glue_path = out.join("venues_glue.js");
    let glue = read(&glue_path)?;
    let loader = "new URL('venues_glue_bg.wasm', import.meta.url)";
    if !glue.contains(loader) {
        return Err(format!(
            "{}: wasm-bindgen's loader changed (no `{loader}`): review venues()",
            glue_path.display()
        ));
    }
    write(
        &glue_path,
        &glue.replace(
            loader,
            "(() => { throw new Error(\"predmarket/venues initialises itself\"); })()",
        ),
    )?;
    write_inline_module(&module, &out.join("venues-inline.js"))?;
    let js = root().join("crates/venues/js");
    for (from, to) in [
        ("venues.js", "venues.js"),
        ("fees.js", "fees.js"),
        ("venues.d.ts", "venues.d.ts"),
        ("venues.d.ts", "venues.d.cts"),
    ] {
        let from = js.join(from);
        fs::copy(&from, out.join(to)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    commonjs(out, "venues.js", "venues.cjs")
}

/// The package's modules that a CommonJS entry requires as one shared
/// file instead of bundling a copy: the error classes, so that
/// `instanceof PredmarketError` holds across `require("predmarket")` and
/// `require("predmarket/math")`, and `predmarket/math` (which the main
/// entry re-exports), so its wasm and state exist once. Each is
/// `<name>.js` in the package and `<name>.cjs` beside it.
const SHARED_COMMONJS: [&str; 2] = ["errors", "math"];

/// Bundles the ES module `entry` of `out` as the CommonJS file `outfile`
/// (esbuild), requiring the [`SHARED_COMMONJS`] modules' `.cjs` files
/// rather than carrying its own copy of them.
pub(crate) fn commonjs(out: &Path, entry: &str, outfile: &str) -> Result {
    let mut command = cmd("esbuild");
    command.arg(out.join(entry)).args([
        "--bundle",
        "--format=cjs",
        "--platform=neutral",
        "--log-level=warning",
    ]);
    for name in SHARED_COMMONJS {
        if entry != format!("{name}.js") {
            command.arg(format!("--external:./{name}.js"));
        }
    }
    let path = out.join(outfile);
    exec(command.arg(format!("--outfile={}", path.display())))?;
    let mut text = read(&path)?;
    for name in SHARED_COMMONJS {
        text = text.replace(
            &format!("require(\"./{name}.js\")"),
            &format!("require(\"./{name}.cjs\")"),
        );
    }
    write(&path, &text)
}

/// The venues entry's wasm in the package.
pub const VENUES_WASM: &str = "venues_glue_bg.wasm";

pub(crate) fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The package's hand-written JS (crates/wasm/js/), copied as is:
///
/// - `index.js` and `edge.js`: the entries (see [`npm`]), which load the
///   wasm and export `api.js`'s values;
/// - `api.js`: the package's public values;
/// - `client.js`: the package's `Client`, the wasm's with the options and
///   methods below as its own (one class, no wrappers);
/// - `errors.js`: the error classes, plain JS in the package (a `class
///   extends Error` in a wasm-bindgen snippet breaks some of its targets);
///   the wasm gives its errors their prototypes (crates/wasm/src/errors.rs);
/// - `watch.js`: the watch streams (`client.watchOrderbook(...)`), plain JS
///   over the client's methods, typed in crates/wasm/js/types/watch.d.ts,
///   loaded by client.js at the first watch (a dynamic `import()`);
/// - `watch-handle.js`: what a `watch*` method returns while watch.js
///   loads;
/// - `shared-budget.js`: `sharedBudget: true`, the key's budget shared by
///   tabs (IndexedDB) or by the clients of a realm;
/// - `export.js`: lists as CSV or NDJSON (predmarket-core's `export` rule
///   in JS, held to it by shared vectors: it does not fit the wasm's size
///   budget);
/// - `capabilities.js`: what `checkCapabilities`, `capabilities()` and
///   `supports()` of `Client` do;
/// - `estimate.js`: what `estimate()` of `Client` does, loaded at its
///   first call (a dynamic `import()`);
/// - `persistent-cache.js`: `persistentCache`, answers kept in IndexedDB
///   (stale-while-revalidate, bounded);
/// - `history.js`: `history()`, a resource's recorded rows from the
///   server's `GET /history`, paged; `history-page.js`: one page of it,
///   loaded at the first (a dynamic `import()`).
const JS_FILES: &[&str] = &[
    "index.js",
    "edge.js",
    "api.js",
    "client.js",
    "errors.js",
    "watch.js",
    "watch-handle.js",
    "shared-budget.js",
    "export.js",
    "capabilities.js",
    "estimate.js",
    "persistent-cache.js",
    "history.js",
    "history-page.js",
];

/// Where the package's hand-written JS lives.
pub fn js_dir() -> PathBuf {
    root().join("crates/wasm/js")
}

/// The declarations wasm-bindgen does not write (crates/wasm/js/types/:
/// options, errors, what the JS layer adds, the pure functions' argument
/// shapes), each file in name order, for the package's index.d.ts.
fn hand_declarations() -> Result<String> {
    let dir = js_dir().join("types");
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.to_string_lossy().ends_with(".d.ts") {
            files.push(path);
        }
    }
    files.sort();
    let mut out = String::new();
    for path in files {
        out.push('\n');
        out.push_str(&read(&path)?);
    }
    Ok(out)
}

/// wasm-bindgen's own declarations of the glue (`predmarket.js`), kept
/// beside the package for the type check of [`JS_FILES`].
pub fn glue_types_file() -> PathBuf {
    target_dir().join("npm/predmarket-glue.d.ts")
}

/// wasm-bindgen's declarations without what only its loader needs
/// (`InitInput`, `InitOutput` with the raw wasm exports, `initSync`, the
/// default `init`), with the lib reference `[Symbol.dispose]` needs and
/// `free()` documented.
pub(crate) fn public_types(glue_types: &str) -> Result<String> {
    let cut = glue_types
        .find("export type InitInput")
        .ok_or("predmarket.d.ts: no `export type InitInput` (wasm-bindgen changed?)")?;
    let types = glue_types[..cut].trim_end().replace(
        "  free(): void;",
        "  /** Releases the object's wasm memory now instead of at garbage collection (optional; `using` does it too). */\n  free(): void;",
    );
    // The classes declare `[Symbol.dispose]`; without this a project whose
    // `lib` predates ES2024 fails on the package's own types.
    Ok(format!(
        "/// <reference lib=\"esnext.disposable\" />\n{types}\n"
    ))
}

/// The values (classes and functions) a declaration file exports.
pub(crate) fn exported_values(types: &str) -> Vec<String> {
    let mut names: Vec<String> = types
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("export class ")
                .or_else(|| line.strip_prefix("export function "))?;
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))?;
            // `__` names are the entries' business, not the public API's.
            Some(rest[..end].to_owned()).filter(|name| !name.starts_with("__"))
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Writes `to`, an ES module holding the wasm at `wasm` compressed (the
/// deflate stream of `gzip -9`) as base64, decoded by fflate's
/// `inflateSync` (imported from [`INFLATE`], which [`npm`] writes first): the bytes inlined cost about what the wasm does gzipped
/// (plain base64 cost a third more, as a bundle's gzip cannot see through
/// it), and the module stays synchronous (no top-level await, no
/// `init()`). The decoder needs only `atob` (browsers, workers, Node 16+,
/// Deno, Bun).
pub(crate) fn write_inline_module(wasm: &Path, to: &Path) -> Result {
    let compressed = cmd("gzip")
        .args(["-9", "-n", "-c"])
        .arg(wasm)
        .output()
        .map_err(|e| format!("gzip {}: {e}", wasm.display()))?;
    if !compressed.status.success() {
        return Err(format!("gzip {} failed", wasm.display()));
    }
    let raw = fs::metadata(wasm)
        .map_err(|e| format!("{}: {e}", wasm.display()))?
        .len();
    // The member's deflate stream alone: a 10-byte header with no
    // optional fields (`-n`: no name, no time), the 8-byte trailer after.
    let member = &compressed.stdout;
    let deflate = match member.get(..4) {
        Some([0x1f, 0x8b, 8, 0]) if member.len() > 18 => &member[10..member.len() - 8],
        _ => return Err(format!("gzip {}: not a plain gzip member", wasm.display())),
    };
    let source = to.with_extension("src.js");
    write(
        &source,
        &format!(
            "// The package's wasm ({raw} bytes), deflate-compressed and inlined; generated by `cargo xtask npm`.\nimport {{ inflateSync }} from \"./{INFLATE}\";\nconst base64 = \"{}\";\n\nexport function wasmBytes() {{\n  const out = new Uint8Array({raw});\n  if (typeof Uint8Array.fromBase64 === \"function\") return inflateSync(Uint8Array.fromBase64(base64), {{ out }});\n  const text = atob(base64);\n  const bytes = new Uint8Array(text.length);\n  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);\n  return inflateSync(bytes, {{ out }});\n}}\n",
            base64(deflate)
        ),
    )?;
    exec(
        cmd("esbuild")
            .arg(&source)
            .args([
                "--bundle",
                "--format=esm",
                "--platform=browser",
                "--log-level=warning",
            ])
            .arg(format!("--external:./{INFLATE}"))
            .arg(format!("--outfile={}", to.display())),
    )?;
    fs::remove_file(&source).map_err(|e| format!("{}: {e}", source.display()))
}

/// The decoder every inlined wasm's module imports (fflate's
/// `inflateSync`), one file of the package: an app that loads two of
/// them (the client's at start, the watch streams' at the first watch)
/// ships it once (about 3 KB gzip each when each module bundled its own).
const INFLATE: &str = "inflate.js";

/// Writes [`INFLATE`] into `out`: fflate from the tests' node_modules
/// (pinned in tests/package.json), its browser build (no Node module is
/// imported), its one function.
fn write_inflate_module(out: &Path) -> Result {
    let source = out.join("inflate.src.js");
    write(
        &source,
        "// fflate's `inflateSync`, for the inlined wasm modules; generated by `cargo xtask npm`.\nexport { inflateSync } from \"fflate\";\n",
    )?;
    exec(
        cmd("esbuild")
            .arg(&source)
            .args([
                "--bundle",
                "--format=esm",
                "--platform=browser",
                "--log-level=warning",
            ])
            .arg(format!("--outfile={}", out.join(INFLATE).display()))
            .env("NODE_PATH", root().join("tests/node_modules")),
    )?;
    fs::remove_file(&source).map_err(|e| format!("{}: {e}", source.display()))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn package_json() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let math_files = math_entry::FILES
        .iter()
        .chain(watch_entry::FILES)
        .map(|f| format!("{f:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"{{
  "name": "predmarket",
  "version": "{version}",
  "description": "Typed client of the predmarket prediction-market and sports-odds service, for browsers, bundlers, Node, Bun, Deno, workers and edge runtimes (Rust + WebAssembly).",
  "license": "MIT OR Apache-2.0",
  "repository": {{ "type": "git", "url": "git+https://example.invalid/predmarket.git", "directory": "crates/wasm" }},
  "homepage": "https://example.invalid/predmarket#readme",
  "bugs": {{ "url": "https://example.invalid/predmarket/issues" }},
  "type": "module",
  "main": "./index.cjs",
  "module": "./index.js",
  "types": "./index.d.cts",
  "exports": {{
    ".": {{
      "workerd": {{
        "types": "./index.d.ts",
        "default": "./edge.js"
      }},
      "import": {{
        "types": "./index.d.ts",
        "default": "./index.js"
      }},
      "require": {{
        "types": "./index.d.cts",
        "default": "./index.cjs"
      }},
      "default": {{
        "types": "./index.d.ts",
        "default": "./index.js"
      }}
    }},
    "./venues": {{
      "import": {{
        "types": "./venues.d.ts",
        "default": "./venues.js"
      }},
      "require": {{
        "types": "./venues.d.cts",
        "default": "./venues.cjs"
      }},
      "default": {{
        "types": "./venues.d.ts",
        "default": "./venues.js"
      }}
    }},
    "./math": {{
      "workerd": {{
        "types": "./math.d.ts",
        "default": "./math-edge.js"
      }},
      "import": {{
        "types": "./math.d.ts",
        "default": "./math.js"
      }},
      "require": {{
        "types": "./math.d.cts",
        "default": "./math.cjs"
      }},
      "default": {{
        "types": "./math.d.ts",
        "default": "./math.js"
      }}
    }},
    "./wasm": "./predmarket_bg.wasm",
    "./package.json": "./package.json"
  }},
  "sideEffects": ["./index.js", "./index.cjs", "./edge.js"],
  "files": ["index.js", "index.cjs", "edge.js", "api.js", "client.js", "exports.js", "errors.js", "errors.cjs", "watch.js", "watch-handle.js", "shared-budget.js", "export.js", "capabilities.js", "estimate.js", "persistent-cache.js", "history.js", "history-page.js", "index.d.ts", "index.d.cts", "predmarket.js", "wasm-inline.js", "inflate.js", "predmarket_bg.wasm", "venues.js", "venues.cjs", "venues.d.ts", "venues.d.cts", "venues_glue.js", "venues-inline.js", "fees.js", "fees_glue.js", "fees-inline.js", {math_files}, "README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"],
  "engines": {{ "node": ">=18" }},
  "keywords": ["prediction-markets", "odds", "orderbook", "wasm", "sdk"]
}}
"#
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foo"), "Zm9v");
        assert_eq!(super::base64(&[0xff, 0xfe, 0x00, 0x01]), "//4AAQ==");
    }

    #[test]
    fn exported_values_are_classes_and_functions() {
        let types = "export class Client {\n}\nexport function americanToDecimal(a: number): number;\nexport type X = 1;\nexport interface Y {}\n";
        assert_eq!(
            super::exported_values(types),
            ["Client", "americanToDecimal"]
        );
    }
}
