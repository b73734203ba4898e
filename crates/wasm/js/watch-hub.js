// @ts-check
// One per client: the hub that shares one `GET /stream` among the
// client's watches, reopens it when their set changes, and ticks every
// watch's polling (watch.js says why, and whose rules are whose).

import { rules, kind } from "./watch-rules.js";

/** How often the scheduler looks at its watches. */
const TICK_MS = 250;

/** @typedef {import("./predmarket.js").Client} WasmClient */
/** @typedef {import("./watch-rules.js").StreamEvent} StreamEvent */
/** @typedef {import("./watch.js").Watch} Watch */

/** @type {WeakMap<WasmClient, Hub>} */
const hubs = new WeakMap();

function pageVisible() {
  const doc = globalThis.document;
  return !(doc && doc.hidden === true);
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
export function hubOf(client) {
  let hub = hubs.get(client);
  if (!hub) {
    hub = new Hub(client);
    hubs.set(client, hub);
  }
  return hub;
}

/**
 * What the client's watches found out about the server's stream.
 * @param {WasmClient} client
 * @returns {"discover" | "stream" | "poll"}
 */
export function streamModeOf(client) {
  return hubs.get(client)?.mode ?? "discover";
}
