//! The package's `package.json`: its entries (the `exports` conditions
//! each runtime and bundler picks by), what has side effects, and the
//! files it ships.

use crate::{math_entry, watch_entry};

/// The `package.json` of the package [`super::npm`] builds.
pub(super) fn package_json() -> String {
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
  "files": ["index.js", "index.cjs", "edge.js", "api.js", "client.js", "client-options.js", "lazy-pager.js", "ledger-rules.js", "exports.js", "errors.js", "errors.cjs", "watch.js", "watch-rules.js", "watch-hub.js", "watch-handle.js", "shared-budget.js", "export.js", "capabilities.js", "estimate.js", "persistent-cache.js", "history.js", "history-page.js", "index.d.ts", "index.d.cts", "predmarket.js", "wasm-inline.js", "inflate.js", "predmarket_bg.wasm", "venues.js", "venues.cjs", "venues.d.ts", "venues.d.cts", "venues_glue.js", "venues-inline.js", "fees.js", "fees_glue.js", "fees-inline.js", {math_files}, "README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"],
  "engines": {{ "node": ">=18" }},
  "keywords": ["prediction-markets", "odds", "orderbook", "wasm", "sdk"]
}}
"#
    )
}
