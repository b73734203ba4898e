// The glue's two exports its declarations leave out (`skip_typescript`:
// the entries' business, not the public API's), declared for the type
// check of this folder's JS (`cargo xtask test --only types`); not shipped.
// Signatures: crates/wasm/src/errors.rs and crates/wasm/src/client.rs.
export {};

declare module "./predmarket.js" {
  /** Gives the wasm's errors the prototypes of the package's two classes. */
  export function __registerErrorClasses(base: Function, abort: Function): void;

  interface Client {
    /** The scheduler's interval for each active watch (`wanted`, in ms). */
    __watchIntervals(wanted: Float64Array, visible: boolean): Float64Array;
  }
}
