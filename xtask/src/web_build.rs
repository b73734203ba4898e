//! The build of the demo: Trunk, then the wasm split by its split points
//! and every file named by its content, into `dist/`.

use crate::build::{NPM_TOOLCHAIN, WASM_PROFILE, read, write};
use crate::util::{Result, built_from, cmd, exec, fnv1a64, inputs_hash, root, stamp, target_dir};
use std::fs;
use std::path::{Path, PathBuf};

/// The built demo.
pub fn dist_dir() -> PathBuf {
    root().join("dist")
}

/// Everything the demo is built from (see `build::NPM_INPUTS`).
const WEB_INPUTS: &[&str] = &[
    "web/src",
    "web/style.css",
    "web/Cargo.toml",
    "crates/core",
    "crates/client",
    "crates/model-derive",
    "index.html",
    "Trunk.toml",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo/config.toml",
    "xtask/src/build.rs",
    "xtask/src/web_build.rs",
];

/// Builds the demo with Trunk into `dist/`, served under `/app/`, with the
/// npm package's nightly and a standard library rebuilt for size, but
/// panics still `abort` (not immediate): the demo's panic hook prints what
/// went wrong in the console. −46 KB gzip (docs/benchmarks.md). The demo's
/// component tests build with stable, as every other build does.
pub fn web() -> Result<PathBuf> {
    let hash = inputs_hash(WEB_INPUTS)?;
    // Named by the dist folder: clones sharing one build directory each
    // have their own dist/.
    let dist_key = fnv1a64(dist_dir().to_string_lossy().as_bytes());
    let stamp_file = web_target_dir().join(format!("dist-{dist_key:016x}.stamp"));
    if built_from(&dist_dir().join("index.html"), &stamp_file, hash) {
        eprintln!(
            "demo: up to date with its sources ({})",
            dist_dir().display()
        );
        return Ok(dist_dir());
    }
    eprintln!("demo: building with Trunk (first build about 8 min, then 1-2 min)");
    // A build that stops half way leaves no stamp behind it.
    let _ = fs::remove_file(&stamp_file);
    exec(
        cmd("trunk")
            .args(["build", "--release", "--skip-version-check"])
            .env("RUSTUP_TOOLCHAIN", NPM_TOOLCHAIN)
            .env("CARGO_TARGET_DIR", web_target_dir())
            .env("CARGO_UNSTABLE_BUILD_STD", "std,panic_abort")
            .env("CARGO_UNSTABLE_BUILD_STD_FEATURES", "optimize_for_size")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            // `.cargo/config.toml`'s cfg for Leptos, which RUSTFLAGS
            // replaces; the split points of web/src/split.rs, and the
            // relocations wasm-split reads to see what each point reaches.
            .env(
                "RUSTFLAGS",
                "--cfg erase_components --cfg predmarket_split -Zlocation-detail=none -Clink-args=--emit-relocs",
            ),
    )?;
    split_web(&dist_dir())?;
    stamp(&stamp_file, hash)?;
    Ok(dist_dir())
}

fn web_target_dir() -> PathBuf {
    target_dir().join("web-build")
}

/// Replaces Trunk's one-module wasm and glue in `dist` with the split app.
///
/// Trunk cannot split a wasm (trunk-rs/trunk#1022): wasm-split must see
/// the module before wasm-bindgen, which drops the relocations. So Trunk
/// builds everything (the HTML, the hashed CSS, the crate itself) and its
/// wasm and glue are then rebuilt from the crate's own output: wasm-split
/// cuts it into the main module, one module per split point (`split_*`)
/// and the code two points share (`chunk_*`), with `__wasm_split.js` to
/// load them; wasm-bindgen makes the glue of the main module; wasm-opt
/// shrinks each. Every file is named by a hash of its content (so the
/// server lets browsers keep them a year).
fn split_web(dist: &Path) -> Result {
    let raw = web_target_dir()
        .join("wasm32-unknown-unknown")
        .join(WASM_PROFILE)
        .join("predmarket-web.wasm");
    let bytes = fs::read(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let stem = format!("predmarket-web-{:016x}", fnv1a64(&bytes));
    let work = web_target_dir().join("split");
    if work.exists() {
        fs::remove_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    }
    let bindgen = work.join("bindgen");
    exec(cmd("wasm-split-cli").arg(&raw).arg(&work).args([
        "--target",
        "web",
        "--out-name",
        &stem,
    ]))?;
    exec(
        cmd("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--out-name", &stem])
            // The split modules import the main module's function table
            // by the name the linker gave it.
            .arg("--keep-lld-exports")
            .arg("--out-dir")
            .arg(&bindgen)
            .arg(work.join(format!("{stem}.wasm"))),
    )?;

    // Trunk's one-module files go; index.html names the new stem.
    let index_path = dist.join("index.html");
    let mut index = read(&index_path)?;
    for (path, name) in files(dist)? {
        let Some(old) = name
            .strip_suffix("_bg.wasm")
            .or_else(|| name.strip_suffix(".js"))
            .filter(|n| n.starts_with("predmarket-web-"))
        else {
            continue;
        };
        index = index.replace(old, &stem);
        fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if !index.contains(&stem) {
        return Err(format!(
            "{}: names no predmarket-web-<hash> files",
            index_path.display()
        ));
    }
    write(&index_path, &index)?;

    let mut modules = vec![(
        bindgen.join(format!("{stem}_bg.wasm")),
        format!("{stem}_bg.wasm"),
    )];
    for (path, name) in files(&work)? {
        if name.ends_with(".wasm") && (name.starts_with("split_") || name.starts_with("chunk_")) {
            modules.push((path, name));
        }
    }
    // Two at a time: the machines have two cores and wasm-opt of a small
    // module is mostly start-up.
    let (odd, even): (Vec<_>, Vec<_>) = modules
        .into_iter()
        .enumerate()
        .partition(|(i, _)| i % 2 == 1);
    let optimize = |list: Vec<(usize, (PathBuf, String))>| -> Result {
        for (_, (from, name)) in list {
            exec(
                cmd("wasm-opt")
                    .arg("-Oz")
                    .arg(&from)
                    .arg("-o")
                    .arg(dist.join(&name)),
            )?;
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        let other = scope.spawn(|| optimize(odd));
        let mine = optimize(even);
        other
            .join()
            .map_err(|_| "wasm-opt thread panicked".to_owned())?
            .and(mine)
    })?;

    // Every file gets its content in its name, so browsers keep all of them
    // (the server marks hashed names immutable): a reload or a page seen
    // before loads its modules without asking the server again.
    let link_name = "__wasm_split.js";
    let mut link = read(&work.join(link_name))?;
    for (path, name) in files(dist)? {
        let Some(base) = name
            .strip_suffix(".wasm")
            .filter(|n| n.starts_with("split_") || n.starts_with("chunk_"))
        else {
            continue;
        };
        let quoted = format!("\"./{name}\"");
        if !link.contains(&quoted) {
            return Err(format!("{link_name} does not load {name}"));
        }
        let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let hashed = format!("{base}-{:016x}.wasm", fnv1a64(&bytes));
        fs::rename(&path, dist.join(&hashed)).map_err(|e| format!("{name}: {e}"))?;
        link = link.replace(&quoted, &format!("\"./{hashed}\""));
    }
    let link_hashed = format!("__wasm_split-{:016x}.js", fnv1a64(link.as_bytes()));
    write(&dist.join(&link_hashed), &link)?;
    let glue = format!("{stem}.js");
    let glue_text = read(&bindgen.join(&glue))?;
    // Only the `import … from` statements: the wasm's imports keep the
    // module name the glue's import object is keyed by.
    let from = format!("from \"./{link_name}\"");
    if !glue_text.contains(&from) {
        return Err(format!("{glue}: imports no {link_name}"));
    }
    write(
        &dist.join(&glue),
        &glue_text.replace(&from, &format!("from \"./{link_hashed}\"")),
    )
}

/// The files of `dir`, with their names.
fn files(dir: &Path) -> Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
            let name = name.to_owned();
            out.push((path, name));
        }
    }
    Ok(out)
}
