// @ts-check
// What platforms serve, read at run time from `/platforms`, and what a
// plan of calls will cost. `new Client({ checkCapabilities: true })` reads
// `/platforms` once (again after `CAPABILITIES_TTL_MS`) and refuses, before
// sending it, a call naming a platform whose entry says it does not serve
// that kind of data, with a `PredmarketError` (code `VALIDATION_ERROR`,
// parameter `platform`) saying so. A platform the answer does not list, or
// lists without `features`, is the service's call: the request goes out.
// (The public service's platform ids are not the spec's labels, so no
// table of the core's is used here.)

/** How long one `/platforms` answer is trusted: the service's cache keeps it as long. */
const CAPABILITIES_TTL_MS = 300_000;

/** Features of `/platforms` and what they cover. */
const FEATURES = /** @type {const} */ ({
  orderbook: "order books",
  trades: "trades",
  historical_data: "price history",
  user_profiles: "user profiles",
});

/** The feature each checked operation needs. */
const NEEDS = /** @type {const} */ ({
  getOrderbook: "orderbook",
  listTrades: "trades",
  trades: "trades",
  getPriceHistory: "historical_data",
  getProfileInfo: "user_profiles",
  listProfileTrades: "user_profiles",
  profileTrades: "user_profiles",
});

/** The kinds of `watch*` methods and the operation each polls. */
const WATCH_KINDS = ["orderbook", "market", "game", "future", "award"];

/** The pagers and their list fields, for `estimate`. */
const PAGERS = ["markets", "events", "series", "trades", "games", "futures", "awards", "profileTrades"];

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** The client's default budget (`rateLimitPerMinute`), the service's limit. */
const DEFAULT_RATE_LIMIT = 100;

/**
 * `Client` with `checkCapabilities`, `capabilities()`, `supports()` and `estimate()`.
 * @template {new (...args: any[]) => any} C
 * @param {C} Base
 * @param {typeof import("./errors.js").PredmarketError} PredmarketError
 * @param {typeof import("./predmarket.js").watchIntervalMs} watchIntervalMs the wasm's default watch intervals
 */
export function withCapabilities(Base, PredmarketError, watchIntervalMs) {
  return class Client extends Base {
    /** @param {any[]} args */
    constructor(...args) {
      const [options] = args;
      let check = false;
      if (isObject(options) && "checkCapabilities" in options) {
        const { checkCapabilities, ...rest } = options;
        if (checkCapabilities !== undefined && typeof checkCapabilities !== "boolean") {
          throw Object.assign(new PredmarketError("checkCapabilities: true or false expected"), { code: "VALIDATION_ERROR", parameter: "checkCapabilities" });
        }
        check = checkCapabilities === true;
        args[0] = rest;
      }
      super(...args);
      const limit = isObject(args[0]) ? args[0].rateLimitPerMinute : undefined;
      /** The budget the client was given (`estimate`). */
      this.__limit = typeof limit === "number" && limit > 0 ? limit : DEFAULT_RATE_LIMIT;
      /** @type {{ at: number, table: Promise<Record<string, Record<string, boolean>>> } | undefined} */
      this.__capabilities = undefined;
      if (check) {
        for (const [method, feature] of Object.entries(NEEDS)) {
          const original = super[method];
          if (typeof original !== "function") continue;
          const pager = !method.startsWith("get") && !method.startsWith("list");
          Object.defineProperty(this, method, {
            configurable: true,
            writable: true,
            value: pager
              ? (/** @type {any} */ params, /** @type {any} */ options) => guardedPager(original.call(this, params, options), () => this.__refuse(params, feature))
              : async (/** @type {any} */ params, /** @type {any} */ options) => {
                  await this.__refuse(params, feature);
                  return original.call(this, params, options);
                },
          });
        }
      }
    }

    /**
     * Features by platform id, as `/platforms` says (`{ orderbook, trades, historical_data, user_profiles }`; a platform listed without features has none here).
     * @param {{ signal?: AbortSignal }} [options]
     * @returns {Promise<Record<string, Record<string, boolean>>>}
     */
    capabilities(options) {
      const now = Date.now();
      if (this.__capabilities && now - this.__capabilities.at < CAPABILITIES_TTL_MS) return this.__capabilities.table;
      const table = this.listPlatforms({}, options).then((/** @type {any} */ answer) => {
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
      this.__capabilities = entry;
      // A failed read is not kept: the next call asks again.
      table.catch(() => {
        if (this.__capabilities === entry) this.__capabilities = undefined;
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
      const table = await this.capabilities();
      const features = Object.prototype.hasOwnProperty.call(table, platform) ? table[platform] : undefined;
      return features && Object.prototype.hasOwnProperty.call(features, feature) ? features[feature] : undefined;
    }

    /**
     * Rejects a call naming a platform that does not serve `feature`.
     * @param {unknown} params
     * @param {keyof typeof FEATURES} feature
     */
    async __refuse(params, feature) {
      const platform = isObject(params) && typeof params.platform === "string" ? params.platform : undefined;
      if (platform === undefined) return;
      let served;
      try {
        served = await this.supports(platform, feature);
      } catch {
        // `/platforms` failed: the call itself says what the service thinks.
        return;
      }
      if (served !== false) return;
      throw Object.assign(new PredmarketError(`platform ${JSON.stringify(platform)} does not serve ${FEATURES[feature]} (its /platforms entry says features.${feature}: false); the request was not sent`), {
        code: "VALIDATION_ERROR",
        parameter: "platform",
        details: { platform, feature, source: "/platforms" },
      });
    }

    /**
     * What a plan of calls will cost: requests, and minutes of the client's rate budget.
     * @param {any} plan
     */
    async estimate(plan) {
      if (!isObject(plan)) throw Object.assign(new PredmarketError("estimate: a plan object expected"), { code: "VALIDATION_ERROR", parameter: "plan" });
      const limit = this.__limit;
      const remaining = this.rateBudgetRemaining;
      /** @type {string[]} */
      const notes = [];
      let requests = 0;
      let exact = true;
      if (plan.walk !== undefined) {
        const walk = plan.walk;
        if (!isObject(walk) || !PAGERS.includes(walk.list)) {
          throw Object.assign(new PredmarketError(`estimate: walk.list is one of ${PAGERS.join(", ")}`), { code: "VALIDATION_ERROR", parameter: "walk.list" });
        }
        const pager = this[walk.list](walk.params ?? {}, walk.maxItems === undefined ? {} : { maxItems: walk.maxItems });
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
      if (plan.watches !== undefined) {
        if (!Array.isArray(plan.watches)) throw Object.assign(new PredmarketError("estimate: watches is an array"), { code: "VALIDATION_ERROR", parameter: "watches" });
        /** @type {number[]} */
        const wanted = plan.watches.map((/** @type {any} */ w, /** @type {number} */ i) => {
          const kind = isObject(w) ? w.kind : undefined;
          if (!WATCH_KINDS.includes(kind)) throw Object.assign(new PredmarketError(`estimate: watches[${i}].kind is one of ${WATCH_KINDS.join(", ")}`), { code: "VALIDATION_ERROR", parameter: `watches[${i}].kind` });
          return typeof w.intervalMs === "number" ? w.intervalMs : watchIntervalMs(kind);
        });
        const intervals = /** @type {number[]} */ (this.__watchIntervals(wanted, true));
        requestsPerMinute = intervals.reduce((sum, ms) => sum + 60_000 / ms, 0);
        const durationMs = typeof plan.durationMs === "number" ? plan.durationMs : 60_000;
        requests += Math.ceil((requestsPerMinute * durationMs) / 60_000);
        notes.push("watches polled by this client; through a server's stream they cost no requests of this budget");
      }
      // What the budget has now goes at once; the rest at `limit` a minute.
      const minutes = Math.max(0, requests - remaining) / limit;
      return { requests, minutes, exact, rateLimitPerMinute: limit, remainingNow: remaining, requestsPerMinute, budgetShare: requestsPerMinute / limit, notes };
    }
  };
}

/**
 * A pager whose first page waits for a check; the pager's own otherwise.
 * @param {any} pager
 * @param {() => Promise<void>} check
 */
function guardedPager(pager, check) {
  /** @type {Promise<void> | undefined} */
  let checked;
  const ready = () => (checked ??= check());
  return {
    async nextPage() {
      await ready();
      return pager.nextPage();
    },
    [Symbol.asyncIterator]() {
      const inner = pager[Symbol.asyncIterator]();
      return {
        async next() {
          await ready();
          return inner.next();
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
