//! The npm package's `predmarket/math` entry (crates/math): the pure
//! functions (odds, order books, game ids, quotes, arbitrage) in a wasm of
//! their own, so that a client app, which calls none of them, ships none
//! of them.
//!
//! `math.js` (and `math-edge.js` for workerd, which compiles no wasm from
//! bytes) is generated from the glue's declarations: one wrapper per
//! function that instantiates the wasm on the first call of any, so
//! importing the module runs nothing and a bundler drops every function
//! an app does not import (the package's `sideEffects` leaves these files
//! out). The main entry re-exports it, so `import { americanToDecimal }
//! from "predmarket"` keeps working; an app that imports only the pure
//! functions imports `predmarket/math` and ships no client.

use crate::build::{
    SHIPPED_WASM_PASSES, STRIP_METADATA, WASM_PROFILE, commonjs, exported_values, npm_target_dir,
    public_types, read, write, write_inline_module,
};
use crate::util::{Result, cmd, exec, root, target_dir};
use std::fs;
use std::path::{Path, PathBuf};

/// The cargo package of the entry's wasm, built by the npm build's cargo
/// runs at the main entry's profile (`build::WASM_PROFILE`): size first.
pub const PACKAGE: &str = "predmarket-math";

/// The entry's wasm in the package.
pub const WASM: &str = "math_glue_bg.wasm";

/// The files of the entry in the package (its `files` allow-list).
pub const FILES: &[&str] = &[
    "math.js",
    "math-edge.js",
    "math.cjs",
    "math.d.ts",
    "math.d.cts",
    "math_glue.js",
    "math-inline.js",
    WASM,
];

/// The entry's wasm, as cargo built it.
pub fn cargo_wasm() -> PathBuf {
    npm_target_dir()
        .join("wasm32-unknown-unknown")
        .join(WASM_PROFILE)
        .join("predmarket_math.wasm")
}

/// wasm-bindgen's own declarations of the entry's glue, kept beside the
/// package for the type check (`cargo xtask test --only types`).
pub fn glue_types_file() -> PathBuf {
    target_dir().join("npm/math-glue.d.ts")
}

/// How each generated module gets the wasm: from the inlined bytes, or
/// (workerd) as a module the runtime compiled.
struct Loader {
    file: &'static str,
    import: &'static str,
    module: &'static str,
}

const LOADERS: [Loader; 2] = [
    Loader {
        file: "math.js",
        import: "import { wasmBytes } from \"./math-inline.js\";",
        module: "wasmBytes()",
    },
    Loader {
        file: "math-edge.js",
        import: "import wasm from \"./math_glue_bg.wasm\";",
        module: "wasm",
    },
];

/// Builds the entry into `out` (the package folder; the cargo run is
/// done): its glue, its wasm shrunk and inlined, its declarations and its
/// generated modules. Returns the names of its functions.
pub fn build(out: &Path) -> Result<Vec<String>> {
    let glue_types = bindgen(out, &cargo_wasm(), "math_glue", "predmarket/math")?;
    write(&glue_types_file(), &glue_types)?;
    let public = public_types(&glue_types)?;
    let names = exported_values(&public);
    let types = format!(
        "{public}{}",
        hand_declarations(&root().join("crates/math/js/types"))?
    );
    write(&out.join("math.d.ts"), &types)?;
    // The CommonJS declarations name the main entry's CommonJS ones.
    write(
        &out.join("math.d.cts"),
        &types.replace("from \"./index.js\"", "from \"./index.cjs\""),
    )?;

    write_inline_module(&out.join(WASM), &out.join("math-inline.js"))?;
    for loader in &LOADERS {
        write(&out.join(loader.file), &module_source(loader, &names))?;
    }
    commonjs(out, "math.js", "math.cjs")?;
    Ok(names)
}

/// The glue and wasm of a wasm the package instantiates itself
/// (`predmarket/math`'s, the watch streams'), written into `out` as
/// `<name>.js` and `<name>_bg.wasm` from the cargo output `wasm`: the wasm
/// shrunk, the glue's own loader (a `new URL(.., import.meta.url)` that
/// bundlers would copy the file for) replaced by a throw. Returns the
/// glue's declarations, which are not shipped as they are.
pub(crate) fn bindgen(out: &Path, wasm: &Path, name: &str, who: &str) -> Result<String> {
    exec(
        cmd("wasm-bindgen")
            .args(["--target", "web", "--out-name", name])
            .arg("--out-dir")
            .arg(out)
            .arg(wasm),
    )?;
    let module = out.join(format!("{name}_bg.wasm"));
    exec(
        cmd("wasm-opt")
            .args(SHIPPED_WASM_PASSES)
            .args(STRIP_METADATA)
            .arg(&module)
            .arg("-o")
            .arg(&module),
    )?;
    let glue_path = out.join(format!("{name}.js"));
    let glue = read(&glue_path)?;
    let loader = format!("new URL('{name}_bg.wasm', import.meta.url)");
    if !glue.contains(&loader) {
        return Err(format!(
            "{}: wasm-bindgen's loader changed (no `{loader}`): review math_entry::bindgen",
            glue_path.display()
        ));
    }
    write(
        &glue_path,
        &glue.replace(
            &loader,
            &format!("(() => {{ throw new Error(\"{who} initialises itself\"); }})()"),
        ),
    )?;
    let glue_types_path = out.join(format!("{name}.d.ts"));
    let glue_types = read(&glue_types_path)?;
    fs::remove_file(&glue_types_path).map_err(|e| format!("{}: {e}", glue_types_path.display()))?;
    Ok(glue_types)
}

/// The declarations wasm-bindgen does not write, from `dir` (for
/// `predmarket/math`, crates/math/js/types/: the functions' argument and
/// result shapes, and `models.d.ts`, which imports the models' types from
/// the main entry's declarations), each file in name order.
pub(crate) fn hand_declarations(dir: &Path) -> Result<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
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

/// A generated module of the entry: the loader, then one wrapper per
/// function, each a constant a bundler drops when unused.
fn module_source(loader: &Loader, names: &[String]) -> String {
    let mut text = format!(
        "// `predmarket/math`: the pure functions, each instantiating their wasm on\n\
         // the first call of any; generated by `cargo xtask npm` (xtask/src/math_entry.rs).\n\
         import * as glue from \"./math_glue.js\";\n\
         import {{ PredmarketError, PredmarketAbortError }} from \"./errors.js\";\n\
         {}\n\n\
         let loaded = false;\n\
         function load() {{\n  \
           if (loaded) return;\n  \
           glue.initSync({{ module: {} }});\n  \
           glue.__registerErrorClasses(PredmarketError, PredmarketAbortError);\n  \
           loaded = true;\n\
         }}\n\n",
        loader.import, loader.module
    );
    for name in names {
        text.push_str(&format!(
            "export const {name} = (...args) => (load(), glue.{name}(...args));\n"
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_function_is_a_wrapper_that_loads_first() {
        let text = super::module_source(&super::LOADERS[0], &["spread".to_owned()]);
        assert!(
            text.contains("export const spread = (...args) => (load(), glue.spread(...args));\n")
        );
        assert!(text.contains("glue.initSync({ module: wasmBytes() });"));
    }
}
