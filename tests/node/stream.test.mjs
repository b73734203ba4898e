// The package's watches through the server's stream (`GET /stream`), with a
// small loopback proxy in front of the real test server: it counts the
// stream requests open at once, reads their `Last-Event-ID`, drops them on
// demand, and can play a server without streams (404 on `/stream`) or one
// that is down (503 on everything).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import { startServer } from "../spawn-server.mjs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CEILING_MS, eventually, key, packageDir, url } from "./support.mjs";


let pm;
/** Open markets with an order book, as this server names them. */
let markets;
const proxies = [];

/**
 * A proxy in front of the test server. `mode.stream`: `"pass"` forwards
 * `/stream`, `"absent"` answers it 404; `mode.down`: every request 503.
 */
async function proxy() {
  const upstream = new URL(url);
  const mode = { stream: "pass", down: false };
  /** Every `/stream` request: its `Last-Event-ID` and whether it is open. */
  const streams = [];
  let polls = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://proxy").pathname;
    const isStream = path.endsWith("/stream");
    if (mode.down) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"error":{"code":"PLATFORM_UNAVAILABLE","message":"down for the test"}}');
      return;
    }
    if (isStream && mode.stream === "absent") {
      streams.push({ lastEventId: req.headers["last-event-id"] ?? null, open: false });
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"code":"NOT_FOUND","message":"no such path"}}');
      return;
    }
    const entry = isStream ? { lastEventId: req.headers["last-event-id"] ?? null, open: true, res } : null;
    if (entry) streams.push(entry);
    else polls += 1;
    const out = request(
      // A connection of its own per request: one client connection, one upstream.
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent: false },
      (answer) => {
        if (entry) {
          entry.status = answer.statusCode;
          entry.bytes = 0;
          answer.on("data", (chunk) => (entry.bytes += chunk.length));
          answer.on("end", () => (entry.ended = "by the server"));
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", (error) => {
      if (entry) entry.error = error.message;
      res.destroy();
    });
    res.on("close", () => {
      if (entry) {
        entry.open = false;
        entry.closedAt = Date.now();
      }
      out.destroy();
    });
    req.pipe(out);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxies.push(server);
  const base = `http://127.0.0.1:${server.address().port}${upstream.pathname.replace(/\/$/, "")}`;
  return {
    base,
    mode,
    streams,
    polls: () => polls,
    open: () => streams.filter((s) => s.open).length,
    /** Cuts every open stream's connection, as a proxy restart would. */
    drop: () => {
      for (const s of streams) if (s.open) s.res.socket?.destroy();
    },
  };
}

before(async () => {
  pm = await import(pathToFileURL(join(packageDir, "index.js")).href);
  const get = async (path) => {
    const res = await fetch(`${url}${path}`, { headers: { "X-API-Key": key } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const platforms = (await get("/platforms")).platforms;
  const withBook = new Set(platforms.filter((p) => p.features?.orderbook !== false).map((p) => p.id));
  const page = await get("/markets?limit=50&status=open");
  markets = page.markets.filter((m) => withBook.has(m.platform)).slice(0, 4);
  assert.equal(markets.length, 4, "open markets with an order book");
});

after(() => {
  for (const child of children) child.kill();
  for (const server of proxies) {
    server.closeAllConnections();
    server.close();
  }
});

const serverBin = process.env.PREDMARKET_SERVER_BIN;
const children = [];

/**
 * predmarket-server in proxy mode in front of `upstream` (a proxy of the
 * tests', which can go down), its pollers fast (within the upstream key's 100 a minute); resolves with its URL.
 * @param {string} upstream
 */
async function proxyServer(upstream) {
  const { url, child } = await startServer(
    serverBin,
    ["--upstream", upstream, "--api-key", key, "--stream-interval-scale", "0.2", "-q"],
    { env: { PREDMARKET_UPSTREAM_KEY: key }, ceilingMs: CEILING_MS, what: "the proxy-mode server" },
  );
  children.push(child);
  return url;
}

/** Reads a watch until `done(items)` holds (items: all it yielded), then stops it. */
async function read(watch, done, what) {
  const items = [];
  const ceiling = setTimeout(() => watch.stop(), CEILING_MS);
  for await (const item of watch) {
    items.push(item);
    if (done(items)) break;
  }
  clearTimeout(ceiling);
  assert.ok(done(items), `${what}: ${JSON.stringify(items.map((i) => [i.type, i.source, i.changes.length]))}`);
  return items;
}

test("watchOrderbook through the stream: the book, then a change, both from the stream", async () => {
  const via = await proxy();
  const client = new pm.Client({ apiKey: key, baseUrl: via.base });
  const hooked = [];
  const watch = client.watchOrderbook(markets[0].id, { onUpdate: (u) => hooked.push(u) });
  const updates = await read(watch, (items) => items.filter((i) => i.type === "update").length >= 2, "a book then a change");
  const [first, second] = updates.filter((i) => i.type === "update");
  assert.equal(first.source, "stream");
  assert.deepEqual(first.changes, []);
  assert.equal(first.snapshot.data.market_id, markets[0].id);
  assert.equal(second.source, "stream");
  assert.ok(second.changes.length > 0);
  for (const c of second.changes) {
    assert.ok(["yes", "no"].includes(c.book) && ["bids", "asks"].includes(c.side));
    assert.ok(c.from !== c.to);
  }
  for (const u of [first, second]) {
    assert.equal(typeof u.asOf, "string");
    assert.equal(typeof u.ageMs, "number");
    assert.ok(u.ageMs >= 0);
  }
  assert.deepEqual(hooked.slice(0, updates.length), updates, "onUpdate saw the same items");
  assert.equal(via.polls(), 0, "nothing polled");
  assert.equal(via.streams.length, 1);
  await eventually(() => via.open() === 0, "the stream closed when the watch stopped");
});

test("a stopped watch leaves no timer of its stream behind (a Node process that stops its watches can exit)", async () => {
  // Every timer the package's watch code sets, by id, until it fires or is
  // cleared; read once the stream is closed at the proxy, so the check is
  // an order of events, not a time.
  const pending = new Map();
  const { setTimeout: set, clearTimeout: clear } = globalThis;
  globalThis.setTimeout = (fn, ms, ...args) => {
    const from = new Error().stack ?? "";
    const id = set(() => {
      pending.delete(id);
      fn(...args);
    }, ms);
    if (/watch(-hub)?\.js/.test(from)) pending.set(id, ms);
    return id;
  };
  globalThis.clearTimeout = (id) => {
    pending.delete(id);
    clear(id);
  };
  try {
    const via = await proxy();
    const client = new pm.Client({ apiKey: key, baseUrl: via.base });
    const watch = client.watchOrderbook(markets[0].id);
    for (;;) {
      const { value, done } = await watch.next();
      assert.ok(!done, "the watch ended before the book came from the stream");
      if (value.type === "update" && value.source === "stream") break;
    }
    assert.ok(pending.size > 0, "the stream's silence timer was set while it read");
    watch.stop();
    await eventually(() => via.open() === 0, "the stream closed when the watch stopped");
    // The close reached the proxy, so the client's side has ended its read;
    // one more turn of the event loop for its last callbacks, then nothing
    // of the watch may still be waiting (a timer left would hold a Node
    // process open until it fires, up to the stream's silence deadline).
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([...pending.values()], [], "timers of the watch still pending after it stopped (ms)");
  } finally {
    globalThis.setTimeout = set;
    globalThis.clearTimeout = clear;
  }
});

test("the watches of one client share one stream, reopened with positions when a watch joins", async () => {
  const via = await proxy();
  const client = new pm.Client({ apiKey: key, baseUrl: via.base });
  const firsts = new Map();
  const watches = [
    client.watchOrderbook(markets[0].id),
    client.watchOrderbook(markets[1].id),
    client.watchMarket(markets[2].id),
    // The same book twice: one resource of the stream.
    client.watchOrderbook(markets[0].id),
  ];
  await Promise.all(watches.map(async (w, i) => firsts.set(i, (await w.next()).value)));
  for (const [, u] of firsts) assert.equal(u.source, "stream");
  assert.equal(firsts.get(2).snapshot.markets[0].id, markets[2].id);
  assert.equal(via.streams.length, 1, "created together, the watches opened one stream");
  assert.equal(via.open(), 1);
  // A fourth resource: a new stream of all four, resuming the three.
  const late = client.watchOrderbook(markets[3].id);
  const lateFirst = (await late.next()).value;
  assert.equal(lateFirst.source, "stream");
  assert.equal(lateFirst.snapshot.data.market_id, markets[3].id);
  assert.equal(via.streams.length, 2);
  await eventually(() => via.open() === 1, "the old stream closed once the new one answered");
  const positions = via.streams[1].lastEventId.split(",");
  assert.equal(positions.length, 4, via.streams[1].lastEventId);
  for (const p of positions.slice(0, 3)) assert.match(p, /^[0-9a-f]+:[1-9]\d*$/, "a position in each resource held");
  assert.equal(positions[3], "0:0", "none in the new one");
  // A watch stopping leaves the others on one stream (of three resources).
  late.stop();
  await eventually(() => via.streams.length === 3 && via.open() === 1, "one stream of the three left");
  for (const w of watches) w.stop();
  await eventually(() => via.open() === 0, "no stream once every watch stopped");
  assert.equal(via.polls(), 0, "nothing polled");
});

test("opening a stream waits for a slot of the client's budget, as a call does", async () => {
  const via = await proxy();
  const events = [];
  const client = new pm.Client({ apiKey: key, baseUrl: via.base, rateLimitPerMinute: 1, onEvent: (e) => events.push(e) });
  await client.listPlatforms();
  // The one request of this minute is spent: the stream waits for the next.
  const watch = client.watchOrderbook(markets[0].id, { intervalMs: 120_000 });
  await eventually(() => events.some((e) => e.type === "wait" && e.reason === "budget"), "a wait for the budget");
  assert.equal(via.streams.length, 0, "no stream sent before its slot");
  assert.equal(via.polls(), 1, "only the call that spent the minute");
  watch.stop();
});

test("a server without /stream: the same watch polls, and the client remembers", async () => {
  const via = await proxy();
  via.mode.stream = "absent";
  const client = new pm.Client({ apiKey: key, baseUrl: via.base });
  const watch = client.watchOrderbook(markets[0].id, { intervalMs: 60_000 });
  const first = (await watch.next()).value;
  assert.equal(first.type, "update");
  assert.equal(first.source, "poll");
  assert.deepEqual(first.changes, []);
  assert.equal(first.snapshot.data.market_id, markets[0].id);
  const other = client.watchMarket(markets[1].id, { intervalMs: 60_000 });
  assert.equal((await other.next()).value.source, "poll");
  watch.stop();
  other.stop();
  assert.equal(via.streams.length, 1, "asked for a stream once");
  assert.equal(via.polls(), 2);
});

test("a dropped stream is reopened with Last-Event-ID and yields nothing twice", async () => {
  const via = await proxy();
  const client = new pm.Client({ apiKey: key, baseUrl: via.base });
  // A long interval: the watch waits for the stream rather than polling.
  const watch = client.watchOrderbook(markets[1].id, { intervalMs: 60_000 });
  const items = [];
  let dropped = Infinity;
  let changedAt = Infinity;
  const reading = read(
    watch,
    (all) => {
      items.splice(0, items.length, ...all);
      const changed = all.some((i) => i.type === "update" && i.changes.length > 0 && i.receivedAt > dropped);
      if (changed) changedAt = Math.min(changedAt, Date.now());
      return changed;
    },
    "a change after the reconnect",
  );
  await eventually(() => items.length >= 1, "the first book");
  dropped = Date.now();
  via.drop();
  const shown = () => JSON.stringify(via.streams.map(({ lastEventId, open, status, bytes, ended, error }) => ({ lastEventId, open, status, bytes, ended, error })));
  await eventually(() => via.streams.length >= 2, "the stream reopened");
  // Not "still open when looked at": its first bytes replay what the
  // watch missed, often the change awaited here, and the watch then stops
  // and closes it, sometimes before a poll of `via.streams` (every 50 ms,
  // later under load) sees it. It must stay open until that change came.
  await reading.catch((error) => assert.fail(`${error.message}; streams: ${shown()}`));
  const reopened = via.streams[1];
  assert.ok(!(reopened.closedAt < changedAt), `the reopened stream was open until the change came: ${shown()}`);
  const id = via.streams[1].lastEventId;
  assert.match(id ?? "", /^[0-9a-f]+:[1-9]\d*$/, "resumed from its position");
  const updates = items.filter((i) => i.type === "update");
  assert.equal(updates.filter((u) => u.changes.length === 0).length, 1, "one snapshot only");
  for (const u of updates) assert.equal(u.source, "stream");
  assert.equal(via.polls(), 0);
});

test("polling: a failed poll is stale, maxStalenessMs flags or ends, a good poll is live again", async () => {
  const via = await proxy();
  via.mode.stream = "absent";
  // Polls every 200 ms while up (the client's budget allows it), so the
  // data is never 2 s old but while the proxy is down.
  const client = new pm.Client({ apiKey: key, baseUrl: via.base, rateLimitPerMinute: 1_000 });
  const options = { intervalMs: 200, maxStalenessMs: 2_000, callOptions: { maxRetries: 0 }, onError: () => {} };
  const flagged = client.watchMarket(markets[0].id, options);
  const ended = client.watchMarket(markets[1].id, { ...options, staleAction: "end" });
  assert.equal((await flagged.next()).value.type, "update");
  assert.equal((await ended.next()).value.type, "update");
  via.mode.down = true;
  // `stale` (the poll failed) first, then the end.
  const before = [];
  const end = async () => {
    for (;;) {
      const { value, done } = await ended.next();
      if (done) return;
      before.push(value);
    }
  };
  await assert.rejects(end(), (e) => e instanceof pm.PredmarketError && e.code === "TIMEOUT" && /maxStalenessMs/.test(e.message));
  assert.deepEqual(before.map((i) => [i.type, i.reason]), [["stale", "poll_failed"]]);
  assert.deepEqual(await ended.next(), { value: undefined, done: true }, "ended");
  const items = [];
  const reasons = () => items.filter((i) => i.type === "stale").map((i) => i.reason);
  for (;;) {
    const { value } = await flagged.next();
    items.push(value);
    if (reasons().includes("poll_failed") && reasons().includes("max_staleness")) break;
  }
  for (const i of items) {
    assert.deepEqual(i.changes, []);
    assert.equal(i.snapshot.markets[0].id, markets[0].id, "a stale item carries the last snapshot");
  }
  via.mode.down = false;
  const rest = await read(flagged, (all) => all.some((i) => i.type === "live"), "live again");
  // Order, not a duration: the answer it is live with came after the one
  // the stale items carried.
  const lastStale = items.at(-1);
  assert.ok(rest.at(-1).ageMs < lastStale.ageMs, `fresh again: ${rest.at(-1).ageMs} ms old, the stale data ${lastStale.ageMs} ms`);
  assert.equal(rest.filter((i) => i.type === "stale").length, 0, "stale told once per reason");
});

test("a stream's stale item carries the failed poll's status and code, as the server sends them", { skip: !serverBin && "PREDMARKET_SERVER_BIN not set" }, async () => {
  // The stream's server polls through an upstream that goes down: its
  // `stale` event has the upstream's answer (status, code), and so has
  // the watch's item.
  const upstream = await proxy();
  const base = await proxyServer(upstream.base);
  const client = new pm.Client({ apiKey: key, baseUrl: base });
  const watch = client.watchMarket(markets[0].id, { intervalMs: 60_000 });
  const first = (await watch.next()).value;
  assert.equal(first.source, "stream");
  upstream.mode.down = true;
  // Read without stopping the watch (a `break` would).
  const seen = [];
  const until = async (done, what) => {
    const ceiling = setTimeout(() => watch.stop(), CEILING_MS);
    for (;;) {
      const { value } = await watch.next();
      assert.ok(value, `${what}: ${JSON.stringify(seen)}`);
      seen.push([value.type, value.reason, value.status, value.code]);
      if (done(value)) {
        clearTimeout(ceiling);
        return value;
      }
    }
  };
  const stale = await until((i) => i.type === "stale" && i.reason === "poll_failed", "stale once the upstream is down");
  assert.equal(stale.source, "stream");
  assert.equal(typeof stale.status, "number", JSON.stringify(stale));
  assert.equal(typeof stale.code, "string", JSON.stringify(stale));
  assert.ok(stale.code.length > 0);
  upstream.mode.down = false;
  watch.stop();
});

test("a failed poll's stale item carries the error's status and code", async () => {
  const via = await proxy();
  via.mode.stream = "absent";
  const client = new pm.Client({ apiKey: key, baseUrl: via.base, rateLimitPerMinute: 1_000 });
  const watch = client.watchMarket(markets[0].id, { intervalMs: 200, callOptions: { maxRetries: 0 }, onError: () => {} });
  assert.equal((await watch.next()).value.type, "update");
  via.mode.down = true;
  const items = await read(watch, (all) => all.some((i) => i.type === "stale"), "stale once the server is down");
  const stale = items.find((i) => i.type === "stale");
  assert.deepEqual([stale.source, stale.reason, stale.status, stale.code], ["poll", "poll_failed", 503, "PLATFORM_UNAVAILABLE"]);
  via.mode.down = false;
});
