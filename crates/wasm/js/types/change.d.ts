// The declarations of crates/wasm/src/change.rs's exports that wasm-bindgen
// does not write: appended to the package's index.d.ts by `cargo xtask npm`.
/** A kind of watch: what `watch*` follows. */
export type WatchKind = "orderbook" | "market" | "game" | "future" | "award";
