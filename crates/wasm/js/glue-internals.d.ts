// What the glue exports but its declarations leave out (`skip_typescript`:
// the entries' business, not the public API's), declared for the type
// check of this folder's JS (`cargo xtask test --only types`); not shipped.
// Signatures: crates/js-values/src/errors.rs, crates/wasm/src/options.rs,
// crates/wasm/src/client.rs, crates/wasm/src/watch.rs,
// crates/wasm/src/operations.rs, and for the watch streams' glue
// crates/js-values/src/errors.rs and crates/watch/src/live.rs.
export {};

declare module "./predmarket.js" {
  /** Gives the wasm's errors the prototypes of the package's two classes. */
  export function __registerErrorClasses(base: Function, abort: Function): void;

  /** One operation of predmarket-core's table: the method, its pager's method (lists), the parameter its id alone fills, the watch kind that polls it, the `/platforms` feature it needs, the parameter naming its market(s), whether its answers tell markets' platforms. */
  export interface OperationEntry { name: string; pager?: string; idParam?: string; watch?: WatchKind; feature?: string; marketParam?: string; tellsPlatforms: boolean }
  /** predmarket-core's operation table (crates/wasm/src/operations.rs), in its order: an operation's index here is its number for `__call` and the hooks. */
  export function __operations(): OperationEntry[];

  /** predmarket-core's ledger rules and names, for ledger-rules.js. */
  export function __ledgerRules(): import("./ledger-rules.js").LedgerRules;

  interface Client {
    /** The scheduler's interval for each active watch (`wanted`, in ms). */
    __watchIntervals(wanted: Float64Array, visible: boolean): Float64Array;
    /** Whether `id` is one the client would ask for with a watch of `kind`. */
    __streamable(kind: string, id: string): boolean;
    /** Puts the package's hooks around every call and pager: `call` answers a call instead of the client (sending through `__call`), `pager` returns the pager to hand out; each is given the operation's index in `__operations()`. */
    __around(call: (operation: number, params: unknown, options: unknown) => Promise<unknown>, pager: (operation: number, params: unknown, pager: unknown) => unknown): void;
    /** The call of the operation at `index` of `__operations()`, sent without the hooks. */
    __call(index: number, params: unknown, options?: CallOptions): Promise<unknown>;
    /** `fetch(baseUrl + path + "?" + query, init)` with the client's headers and key added, through its `fetch`; `path` is the stream's (`__liveRules().path`) or `"/history"`. */
    __send(path: string, query: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response>;
  }
}

declare module "./watch_glue.js" {
  /** Gives the wasm's errors the prototypes of the package's two classes. */
  export function __registerErrorClasses(base: Function, abort: Function): void;
  /** predmarket-core's live contract (numbers and names), for watch.js. */
  export function __liveRules(): import("./watch-rules.js").LiveRules & { staleReasons: string[], serverStaleReasons: string[], heartbeatMs: number, minRetryMs: number, maxBackoffMs: number, minPatienceMs: number, failoverCode: string };
  /** predmarket-core's stream backoff (`sse::backoff_ms`). */
  export function __streamBackoffMs(retryMs: number, failures: number, jitter: number, retryAfterMs: number | undefined): number;
  /** predmarket-core's `sse::has_no_streams`. */
  export function __hasNoStreams(status: number, contentType: string | undefined): boolean;
  /** predmarket-core's `live::stale_after_ms`. */
  export function __staleAfterMs(intervalMs: number, heartbeatMs: number): number;
  /** predmarket-core's `live::StaleReason::told_by_server`. */
  export function __staleToldByServer(reason: string): boolean;
  /** Where a client is in each resource it streams (predmarket-core's `sse::Positions`). */
  export class __LivePositions {
    constructor();
    forget(resource: string): void;
    retain(resources: string[]): void;
    lastEventId(resources: string[]): string | undefined;
    free(): void;
  }
  /** One stream read from its text (predmarket-core's `sse::Reader`). */
  export class __LiveReader {
    constructor(resources: string[], nowMs: number);
    feed(positions: __LivePositions, chunk: string, nowMs: number): import("./watch-rules.js").LiveRead[];
    deadlineMs(): number;
    isSilent(nowMs: number): boolean;
    silentEvents(nowMs: number): import("./watch-rules.js").StreamEvent[];
    free(): void;
  }
}
