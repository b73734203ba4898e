// @ts-check
// Watch streams: `client.watchOrderbook(id)` and friends follow one
// resource and yield what changed. Plain JS over the client's own methods,
// so they cost the wasm little.
//
// Two sources, one contract. Where the server offers `GET /stream` (the
// reference server and its proxy mode), all of a client's watches share
// one stream of it: browsers allow about six HTTP/1.1 connections per
// origin, so one per watch would starve the page. The first watch finds
// out (a 404, 405 or an answer that is not `text/event-stream` means no
// streams: the client then polls, and remembers it); when the set of
// watches changes the client opens a stream of the new set, resuming each
// resource where it was (`Last-Event-ID`), and closes the old one once the
// new one answered. A stream that drops is reopened with backoff, and the
// watches poll meanwhile, so none goes silent. Where the server has no
// streams (the public service), each watch polls; how often is the core's
// scheduler (`__watchIntervals`, predmarket-core's `schedule::intervals`),
// asked for every polling watch of a client together: slower while the
// page is hidden or the rate budget runs low, never faster than asked, so
// polling cannot cause a 429.
//
// Either way a watch yields `update`s, and `stale` the moment its data
// stops being fresh (the server says so, a poll failed, or the data is
// older than `maxStalenessMs`), then `live` when it is fresh again (these
// three are the package's own item types, `WatchUpdate["type"]`, not the
// stream's event names).
//
// Whose rules are whose.
// - predmarket-core's, read through the wasm (`rules`, read once at the
//   first watch): every name and number of the stream (its path's
//   parameter, header and media type, the event kinds this file
//   dispatches on, the stale reasons it tells, the cap of resources per
//   stream, the open timeout, the first `retry`: `rules.live.rules`, the
//   core's `live`); reading a stream's bytes into events, `retry:` and
//   positions, the `Last-Event-ID` to resume with, the silence deadline
//   and the `silent` events (`rules.live.Reader`, `rules.live.Positions`:
//   `sse::Reader`, `sse::Positions`); the reconnect backoff and what
//   answer means "no streams here"; what changed between two answers,
//   which refusal ends a watch, and the polling intervals
//   (`__watchIntervals`). The vectors in tests/fixtures/live/ and
//   tests/fixtures/rules/ hold them in core's, the client's and the node
//   tests alike.
// - JS, and why: the fetch loop, the timers and the `ReadableStream`
//   reading (I/O, which the sans-IO core leaves to its caller); the hub
//   that shares one stream among a client's watches and reopens it when
//   their set changes; and a watch's own state across its two sources
//   (stream and poll: `fromStream`, `markStale`, `markLive`, `age`). That
//   state follows `sse::Watching::after` but is not run from the wasm,
//   because it also takes the watch's own polls, their failures and
//   `maxStalenessMs`, which the core's state machine does not know; it is
//   held by tests/node/live.test.mjs and tests/node/stream.test.mjs. So
//   are `asOf` and `retryAfterMs` (reading an answer the client polled and
//   a `Retry-After` header, not the stream), and the event fields read
//   here (`StreamEvent`, the core's `live::Body` as JSON).
//
// The files: watch-rules.js reads the core's rules once; watch-hub.js is
// the hub (the shared stream, its reopening and backoff, the polling
// tick); this file is a watch's own state and the functions client.js
// calls.

import { PredmarketError, PredmarketAbortError } from "./errors.js";
import { load } from "./watch-load.js";
import { rules, readRules, kind } from "./watch-rules.js";
import { hubOf, streamModeOf } from "./watch-hub.js";

/** @typedef {import("./predmarket.js").Client} WasmClient */
/** @typedef {import("./predmarket.js").WatchKind} WatchKind */
/** @typedef {import("./predmarket.js").WatchOptions} WatchOptions */
/** @typedef {import("./predmarket.js").CallOptions} CallOptions */
/** @typedef {import("./predmarket.js").WatchUpdate<unknown, unknown>} Update */
/** @typedef {(before: any, after: any) => unknown[]} Diff */
/** @typedef {new (message?: string, options?: ErrorOptions) => Error & { code?: string }} AbortErrorClass */
/** @typedef {import("./watch-rules.js").StreamEvent} StreamEvent */

/**
 * What a failed poll answered, when it says: a status and an error code.
 * @typedef {{ status?: number, code?: string }} Failure
 */

/**
 * The status and code of a failed poll: a stream's `stale` event or the
 * client's error (a network failure has neither).
 * @param {unknown} from
 * @returns {Failure}
 */
function failureOf(from) {
  /** @type {Failure} */
  const failure = {};
  if (from && typeof from === "object") {
    const { status, code } = /** @type {{ status?: unknown, code?: unknown }} */ (from);
    if (typeof status === "number" && Number.isInteger(status) && status > 0) failure.status = status;
    if (typeof code === "string" && code !== "") failure.code = code;
  }
  return failure;
}

/**
 * @param {any} snapshot
 * @returns {string | null}
 */
function asOf(snapshot) {
  return snapshot?.meta?.data_freshness ?? snapshot?.data?.timestamp ?? null;
}

/** @implements {AsyncIterableIterator<Update>} */
export class Watch {
  /**
   * @param {WasmClient} client
   * @param {WatchKind} kind
   * @param {string | null} resource `KIND:ID` when the stream can carry the watch
   * @param {(callOptions: CallOptions) => Promise<unknown>} fetch
   * @param {Diff} diff
   * @param {WatchOptions} options
   * @param {AbortErrorClass} AbortErrorClass
   */
  constructor(client, kind, resource, fetch, diff, options, AbortErrorClass) {
    this.kind = kind;
    this.resource = resource;
    this.fetchSnapshot = fetch;
    this.diff = diff;
    this.wantedMs = Math.max(1, Number(options.intervalMs ?? rules.watchIntervalMs(kind)));
    this.intervalMs = this.wantedMs;
    this.callOptions = options.callOptions ?? {};
    this.onUpdate = options.onUpdate;
    this.onError = options.onError;
    const max = options.maxStalenessMs;
    this.maxStalenessMs = max === undefined || max === null ? null : Math.max(0, Number(max));
    this.endWhenStale = options.staleAction === "end";
    this.AbortError = AbortErrorClass;
    /** When the watch last polled or last heard from the stream (ms). */
    this.heardAt = 0;
    this.inFlight = false;
    /** @type {unknown} */
    this.snapshot = undefined;
    /** @type {"stream" | "poll"} */
    this.source = "poll";
    /** @type {string | null} */
    this.asOf = null;
    // The data's age: `ageMs` when last vouched for at `confirmedAt`,
    // growing from then unless the open stream vouches for it.
    this.ageMs = 0;
    this.confirmedAt = Date.now();
    /** Why the watch is stale (it said so), and who said it; `null`: fresh. */
    /** @type {string | null} */
    this.staleReason = null;
    /** @type {"stream" | "client"} */
    this.staleFrom = "client";
    /** Over `maxStalenessMs`, told once until fresh data comes. */
    this.overdue = false;
    /** @type {Update[]} */
    this.queue = [];
    /** @type {{ resolve: (result: IteratorResult<Update, undefined>) => void, reject: (error: unknown) => void }[]} */
    this.waiting = [];
    this.done = false;
    /** @type {unknown} */
    this.failure = null;
    this.controller = new AbortController();
    this.hub = hubOf(client);
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) {
        this.fail(this.abortError(signal));
        return;
      }
      signal.addEventListener("abort", () => this.fail(this.abortError(signal)), { once: true });
    }
    this.hub.add(this);
  }

  /** @param {AbortSignal} signal */
  abortError(signal) {
    const error = new this.AbortError("The watch was aborted", { cause: signal.reason });
    error.code = "ABORTED";
    return error;
  }

  /** The data's age now (ms). */
  age(now = Date.now()) {
    const vouched = this.hub.covers(this) && this.staleReason === null;
    return vouched ? this.ageMs : this.ageMs + Math.max(0, now - this.confirmedAt);
  }

  /**
   * The stream stopped vouching for the data: its age grows from now, and
   * the watch polls one interval on.
   * @param {number} now
   */
  unvouched(now) {
    if (this.hub.covers(this)) return;
    // Vouched for until now (a stale one's age has been growing already).
    if (this.staleReason === null) this.confirmedAt = now;
    this.heardAt = this.snapshot === undefined ? 0 : now;
  }

  /**
   * @param {number} ageMs
   * @param {"stream" | "poll"} source
   * @param {string | null} asOf
   */
  confirm(ageMs, source, asOf) {
    this.ageMs = Math.max(0, Number(ageMs) || 0);
    this.confirmedAt = Date.now();
    this.source = source;
    this.asOf = asOf;
    this.overdue = false;
  }

  /**
   * @param {"update" | "stale" | "live"} type
   * @param {unknown[]} changes
   * @param {string} [reason]
   * @param {Failure} [failure] the failed poll's status and code, when known
   * @returns {Update}
   */
  item(type, changes, reason, failure) {
    /** @type {Update} */
    const item = {
      type,
      source: this.source,
      snapshot: this.snapshot,
      changes,
      asOf: this.asOf,
      ageMs: this.age(),
      receivedAt: Date.now(),
    };
    if (reason !== undefined) item.reason = reason;
    if (failure?.status !== undefined) item.status = failure.status;
    if (failure?.code !== undefined) item.code = failure.code;
    return item;
  }

  /**
   * Tells `stale` once per reason, if there is data to be stale.
   * @param {string} reason
   * @param {"stream" | "client"} from
   * @param {Failure} [failure]
   */
  markStale(reason, from, failure) {
    if (this.snapshot === undefined || this.staleReason === reason) return;
    // Its age as it was while still vouched for, growing from here.
    this.ageMs = this.age();
    this.confirmedAt = Date.now();
    this.staleReason = reason;
    this.staleFrom = from;
    this.push(this.item("stale", [], reason, failure));
  }

  markLive() {
    if (this.staleReason === null) return;
    this.staleReason = null;
    this.push(this.item("live", []));
  }

  /**
   * An event of this watch's resource from the stream.
   * @param {string} name
   * @param {StreamEvent} event
   * @param {unknown} before the resource's answer before this event
   */
  fromStream(name, event, before) {
    if (this.done) return;
    if (name === kind().Snapshot || name === kind().Change) {
      const data = event.data;
      if (data === undefined) return;
      const first = this.snapshot === undefined;
      // The server's changes when they are from what this watch holds;
      // else (a resync, data polled meanwhile) compared with it here, so
      // a reconnect yields nothing twice.
      const changes = first
        ? []
        : name === kind().Change && this.snapshot === before && Array.isArray(event.changes)
          ? event.changes
          : this.diff(this.snapshot, data);
      this.snapshot = data;
      this.confirm(event.age_ms ?? 0, "stream", event.as_of ?? asOf(data));
      this.heardAt = Date.now();
      if (first || changes.length > 0) this.push(this.item("update", changes));
      // The server tells `stale` again after a snapshot if it still is.
      if (this.staleFrom === "client" || name === kind().Snapshot) this.markLive();
    } else if (name === kind().Stale) {
      const reason = String(event.reason ?? rules.live.rules.pollFailed);
      if (reason !== this.staleReason && typeof event.age_ms === "number") {
        // The server's word on the age; it grows from here.
        this.ageMs = event.age_ms;
        this.confirmedAt = Date.now();
      }
      this.source = "stream";
      // A failed poll's answer as the server got it (its status and
      // code), as a failed poll of the client's own says.
      this.markStale(reason, "stream", failureOf(event));
    } else if (name === kind().Live) {
      this.confirm(event.age_ms ?? 0, "stream", event.as_of ?? this.asOf);
      this.markLive();
    } else if (name === kind().Error) {
      // Only the upstream's own typed refusal ends the watch (the core's
      // rule, `sse::Watching::after`, read from the wasm); any other
      // error is a failed poll: held data is stale and the stream goes on.
      if (!rules.endsWatch(event)) {
        this.source = "stream";
        this.markStale(rules.live.rules.pollFailed, "stream", failureOf(event));
        return;
      }
      const error = new PredmarketError(String(event.message ?? "the resource cannot be watched"));
      this.fail(Object.assign(error, { code: String(event.code ?? "INTERNAL_ERROR"), status: event.status }));
    }
  }

  /** @param {number} now */
  async poll(now) {
    this.inFlight = true;
    this.heardAt = now;
    try {
      const snapshot = await this.fetchSnapshot({ ...this.callOptions, signal: this.controller.signal });
      if (this.done) return;
      const first = this.snapshot === undefined;
      const changes = first ? [] : this.diff(this.snapshot, snapshot);
      this.snapshot = snapshot;
      this.confirm(0, "poll", asOf(snapshot));
      if (this.resource !== null && !this.hub.covers(this)) {
        // Newer than the stream's position: a stream reopened resyncs
        // (a fresh snapshot, compared) rather than replaying older events.
        this.hub.positions.forget(this.resource);
      }
      if (first || changes.length > 0) this.push(this.item("update", changes));
      this.markLive();
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
      // Once per episode: a watch stale already (for any reason) stays so.
      this.source = "poll";
      if (this.staleReason === null) this.markStale(rules.live.rules.pollFailed, "client", failureOf(error));
    } finally {
      this.inFlight = false;
    }
  }

  /**
   * `maxStalenessMs`: flags the watch (or ends it) once its data is older.
   * @param {number} now
   */
  checkAge(now) {
    if (this.maxStalenessMs === null || this.done || this.overdue || this.snapshot === undefined) return;
    const age = this.age(now);
    if (age <= this.maxStalenessMs) return;
    this.overdue = true;
    if (this.endWhenStale) {
      const error = new PredmarketError(`the watched data is ${Math.round(age)} ms old, more than maxStalenessMs (${this.maxStalenessMs})`);
      this.fail(Object.assign(error, { code: "TIMEOUT" }));
      return;
    }
    this.markStale(rules.live.rules.maxStaleness, "client");
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
    this.hub.remove(this);
    this.controller.abort();
  }

  /** Stops the watch; a `for await` over it ends. */
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
 * The id a stream names a watch's resource by (`KIND:ID`), or `null` when
 * its parameters say more than the id (`platform`, `include_raw`): those
 * watches poll. The id's key is the operation's path parameter
 * (`idParam`, the operation table's).
 * @param {string | undefined} idParam
 * @param {unknown} params
 * @returns {string | null}
 */
function streamId(idParam, params) {
  if (typeof params === "string") return params;
  if (!params || typeof params !== "object") return null;
  const given = Object.entries(params).filter(([, v]) => v !== undefined && v !== null);
  return given.length === 1 && given[0][0] === idParam && typeof given[0][1] === "string" ? given[0][1] : null;
}

/**
 * A watch of `kind` for the package's `Client` (its `watch*` methods,
 * client.js), which gives it its `poll`: a call that goes to the service
 * as it is, not through the persistent cache or the capability check.
 * @param {WasmClient} client
 * @param {WatchKind} kind
 * @param {unknown} params
 * @param {WatchOptions} options
 * @param {(callOptions: CallOptions) => Promise<unknown>} poll
 * @param {string | undefined} idParam the polled operation's path parameter (the operation table's; without one the watch polls)
 */
export function watch(client, kind, params, options, poll, idParam) {
  readRules();
  const diff = kind === "orderbook" ? rules.bookChanges : rules.valueChanges;
  // A call's own headers cannot ride on the shared stream: such a
  // watch polls.
  const headers = options.callOptions?.headers;
  const own = headers && Object.keys(headers).length > 0;
  const id = own ? null : streamId(idParam, params);
  const resource = id !== null && client.__streamable(kind, id) ? `${kind}:${id}` : null;
  // The class is what the declarations call `Watch<T, C>`.
  return /** @type {any} */ (new Watch(client, kind, resource, poll, diff, options, PredmarketAbortError));
}

/**
 * How often a watch of `kind` asks when its caller does not say (ms): the
 * core's rule, for `estimate()` (client.js), which loads this module to
 * price watches.
 * @param {WatchKind} kind
 */
export const watchIntervalMs = (kind) => load().watchIntervalMs(kind);

/**
 * How many watches one stream carries: the core's rule (the reference
 * server's `--stream-max-resources` default), for `estimate()`.
 * @returns {number}
 */
export const streamMaxResources = () => load().__liveRules().maxResources;

/**
 * What the client's watches found out about the server's stream (`estimate` prices watches by it).
 * @param {WasmClient} client
 * @returns {"discover" | "stream" | "poll"}
 */
export function streamMode(client) {
  return streamModeOf(client);
}
