//! Builds of what ships: the npm package and the demo.

use crate::util::{Result, cmd, exec, root, target_dir};
use std::fs;
use std::path::{Path, PathBuf};

const WASM_PROFILE: &str = "wasm-release";

/// The npm package folder.
pub fn npm_dir() -> PathBuf {
    target_dir().join("npm/predmarket")
}

/// The built demo.
pub fn dist_dir() -> PathBuf {
    root().join("dist")
}

fn write(path: &Path, contents: &str) -> Result {
    fs::write(path, contents).map_err(|e| format!("{}: {e}", path.display()))
}

/// Builds the npm package: `web` (ES module, auto-initialised) and `nodejs`
/// (CommonJS, also importable from ESM) builds of one wasm, an `exports`
/// map with `types` first, `sideEffects: false` and a `files` allow-list.
pub fn npm() -> Result<PathBuf> {
    exec(cmd("cargo").args([
        "build",
        "-p",
        "predmarket-wasm",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        WASM_PROFILE,
    ]))?;
    let wasm = target_dir()
        .join("wasm32-unknown-unknown")
        .join(WASM_PROFILE)
        .join("predmarket_wasm.wasm");
    let out = npm_dir();
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for (target, dir) in [("web", "web"), ("nodejs", "node")] {
        let dir = out.join(dir);
        exec(
            cmd("wasm-bindgen")
                .arg("--target")
                .arg(target)
                .arg("--out-dir")
                .arg(&dir)
                .args(["--out-name", "predmarket"])
                .arg(&wasm),
        )?;
        let module = dir.join("predmarket_bg.wasm");
        exec(
            cmd("wasm-opt")
                .arg("-Oz")
                .arg(&module)
                .arg("-o")
                .arg(&module),
        )?;
        // The classes declare `[Symbol.dispose]`; without this a project
        // whose `lib` predates ES2024 fails on the package's own types.
        let types = dir.join("predmarket.d.ts");
        let text = fs::read_to_string(&types).map_err(|e| format!("{}: {e}", types.display()))?;
        write(
            &types,
            &format!("/// <reference lib=\"esnext.disposable\" />\n{text}"),
        )?;
    }
    // One import works everywhere: the web build initialises itself from
    // the .wasm beside it (top-level await), so users never call init().
    write(
        &out.join("web/index.js"),
        "import init from \"./predmarket.js\";\nawait init({ module_or_path: new URL(\"./predmarket_bg.wasm\", import.meta.url) });\nexport * from \"./predmarket.js\";\n",
    )?;
    write(
        &out.join("web/index.d.ts"),
        "export * from \"./predmarket.js\";\n",
    )?;
    write(
        &out.join("node/package.json"),
        "{ \"type\": \"commonjs\" }\n",
    )?;
    let readme = root().join("crates/wasm/README.md");
    fs::copy(&readme, out.join("README.md")).map_err(|e| format!("{}: {e}", readme.display()))?;
    write(&out.join("package.json"), &package_json())?;
    Ok(out)
}

fn package_json() -> String {
    let version = env!("CARGO_PKG_VERSION");
    format!(
        r#"{{
  "name": "predmarket",
  "version": "{version}",
  "description": "Typed client of the predmarket prediction-market and sports-odds service, for browsers, bundlers, Node and workers (Rust + WebAssembly).",
  "license": "MIT OR Apache-2.0",
  "type": "module",
  "main": "./node/predmarket.js",
  "module": "./web/index.js",
  "types": "./web/index.d.ts",
  "exports": {{
    ".": {{
      "node": {{
        "types": "./node/predmarket.d.ts",
        "default": "./node/predmarket.js"
      }},
      "types": "./web/index.d.ts",
      "default": "./web/index.js"
    }},
    "./package.json": "./package.json"
  }},
  "sideEffects": false,
  "files": ["web/", "node/", "README.md"],
  "engines": {{ "node": ">=18" }},
  "keywords": ["prediction-markets", "odds", "orderbook", "wasm", "sdk"]
}}
"#
    )
}

/// Builds the demo with Trunk into `dist/`, served under `/app/`.
pub fn web() -> Result<PathBuf> {
    exec(cmd("trunk").args(["build", "--release", "--skip-version-check"]))?;
    Ok(dist_dir())
}
