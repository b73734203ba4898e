//! The types of the watch streams. They are written in plain JS
//! (`js/watch.js`, added to `Client` by the package's entry files), over
//! the client's own methods; the scheduler behind them
//! (`Client.__watchIntervals`) and the rules of what changed and what ends
//! a watch (`change.rs`) are the core's.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_WATCH: &'static str = r#"
/** Options of a `watch*` method. */
export interface WatchOptions {
  /** How often to ask, in ms. Defaults (`watchIntervalMs(kind)`): order book 5 000, market 10 000, game 15 000, future 30 000. The client's scheduler lengthens it while the page is hidden or the rate budget runs low (never shortens it), so watching cannot cause a 429. */
  intervalMs?: number;
  /** Ends the watch: a pending or later `next()` rejects with a `PredmarketAbortError` (code `ABORTED`). */
  signal?: AbortSignal;
  /** Called with every update (the first snapshot, then each change), besides the iterator. */
  onUpdate?: (update: WatchUpdate<unknown, unknown>) => void;
  /** Told of a poll that failed for now (network, 5xx, 429 after the client's retries); the watch goes on. Every 4xx but 408 and 429, and parameters the client refused (`VALIDATION_ERROR`), end it instead (`endsWatch(error)`). */
  onError?: (error: PredmarketError) => void;
  /** Options of each underlying call (`timeoutMs`, `maxRetries`, `headers`). */
  callOptions?: Omit<CallOptions, "signal">;
}

/** A change of one value in a response, by its path (`data.markets[0].yes_price`). `meta` (timings) is left out. */
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

/** What a watch yields: the first snapshot (no changes), then every snapshot that differs from the one before. */
export interface WatchUpdate<T, C> {
  snapshot: T;
  changes: C[];
  /** `meta.data_freshness`, else the order book's `timestamp`, else `null`. */
  asOf: string | null;
  /** `Date.now()` when the answer came. */
  receivedAt: number;
}

/** A running watch: an async iterator of updates (`for await`), stopped by `stop()`, `break`, or its `signal`. */
export interface Watch<T, C> extends AsyncIterableIterator<WatchUpdate<T, C>> {
  /** The interval the scheduler gives this watch now (ms). */
  readonly intervalMs: number;
  /** Stops polling; a `for await` over the watch ends. */
  stop(): void;
}

export interface Client {
  /** Polls a market's order book; yields the price levels that changed. */
  watchOrderbook(params: string | GetOrderbookParams, options?: WatchOptions): Watch<OrderbookResponse, LevelChange>;
  /** Polls a market; yields the fields that changed. */
  watchMarket(params: string | GetMarketParams, options?: WatchOptions): Watch<MarketsResponse, JsonChange>;
  /** Polls a game; yields the odds and fields that changed. */
  watchGame(params: string | GetGameParams, options?: WatchOptions): Watch<GameResponse, JsonChange>;
  /** Polls a future; yields the odds and fields that changed. */
  watchFuture(params: string | GetFutureParams, options?: WatchOptions): Watch<FutureResponse, JsonChange>;
}
"#;
