// The types of the `watch*` methods (watch.js) and the watch options the
// wasm reads (crates/wasm/src/watch.rs). Appended to the package's
// index.d.ts by `cargo xtask npm`; `Client` merges with the class.
/** Options of a `watch*` method. */
export interface WatchOptions {
  /** How often to poll, in ms. Defaults (`watchIntervalMs(kind)`): order book 5 000, market 10 000, game 15 000, future and award 30 000. The client's scheduler lengthens it while the page is hidden or the rate budget runs low (never shortens it), so watching cannot cause a 429. Through a server's stream, updates come at the server's pace (the same defaults) and this applies only while the watch polls. */
  intervalMs?: number;
  /** The data's age (`ageMs`) beyond which the watch is stale: it yields a `stale` item (reason `max_staleness`), or ends (`staleAction: "end"`). Checked four times a second; set it above the interval, since polled data ages by one interval between polls. */
  maxStalenessMs?: number;
  /** What `maxStalenessMs` does: `"flag"` (default) yields `stale`, then `live` once fresh data comes; `"end"` ends the watch with a `PredmarketError` of code `TIMEOUT`. */
  staleAction?: "flag" | "end";
  /** Ends the watch: a pending or later `next()` rejects with a `PredmarketAbortError` (code `ABORTED`). */
  signal?: AbortSignal;
  /** Called with every item the watch yields (updates, `stale`, `live`), besides the iterator. */
  onUpdate?: (update: WatchUpdate<unknown, unknown>) => void;
  /** Told of a poll that failed for now (network, 5xx, 429 after the client's retries); the watch goes on. Every 4xx but 408 and 429, and parameters the client refused (`VALIDATION_ERROR`), end it instead (`endsWatch(error)`). */
  onError?: (error: PredmarketError) => void;
  /** Options of each underlying call (`timeoutMs`, `maxRetries`, `headers`). A watch with `headers` of its own polls: the client's shared stream carries the client's headers only. */
  callOptions?: Omit<CallOptions, "signal">;
}

/** A change of one value in a response, by its path (`markets[0].current_prices.yes.price`). `meta` (timings) is left out. */
export interface JsonChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** A price level new (`from: null`), resized, or gone (`to: null`) in one side of one outcome's book. */
export interface LevelChange {
  book: "yes" | "no";
  side: "bids" | "asks";
  price: number;
  from: number | null;
  to: number | null;
}

/** Where a watch's data came from: the server's stream (`GET /stream`) or the client's own polls. */
export type WatchSource = "stream" | "poll";

/** Why a watch is stale: a poll failed (`poll_failed`), the server's poll waits for the upstream budget (`budget`) or its interval was lengthened and the data grew older than the interval wanted (`interval_stretched`: told once per poll, `live` at the next answer), or the data is older than `maxStalenessMs` (`max_staleness`), or the stream stayed open but sent nothing (no event, no heartbeat) past the deadline its events announce (`silent`: the client reopens it; its next data ends this). A newer server may add reasons. */
export type StaleReason = "poll_failed" | "budget" | "interval_stretched" | "max_staleness" | "silent" | (string & {});

/** What a watch yields: `update`s (the first snapshot, no changes, then every snapshot that differs from the one before), and `stale` the moment the data stops being fresh, then `live` when it is again (those two carry the last snapshot and no changes). */
export interface WatchUpdate<T, C> {
  /** `update`: new data; `stale`: the data stopped being fresh (see `reason`); `live`: fresh again. */
  type: "update" | "stale" | "live";
  /** Where the data came from. */
  source: WatchSource;
  snapshot: T;
  changes: C[];
  /** The server's `as_of` from a stream; else `meta.data_freshness`, else the order book's `timestamp`, else `null`. */
  asOf: string | null;
  /** How old the data is, in ms: from a stream, the server's count (its poll's age), growing while the stream does not vouch for it; polled, the time since the answer came. */
  ageMs: number;
  /** `Date.now()` when this item was made. */
  receivedAt: number;
  /** Why the watch is stale (`stale` items only). */
  reason?: StaleReason;
  /** A `stale` item of a failed poll: the HTTP status the poll got, when it got one (the server's poll through a stream, or the client's own). */
  status?: number;
  /** A `stale` item of a failed poll: the error code the poll got (`PLATFORM_UNAVAILABLE`, `RATE_LIMITED`, …), when it got one. */
  code?: string;
}

/** A running watch: an async iterator of updates (`for await`), stopped by `stop()`, `break`, or its `signal`. */
export interface Watch<T, C> extends AsyncIterableIterator<WatchUpdate<T, C>> {
  /** The interval the scheduler gives this watch's polls now (ms); `NaN` until the watch has started (the watch streams' code loads at the first watch). */
  readonly intervalMs: number;
  /** Stops the watch; a `for await` over it ends. */
  stop(): void;
}

/**
 * The `watch*` methods follow a resource through the server's stream (`GET /stream`, one per client for all of its watches) where the server offers one, else by polling.
 */
export interface Client {
  /** Follows a market's order book; yields the price levels that changed. */
  watchOrderbook(params: string | GetOrderbookParams, options?: WatchOptions): Watch<OrderbookResponse, LevelChange>;
  /** Follows a market; yields the fields that changed. */
  watchMarket(params: string | GetMarketParams, options?: WatchOptions): Watch<MarketsResponse, JsonChange>;
  /** Follows a game; yields the odds and fields that changed. */
  watchGame(params: string | GetGameParams, options?: WatchOptions): Watch<GameResponse, JsonChange>;
  /** Follows a future; yields the odds and fields that changed. */
  watchFuture(params: string | GetFutureParams, options?: WatchOptions): Watch<FutureResponse, JsonChange>;
  /** Follows an award; yields the odds and fields that changed. */
  watchAward(params: string | GetAwardParams, options?: WatchOptions): Watch<AwardResponse, JsonChange>;
}
