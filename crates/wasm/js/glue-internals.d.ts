// What the glue exports but its declarations leave out (`skip_typescript`:
// the entries' business, not the public API's), declared for the type
// check of this folder's JS (`cargo xtask test --only types`); not shipped.
// Signatures: crates/wasm/src/errors.rs, crates/wasm/src/client.rs and
// crates/wasm/src/watch.rs.
export {};

declare module "./predmarket.js" {
  /** Gives the wasm's errors the prototypes of the package's two classes. */
  export function __registerErrorClasses(base: Function, abort: Function): void;

  interface Client {
    /** The scheduler's interval for each active watch (`wanted`, in ms). */
    __watchIntervals(wanted: Float64Array, visible: boolean): Float64Array;
    /** `KIND:ID` when the stream can carry a watch of `kind` with `params`. */
    __streamResource(kind: string, params: unknown): string | undefined;
    /** `GET /stream` of `resources` with the client's key and headers, through its `fetch`. */
    __openStream(resources: string[], lastEventId: string | undefined, signal: AbortSignal): Promise<Response>;
  }
}
