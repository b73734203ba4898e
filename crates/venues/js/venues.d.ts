// Declarations of `predmarket/venues` (crates/venues/js/venues.js).

/** How two questions relate. `subset`: YES on the first implies YES on the second. */
export type Relation = "same" | "inverted" | "subset" | "superset" | "different" | "unsure";

/** What a reason is about. */
export type ReasonField =
  | "market_type" | "platform" | "entities" | "date" | "threshold" | "numbers" | "wording"
  | "negation" | "outcome_mapping" | "resolution_source" | "resolution_criteria" | "close_time";

/** What was found about a field. `disagrees`: the field differs without changing the relation (a risk to check). */
export type Finding = "agrees" | "conflicts" | "nested" | "opposite" | "disagrees" | "missing";

/** The stable code of the classifier's rule a reason, a veto or a missing piece of evidence comes from. */
export type RuleCode =
  | "binary_only" | "yes_side_named" | "one_platform" | "subject_differs" | "winner_differs"
  | "cutoff_differs" | "time_of_day_differs" | "threshold_differs" | "comparator_differs"
  | "band_vs_tail" | "numbers_differ" | "stage_nested" | "antonym_negation" | "antonym_contrary"
  | "antonym_conditional" | "metric_differs" | "wording" | "negation"
  | "settlement_source_differs" | "void_branch_differs" | "close_time" | "criteria_threshold"
  | "evidence_missing" | "outcome_mapping" | "qualifier_one_sided" | "unexplained_difference";

/** One checkable reason: the rule that found it, the field, what each market says as read, and what that means. */
export interface Reason {
  rule: RuleCode;
  field: ReasonField;
  finding: Finding;
  /** What the first market says (e.g. "above $95000", "2026-03-03", "bitcoin"). */
  a: string | null;
  b: string | null;
  note: string;
}

export interface Classification {
  relation: Relation;
  /** `yes_yes`: YES here is YES there; `yes_no`: YES here is NO there. */
  outcome_mapping: "yes_yes" | "yes_no" | null;
  reasons: Reason[];
  /** Fields that disagree without changing the relation. */
  disagreements: ReasonField[];
  /** The rules that found two different questions (any one makes the relation `different`); their reasons say why. A pair of `findPairs` lists only the first (the rules after it are not run); `classifyPair` lists all. */
  vetoes: RuleCode[];
}

/** A market as the service sends it (the package's `Market`, or any object with these fields; only these are read). */
export interface MarketLike {
  id: string | number;
  platform?: string | null;
  title?: string | null;
  market_type?: string | null;
  outcomes?: unknown[] | null;
  event_name?: string | null;
  trading_end_at?: string | number | null;
  resolution_date?: string | number | null;
  resolution_source?: string | null;
  resolution_criteria?: string | null;
  /** A number, or a number as text. */
  fee_rate?: number | string | null;
  trading_fee?: number | string | null;
}

/** Two markets and how they relate; `a` and `b` are the objects given. `reasons` are computed when first read (as `classifyPair(a, b)` would). */
export interface Pair<M extends MarketLike = MarketLike> extends Classification {
  a: M;
  b: M;
  aIndex: number;
  bIndex: number;
}

export interface FindPairsOptions {
  /** Also return pairs classified `different` (look-alikes). Default false. */
  includeDifferent?: boolean;
  /** Also compare markets of one platform. Default false. */
  samePlatform?: boolean;
  /** Keep only the pairs of these relations (`includeDifferent` is then not read): `{ relations: ["same", "inverted"] }`. The others are classified to be left out, never returned. */
  relations?: Relation[];
}

/** `notional`: rate × price × contracts; `probability_weighted`: rate × contracts × p × (1 − p). */
export interface FeeModel {
  kind: "notional" | "probability_weighted";
  rate: number;
  /** Where it came from; `unknown`: an unknown platform without fee fields, no fee assumed. */
  source?: "market" | "default" | "override" | "unknown";
}

export interface PriceLevel { price: number; size: number }
export interface OrderbookLike {
  timestamp?: string | null;
  yes?: { bids?: PriceLevel[]; asks?: PriceLevel[] } | null;
  no?: { bids?: PriceLevel[]; asks?: PriceLevel[] } | null;
}

/** One market's side: the market, its order book (the `data` of the response, or the whole response), an optional fee override. */
export interface VenueSide {
  market: MarketLike;
  orderbook: OrderbookLike | { data: OrderbookLike };
  fee?: FeeModel | null;
}

export interface Leg {
  market_id: string;
  platform: string | null;
  outcome: "yes" | "no";
  filled: number;
  vwap: number | null;
  best_price: number | null;
  cost: number;
  fee: number;
  fee_model: FeeModel;
  /** Milliseconds between the book's timestamp and `now`. */
  quote_age_ms: number | null;
}

/** Both sides of one question bought across two markets, net of fees. */
export interface NetGap {
  legs: [Leg, Leg];
  /** Contracts held on both legs (the smaller fill). */
  size: number;
  payout: number;
  cost: number;
  fees: number;
  gross_profit: number;
  /** Positive: an arbitrage after fees. */
  net_profit: number;
  net_return: number | null;
  partial: boolean;
  /** Holds only "if the two questions are the same": not same/inverted, or a field disagrees. */
  conditional: boolean;
  relation: Relation;
  fees_unknown: boolean;
}

/** Classifies two markets (any platforms): `{ relation, reasons, ... }`. Throws `TypeError` on a non-object. */
export declare function classifyPair(a: MarketLike, b: MarketLike): Classification;
/** Finds and classifies the cross-platform pairs of a list without comparing every pair (grouped by name and day). Pairs classified `different` are left out unless asked for. */
export declare function findPairs<M extends MarketLike>(markets: M[], options?: FindPairsOptions): Pair<M>[];
/** The fee model of a market: the override, else its own fee field, else its platform's documented default. */
export declare function feeModel(market: MarketLike, override?: FeeModel | null): FeeModel;
/** The better way of holding both sides of the question across two markets for `size` contracts, walked through both books, net of fees, with the age of each quote (`now`: ms or Date, default `Date.now()`; `null` leaves the quotes undated). `gap` is null when the two are not `same` or `inverted` with no veto (a gap between two questions is a bet, not an arbitrage), or when neither way can be filled. */
export declare function netArbitrage(
  a: VenueSide,
  b: VenueSide,
  options: { size: number; now?: number | Date | null },
): { classification: Classification; gap: NetGap | null };
