// The types of `client.history()` (history.js): a resource's recorded rows
// from the server's `GET /history`, an extension served where the server
// records or replays (`x-history` in its `/openapi.json`). Appended to the
// package's index.d.ts by `cargo xtask npm`; they merge into the `Client`
// class.

/** What `client.history()` asks for. */
export interface HistoryParams {
  /** `KIND:ID`: `orderbook:MARKET_ID`, `market:ID`, `game:ID`, `future:ID` or `award:ID`. */
  resource: string;
  /** The window's start: ISO 8601, or unix seconds or ms (default: an hour before `to`). */
  from?: string | number;
  /** The window's end (default: now); a window is at most a day. */
  to?: string | number;
  /** Rows a page (1 to 1,000; the server's default 100). */
  limit?: number;
}

/** How `client.history()` pages. */
export interface HistoryOptions {
  /** Rows to deliver at most, over all pages. */
  maxItems?: number;
  /** Aborts the request in flight (rejects with an `AbortError`). */
  signal?: AbortSignal;
}

/** One recorded row: the answer the server got at `received`, and how it continues the one before. */
export interface HistoryRow {
  received: string;
  received_ms: number;
  seq: number;
  /** `first`, `continues`, `gap` (see `gap_ms`) or `resync`: whether state may be carried over from the row before. */
  continuity: "first" | "continues" | "gap" | "resync";
  gap_ms: number | null;
  age_ms: number;
  wanted_ms: number | null;
  /** The answer as the server got it (an `OrderbookResponse` for an order book). */
  answer: unknown;
}

/** One answer of `GET /history`. */
export interface HistoryResponse {
  data: HistoryRow[];
  meta: { resource: string; from_ms: number; to_ms: number; count: number; next_from: number | null };
}

/** The rows of `client.history()`, page by page (`nextPage()`) or row by row (`for await`). */
export interface HistoryPager {
  [Symbol.asyncIterator](): AsyncIterator<HistoryRow>;
  /** The next page; `null` when the window is over. */
  nextPage(): Promise<Page<HistoryRow, HistoryResponse> | null>;
  readonly delivered: number;
  readonly done: boolean;
}

export interface Client {
  /** A resource's recorded rows, from a server that records (`--record`) or replays (`--replay`); elsewhere rejects with code `NOT_FOUND`. */
  history(params: HistoryParams, options?: HistoryOptions): HistoryPager;
}
