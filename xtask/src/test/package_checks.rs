//! The npm package checked as its users meet it: `tsc` on its declarations
//! and its checked JS, its size limits, publint and attw, and `node --test`
//! suites run against it.

use crate::util::{Result, cmd, exec, root};
use crate::{build, bundles, size};

/// `tsc --noEmit` on tests/types/usage.ts (and fixtures.ts: the
/// fixtures of tests/fixtures/public) against the built package,
/// resolved through its exports map as a bundler (web build) and as Node
/// (nodejs build) would.
pub(super) fn types_check() -> Result {
    let package = build::npm()?;
    let types = root().join("tests/types");
    let modules = types.join("node_modules");
    std::fs::create_dir_all(&modules).map_err(|e| format!("{}: {e}", modules.display()))?;
    let link = modules.join("predmarket");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&package, &link).map_err(|e| format!("{}: {e}", link.display()))?;
    let tsc = root().join("tests/node_modules/.bin/tsc");
    // tsconfig.fixtures.json: the real-shaped fixtures against the types.
    for config in [
        "tsconfig.json",
        "tsconfig.node.json",
        "tsconfig.fixtures.json",
    ] {
        exec(
            cmd(&tsc.to_string_lossy())
                .args(["--noEmit", "-p", config])
                .current_dir(&types),
        )?;
    }
    js_types_check(&tsc, &types, &package)
}

/// The package's hand-written JS (crates/wasm/js/, `// @ts-check` with
/// JSDoc) checked by tsc against the glue's declarations as wasm-bindgen
/// wrote them: the entries, and through their imports every file they
/// load. The glue's declarations and the generated modules (`exports.js`,
/// and `wasm-inline.js` and `predmarket/math`'s modules by their
/// declarations) sit in a folder that `rootDirs` merges with
/// crates/wasm/js/, so the relative imports resolve as in the package.
pub(super) fn js_types_check(
    tsc: &std::path::Path,
    types: &std::path::Path,
    package: &std::path::Path,
) -> Result {
    let generated = crate::util::target_dir().join("npm/js-types");
    let _ = std::fs::remove_dir_all(&generated);
    std::fs::create_dir_all(&generated).map_err(|e| format!("{}: {e}", generated.display()))?;
    let glue = build::glue_types_file();
    // `predmarket/math`'s modules (`math.js`, `math-edge.js`) are
    // generated wrappers: the entries see them through the package's
    // math.d.ts, whose model types come from the package's index.d.ts.
    let copies = [
        (glue, generated.join("predmarket.d.ts")),
        (package.join("exports.js"), generated.join("exports.js")),
        (package.join("math.d.ts"), generated.join("math.d.ts")),
        (package.join("math.d.ts"), generated.join("math-edge.d.ts")),
        (package.join("index.d.ts"), generated.join("index.d.ts")),
        // The watch streams' glue (watch.js reads it through
        // watch-load.js).
        (
            crate::watch_entry::glue_types_file(),
            generated.join("watch_glue.d.ts"),
        ),
    ];
    for (from, to) in copies {
        std::fs::copy(&from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    // `wasm-inline.js` bundles fflate's decoder, which is not ours to
    // check: the entries see it through its one export's declaration.
    let inline = generated.join("wasm-inline.d.ts");
    std::fs::write(&inline, "export function wasmBytes(): Uint8Array;\n")
        .map_err(|e| format!("{}: {e}", inline.display()))?;
    // `watch-load.js` is generated (xtask/src/watch_entry.rs): its two
    // exports' declarations.
    let load = generated.join("watch-load.d.ts");
    std::fs::write(
        &load,
        "export function load(): typeof import(\"./watch_glue.js\");\nexport function useModule(module: WebAssembly.Module): void;\n",
    )
    .map_err(|e| format!("{}: {e}", load.display()))?;
    // `rootDirs` is a tsconfig option only: this one extends the checked-in
    // tests/types/tsconfig.js.json with the two folders' absolute paths.
    let config = generated.join("tsconfig.json");
    let json = |path: &std::path::Path| format!("{:?}", path.display().to_string());
    std::fs::write(
        &config,
        format!(
            "{{ \"extends\": {}, \"compilerOptions\": {{ \"rootDirs\": [{}, {}] }} }}\n",
            json(&types.join("tsconfig.js.json")),
            json(&build::js_dir()),
            json(&generated),
        ),
    )
    .map_err(|e| format!("{}: {e}", config.display()))?;
    exec(cmd(&tsc.to_string_lossy()).arg("-p").arg(&config))
}

/// publint and @arethetypeswrong/cli on the built package: both must
/// report nothing (attw packs it itself).
pub(super) fn package_lint() -> Result {
    let package = build::npm()?;
    // The size target, held: a deterministic figure, so a check and not
    // a benchmark (`cargo xtask size` says where the bytes go).
    let (_, gzip) = size::sizes(&package.join(build::WASM))?;
    eprintln!("predmarket_bg.wasm: {gzip} B gzip -9");
    if gzip > size::LIMIT_GZIP_BYTES {
        return Err(format!(
            "predmarket_bg.wasm is {gzip} B gzip, over the {} B limit: see `cargo xtask size`",
            size::LIMIT_GZIP_BYTES
        ));
    }
    let (_, venues) = size::sizes(&package.join(build::VENUES_WASM))?;
    eprintln!("{}: {venues} B gzip -9", build::VENUES_WASM);
    if venues > size::VENUES_LIMIT_GZIP_BYTES {
        return Err(format!(
            "{} is {venues} B gzip, over the {} B limit",
            build::VENUES_WASM,
            size::VENUES_LIMIT_GZIP_BYTES
        ));
    }
    // What an app ships, held to each app's limit.
    let bundles = bundles::measure(&package)?;
    for bundle in &bundles {
        eprintln!("the `{}` app: {} B gzip -9", bundle.app.id, bundle.gzip);
    }
    bundles::check(&bundles)?;
    let bin = root().join("tests/node_modules/.bin");
    exec(
        cmd(&bin.join("publint").to_string_lossy())
            .args(["run", "--strict"])
            .arg(&package),
    )?;
    // `predmarket/wasm` is the .wasm file itself (for edge set-ups that
    // want it), not a module with types: nothing for attw to check.
    exec(
        cmd(&bin.join("attw").to_string_lossy())
            // The folder first: `--exclude-entrypoints` takes every
            // argument after it.
            .arg(&package)
            .args([
                "--pack",
                "--format",
                "table-flipped",
                "--exclude-entrypoints",
                "./wasm",
            ]),
    )
}

/// How many of a suite's test files `node --test` runs at once.
#[derive(Clone, Copy)]
pub(super) enum Files {
    /// One at a time: the browser suites, whose files each drive a
    /// Chromium (two at once on two cores make their waits slow and flaky),
    /// and one-file suites.
    OneAtATime,
    /// Three at once: the package's files mostly wait on the server,
    /// streams and timers, not the CPU (docs/ci.md, "Measured"); the
    /// twelve-a-minute key is package.test.mjs's alone, the others' key is
    /// unlimited, and the stream and history files start servers of their
    /// own.
    ThreeAtOnce,
}

/// `node --test` in tests/`dir`; `only`: a regular expression of the test
/// names to run (all when `None`).
pub(super) fn node_tests(
    dir: &str,
    env: &[(&str, &str)],
    only: Option<&str>,
    files: Files,
) -> Result {
    let mut command = cmd("node");
    let at_once = match files {
        Files::OneAtATime => 1,
        Files::ThreeAtOnce => 3,
    };
    command
        .args(["--test", "--test-reporter=spec"])
        .arg(format!("--test-concurrency={at_once}"))
        .current_dir(root().join("tests").join(dir));
    if let Some(pattern) = only {
        command.arg(format!("--test-name-pattern={pattern}"));
    }
    for (k, v) in env {
        command.env(k, v);
    }
    exec(&mut command)
}
