// @ts-check
// Watch streams: `client.watchOrderbook(id)` and friends poll one resource
// and yield what changed. Plain JS over the client's own methods, so they
// cost the wasm nothing; how often each watch may poll is the core's
// scheduler (`__watchIntervals`, predmarket-core's `schedule::intervals`),
// asked for every active watch of a client together: slower while the page
// is hidden or the rate budget runs low, never faster than asked, so
// polling cannot cause a 429.

/** How often the scheduler looks at its watches. */
const TICK_MS = 250;

/** @typedef {import("./predmarket.js").Client} WasmClient */
/** @typedef {import("./predmarket.js").WatchKind} WatchKind */
/** @typedef {import("./predmarket.js").WatchOptions} WatchOptions */
/** @typedef {import("./predmarket.js").CallOptions} CallOptions */
/** @typedef {import("./predmarket.js").WatchUpdate<unknown, unknown>} Update */
/** @typedef {(before: any, after: any) => unknown[]} Diff */
/** @typedef {new (message?: string, options?: ErrorOptions) => Error & { code?: string }} AbortErrorClass */
/**
 * @typedef {object} Rules
 * @property {typeof import("./predmarket.js").bookChanges} bookChanges
 * @property {typeof import("./predmarket.js").valueChanges} valueChanges
 * @property {typeof import("./predmarket.js").watchIntervalMs} watchIntervalMs
 * @property {typeof import("./predmarket.js").endsWatch} endsWatch
 */

/**
 * The rules every watch follows, from predmarket-core (compiled into the
 * package's wasm, passed in by the entry file): `bookChanges`,
 * `valueChanges`, `watchIntervalMs(kind)`, `endsWatch(error)`. The vectors
 * in tests/fixtures/rules/ hold them.
 */
/** @type {Rules} */
let rules;

/** @type {WeakMap<WasmClient, Scheduler>} */
const schedulers = new WeakMap();

function pageVisible() {
  const doc = globalThis.document;
  return !(doc && doc.hidden === true);
}

/** One scheduler per client: one timer for all of its watches. */
class Scheduler {
  /** @param {WasmClient} client */
  constructor(client) {
    this.client = client;
    /** @type {Set<Watch>} */
    this.watches = new Set();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /** @param {Watch} watch */
  add(watch) {
    this.watches.add(watch);
    if (this.timer === null) this.schedule();
  }

  /** @param {Watch} watch */
  remove(watch) {
    this.watches.delete(watch);
    if (this.watches.size === 0 && this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  schedule() {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
      if (this.watches.size > 0) this.schedule();
    }, TICK_MS);
  }

  tick() {
    const watches = [...this.watches];
    let every;
    try {
      every = this.client.__watchIntervals(
        Float64Array.from(watches, (w) => w.wantedMs),
        pageVisible(),
      );
    } catch {
      // A freed client: its watches end.
      for (const w of watches) w.finish();
      return;
    }
    const now = Date.now();
    watches.forEach((w, i) => {
      w.intervalMs = every[i];
      if (!w.inFlight && now - w.lastPollAt >= every[i]) w.poll(now);
    });
  }
}

/** @param {WasmClient} client */
function schedulerOf(client) {
  let s = schedulers.get(client);
  if (!s) {
    s = new Scheduler(client);
    schedulers.set(client, s);
  }
  return s;
}

/**
 * @param {any} snapshot
 * @returns {string | null}
 */
function asOf(snapshot) {
  return snapshot?.meta?.data_freshness ?? snapshot?.data?.timestamp ?? null;
}

/** @implements {AsyncIterableIterator<Update>} */
class Watch {
  /**
   * @param {WasmClient} client
   * @param {WatchKind} kind
   * @param {(callOptions: CallOptions) => Promise<unknown>} fetch
   * @param {Diff} diff
   * @param {WatchOptions} options
   * @param {AbortErrorClass} AbortErrorClass
   */
  constructor(client, kind, fetch, diff, options, AbortErrorClass) {
    this.kind = kind;
    this.fetchSnapshot = fetch;
    this.diff = diff;
    this.wantedMs = Math.max(1, Number(options.intervalMs ?? rules.watchIntervalMs(kind)));
    this.intervalMs = this.wantedMs;
    this.callOptions = options.callOptions ?? {};
    this.onUpdate = options.onUpdate;
    this.onError = options.onError;
    this.AbortError = AbortErrorClass;
    this.lastPollAt = 0;
    this.inFlight = false;
    /** @type {unknown} */
    this.snapshot = undefined;
    /** @type {Update[]} */
    this.queue = [];
    /** @type {{ resolve: (result: IteratorResult<Update, undefined>) => void, reject: (error: unknown) => void }[]} */
    this.waiting = [];
    this.done = false;
    /** @type {unknown} */
    this.failure = null;
    this.controller = new AbortController();
    this.scheduler = schedulerOf(client);
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) {
        this.fail(this.abortError(signal));
        return;
      }
      signal.addEventListener("abort", () => this.fail(this.abortError(signal)), { once: true });
    }
    this.scheduler.add(this);
  }

  /** @param {AbortSignal} signal */
  abortError(signal) {
    const error = new this.AbortError("The watch was aborted", { cause: signal.reason });
    error.code = "ABORTED";
    return error;
  }

  /** @param {number} now */
  async poll(now) {
    this.inFlight = true;
    this.lastPollAt = now;
    try {
      const snapshot = await this.fetchSnapshot({ ...this.callOptions, signal: this.controller.signal });
      if (this.done) return;
      const first = this.snapshot === undefined;
      const changes = first ? [] : this.diff(this.snapshot, snapshot);
      this.snapshot = snapshot;
      if (first || changes.length > 0) {
        this.push({ snapshot, changes, asOf: asOf(snapshot), receivedAt: Date.now() });
      }
    } catch (error) {
      if (this.done) return;
      if (rules.endsWatch(error)) {
        this.fail(error);
        return;
      }
      // Refused for now (network, 5xx, 429 after the client's own
      // retries): told, and asked again at the next interval.
      if (this.onError) {
        try {
          // The client rejects with its PredmarketError only.
          this.onError(/** @type {import("./predmarket.js").PredmarketError} */ (error));
        } catch {
          // A hook that throws does not end the watch.
        }
      }
    } finally {
      this.inFlight = false;
    }
  }

  /** @param {Update} update */
  push(update) {
    if (this.onUpdate) {
      try {
        this.onUpdate(update);
      } catch {
        // A hook that throws does not end the watch.
      }
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve({ value: update, done: false });
    else this.queue.push(update);
  }

  /**
   * Ends the watch with an error, thrown once; iteration is then over.
   * @param {unknown} error
   */
  fail(error) {
    if (this.done) return;
    this.stopPolling();
    const waiting = this.waiting.splice(0);
    // Thrown once: to whoever waits now, else to the next `next()`.
    if (waiting.length === 0) this.failure = error;
    for (const waiter of waiting) waiter.reject(error);
  }

  /** Ends the watch cleanly: iteration finishes. */
  finish() {
    if (this.done) return;
    this.stopPolling();
    for (const waiter of this.waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  stopPolling() {
    this.done = true;
    this.scheduler.remove(this);
    this.controller.abort();
  }

  /** Stops polling; a `for await` over the watch ends. */
  stop() {
    this.queue.length = 0;
    this.finish();
  }

  /** @returns {Promise<IteratorResult<Update, undefined>>} */
  next() {
    // The queue holds updates only, never `undefined`.
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve({ value: queued, done: false });
    if (this.failure) {
      // Thrown once, then the watch is simply over (as an async generator).
      const error = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** @returns {Promise<IteratorResult<Update, undefined>>} */
  return() {
    this.stop();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/**
 * Adds the `watch*` methods to the client's prototype.
 * @param {typeof import("./predmarket.js").Client} Client
 * @param {AbortErrorClass} AbortErrorClass
 * @param {Rules} coreRules
 */
export function installWatch(Client, AbortErrorClass, coreRules) {
  rules = coreRules;
  /**
   * @param {string} name
   * @param {WatchKind} kind
   * @param {(this: WasmClient, params: any, options?: CallOptions) => Promise<unknown>} get
   * @param {Diff} diff
   */
  const define = (name, kind, get, diff) => {
    Object.defineProperty(Client.prototype, name, {
      configurable: true,
      writable: true,
      /**
       * @this {WasmClient}
       * @param {unknown} params
       * @param {WatchOptions} [options]
       */
      value(params, options = {}) {
        return new Watch(this, kind, (callOptions) => get.call(this, params, callOptions), diff, options, AbortErrorClass);
      },
    });
  };
  define("watchOrderbook", "orderbook", Client.prototype.getOrderbook, rules.bookChanges);
  define("watchMarket", "market", Client.prototype.getMarket, rules.valueChanges);
  define("watchGame", "game", Client.prototype.getGame, rules.valueChanges);
  define("watchFuture", "future", Client.prototype.getFuture, rules.valueChanges);
}
