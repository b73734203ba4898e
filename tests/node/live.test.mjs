// The live contract in the npm package: the numbers and names watch.js
// reads from the wasm are the vectors' (tests/fixtures/live/stream.json,
// read by predmarket-core's tests too), the reader watch.js runs reads
// each vector's bytes into the same events, resumes and silences, and a
// watch whose stream stays open but goes quiet is told `stale`
// (`silent`) and reopens it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync, realpathSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CEILING_MS, eventually, packageDir } from "./support.mjs";

const vectors = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "live", "stream.json"), "utf8"));

let pm;
/** The watch streams' glue watch.js reads the stream with, instantiated as watch.js does (`load()`). */
let glue;
const servers = [];

before(async () => {
  const dir = realpathSync(packageDir);
  pm = await import(pathToFileURL(join(dir, "index.js")).href);
  glue = (await import(pathToFileURL(join(dir, "watch-load.js")).href)).load();
});

after(() => {
  for (const server of servers) server.closeAllConnections?.(), server.close();
});

test("the reasons the package's StaleReason type declares are the contract's", () => {
  // A watch never tells `disconnected`: it polls while its stream is down.
  const told = vectors.contract.stale_reasons.filter((r) => r !== "disconnected");
  const declarations = readFileSync(join(realpathSync(packageDir), "index.d.ts"), "utf8");
  const union = /export type StaleReason = ([^;]*);/.exec(declarations)?.[1];
  assert.ok(union, "index.d.ts declares StaleReason");
  const declared = [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
  assert.deepEqual([...declared].sort(), [...told].sort());
});

test("the contract watch.js reads from the wasm is the vectors'", () => {
  const c = vectors.contract;
  const rules = glue.__liveRules();
  // Keyed by the core's variant names (what watch.js dispatches on), in its order.
  assert.deepEqual(Object.values(rules.kind), c.kinds);
  assert.deepEqual(rules.staleReasons, c.stale_reasons);
  assert.deepEqual(rules.serverStaleReasons, c.server_stale_reasons);
  assert.equal(rules.failoverCode, c.failover_code);
  assert.equal(rules.maxResources, c.max_resources);
  assert.equal(rules.heartbeatMs, c.heartbeat_ms);
  assert.equal(rules.retryMs, c.retry_ms);
  assert.equal(rules.minRetryMs, c.min_retry_ms);
  assert.equal(rules.maxBackoffMs, c.max_backoff_ms);
  assert.equal(rules.openTimeoutMs, c.open_timeout_ms);
  assert.equal(rules.minPatienceMs, c.min_patience_ms);
  for (const [interval, heartbeat, after] of c.stale_after_ms) assert.equal(glue.__staleAfterMs(interval, heartbeat), after);
  for (const reason of c.server_stale_reasons) assert.equal(glue.__staleToldByServer(reason), true, reason);
  for (const reason of c.stale_reasons.filter((r) => !c.server_stale_reasons.includes(r))) assert.equal(glue.__staleToldByServer(reason), false, reason);
});

test("watch.js's reader reads every vector as the core does: events, retries, resumes, silences", () => {
  assert.ok(vectors.cases.length >= 5);
  for (const c of vectors.cases) {
    const positions = new glue.__LivePositions();
    c.connections.forEach((conn, n) => {
      const at = `${c.name}, connection ${n}`;
      assert.equal(positions.lastEventId(conn.resources) ?? null, conn.last_event_id, `${at}: Last-Event-ID`);
      const reader = new glue.__LiveReader(conn.resources, conn.chunks[0]?.at_ms ?? 0);
      const retries = [];
      const events = [];
      for (const chunk of conn.chunks) {
        for (const read of reader.feed(positions, chunk.text, chunk.at_ms)) {
          if ("retryMs" in read) retries.push(read.retryMs);
          else events.push([read.kind, read.event.resource, read.event.seq]);
        }
      }
      assert.deepEqual(retries, conn.retry_ms, `${at}: retry`);
      // The reader hands watch.js the new events only.
      const fresh = conn.events.filter((e) => e[3] === "new").map((e) => e.slice(0, 3));
      assert.deepEqual(events, fresh, `${at}: events`);
      for (const check of conn.silent) assert.equal(reader.isSilent(check.at_ms), check.silent, `${at}: silent at ${check.at_ms}`);
      if (conn.ends === "silent") {
        const told = reader.silentEvents(0);
        assert.deepEqual(told.map((e) => [e.resource, e.reason]), conn.resources.map((r) => [r, "silent"]));
        for (const r of conn.resources) positions.forget(r);
      }
      reader.free();
    });
    positions.free();
  }
});

/**
 * A stream server that writes the preamble and one snapshot of `market:m`
 * (announcing a deadline of `deadlineMs`), then goes silent with the
 * socket open; later connections get the same snapshot and stay (the
 * test stops them). Records each stream request's `Last-Event-ID`.
 */
async function silentServer(deadlineMs) {
  const streams = [];
  const server = createServer((req, res) => {
    if (!new URL(req.url, "http://x").pathname.endsWith("/stream")) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"error":{"code":"PLATFORM_UNAVAILABLE","message":"only the stream here"}}');
      return;
    }
    streams.push({ lastEventId: req.headers["last-event-id"] ?? null });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const body = { resource: "market:m", seq: 1, age_ms: 0, stale_after_ms: deadlineMs, data: { data: { id: "m", yes_price: 0.4 } } };
    res.write(`retry: 500\n\nevent: snapshot\nid: 1a:1\ndata: ${JSON.stringify(body)}\n\n`);
    // Then nothing: no event, no heartbeat, the socket left open.
  });
  servers.push(server);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, streams };
}

test("a stream that stays open but goes quiet past its deadline: stale (silent), reopened, live again", async () => {
  const server = await silentServer(1_500);
  const client = new pm.Client({ apiKey: "pm_test", baseUrl: server.base });
  // Polls only after a minute: whatever comes, comes from the stream.
  const watch = client.watchMarket("m", { intervalMs: 60_000 });
  const items = [];
  const started = Date.now();
  const ceiling = setTimeout(() => watch.stop(), CEILING_MS);
  for await (const item of watch) {
    items.push({ ...item, at: Date.now() - started });
    if (item.type === "live") break;
  }
  clearTimeout(ceiling);
  const kinds = items.map((i) => [i.type, i.reason ?? null, i.source]);
  assert.deepEqual(kinds, [
    ["update", null, "stream"],
    ["stale", "silent", "stream"],
    ["live", null, "stream"],
  ]);
  // Told once the deadline passed, not before.
  assert.ok(items[1].at >= 1_400, `told at ${items[1].at} ms`);
  // The reopened stream starts from a snapshot: a silent stream's
  // positions are not trusted.
  await eventually(() => server.streams.length >= 2, "the stream reopened");
  assert.equal(server.streams[1].lastEventId, null);
});

/**
 * A stream server that writes `events` (`[name, body]`, numbered from 1)
 * for `market:m` at once, then holds the socket open.
 */
async function scriptedServer(events) {
  const server = createServer((req, res) => {
    if (!new URL(req.url, "http://x").pathname.endsWith("/stream")) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"error":{"code":"PLATFORM_UNAVAILABLE","message":"only the stream here"}}');
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const text = events.map(([name, body], i) => `event: ${name}\nid: 5:${i + 1}\ndata: ${JSON.stringify({ resource: "market:m", seq: i + 1, ...body })}\n\n`);
    res.write(`retry: 500\n\n${text.join("")}`);
  });
  servers.push(server);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

// The vectors' last case ("only the upstream's typed refusal ... ends a
// watch"), through watch.js's watch rather than its reader alone.
test("an error event ends a watch only when it is the upstream's typed refusal; any other leaves the data stale", async () => {
  const case_ = vectors.cases.find((c) => c.name.startsWith("only the upstream's typed refusal"));
  assert.deepEqual(case_.connections.map((c) => Object.values(c.states)[0]), ["stale:poll_failed", "ended:NOT_FOUND"]);
  const base = await scriptedServer([
    ["snapshot", { data: { data: { id: "m", yes_price: 0.4 } } }],
    ["error", { status: 503, code: "PLATFORM_UNAVAILABLE", message: "an error that is no refusal" }],
    ["error", { code: "INTERNAL_ERROR", message: "no status: not the upstream's refusal" }],
    ["snapshot", { data: { data: { id: "m", yes_price: 0.5 } } }],
    ["error", { status: 404, code: "NOT_FOUND", message: "no such market" }],
  ]);
  const client = new pm.Client({ apiKey: "pm_test", baseUrl: base });
  const watch = client.watchMarket("m", { intervalMs: 60_000 });
  const items = [];
  const ceiling = setTimeout(() => watch.stop(), CEILING_MS);
  let ended;
  try {
    for await (const item of watch) items.push([item.type, item.reason ?? null, item.code ?? null]);
  } catch (error) {
    ended = error;
  }
  clearTimeout(ceiling);
  assert.deepEqual(items, [
    ["update", null, null],
    ["stale", "poll_failed", "PLATFORM_UNAVAILABLE"],
    ["update", null, null],
    ["live", null, null],
  ]);
  assert.equal(ended?.code, "NOT_FOUND", `the refusal ends the watch: ${ended}`);
});
