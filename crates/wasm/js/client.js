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
// what a `watch*` method returns meanwhile). So are the options' own
// code and the capabilities: capabilities.js at the first
// `capabilities()`, `supports()` or checked call, persistent-cache.js
// when a client is made with `persistentCache`, shared-budget.js at the
// first request of a client made with `sharedBudget: true`; the options
// themselves are checked at once (client-options.js).

import { Client as WasmClient, __operations, __ledgerRules } from "./predmarket.js";
import { checkCapabilitiesOption, persistentCacheOption } from "./client-options.js";
import { ledgerRules, readLedgerRulesFrom } from "./ledger-rules.js";
import { lazyPager } from "./lazy-pager.js";
import { WatchHandle } from "./watch-handle.js";
import { historyPager } from "./history.js";

/** @type {Promise<typeof import("./watch.js")> | undefined} */
let watchModule;
/** The watch streams' module, loaded once, at first use. */
const watches = () => (watchModule ??= import("./watch.js"));

/** @typedef {import("./predmarket.js").OperationEntry} OperationEntry */
/** @typedef {import("./predmarket.js").WatchOptions} WatchOptions */

readLedgerRulesFrom(__ledgerRules);

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
  /** @type {Promise<import("./capabilities.js").Capabilities> | undefined} */
  #capabilities;
  /** Whether calls are checked against `/platforms` (`checkCapabilities`). */
  #check = false;
  /** With `persistentCache`: its store, once persistent-cache.js is loaded. @type {Promise<import("./persistent-cache.js").PersistentCache> | undefined} */
  #persistent;
  /** The same store once loaded, for `keptAgeMs` (a kept answer comes from it). @type {import("./persistent-cache.js").PersistentCache | undefined} */
  #kept;

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
        given = { ...rest, sharedBudget: sharedBudgetLedger(baseUrlOf(rest), String(rest.apiKey ?? "")) };
      }
    }
    super(given);
    const limit = given.rateLimitPerMinute;
    if (typeof limit === "number" && limit > 0) this.#limit = limit;
    this.#check = check;
    if (keep) {
      const [baseUrl, apiKey] = [baseUrlOf(given), String(given.apiKey ?? "")];
      // Loaded now: the store opens its database while the app starts.
      this.#persistent = import("./persistent-cache.js").then(({ PersistentCache }) => (this.#kept = new PersistentCache(baseUrl, apiKey, keep)));
      // A module that fails to load fails the calls that need it, not the realm.
      this.#persistent.catch(() => {});
    }
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
    const checked = this.#check ? () => this.#known().then((known) => known.call(op, params, send)) : send;
    return this.#persistent ? this.#persistent.then((kept) => kept.call(op.name, params, callOptions, checked)) : checked();
  }

  /**
   * A pager of the operation at `index` as the options say.
   * @param {number} index
   * @param {unknown} params
   * @param {unknown} pager
   */
  #pager(index, params, pager) {
    if (!this.#check) return pager;
    // Handed out at once; capabilities.js's pager takes over at its first page.
    return lazyPager(pager, () => this.#known().then((known) => known.pager(operations()[index], params, pager)));
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
    const idParam = operations()[index]?.idParam;
    const poll = (/** @type {import("./predmarket.js").CallOptions} */ callOptions) => this.__call(index, params, callOptions);
    // The class is what the declarations call `Watch<T, C>`.
    return /** @type {any} */ (new WatchHandle(watches().then(({ watch }) => watch(this, kind, params, options, poll, idParam))));
  }

  /** What the client knows of platforms, made (capabilities.js loaded) at first use. */
  #known() {
    return (this.#capabilities ??= import("./capabilities.js").then(({ Capabilities }) => new Capabilities(this)));
  }

  /**
   * Features by platform id, as `/platforms` says (read once, again after 5 minutes).
   * @param {{ signal?: AbortSignal }} [options]
   */
  capabilities(options) {
    return this.#known().then((known) => known.table(options));
  }

  /**
   * Whether a platform serves a feature; `undefined` when `/platforms` does not say.
   * @param {string} platform
   * @param {string} feature
   */
  supports(platform, feature) {
    return this.#known().then((known) => known.supports(platform, feature));
  }

  /**
   * What a walk, calls or watches will cost: requests, and minutes at the current rate budget.
   * @param {any} plan
   */
  async estimate(plan) {
    const pagers = operations().flatMap((op) => (op.pager ? [op.pager] : []));
    const watchKinds = operations().flatMap((op) => (op.watch ? [op.watch] : []));
    // What this client's watches found out about the server's stream.
    const [{ estimate }, { streamMode, watchIntervalMs, streamMaxResources }] = await Promise.all([import("./estimate.js"), watches()]);
    return estimate(this, plan, { limit: this.#limit, pagers, watchKinds, streamMode: streamMode(this), watchIntervalMs, streamMaxResources: streamMaxResources() });
  }

  /**
   * How old an answer was when `persistentCache` returned it (ms); `undefined` for one from the service.
   * @param {object} answer
   * @returns {number | undefined}
   */
  keptAgeMs(answer) {
    return this.#kept?.keptAnswers.get(answer);
  }

  /** Forgets every cached answer, in memory and, with `persistentCache`, in IndexedDB (of this key and base URL). */
  clearCache() {
    super.clearCache();
    this.clearPersistentCache();
  }

  /** Forgets the answers `persistentCache` kept for this key and base URL; resolves when they are gone. */
  async clearPersistentCache() {
    await (await this.#persistent)?.clear();
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

/**
 * `sharedBudget: true`'s ledger (shared-budget.js), loaded at the
 * client's first request. Until it is, `remaining` is the whole budget,
 * as the loaded ledger says until its first request comes back.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @returns {import("./predmarket.js").SharedBudgetLedger}
 */
function sharedBudgetLedger(baseUrl, apiKey) {
  /** @type {Promise<import("./predmarket.js").SharedBudgetLedger> | undefined} */
  let loading;
  /** @type {import("./predmarket.js").SharedBudgetLedger | undefined} */
  let ledger;
  const load = () => (loading ??= import("./shared-budget.js").then(({ sharedBudget }) => (ledger = sharedBudget(baseUrl, apiKey))));
  return {
    acquire: (limit) => load().then((l) => l.acquire(limit)),
    blockFor(ms) {
      load().then((l) => l.blockFor(ms), () => {});
    },
    remaining: (limit) => (ledger ? ledger.remaining(limit) : limit),
  };
}
