//! `predmarket/venues`' fee wasm (crates/venues-fees): `feeModel` and the
//! pricing of `netArbitrage`, inlined in `fees-inline.js` and instantiated
//! by crates/venues/js/fees.js on the first call of either.

use super::{WASM_PROFILE, cargo_output, write_inline_module};
use crate::math_entry;
use crate::util::Result;
use std::path::{Path, PathBuf};

/// The cargo package of the fee wasm, built at the main entry's profile:
/// it is not the hot path of matching, so size first.
pub(super) const PACKAGE: &str = "predmarket-venues-fees";

/// The fee wasm in the package folder (inlined in `fees-inline.js`; not
/// shipped as a file).
pub const VENUES_FEES_WASM: &str = "fees_glue_bg.wasm";

/// The fee wasm, as cargo built it.
pub fn venues_fees_cargo_wasm() -> PathBuf {
    cargo_output(WASM_PROFILE, "predmarket_venues_fees.wasm")
}

/// Writes the fee wasm's glue and inlined module into `out` (the cargo
/// run is done).
pub(super) fn build(out: &Path) -> Result {
    math_entry::bindgen(
        out,
        &venues_fees_cargo_wasm(),
        "fees_glue",
        "predmarket/venues' fees",
    )?;
    write_inline_module(&out.join(VENUES_FEES_WASM), &out.join("fees-inline.js"))
}
