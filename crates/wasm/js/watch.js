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

import { PredmarketError, PredmarketAbortError } from "./errors.js";
import { load } from "./watch-load.js";

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
 * @property {typeof import("./watch_glue.js").bookChanges} bookChanges
 * @property {typeof import("./watch_glue.js").valueChanges} valueChanges
 * @property {typeof import("./watch_glue.js").watchIntervalMs} watchIntervalMs
 * @property {typeof import("./watch_glue.js").endsWatch} endsWatch
 * @property {Live} live
 */
/**
 * The stream's contract and reader, predmarket-core's `live` and `sse`
 * compiled into the watch streams' wasm (crates/watch): watch.js
 * restates none of their rules (the vectors in tests/fixtures/live/ hold
 * both).
 * @typedef {object} Live
 * @property {LiveRules} rules
 * @property {new () => LivePositions} Positions
 * @property {new (resources: string[], nowMs: number) => LiveReader} Reader
 * @property {(retryMs: number, failures: number, jitter: number, retryAfterMs: number | undefined) => number} backoffMs
 * @property {(status: number, contentType: string | undefined) => boolean} hasNoStreams
 */
/**
 * @typedef {{ maxResources: number, openTimeoutMs: number, retryMs: number, pollFailed: string, maxStaleness: string, kind: LiveKinds, path: string, watchParam: string, lastEventIdHeader: string, mediaType: string }} LiveRules
 * @typedef {{ forget(resource: string): void, retain(resources: string[]): void, lastEventId(resources: string[]): string | undefined }} LivePositions
 * @typedef {{ retryMs: number } | { kind: string, event: StreamEvent }} LiveRead
 * @typedef {{ feed(positions: LivePositions, chunk: string, nowMs: number): LiveRead[], deadlineMs(): number, isSilent(nowMs: number): boolean, silentEvents(nowMs: number): StreamEvent[], free(): void }} LiveReader
 */
/**
 * The stream's event kinds, keyed by predmarket-core's names for them
 * (`live::Kind`'s variants) and valued by their wire names (`event:`,
 * the reader's `kind`), which only the core states.
 * @typedef {{ Snapshot: string, Change: string, Stale: string, Live: string, Resync: string, Error: string }} LiveKinds
 */
/**
 * One event of a stream, as its JSON says (`resource` and `seq` always).
 * @typedef {object} StreamEvent
 * @property {string} resource
 * @property {number} seq
 * @property {string | null} [as_of]
 * @property {number | null} [age_ms]
 * @property {unknown} [data]
 * @property {unknown[]} [changes]
 * @property {string} [reason]
 * @property {number} [status]
 * @property {string} [code]
 * @property {string} [message]
 */

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
 * The rules every watch follows, from predmarket-core (compiled into the
 * watch streams' wasm, instantiated here at the first watch):
 * `bookChanges`, `valueChanges`, `watchIntervalMs(kind)`,
 * `endsWatch(error)`, the live contract and reader. The vectors in tests/fixtures/rules/ and
 * tests/fixtures/live/ hold them.
 * @returns {Rules}
 */
const coreRules = () => {
  const glue = load();
  return {
    bookChanges: glue.bookChanges,
    valueChanges: glue.valueChanges,
    watchIntervalMs: glue.watchIntervalMs,
    endsWatch: glue.endsWatch,
    live: { rules: glue.__liveRules(), Positions: glue.__LivePositions, Reader: glue.__LiveReader, backoffMs: glue.__streamBackoffMs, hasNoStreams: glue.__hasNoStreams },
  };
};
/** @type {Rules} */
let rules;

/**
 * The core's rules, read once. The event kinds this file dispatches on
 * are the wasm's (`kind.Snapshot` is `"snapshot"` because the core says
 * so); a kind the core no longer has fails the first watch, not silently
 * as a branch never taken.
 * @returns {Rules}
 */
function checkedRules() {
  const read = coreRules();
  const { kind } = read.live.rules;
  if (![kind.Snapshot, kind.Change, kind.Stale, kind.Live, kind.Error].every((name) => typeof name === "string")) {
    throw Object.assign(new PredmarketError("watch.js: predmarket-core's live::Kind lacks a kind this file acts on"), { code: "INTERNAL_ERROR" });
  }
  return read;
}

/** The stream's event kinds (see `LiveKinds`), once `rules` is read. */
const kind = () => rules.live.rules.kind;

/** @type {WeakMap<WasmClient, Hub>} */
const hubs = new WeakMap();

function pageVisible() {
  const doc = globalThis.document;
  return !(doc && doc.hidden === true);
}

/**
 * @param {any} snapshot
 * @returns {string | null}
 */
function asOf(snapshot) {
  return snapshot?.meta?.data_freshness ?? snapshot?.data?.timestamp ?? null;
}

/**
 * A resource one or more watches of a client follow through the stream:
 * its last answer, which a watch that joins later starts from (where the
 * client is in its events is the hub's `positions`).
 */
class Resource {
  /** @param {string} key `KIND:ID` */
  constructor(key) {
    this.key = key;
    /** @type {Set<Watch>} */
    this.watches = new Set();
    /** @type {unknown} */
    this.data = undefined;
    /** @type {StreamEvent | null} */
    this.last = null;
  }
}

/**
 * One stream request and its reading. A stream carries the resources it
 * was opened with, in that order: its `id:` lines hold one position per
 * resource, in the same order.
 */
class Stream {
  /**
   * @param {Hub} hub
   * @param {string[]} resources
   */
  constructor(hub, resources) {
    this.hub = hub;
    this.resources = resources;
    this.covered = new Set(resources);
    this.controller = new AbortController();
    this.open = false;
    this.closed = false;
  }

  close() {
    this.closed = true;
    this.controller.abort();
  }

  /** @param {string | undefined} lastEventId */
  async run(lastEventId) {
    /** @type {Response} */
    let response;
    const timer = setTimeout(() => this.controller.abort(), rules.live.rules.openTimeoutMs);
    try {
      const { path, watchParam, mediaType, lastEventIdHeader } = rules.live.rules;
      const query = this.resources.map((r) => `${watchParam}=${encodeURIComponent(r)}`).join("&");
      /** @type {Record<string, string>} */
      const headers = { accept: mediaType };
      if (lastEventId !== undefined) headers[lastEventIdHeader] = lastEventId;
      // The client adds its headers and the key; no redirect is followed,
      // so they stay on the base URL's origin.
      const init = { headers, redirect: /** @type {const} */ ("manual"), signal: this.controller.signal };
      response = await this.hub.client.__send(path, query, init);
    } catch {
      // Network errors, a timeout: the message could only name the URL,
      // which the caller knows; the watches poll meanwhile.
      clearTimeout(timer);
      if (!this.closed) this.hub.failed(this, undefined);
      return;
    }
    clearTimeout(timer);
    const type = response.headers?.get("content-type") ?? undefined;
    if (this.closed) {
      response.body?.cancel().catch(() => {});
      return;
    }
    const noStreams = rules.live.hasNoStreams(response.status, type);
    if (response.status === 200 && !noStreams && response.body) {
      this.hub.opened(this);
      await this.read(response.body);
      return;
    }
    response.body?.cancel().catch(() => {});
    if (noStreams) {
      // 404 or 405 (no `/stream` here), a redirect, any other 4xx, a 200
      // of something else: this server has no streams for us.
      this.hub.noStreams(this);
    } else {
      this.hub.failed(this, retryAfterMs(response.headers?.get("retry-after") ?? null));
    }
  }

  /**
   * Reads the stream with the core's reader until it ends, breaks, or
   * stays silent past the deadline its events announce: then its
   * watches are told `stale` (`silent`) and it is reopened.
   * @param {ReadableStream<Uint8Array>} body
   */
  async read(body) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const live = new rules.live.Reader(this.resources, Date.now());
    /** The read in flight, kept across a wake-up that was not silence. */
    /** @type {Promise<ReadableStreamReadResult<Uint8Array>> | null} */
    let pending = null;
    let silent = false;
    try {
      for (;;) {
        pending ??= reader.read();
        /** @type {ReturnType<typeof setTimeout> | undefined} */
        let timer;
        /** @type {Promise<null>} */
        const quiet = new Promise((resolve) => {
          timer = setTimeout(() => resolve(null), Math.max(0, live.deadlineMs() - Date.now()));
        });
        // Cleared however the race ends: a read that rejects (the stream
        // closed by `stop()`, a broken connection) would otherwise leave
        // the timer to hold a Node process open until the deadline.
        /** @type {ReadableStreamReadResult<Uint8Array> | null} */
        let step;
        try {
          step = await Promise.race([pending, quiet]);
        } finally {
          clearTimeout(timer);
        }
        if (this.closed) break;
        if (step === null) {
          if (live.isSilent(Date.now())) {
            silent = true;
            break;
          }
          continue;
        }
        pending = null;
        if (step.done) break;
        const reads = live.feed(this.hub.positions, decoder.decode(step.value, { stream: true }), Date.now());
        for (const read of reads) {
          if ("retryMs" in read) this.hub.retryMs = read.retryMs;
          else this.dispatch(read.kind, read.event);
          if (this.closed) break;
        }
      }
    } catch {
      // Aborted, the connection broke, an event too large: reopened below.
    }
    if (silent && !this.closed) this.hub.silent(this, live.silentEvents(Date.now()));
    live.free();
    reader.cancel().catch(() => {});
    if (!this.closed) this.hub.failed(this, undefined);
  }

  /**
   * A new event of one of this stream's resources.
   * @param {string} name
   * @param {StreamEvent} event
   */
  dispatch(name, event) {
    const resource = this.hub.resources.get(event.resource);
    if (resource) this.hub.deliver(resource, name, event);
  }
}

/**
 * `Retry-After` in ms (seconds or an HTTP date), if any.
 * @param {string | null} value
 */
function retryAfterMs(value) {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * One per client: the timer of all of its watches, and its stream.
 */
class Hub {
  /** @param {WasmClient} client */
  constructor(client) {
    this.client = client;
    /** @type {Set<Watch>} */
    this.watches = new Set();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** `discover` until the server answered a stream once; `poll` for good when it has none. */
    /** @type {"discover" | "stream" | "poll"} */
    this.mode = "discover";
    /** Resources of the watches that can stream, in the order they came. */
    /** @type {Map<string, Resource>} */
    this.resources = new Map();
    /** The stream that serves now, and one being opened to replace it. */
    /** @type {Stream | null} */
    this.current = null;
    /** @type {Stream | null} */
    this.opening = null;
    /** Where the client is in each resource's events (`Last-Event-ID`). */
    this.positions = new rules.live.Positions();
    this.retryMs = rules.live.rules.retryMs;
    this.failures = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retryTimer = null;
    this.reopenQueued = false;
  }

  /** @param {Watch} watch */
  add(watch) {
    this.watches.add(watch);
    if (this.timer === null) this.schedule();
    if (watch.resource === null || this.mode === "poll") return;
    let resource = this.resources.get(watch.resource);
    if (!resource) {
      resource = new Resource(watch.resource);
      this.resources.set(watch.resource, resource);
    }
    resource.watches.add(watch);
    // Waits for the stream one interval at most, unless it is known to be
    // down or cannot carry this resource; a watch joining a resource
    // streamed already starts from its last answer.
    const carried = [...this.resources.keys()].indexOf(watch.resource) < rules.live.rules.maxResources;
    watch.heardAt = this.retryTimer === null && carried ? Date.now() : 0;
    if (resource.last && resource.data !== undefined && this.covers(watch)) {
      watch.fromStream(kind().Snapshot, { ...resource.last, data: resource.data }, undefined);
    }
    this.queueReopen();
  }

  /** @param {Watch} watch */
  remove(watch) {
    this.watches.delete(watch);
    if (watch.resource !== null) {
      const resource = this.resources.get(watch.resource);
      if (resource?.watches.delete(watch) && resource.watches.size === 0) {
        this.resources.delete(watch.resource);
        this.queueReopen();
      }
    }
    if (this.watches.size === 0 && this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /**
   * Whether the open stream carries this watch's resource now.
   * @param {Watch} watch
   */
  covers(watch) {
    return watch.resource !== null && this.current !== null && this.current.open && this.current.covered.has(watch.resource);
  }

  /** Watches created together (a loop) open one stream. */
  queueReopen() {
    if (this.reopenQueued) return;
    this.reopenQueued = true;
    queueMicrotask(() => {
      this.reopenQueued = false;
      this.reopen();
    });
  }

  /** Opens a stream of the resources watched now, if it differs from the one open. */
  reopen() {
    if (this.mode === "poll") return;
    const wanted = [...this.resources.keys()].slice(0, rules.live.rules.maxResources);
    if (wanted.length === 0) {
      this.closeAll();
      return;
    }
    // During a backoff the timer reopens.
    if (this.retryTimer !== null) return;
    const target = this.opening ?? this.current;
    if (target && target.resources.length === wanted.length && target.resources.every((k, i) => k === wanted[i])) return;
    this.opening?.close();
    const stream = new Stream(this, wanted);
    this.opening = stream;
    this.positions.retain(wanted);
    stream.run(this.positions.lastEventId(wanted));
  }

  closeAll() {
    this.opening?.close();
    this.current?.close();
    this.opening = null;
    this.current = null;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.failures = 0;
  }

  /**
   * The stream answered: it serves from now on, and the one before it goes.
   * @param {Stream} stream
   */
  opened(stream) {
    if (stream !== this.opening) {
      stream.close();
      return;
    }
    const before = this.current;
    this.opening = null;
    this.current = stream;
    stream.open = true;
    this.mode = "stream";
    this.failures = 0;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    before?.close();
    if (before) this.uncovered(before, stream);
  }

  /**
   * The watches `before` served that `after` (if any) does not: their data
   * was current until now; they poll from here, one interval on.
   * @param {Stream} before
   * @param {Stream | null} after
   */
  uncovered(before, after) {
    const now = Date.now();
    for (const watch of this.watches) {
      if (watch.resource === null || !before.covered.has(watch.resource)) continue;
      if (after?.covered.has(watch.resource)) continue;
      watch.unvouched(now);
    }
  }

  /**
   * The stream could not be opened, or dropped: reopened after the
   * server's `retry`, longer after each failure in a row (and not before
   * its `Retry-After`); the watches poll meanwhile.
   * @param {Stream} stream
   * @param {number | undefined} retryAfter
   */
  failed(stream, retryAfter) {
    stream.close();
    if (stream === this.opening) this.opening = null;
    else if (stream === this.current) {
      this.current = null;
      this.uncovered(stream, null);
    } else return;
    for (const watch of this.watches) {
      // Not served by a stream yet: asks now.
      if (watch.snapshot === undefined && !this.covers(watch)) watch.heardAt = 0;
    }
    this.failures += 1;
    const wait = rules.live.backoffMs(this.retryMs, this.failures, Math.random(), retryAfter);
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.reopen();
    }, wait);
  }

  /**
   * `stream` went silent: each of its resources' watches is told `stale`
   * (`silent`, the reader's own word, which the stream's next data ends),
   * and its positions are forgotten, so the reopened stream starts from
   * fresh snapshots.
   * @param {Stream} stream
   * @param {StreamEvent[]} events
   */
  silent(stream, events) {
    if (stream !== this.current) return;
    for (const event of events) {
      this.positions.forget(event.resource);
      const resource = this.resources.get(event.resource);
      for (const watch of resource ? [...resource.watches] : []) watch.markStale(String(event.reason), "client");
    }
  }

  /**
   * This server has no streams: the client's watches poll, now and later.
   * @param {Stream} stream
   */
  noStreams(stream) {
    if (stream !== this.opening && stream !== this.current) return;
    this.mode = "poll";
    const before = this.current;
    this.closeAll();
    if (before) this.uncovered(before, null);
    this.resources.clear();
    for (const watch of this.watches) {
      if (watch.snapshot === undefined) watch.heardAt = 0;
    }
  }

  /**
   * An event of `resource`, for each of its watches.
   * @param {Resource} resource
   * @param {string} name
   * @param {StreamEvent} event
   */
  deliver(resource, name, event) {
    const before = resource.data;
    if ((name === kind().Snapshot || name === kind().Change) && event.data !== undefined) {
      resource.data = event.data;
      resource.last = event;
    }
    for (const watch of [...resource.watches]) watch.fromStream(name, event, before);
    if (name === kind().Error && rules.endsWatch(event)) this.resources.delete(resource.key);
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
    const polling = watches.filter((w) => !this.covers(w));
    let every;
    try {
      every = this.client.__watchIntervals(
        Float64Array.from(polling, (w) => w.wantedMs),
        pageVisible(),
      );
    } catch {
      // A freed client: its watches end.
      for (const w of watches) w.finish();
      this.closeAll();
      return;
    }
    const now = Date.now();
    polling.forEach((w, i) => {
      w.intervalMs = every[i];
      if (!w.inFlight && now - w.heardAt >= every[i]) w.poll(now);
    });
    for (const w of watches) w.checkAge(now);
  }
}

/** @param {WasmClient} client */
function hubOf(client) {
  let hub = hubs.get(client);
  if (!hub) {
    hub = new Hub(client);
    hubs.set(client, hub);
  }
  return hub;
}

/** @implements {AsyncIterableIterator<Update>} */
class Watch {
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
  rules ??= checkedRules();
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
  return hubs.get(client)?.mode ?? "discover";
}
