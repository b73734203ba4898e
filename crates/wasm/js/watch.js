// Watch streams: `client.watchOrderbook(id)` and friends poll one resource
// and yield what changed. Plain JS over the client's own methods, so they
// cost the wasm nothing; how often each watch may poll is the core's
// scheduler (`__watchIntervals`, predmarket-core's `schedule::intervals`),
// asked for every active watch of a client together: slower while the page
// is hidden or the rate budget runs low, never faster than asked, so
// polling cannot cause a 429.

/** How often the scheduler looks at its watches. */
const TICK_MS = 250;

/** What each watch asks for when the caller gives no `intervalMs`. */
const DEFAULT_INTERVAL_MS = { orderbook: 5_000, market: 10_000, game: 15_000, future: 30_000 };

/** Errors that end a watch: asking again cannot help. */
const FATAL_STATUS = new Set([400, 401, 403, 404, 422]);
const isFatal = (error) => FATAL_STATUS.has(error?.status) || error?.code === "VALIDATION_ERROR";

const schedulers = new WeakMap();

function pageVisible() {
  const doc = globalThis.document;
  return !(doc && doc.hidden === true);
}

/** One scheduler per client: one timer for all of its watches. */
class Scheduler {
  constructor(client) {
    this.client = client;
    this.watches = new Set();
    this.timer = null;
  }

  add(watch) {
    this.watches.add(watch);
    if (this.timer === null) this.schedule();
  }

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

function schedulerOf(client) {
  let s = schedulers.get(client);
  if (!s) {
    s = new Scheduler(client);
    schedulers.set(client, s);
  }
  return s;
}

/** Changed leaves between two JSON values, as `{ path, from, to }`. */
function diffJson(from, to, path, out) {
  if (Object.is(from, to)) return out;
  const fromObject = from !== null && typeof from === "object";
  const toObject = to !== null && typeof to === "object";
  if (fromObject && toObject && Array.isArray(from) === Array.isArray(to)) {
    const keys = new Set([...Object.keys(from), ...Object.keys(to)]);
    // Own values only: a key of the wire named `__proto__` that one side
    // lacks would otherwise read that side's prototype.
    const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);
    for (const key of keys) {
      const next = Array.isArray(to) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      diffJson(own(from, key), own(to, key), next, out);
    }
    return out;
  }
  out.push({ path, from: from === undefined ? null : from, to: to === undefined ? null : to });
  return out;
}

/** What changed in a response, leaving out its `meta` (timings). */
function responseChanges(before, after) {
  const strip = (r) => {
    if (r === null || typeof r !== "object") return r;
    const { meta: _meta, ...rest } = r;
    return rest;
  };
  return diffJson(strip(before), strip(after), "", []);
}

/** Price levels new, resized or gone, per book (`yes`/`no`) and side. */
function bookChanges(before, after) {
  const out = [];
  for (const book of ["yes", "no"]) {
    for (const side of ["bids", "asks"]) {
      const sizes = (r) => {
        const m = new Map();
        for (const level of r?.data?.[book]?.[side] ?? []) {
          const price = Number(level.price);
          m.set(price, (m.get(price) ?? 0) + Number(level.size));
        }
        return m;
      };
      const was = sizes(before);
      const now = sizes(after);
      for (const [price, size] of now) {
        const old = was.get(price);
        if (old === undefined || old !== size) out.push({ book, side, price, from: old ?? null, to: size });
      }
      for (const [price, size] of was) {
        if (!now.has(price)) out.push({ book, side, price, from: size, to: null });
      }
    }
  }
  return out;
}

function asOf(snapshot) {
  return snapshot?.meta?.data_freshness ?? snapshot?.data?.timestamp ?? null;
}

class Watch {
  constructor(client, kind, fetch, diff, options, AbortErrorClass) {
    this.kind = kind;
    this.fetchSnapshot = fetch;
    this.diff = diff;
    this.wantedMs = Math.max(1, Number(options.intervalMs ?? DEFAULT_INTERVAL_MS[kind]));
    this.intervalMs = this.wantedMs;
    this.callOptions = options.callOptions ?? {};
    this.onUpdate = options.onUpdate;
    this.onError = options.onError;
    this.AbortError = AbortErrorClass;
    this.lastPollAt = 0;
    this.inFlight = false;
    this.snapshot = undefined;
    this.queue = [];
    this.waiting = [];
    this.done = false;
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

  abortError(signal) {
    const error = new this.AbortError("The watch was aborted", { cause: signal.reason });
    error.code = "ABORTED";
    return error;
  }

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
      if (isFatal(error)) {
        this.fail(error);
        return;
      }
      // Refused for now (network, 5xx, 429 after the client's own
      // retries): told, and asked again at the next interval.
      if (this.onError) {
        try {
          this.onError(error);
        } catch {
          // A hook that throws does not end the watch.
        }
      }
    } finally {
      this.inFlight = false;
    }
  }

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

  /** Ends the watch with an error, thrown once; iteration is then over. */
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

  next() {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift(), done: false });
    if (this.failure) {
      // Thrown once, then the watch is simply over (as an async generator).
      const error = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  return() {
    this.stop();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** Adds the `watch*` methods to the client's prototype. */
export function installWatch(Client, AbortErrorClass) {
  const define = (name, kind, get, diff) => {
    Object.defineProperty(Client.prototype, name, {
      configurable: true,
      writable: true,
      value(params, options = {}) {
        return new Watch(this, kind, (callOptions) => get.call(this, params, callOptions), diff, options, AbortErrorClass);
      },
    });
  };
  define("watchOrderbook", "orderbook", Client.prototype.getOrderbook, bookChanges);
  define("watchMarket", "market", Client.prototype.getMarket, responseChanges);
  define("watchGame", "game", Client.prototype.getGame, responseChanges);
  define("watchFuture", "future", Client.prototype.getFuture, responseChanges);
}
