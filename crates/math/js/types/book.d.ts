// The declarations of crates/math/src/book.rs's exports that wasm-bindgen
// does not write: appended to the package's math.d.ts by `cargo xtask npm`.
/** What the order book functions accept: a `getOrderbook` answer, its `data`, or one outcome's side. */
export type BookInput = OrderbookResponse | Orderbook | OrderbookSide;

/** Which outcome of a whole book: yes (the default) or no. */
export type BookOutcome = "yes" | "no";

/** A normalized book: levels with size > 0, merged by price; bids best (highest) first, asks best (lowest) first. */
export interface NormalizedBook {
  bids: PriceLevel[];
  asks: PriceLevel[];
}

/** The result of walking the book for a size. */
export interface Fill {
  side: "buy" | "sell";
  requested: number;
  /** What the book holds of it (less than `requested` for a partial fill). */
  filled: number;
  /** Sum of price × size over the levels taken. */
  cost: number;
  /** Volume-weighted average price; absent when nothing filled. */
  vwap?: number;
  best_price?: number;
  worst_price?: number;
  /** How much worse than the best price the average is, in price units (≥ 0). */
  slippage?: number;
  /** Slippage relative to the best price (0.05 = 5 %). */
  slippage_ratio?: number;
  levels_used: number;
  partial: boolean;
}

/** One point of a cumulative depth curve. */
export interface DepthPoint {
  price: number;
  size: number;
  /** Size at this level and every better one. */
  cumulative: number;
}

/** Cumulative depth of both sides, each from the best price outward. */
export interface DepthCurve {
  bids: DepthPoint[];
  asks: DepthPoint[];
}

/** Sizes resting near the price. */
export interface Depth {
  bid_size: number;
  ask_size: number;
}
