// The declarations of the client's options and errors (crates/wasm/src/options.rs,
// crates/wasm/src/errors.rs and errors.js) that wasm-bindgen does not write:
// appended to the package's index.d.ts by `cargo xtask npm`.
/** Options of `new Client(...)`. */
export interface ClientOptions {
  /** Sent as the `X-API-Key` header, never in a URL. In browser code it is visible to every visitor: see the README. */
  apiKey: string;
  /** Default: `http://127.0.0.1:8787` (the local reference server). */
  baseUrl?: string;
  /** Per attempt. Default 30 000; 0 disables the timeout. */
  timeoutMs?: number;
  /** Retries on 408, 429, 5xx, network errors and timeouts (never another 4xx, nor a refused redirect), with backoff and jitter, honouring `Retry-After`. Default 3. */
  maxRetries?: number;
  /** The client-side budget: calls wait for a slot instead of running into a 429. Default 100 (the service's limit); follows a lower limit the service reports. */
  rateLimitPerMinute?: number;
  /** Reuse a successful answer for the same URL for this long. Default 0: no cache. */
  cacheTtlMs?: number;
  /** Most answers the cache holds (oldest dropped first). Default 256. */
  cacheMaxEntries?: number;
  /** The largest answer body read; a larger one rejects with `RESPONSE_TOO_LARGE`. Default 32 MiB. */
  maxBodyBytes?: number;
  /** Headers sent with every request (to `baseUrl`'s origin only: a redirect to another origin is refused). `X-API-Key` is refused: the key is `apiKey`. */
  headers?: Record<string, string>;
  /** Used instead of the global `fetch` (proxies, tests, instrumentation). Called as `fetch(url, init)`. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** One budget for every client of this key and base URL: with `true`, the tabs, workers and reloads of an origin share it (IndexedDB), and where there is no IndexedDB (Node, Deno) the clients of this JS realm do. Calls that must wait emit `wait` events (`reason: "budget"`). Or pass your own ledger. Default: off (each client has its own budget). */
  sharedBudget?: boolean | SharedBudgetLedger;
  /** Read `/platforms` (once, again after 5 minutes) and refuse, before sending, a call naming a platform whose entry says it does not serve that data (order books, trades, price history, profiles): a `PredmarketError` with code `VALIDATION_ERROR`, `parameter: "platform"` and `details: { platform, feature, source: "/platforms" }`. A platform the answer does not list, or lists without `features`, is asked as usual. Default false. */
  checkCapabilities?: boolean;
  /** Keep answers in IndexedDB across reloads (stale-while-revalidate): a call with a kept answer resolves with it at once and asks the service in the background. A call with its own `headers` is neither served from nor kept in it; an answer the service later refuses (401, 403, 404) is dropped. Needs IndexedDB and WebCrypto (a secure context): elsewhere (Node, Deno, a page on plain http to another host) it throws a `VALIDATION_ERROR`. Default false. */
  persistentCache?: boolean | PersistentCacheOptions;
  /** Told of every request, response, retry and wait. A hook that throws does not break the call. */
  onEvent?: (event: ClientEvent) => void;
  /** Log every event with `console.debug`. */
  debug?: boolean;
}

/** Options of `persistentCache`. */
export interface PersistentCacheOptions {
  /** Most answers kept for this key and base URL (the oldest of them go first; another key's are not touched). Default 400. */
  maxEntries?: number;
  /** No answer whose JSON is longer than this is kept. Default 512 KiB. */
  maxBytes?: number;
  /** A kept answer younger than this is used without asking the service. Default 0: always revalidate. */
  maxAgeMs?: number;
  /** Called with the fresh answer a background revalidation brought (the kept one was returned). */
  onRevalidated?: (info: { method: string; params: unknown; answer: unknown }) => void;
}

/** A budget shared by several clients (`sharedBudget`). */
export interface SharedBudgetLedger {
  /** Takes a slot under `limit` requests a minute and resolves with 0, or resolves with how many ms to wait before asking again. */
  acquire(limit: number): number | Promise<number>;
  /** A 429 came back: every client sharing the ledger holds off for `ms`. */
  blockFor(ms: number): void;
  /** Requests left now under `limit`. */
  remaining(limit: number): number;
}

/** What the client is doing (`onEvent`, `debug`). URLs never hold the key. */
export interface ClientEvent {
  type: "request" | "response" | "retry" | "wait";
  method: "GET";
  url: string;
  /** 0 for the first attempt, 1 for the first retry, … */
  attempt: number;
  /** `response`; `retry` (the status retried, when there was one). */
  status?: number;
  /** `response`: since the attempt started; `retry`: since the call started. */
  elapsedMs?: number;
  /** `retry`, `wait`: how long the client waits. */
  waitMs?: number;
  /** `retry`, `wait`: `budget` (the client's rate budget), `retry-after` (the service said so), `backoff`. */
  reason?: "budget" | "retry-after" | "backoff";
  /** `retry`: the error retried. */
  code?: ErrorCode;
  /** `response`: the service's `X-Request-Id`, when it sent one. */
  requestId?: string;
}

/** Status, headers and request id of the answer a call resolved with (`onResponse`). */
export interface ResponseInfo {
  status: number;
  url: string;
  /** Names lower-case. */
  headers: Record<string, string>;
  requestId?: string;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call: the promise rejects with an `AbortError` (code `ABORTED`). */
  signal?: AbortSignal;
  /** Bounds the call's whole life, waits for the rate budget and retries included (code `TIMEOUT`). */
  timeoutMs?: number;
  /** This call's retries instead of the client's. */
  maxRetries?: number;
  /** Headers of this call, over the client's. `X-API-Key` is refused. */
  headers?: Record<string, string>;
  /** Raw response access: called with the status, headers and request id of the answer. */
  onResponse?: (response: ResponseInfo) => void;
}

/** Options of a pager (`client.markets(params, options)`); the call options apply to each page. */
export interface PagerOptions extends CallOptions {
  /** Deliver at most this many items in total (the last page is cut). */
  maxItems?: number;
}

/** One page of a list: the items new to the caller, and the page as the service sent it (pagination, meta, `platform_errors`). */
export interface Page<Item, Response> {
  items: Item[];
  response: Response;
}

/** Every failure of the library: a real `Error` with these fields (a `PredmarketError` in the package). */
export interface ApiError extends Error {
  /** `AbortError` when the call was aborted (code `ABORTED`). */
  name: "PredmarketError" | "AbortError";
  code: ErrorCode;
  /** HTTP status, when the service answered. */
  status?: number;
  /** How long the service asked to wait (429, 503). */
  retryAfterMs?: number;
  /** The service's `error.details`. */
  details?: Record<string, unknown>;
  /** The parameter a check named (client-side checks). */
  parameter?: string;
  /** Where a refused redirect pointed (code `NETWORK_ERROR`, `status` 3xx): the client follows redirects on the service's origin only. */
  location?: string;
  /** What the library knows of the underlying failure (a network error's message). */
  cause?: unknown;
}

/** The class of every error the library rejects or throws: `err instanceof PredmarketError`. */
export declare class PredmarketError extends Error implements ApiError {
  name: "PredmarketError" | "AbortError";
  code: ErrorCode;
  status?: number;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
  parameter?: string;
  location?: string;
}

/** An aborted call (`signal`): name `AbortError`, code `ABORTED`. */
export declare class PredmarketAbortError extends PredmarketError {
  name: "AbortError";
  code: "ABORTED";
}
