// The watch kinds' type, which the change rules (`predmarket/math`) and the
// `watch*` methods name: appended to the package's index.d.ts by `cargo xtask npm`.
/** A kind of watch: what `watch*` follows. */
export type WatchKind = "orderbook" | "market" | "game" | "future" | "award";
