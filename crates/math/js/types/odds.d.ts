// The declarations of crates/math/src/odds.rs's exports that wasm-bindgen
// does not write: appended to the package's math.d.ts by `cargo xtask npm`.
/** One platform's price for one outcome (decimal odds). */
export interface Quote {
  /** What identifies the outcome across platforms: a team's service id, else the lower-cased name. */
  outcome: string;
  /** The outcome as the platform names it. */
  label: string;
  platform?: PlatformId;
  market_id?: string;
  /** Decimal odds (> 1). */
  decimal: number;
}

/** One bet of an arbitrage. */
export interface ArbitrageLeg {
  quote: Quote;
  /** The amount to stake on this outcome. */
  stake: number;
  /** What the stake returns if this outcome wins (the same for every leg). */
  payout: number;
}

/** Bets on every outcome that return the same amount whichever wins. Fees and limits are not modelled. */
export interface Arbitrage {
  legs: ArbitrageLeg[];
  /** Sum of the best implied probabilities (< 1). */
  implied_sum: number;
  total_stake: number;
  guaranteed_payout: number;
  guaranteed_profit: number;
  /** Profit as a fraction of the stake. */
  roi: number;
}
