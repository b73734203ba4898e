//! An entry's CommonJS copy (`require`), bundled from its ES module.

use super::{read, write};
use crate::util::{Result, cmd, exec};
use std::path::Path;

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
