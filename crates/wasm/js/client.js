// @ts-check
// The package's `Client`: the wasm client (crates/wasm/src/client.rs, its
// base class: every operation's method and pager comes from there, made
// from the core's operation table) with what the package adds in JS as
// its own methods and options: `sharedBudget: true` (shared-budget.js),
// `checkCapabilities`, `capabilities()` and `supports()`
// (capabilities.js), `estimate()` (estimate.js), `persistentCache` (persistent-cache.js), the
// `watch*` methods (watch.js) and `history()` (history.js). One class:
// no method is redefined per instance and no prototype is patched. The
// options that must see every call (`checkCapabilities`,
// `persistentCache`) give the wasm client two hooks (`__around`), which
// it calls instead of sending; they send through `__call`. Which
// operation is which is the operation table's (`__operations()`): the
// wasm client and its hooks name an operation by its index there.
//
// The watch streams (watch.js) are loaded at the first watch (or
// estimate) of any client, and `estimate()` (estimate.js) at its first
// call, by a dynamic `import()`, which bundlers split into a chunk of its
// own: an app that never watches does not fetch them (watch-handle.js is
// what a `watch*` method returns meanwhile).

import { Client as WasmClient, __operations } from "./predmarket.js";
import { sharedBudget, ledgerRules } from "./shared-budget.js";
import { Capabilities, checkCapabilitiesOption } from "./capabilities.js";
import { PersistentCache, persistentCacheOption } from "./persistent-cache.js";
import { WatchHandle } from "./watch-handle.js";
import { historyPager } from "./history.js";

/** @type {Promise<typeof import("./watch.js")> | undefined} */
let watchModule;
/** The watch streams' module, loaded once, at first use. */
const watches = () => (watchModule ??= import("./watch.js"));

/** @typedef {import("./predmarket.js").OperationEntry} OperationEntry */
/** @typedef {import("./predmarket.js").WatchOptions} WatchOptions */

/** The client's default budget (`rateLimitPerMinute`), the service's limit. */
const DEFAULT_RATE_LIMIT = 100;

/** @type {OperationEntry[] | undefined} */
let table;
/** The core's operation table, read at first use. */
const operations = () => (table ??= __operations());

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

export class Client extends WasmClient {
  /** The budget the client was given (`estimate`). */
  #limit = DEFAULT_RATE_LIMIT;
  /** @type {Capabilities | undefined} */
  #capabilities;
  /** Whether calls are checked against `/platforms` (`checkCapabilities`). */
  #check = false;
  /** @type {PersistentCache | undefined} */
  #persistent;

  /** @param {import("./predmarket.js").ClientOptions} options */
  constructor(options) {
    /** @type {any} */
    let given = options;
    let check = false;
    /** @type {ReturnType<typeof persistentCacheOption>} */
    let keep;
    if (isObject(options)) {
      const { persistentCache, checkCapabilities, ...rest } = options;
      keep = persistentCacheOption(persistentCache);
      check = checkCapabilitiesOption(checkCapabilities);
      given = rest;
      if (rest.sharedBudget === true) {
        given = { ...rest, sharedBudget: sharedBudget(baseUrlOf(rest), String(rest.apiKey ?? "")) };
      }
    }
    super(given);
    const limit = given.rateLimitPerMinute;
    if (typeof limit === "number" && limit > 0) this.#limit = limit;
    this.#check = check;
    if (keep) this.#persistent = new PersistentCache(baseUrlOf(given), String(given.apiKey ?? ""), keep);
    if (check || keep) {
      this.__around(
        (/** @type {number} */ index, /** @type {unknown} */ params, /** @type {unknown} */ callOptions) => this.#call(index, params, callOptions),
        (/** @type {number} */ index, /** @type {unknown} */ params, /** @type {unknown} */ pager) => this.#pager(index, params, pager),
      );
    }
  }

  /**
   * A call of the operation at `index` as the options say: from the
   * persistent cache, checked against `/platforms`, then sent.
   * @param {number} index
   * @param {unknown} params
   * @param {unknown} callOptions
   */
  #call(index, params, callOptions) {
    const op = operations()[index];
    /** @returns {Promise<unknown>} */
    const send = () => this.__call(index, params, /** @type {any} */ (callOptions));
    const checked = this.#check ? () => this.#known().call(op, params, send) : send;
    return this.#persistent ? this.#persistent.call(op.name, params, callOptions, checked) : checked();
  }

  /**
   * A pager of the operation at `index` as the options say.
   * @param {number} index
   * @param {unknown} params
   * @param {unknown} pager
   */
  #pager(index, params, pager) {
    if (!this.#check) return pager;
    return this.#known().pager(operations()[index], params, pager);
  }

  /**
   * A watch of `kind`, whose polls are calls of the operation the table
   * says that kind polls, sent without the hooks (not kept, not checked).
   * @param {import("./predmarket.js").WatchKind} kind
   * @param {unknown} params
   * @param {WatchOptions} options
   */
  #watch(kind, params, options) {
    const index = operations().findIndex((op) => op.watch === kind);
    const poll = (/** @type {import("./predmarket.js").CallOptions} */ callOptions) => this.__call(index, params, callOptions);
    // The class is what the declarations call `Watch<T, C>`.
    return /** @type {any} */ (new WatchHandle(watches().then(({ watch }) => watch(this, kind, params, options, poll))));
  }

  /** What the client knows of platforms, made at first use. */
  #known() {
    return (this.#capabilities ??= new Capabilities(this));
  }

  /**
   * Features by platform id, as `/platforms` says (read once, again after 5 minutes).
   * @param {{ signal?: AbortSignal }} [options]
   */
  capabilities(options) {
    return this.#known().table(options);
  }

  /**
   * Whether a platform serves a feature; `undefined` when `/platforms` does not say.
   * @param {string} platform
   * @param {string} feature
   */
  supports(platform, feature) {
    return this.#known().supports(platform, feature);
  }

  /**
   * What a walk, calls or watches will cost: requests, and minutes at the current rate budget.
   * @param {any} plan
   */
  async estimate(plan) {
    const pagers = operations().flatMap((op) => (op.pager ? [op.pager] : []));
    // What this client's watches found out about the server's stream.
    const [{ estimate }, { streamMode, watchIntervalMs }] = await Promise.all([import("./estimate.js"), watches()]);
    return estimate(this, plan, { limit: this.#limit, pagers, streamMode: streamMode(this), watchIntervalMs });
  }

  /**
   * How old an answer was when `persistentCache` returned it (ms); `undefined` for one from the service.
   * @param {object} answer
   * @returns {number | undefined}
   */
  keptAgeMs(answer) {
    return this.#persistent?.keptAnswers.get(answer);
  }

  /** Forgets every cached answer, in memory and, with `persistentCache`, in IndexedDB (of this key and base URL). */
  clearCache() {
    super.clearCache();
    this.clearPersistentCache();
  }

  /** Forgets the answers `persistentCache` kept for this key and base URL; resolves when they are gone. */
  async clearPersistentCache() {
    await this.#persistent?.clear();
  }

  /**
   * Follows a market's order book.
   * @param {string | import("./predmarket.js").GetOrderbookParams} params
   * @param {WatchOptions} [options]
   * @returns {import("./predmarket.js").Watch<import("./predmarket.js").OrderbookResponse, import("./predmarket.js").LevelChange>}
   */
  watchOrderbook(params, options = {}) {
    return this.#watch("orderbook", params, options);
  }

  /**
   * Follows a market.
   * @param {string | import("./predmarket.js").GetMarketParams} params
   * @param {WatchOptions} [options]
   * @returns {import("./predmarket.js").Watch<import("./predmarket.js").MarketsResponse, import("./predmarket.js").JsonChange>}
   */
  watchMarket(params, options = {}) {
    return this.#watch("market", params, options);
  }

  /**
   * Follows a game.
   * @param {string | import("./predmarket.js").GetGameParams} params
   * @param {WatchOptions} [options]
   * @returns {import("./predmarket.js").Watch<import("./predmarket.js").GameResponse, import("./predmarket.js").JsonChange>}
   */
  watchGame(params, options = {}) {
    return this.#watch("game", params, options);
  }

  /**
   * Follows a future.
   * @param {string | import("./predmarket.js").GetFutureParams} params
   * @param {WatchOptions} [options]
   * @returns {import("./predmarket.js").Watch<import("./predmarket.js").FutureResponse, import("./predmarket.js").JsonChange>}
   */
  watchFuture(params, options = {}) {
    return this.#watch("future", params, options);
  }

  /**
   * Follows an award.
   * @param {string | import("./predmarket.js").GetAwardParams} params
   * @param {WatchOptions} [options]
   * @returns {import("./predmarket.js").Watch<import("./predmarket.js").AwardResponse, import("./predmarket.js").JsonChange>}
   */
  watchAward(params, options = {}) {
    return this.#watch("award", params, options);
  }

  /**
   * A resource's recorded rows (`GET /history`), a pager.
   * @param {import("./predmarket.js").HistoryParams} params
   * @param {import("./predmarket.js").HistoryOptions} [options]
   */
  history(params, options) {
    return historyPager(this, params, options);
  }
}

/**
 * The base URL the options name, or the client's default.
 * @param {Record<string, unknown>} options
 */
function baseUrlOf(options) {
  return typeof options.baseUrl === "string" ? options.baseUrl : ledgerRules().defaultBaseUrl;
}
