// The types of what the package's `Client` adds in plain JS: capabilities
// read at run time and cost estimates (capabilities.js), and the persistent
// answer cache (persistent-cache.js). Appended to the package's index.d.ts
// by `cargo xtask npm`; they merge into the `Client` class.
/** A feature of `/platforms` (`features`); a newer service may add others. */
export type PlatformFeature = "orderbook" | "trades" | "historical_data" | "user_profiles";

/** What `client.estimate(plan)` prices. */
export interface EstimatePlan {
  /** A walk of a list to its end (or `maxItems`): the pager's name and parameters. Its first page is fetched to learn the page size and total. */
  walk?: { list: "markets" | "events" | "series" | "trades" | "games" | "futures" | "awards" | "profileTrades"; params?: object; maxItems?: number };
  /** Single calls besides. */
  calls?: number;
  /** Watches for `durationMs` (default a minute): through the server's stream when the client's watches found one (one request to open it), else polled by this client. */
  watches?: { kind: "orderbook" | "market" | "game" | "future" | "award"; intervalMs?: number }[];
  durationMs?: number;
  /** Prices the watches as streamed (`true`) or polled (`false`) whatever the client found out. */
  stream?: boolean;
}

/** What a plan costs. */
export interface Estimate {
  /** Requests the plan sends (the walk's first page included). */
  requests: number;
  /** Minutes the client's budget needs for them: what it has now goes at once, the rest at `rateLimitPerMinute`. */
  minutes: number;
  /** False when the service gave no total: `requests` is then a lower bound. */
  exact: boolean;
  rateLimitPerMinute: number;
  remainingNow: number;
  /** The polled watches' requests a minute, at the intervals the scheduler gives them within the budget. */
  requestsPerMinute: number;
  /** `requestsPerMinute` as a share of the budget. */
  budgetShare: number;
  /** How the watches were priced: through the server's stream, polled (the server has none), or polled because no watch has found out yet. */
  watchSource: "stream" | "poll" | "unknown";
  /** Watches the stream carries (up to the server's 32 resources); the others poll. */
  streamed: number;
  notes: string[];
}

export interface Client {
  /** Features by platform id, as `/platforms` says (read once, again after 5 minutes). */
  capabilities(options?: { signal?: AbortSignal }): Promise<Record<string, Partial<Record<PlatformFeature, boolean>>>>;
  /** Whether a platform serves a feature; `undefined` when `/platforms` does not say. */
  supports(platform: string, feature: PlatformFeature): Promise<boolean | undefined>;
  /** What a walk, calls or watches will cost: requests, and minutes at the current rate budget. */
  estimate(plan: EstimatePlan): Promise<Estimate>;
  /** How old an answer was when `persistentCache` returned it (ms); `undefined` for one from the service. */
  keptAgeMs(answer: object): number | undefined;
  /** Forgets the answers `persistentCache` kept for this key and base URL. */
  clearPersistentCache(): Promise<void>;
}
