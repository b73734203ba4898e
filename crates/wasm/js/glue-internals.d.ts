// What the glue exports but its declarations leave out (`skip_typescript`:
// the entries' business, not the public API's), declared for the type
// check of this folder's JS (`cargo xtask test --only types`); not shipped.
// Signatures: crates/wasm/src/errors.rs, crates/wasm/src/options.rs,
// crates/wasm/src/client.rs and crates/wasm/src/watch.rs.
export {};

declare module "./predmarket.js" {
  /** Gives the wasm's errors the prototypes of the package's two classes. */
  export function __registerErrorClasses(base: Function, abort: Function): void;

  /** predmarket-core's ledger rules and names, for shared-budget.js. */
  export function __ledgerRules(): import("./shared-budget.js").LedgerRules;

  interface Client {
    /** The scheduler's interval for each active watch (`wanted`, in ms). */
    __watchIntervals(wanted: Float64Array, visible: boolean): Float64Array;
    /** Whether `id` is one the client would ask for with a watch of `kind`. */
    __streamable(kind: string, id: string): boolean;
    /** `fetch(baseUrl + "/stream?" + query, init)` with the client's headers and key added, through its `fetch`. */
    __openStream(query: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response>;
  }
}
