// @ts-check
// What platforms serve, read at run time from `/platforms`, and what a
// plan of calls will cost: the package `Client`'s `capabilities()`,
// `supports()`, `estimate()` and its `checkCapabilities` option (client.js
// holds one `Capabilities` per client). With the option the client reads
// `/platforms` once (again after `CAPABILITIES_TTL_MS`) and refuses, before
// sending it, a call naming a platform whose entry says it does not serve
// that kind of data, with a `PredmarketError` (code `VALIDATION_ERROR`,
// parameter `platform`) saying so. Trades, price history and order books
// are asked by market id: the platform of a market is the one the
// client's own answers gave it (markets, events and series it received),
// so a market it has not seen is asked as usual. A platform the answer
// does not list, or lists without `features`, is the service's call: the
// request goes out. Which operation needs which feature, names its market
// and tells markets' platforms is the operation table's (`__operations()`,
// crates/wasm/src/operations.rs). (The public service's platform ids are
// not the spec's labels, so no table of the core's is used here.)

import { PredmarketError } from "./errors.js";

/** @typedef {import("./predmarket.js").OperationEntry} OperationEntry */

/** How long one `/platforms` answer is trusted: the service's cache keeps it as long. */
const CAPABILITIES_TTL_MS = 300_000;

/** Features of `/platforms` and what they cover. */
const FEATURES = /** @type {Record<string, string>} */ ({
  orderbook: "order books",
  trades: "trades",
  historical_data: "price history",
  user_profiles: "user profiles",
});

/** How many markets' platforms a client remembers (the oldest are forgotten first). */
const KNOWN_MARKETS_MAX = 20_000;

/** The reference server's `--stream-max-resources`: a stream carries that many watches, the rest poll. */
const STREAM_MAX_RESOURCES = 32;

/** The kinds of `watch*` methods and the operation each polls. */
const WATCH_KINDS = ["orderbook", "market", "game", "future", "award"];

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The `checkCapabilities` option, checked.
 * @param {unknown} value
 */
export function checkCapabilitiesOption(value) {
  if (value !== undefined && typeof value !== "boolean") {
    throw Object.assign(new PredmarketError("checkCapabilities: true or false expected"), { code: "VALIDATION_ERROR", parameter: "checkCapabilities" });
  }
  return value === true;
}

/**
 * What one client knows of platforms: the `/platforms` table it read and
 * the platforms its answers gave markets.
 */
export class Capabilities {
  /**
   * @param {{ listPlatforms(params: {}, options?: { signal?: AbortSignal }): Promise<unknown> }} client
   */
  constructor(client) {
    this.client = client;
    /** @type {{ at: number, table: Promise<Record<string, Record<string, boolean>>> } | undefined} */
    this.read = undefined;
    /** Market id → platform, from the client's answers (`checkCapabilities` only). @type {Map<string, string>} */
    this.marketPlatforms = new Map();
  }

  /**
   * A call of `op` that is refused before it is sent when its platform
   * does not serve the operation's feature, and whose answer teaches the
   * platforms of its markets.
   * @param {OperationEntry} op
   * @param {unknown} params
   * @param {() => Promise<unknown>} send
   */
  async call(op, params, send) {
    if (op.feature !== undefined) await this.refuse(op, params);
    const answer = await send();
    if (op.tellsPlatforms) this.learn(answer);
    return answer;
  }

  /**
   * The pager of `op` as `call` would send its pages: checked before its
   * first page, its items teaching their platforms.
   * @param {OperationEntry} op
   * @param {unknown} params
   * @param {any} pager
   */
  pager(op, params, pager) {
    if (op.feature !== undefined) return tappedPager(pager, () => this.refuse(op, params));
    if (op.tellsPlatforms) return tappedPager(pager, undefined, (value, key) => this.learn(value, key), op.pager);
    return pager;
  }

  /**
   * Remembers the platform of each market of an answer (or of one list
   * item): `markets[]`, and the markets nested in `events[]` and
   * `series[]` (a nested market without its own `platform` is on its
   * parent's).
   * @param {unknown} value
   * @param {string} [key] the pager an item came from (`markets`: the item is a market)
   */
  learn(value, key) {
    if (!isObject(value)) return;
    const known = this.marketPlatforms;
    /** @param {unknown} market @param {unknown} parent */
    const remember = (market, parent) => {
      if (!isObject(market) || typeof market.id !== "string") return;
      const platform = typeof market.platform === "string" ? market.platform : parent;
      if (typeof platform !== "string") return;
      known.delete(market.id);
      known.set(market.id, platform);
      if (known.size > KNOWN_MARKETS_MAX) known.delete(known.keys().next().value ?? "");
    };
    /** @param {unknown} group */
    const nested = (group) => {
      if (isObject(group) && Array.isArray(group.markets)) for (const m of group.markets) remember(m, group.platform);
    };
    if (key === "markets") return remember(value, undefined);
    if (key !== undefined) return nested(value);
    for (const answer of [value, value.data]) {
      if (!isObject(answer)) continue;
      if (Array.isArray(answer.markets)) for (const m of answer.markets) (remember(m, undefined), nested(m));
      for (const groups of [answer.events, answer.series, answer.event]) {
        if (Array.isArray(groups)) for (const group of groups) nested(group);
        else nested(groups);
      }
    }
  }

  /**
   * Features by platform id, as `/platforms` says (`{ orderbook, trades, historical_data, user_profiles }`; a platform listed without features has none here).
   * @param {{ signal?: AbortSignal }} [options]
   * @returns {Promise<Record<string, Record<string, boolean>>>}
   */
  table(options) {
    const now = Date.now();
    if (this.read && now - this.read.at < CAPABILITIES_TTL_MS) return this.read.table;
    const table = this.client.listPlatforms({}, options).then((/** @type {any} */ answer) => {
      /** @type {Record<string, Record<string, boolean>>} */
      const out = Object.create(null);
      for (const p of Array.isArray(answer?.platforms) ? answer.platforms : []) {
        if (!isObject(p) || typeof p.id !== "string") continue;
        /** @type {Record<string, boolean>} */
        const features = {};
        if (isObject(p.features)) for (const [k, v] of Object.entries(p.features)) if (typeof v === "boolean") features[k] = v;
        out[p.id] = features;
      }
      return out;
    });
    const entry = { at: now, table };
    this.read = entry;
    // A failed read is not kept: the next call asks again.
    table.catch(() => {
      if (this.read === entry) this.read = undefined;
    });
    return table;
  }

  /**
   * Whether `platform` serves `feature` (`orderbook`, `trades`, `historical_data`, `user_profiles`): `undefined` when `/platforms` does not say.
   * @param {string} platform
   * @param {string} feature
   * @returns {Promise<boolean | undefined>}
   */
  async supports(platform, feature) {
    const table = await this.table();
    const features = Object.prototype.hasOwnProperty.call(table, platform) ? table[platform] : undefined;
    return features && Object.prototype.hasOwnProperty.call(features, feature) ? features[feature] : undefined;
  }

  /**
   * Rejects a call of `op` naming a platform that does not serve its
   * feature, or a market the client's answers put on such a platform.
   * @param {OperationEntry} op
   * @param {unknown} params
   */
  async refuse(op, params) {
    const feature = /** @type {string} */ (op.feature);
    const key = op.marketParam;
    /** @type {Array<[string, string | undefined]>} platform, and the market that tells it */
    const asked = [];
    if (isObject(params) && typeof params.platform === "string") asked.push([params.platform, undefined]);
    else {
      const raw = typeof params === "string" ? params : isObject(params) && key !== undefined ? params[key] : undefined;
      const ids = typeof raw === "string" ? (key === "market_ids" ? raw.split(",") : [raw]) : Array.isArray(raw) ? raw : [];
      for (const id of ids) {
        const platform = typeof id === "string" ? this.marketPlatforms.get(id.trim()) : undefined;
        if (platform !== undefined) asked.push([platform, id.trim()]);
      }
    }
    if (asked.length === 0) return;
    let table;
    try {
      table = await this.table();
    } catch {
      // `/platforms` failed: the call itself says what the service thinks.
      return;
    }
    for (const [platform, market] of asked) {
      const features = Object.prototype.hasOwnProperty.call(table, platform) ? table[platform] : undefined;
      if (!features || features[feature] !== false) continue;
      const on = market === undefined ? "" : `market ${JSON.stringify(market)} is on platform ${JSON.stringify(platform)}, and `;
      const subject = market === undefined ? `platform ${JSON.stringify(platform)}` : "it";
      throw Object.assign(new PredmarketError(`${on}${subject} does not serve ${FEATURES[feature] ?? feature} (its /platforms entry says features.${feature}: false); the request was not sent`), {
        code: "VALIDATION_ERROR",
        parameter: market === undefined ? "platform" : (key ?? "id"),
        details: market === undefined ? { platform, feature, source: "/platforms" } : { platform, feature, source: "/platforms", market_id: market },
      });
    }
  }
}

/**
 * What a plan of calls will cost: requests, and minutes of the client's rate budget.
 * @param {any} client the package's `Client`
 * @param {any} plan
 * @param {{ limit: number, pagers: string[], streamMode: "discover" | "stream" | "poll", watchIntervalMs: typeof import("./predmarket.js").watchIntervalMs }} known
 *   the client's budget, its pager methods (the operation table's), what its watches found out of the server's stream
 */
export async function estimate(client, plan, known) {
  const { limit, pagers } = known;
  if (!isObject(plan)) throw Object.assign(new PredmarketError("estimate: a plan object expected"), { code: "VALIDATION_ERROR", parameter: "plan" });
  const remaining = client.rateBudgetRemaining;
  /** @type {string[]} */
  const notes = [];
  let requests = 0;
  let exact = true;
  if (plan.walk !== undefined) {
    const walk = plan.walk;
    if (!isObject(walk) || !pagers.includes(walk.list)) {
      throw Object.assign(new PredmarketError(`estimate: walk.list is one of ${pagers.join(", ")}`), { code: "VALIDATION_ERROR", parameter: "walk.list" });
    }
    const pager = client[walk.list](walk.params ?? {}, walk.maxItems === undefined ? {} : { maxItems: walk.maxItems });
    // One page tells the page size and, where the service says it, the total.
    const first = await pager.nextPage();
    requests += 1;
    const size = first?.items.length ?? 0;
    const pagination = isObject(first?.response?.pagination) ? first.response.pagination : isObject(first?.response) ? first.response : {};
    const totalRaw = pagination.total ?? first?.response?.meta?.total;
    const total = typeof totalRaw === "number" ? totalRaw : Number(totalRaw);
    const more = !pager.done;
    let items = Number.isFinite(total) ? total : NaN;
    if (typeof walk.maxItems === "number") items = Number.isFinite(items) ? Math.min(items, walk.maxItems) : walk.maxItems;
    if (!more || size === 0) {
      notes.push("the walk fits in its first page, already fetched");
    } else if (Number.isFinite(items)) {
      requests += Math.max(0, Math.ceil(items / size) - 1);
      notes.push(`${items} items at ${size} a page`);
    } else {
      exact = false;
      requests += 1;
      notes.push("the service gives no total: at least one more page");
    }
    pager.free?.();
  }
  if (plan.calls !== undefined) {
    if (typeof plan.calls !== "number" || !(plan.calls >= 0)) throw Object.assign(new PredmarketError("estimate: calls is a count"), { code: "VALIDATION_ERROR", parameter: "calls" });
    requests += Math.ceil(plan.calls);
  }
  let requestsPerMinute = 0;
  let streamed = 0;
  /** @type {"stream" | "poll" | "unknown"} */
  let watchSource = "poll";
  if (plan.watches !== undefined) {
    if (!Array.isArray(plan.watches)) throw Object.assign(new PredmarketError("estimate: watches is an array"), { code: "VALIDATION_ERROR", parameter: "watches" });
    if (plan.stream !== undefined && typeof plan.stream !== "boolean") throw Object.assign(new PredmarketError("estimate: stream is true or false"), { code: "VALIDATION_ERROR", parameter: "stream" });
    /** @type {number[]} */
    const wanted = plan.watches.map((/** @type {any} */ w, /** @type {number} */ i) => {
      const kind = isObject(w) ? w.kind : undefined;
      if (!WATCH_KINDS.includes(kind)) throw Object.assign(new PredmarketError(`estimate: watches[${i}].kind is one of ${WATCH_KINDS.join(", ")}`), { code: "VALIDATION_ERROR", parameter: `watches[${i}].kind` });
      return typeof w.intervalMs === "number" ? w.intervalMs : known.watchIntervalMs(kind);
    });
    // What the client's watches found out about the server (`GET
    // /stream` answered, or did not exist), unless the plan says.
    const mode = plan.stream === true ? "stream" : plan.stream === false ? "poll" : known.streamMode;
    watchSource = mode === "stream" ? "stream" : mode === "poll" ? "poll" : "unknown";
    const durationMs = typeof plan.durationMs === "number" ? plan.durationMs : 60_000;
    if (watchSource === "stream" && wanted.length > 0) {
      // One stream carries them all (up to the server's cap): opening
      // it is one request, whatever the watches' intervals.
      streamed = Math.min(wanted.length, STREAM_MAX_RESOURCES);
      requests += 1;
      notes.push(`${streamed} watches through the server's stream: one request to open it, none a poll`);
    }
    const polled = wanted.slice(streamed);
    if (polled.length > 0) {
      const intervals = /** @type {number[]} */ (client.__watchIntervals(polled, true));
      requestsPerMinute = intervals.reduce((sum, ms) => sum + 60_000 / ms, 0);
      requests += Math.ceil((requestsPerMinute * durationMs) / 60_000);
      notes.push(
        watchSource === "stream"
          ? `${polled.length} watches beyond the stream's ${STREAM_MAX_RESOURCES} resources, polled by this client`
          : watchSource === "poll"
            ? "watches polled by this client (the server has no stream)"
            : "watches priced as polled by this client: no watch has found out yet whether the server streams (through its stream they cost one request to open it; `stream: true` prices that)",
      );
    }
  }
  // What the budget has now goes at once; the rest at `limit` a minute.
  const minutes = Math.max(0, requests - remaining) / limit;
  return { requests, minutes, exact, rateLimitPerMinute: limit, remainingNow: remaining, requestsPerMinute, budgetShare: requestsPerMinute / limit, watchSource, streamed, notes };
}

/**
 * A pager whose first page waits for `check`, and whose pages and items
 * `tap` sees (with the pager's name); the pager's own otherwise.
 * @param {any} pager
 * @param {(() => Promise<void>) | undefined} check
 * @param {(value: unknown, key?: string) => void} [tap]
 * @param {string} [name]
 */
function tappedPager(pager, check, tap, name) {
  /** @type {Promise<void> | undefined} */
  let checked;
  const ready = () => (checked ??= check ? check() : Promise.resolve());
  return {
    async nextPage() {
      await ready();
      const page = await pager.nextPage();
      if (tap && page) tap(page.response);
      return page;
    },
    [Symbol.asyncIterator]() {
      const inner = pager[Symbol.asyncIterator]();
      return {
        async next() {
          await ready();
          const step = await inner.next();
          if (tap && step && !step.done) tap(step.value, name);
          return step;
        },
        async return() {
          return inner.return ? inner.return() : { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
    get done() {
      return pager.done;
    },
    get delivered() {
      return pager.delivered;
    },
    get pages() {
      return pager.pages;
    },
    free() {
      pager.free?.();
    },
  };
}
