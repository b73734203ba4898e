//! The second entry, `predmarket/venues`: the matcher (crates/venues) and
//! the fees (crates/venues-fees, `super::fees`) in two wasm modules of
//! their own, each instantiated on the first call that needs it
//! (crates/venues/js/), so the main entry's size budget does not carry
//! them and an app that only matches ships no fee code. Built like the
//! main entry (glue, wasm inlined compressed, a CommonJS copy), from the
//! same cargo runs.

use super::{VENUES_PROFILE, cargo_output, commonjs, write_inline_module};
use crate::math_entry;
use crate::util::{Result, root};
use std::fs;
use std::path::{Path, PathBuf};

/// The cargo package of the matcher's wasm, built at its own profile
/// (`super::VENUES_PROFILE`) for the speed of matching.
pub(super) const PACKAGE: &str = "predmarket-venues";

/// The venues entry's wasm in the package.
pub const VENUES_WASM: &str = "venues_glue_bg.wasm";

/// The venues entry's wasm, as cargo built it.
pub fn venues_cargo_wasm() -> PathBuf {
    cargo_output(VENUES_PROFILE, "predmarket_venues.wasm")
}

/// Writes the entry's matcher glue, its inlined wasm and its JS into
/// `out` (the fee wasm's files are `super::fees`').
pub(super) fn build(out: &Path) -> Result {
    // Its declarations are the hand-written venues.d.ts.
    math_entry::bindgen(
        out,
        &venues_cargo_wasm(),
        "venues_glue",
        "predmarket/venues",
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
