// A cursor-paged list served the way the public service's older pages
// serve it (`{total, limit, offset, has_more, next_offset}`, no cursor):
// the package's pager goes on from `next_offset`, sending `offset`, and
// stops where `has_more` says; one with cursors still follows the cursor.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const packageDir = process.env.PREDMARKET_PACKAGE;
assert.ok(packageDir, "run through `cargo xtask test` (PREDMARKET_PACKAGE)");

const TOTAL = 5;
const asked = [];
let server;
let baseUrl;
let pm;

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    asked.push(url.search);
    const limit = Number(url.searchParams.get("limit") ?? 2);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const markets = [];
    for (let i = offset; i < Math.min(offset + limit, TOTAL); i++) markets.push({ id: `m${i}`, title: `Market ${i}` });
    const hasMore = offset + limit < TOTAL;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({
      markets,
      pagination: { total: TOTAL, limit, offset, has_more: hasMore, next_offset: hasMore ? offset + limit : null },
    }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
  const project = mkdtempSync(join(tmpdir(), "predmarket-paging-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  pm = await import(pathToFileURL(join(project, "entry.mjs")).href);
});

after(() => server?.close());

test("the markets pager follows next_offset of offset-paged answers", async () => {
  const client = new pm.Client({ apiKey: "k", baseUrl });
  asked.length = 0;
  const ids = [];
  for await (const market of client.markets({ limit: 2 })) ids.push(market.id);
  assert.deepEqual(ids, ["m0", "m1", "m2", "m3", "m4"]);
  assert.deepEqual(asked, ["?limit=2", "?limit=2&offset=2", "?limit=2&offset=4"]);
});
