// `client.history()` against a real server that records (`--record DIR`):
// a book watched through the server's stream becomes recorded rows, which
// the package's pager reads back page by page and row by row. And against
// the plain test server, which records nothing: `/history` is 404 there,
// rejected as a typed error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { startServer } from "../spawn-server.mjs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CEILING_MS, key, packageDir, url } from "./support.mjs";

const serverBin = process.env.PREDMARKET_SERVER_BIN;
let pm;
/** The recording server's URL, its archive and its process. */
let recording;

/** predmarket-server (local data) recording to `dir`, its books polled fast and its parts written every 100 ms; resolves with its URL. */
function recordingServer(dir) {
  return startServer(
    serverBin,
    ["--api-key", key, "--stream-interval-scale", "0.02", "--record", dir, "--record-roll-secs", "0.1", "-q"],
    { ceilingMs: CEILING_MS, what: "the recording server" },
  );
}

before(async () => {
  pm = await import(pathToFileURL(join(packageDir, "index.js")).href);
  if (!serverBin) return;
  const dir = mkdtempSync(join(tmpdir(), "pm-history-"));
  recording = { dir, ...(await recordingServer(join(dir, "archive"))) };
});

after(async () => {
  if (!recording) return;
  const { child } = recording;
  // Killed outright (SIGTERM would drain open streams for up to 30 s and
  // then write a last part), and the folder removed only once it has
  // exited: removing it while the server writes races (ENOTEMPTY).
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  }
  rmSync(recording.dir, { recursive: true, force: true });
});

test("history() pages through a watched book's recorded rows, by nextPage() and by for await", { skip: !serverBin && "PREDMARKET_SERVER_BIN not set" }, async () => {
  const client = new pm.Client({ apiKey: key, baseUrl: recording.url });
  const platforms = (await client.listPlatforms()).platforms;
  const withBook = new Set(platforms.filter((p) => p.features?.orderbook !== false).map((p) => p.id));
  const market = (await client.listMarkets({ limit: 50, status: "open" })).markets.find((m) => withBook.has(m.platform));
  assert.ok(market, "an open market with an order book");
  const from = Date.now() - 1_000;
  const resource = `orderbook:${market.id}`;
  // Watched through the stream, the book is polled by the server and
  // each answer recorded.
  const watch = client.watchOrderbook(market.id);
  let rows = [];
  try {
    const deadline = Date.now() + CEILING_MS;
    while (rows.length < 4) {
      assert.ok(Date.now() < deadline, `four recorded rows within ${CEILING_MS / 1000} s; ${rows.length} so far`);
      await new Promise((r) => setTimeout(r, 200));
      rows = [];
      for await (const row of client.history({ resource, from, limit: 1000 })) rows.push(row);
    }
  } finally {
    watch.stop();
  }
  const to = rows[3].received_ms + 1;
  assert.equal(rows[0].continuity, "first");
  for (const row of rows) {
    assert.equal(typeof row.received, "string");
    assert.equal(row.answer.data.market_id, market.id, "each row holds the book as the server got it");
  }
  // Pages of one, chained by `meta.next_from`: the same four rows, in order.
  const pager = client.history({ resource, from, to, limit: 1 });
  const paged = [];
  for (let page; (page = await pager.nextPage()); ) {
    assert.equal(page.items.length, 1);
    assert.equal(page.response.meta.resource, resource);
    paged.push(...page.items);
  }
  assert.equal(pager.done, true);
  assert.equal(await pager.nextPage(), null, "an ended pager stays ended");
  assert.deepEqual(paged.map((r) => [r.received_ms, r.seq]), rows.slice(0, 4).map((r) => [r.received_ms, r.seq]));
  // `for await` over the same pages, capped by `maxItems`.
  const capped = [];
  for await (const row of client.history({ resource, from, to, limit: 1 }, { maxItems: 3 })) capped.push(row.seq);
  assert.deepEqual(capped, rows.slice(0, 3).map((r) => r.seq));
});

test("history() on a server that records nothing rejects with a PredmarketError coded NOT_FOUND", async () => {
  const client = new pm.Client({ apiKey: key, baseUrl: url });
  const pager = client.history({ resource: "orderbook:any" });
  const error = await pager.nextPage().then(
    () => assert.fail("no history here"),
    (e) => e,
  );
  assert.ok(error instanceof pm.PredmarketError, String(error));
  assert.ok(pm.isApiError(error));
  assert.equal(error.code, "NOT_FOUND");
  assert.equal(error.status, 404);
  assert.ok(!String(error.message).includes(key), "the key is not in the message");
});

test("history() refuses a call without a resource before sending it, and the server's refusals keep their code", { skip: !serverBin && "PREDMARKET_SERVER_BIN not set" }, async () => {
  const client = new pm.Client({ apiKey: key, baseUrl: recording.url });
  await assert.rejects(client.history({}).nextPage(), (e) => e instanceof pm.PredmarketError && e.code === "VALIDATION_ERROR" && e.parameter === "resource");
  // A window longer than a day is the server's to refuse.
  const refused = await client.history({ resource: "orderbook:x", from: 0, to: 200_000_000_000 }).nextPage().catch((e) => e);
  assert.ok(refused instanceof pm.PredmarketError);
  assert.equal(refused.code, "VALIDATION_ERROR");
  assert.equal(refused.status, 400);
});
