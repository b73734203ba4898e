//! The second entry, `predmarket/venues`: the matcher (crates/venues) and
//! the fees (crates/venues-fees, `super::fees`) in two wasm modules of
//! their own, each instantiated on the first call that needs it
//! (crates/venues/js/), so the main entry's size budget does not carry
//! them and an app that only matches ships no fee code. Built like the
//! main entry (glue, wasm inlined compressed, a CommonJS copy), from the
//! same cargo runs.

use super::{
    SHIPPED_WASM_PASSES, STRIP_METADATA, VENUES_PROFILE, cargo_output, commonjs, read, write,
    write_inline_module,
};
use crate::util::{Result, cmd, exec, root};
use std::fs;
use std::path::{Path, PathBuf};

/// The cargo package of the matcher's wasm, built at its own profile
/// (`super::VENUES_PROFILE`) for the speed of matching.
pub(super) const PACKAGE: &str = "predmarket-venues";

/// wasm-opt's passes for the matcher's wasm beyond the shipped ones:
/// `-Oz`'s pipeline run again until it no longer shrinks the module,
/// −824 B gzip of this wasm (160,454 → 159,630 B; a second `-Oz` alone
/// gave −770 B, `-Os` in place of `-Oz` −357 B), `findPairs` no slower beyond the noise
/// (docs/benchmarks.md, "Eleventh round").
const VENUES_EXTRA_PASSES: &[&str] = &["--converge"];

/// The venues entry's wasm in the package.
pub const VENUES_WASM: &str = "venues_glue_bg.wasm";

/// The venues entry's wasm, as cargo built it.
pub fn venues_cargo_wasm() -> PathBuf {
    cargo_output(VENUES_PROFILE, "predmarket_venues.wasm")
}

/// Writes the entry's matcher glue, its inlined wasm and its JS into
/// `out` (the fee wasm's files are `super::fees`').
pub(super) fn build(out: &Path) -> Result {
    // Its declarations are the hand-written venues.d.ts: no glue
    // declarations (`math_entry::bindgen` writes them, and a
    // `@ts-self-types` line naming them into the glue).
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
            .args(VENUES_EXTRA_PASSES)
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
            "{}: wasm-bindgen's loader changed (no `{loader}`): review build::venues",
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
    write_inline_module(&out.join(VENUES_WASM), &out.join("venues-inline.js"))?;
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
