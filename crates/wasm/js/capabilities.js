// @ts-check
// What platforms serve, read at run time from `/platforms`: the package
// `Client`'s `capabilities()`, `supports()` and its `checkCapabilities`
// option (client.js holds one `Capabilities` per client, loading this
// module at the first use of any of them: a chunk of its own in a
// bundle that splits code; client-options.js checks the option). With the option the client reads
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

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

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
