// The rules the package shares with predmarket-core, run against the same
// vectors the core's tests read (tests/fixtures/rules/): what changed in
// an order book, which values changed by path, how often each watch asks
// and which errors end it. Then one watch, end to end on a loopback
// server, yields exactly the changes `bookChanges` computes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageDir = process.env.PREDMARKET_PACKAGE;
assert.ok(packageDir, "run through `cargo xtask test` (PREDMARKET_PACKAGE)");
const rulesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "rules");
const vectors = (name) => JSON.parse(readFileSync(join(rulesDir, name), "utf8"));

let pm;
before(async () => {
  const project = mkdtempSync(join(tmpdir(), "predmarket-rules-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  pm = await import(pathToFileURL(join(project, "entry.mjs")).href);
});

test("bookChanges follows the shared vectors", () => {
  const { cases } = vectors("book_changes.json");
  assert.ok(cases.length >= 5);
  for (const c of cases) {
    assert.deepEqual(pm.bookChanges(c.before, c.after), c.changes, c.name);
    // A whole answer reads like its data.
    assert.deepEqual(pm.bookChanges({ data: c.before }, { data: c.after }), c.changes, c.name);
  }
});

test("valueChanges follows the shared vectors", () => {
  const { cases } = vectors("value_changes.json");
  assert.ok(cases.length >= 5);
  for (const c of cases) assert.deepEqual(pm.valueChanges(c.before, c.after), c.changes, c.name);
});

test("valueChanges reads own keys only: a key named like Object.prototype's is data", () => {
  const before = JSON.parse('{"data":{"constructor":1}}');
  const after = JSON.parse('{"data":{"__proto__":2}}');
  assert.deepEqual(pm.valueChanges(before, after), [
    { path: "data.__proto__", from: null, to: 2 },
    { path: "data.constructor", from: 1, to: null },
  ]);
});

test("watch intervals and the errors that end a watch follow the shared vectors", () => {
  const file = vectors("watch.json");
  for (const [kind, ms] of Object.entries(file.default_interval_ms)) assert.equal(pm.watchIntervalMs(kind), ms, kind);
  assert.ok(Number.isNaN(pm.watchIntervalMs("nonsense")));
  for (const c of file.ends_watch) {
    const error = Object.assign(new Error("x"), { code: c.code, ...(c.status === null ? {} : { status: c.status }) });
    assert.equal(pm.endsWatch(error), c.ends, JSON.stringify(c));
  }
});

// A loopback server whose book changes on every answer: the watch yields
// the first book, then what bookChanges says changed.
let server;
let baseUrl;
let answers = 0;
const books = [
  { yes: { bids: [{ price: 0.4, size: 10 }], asks: [{ price: 0.45, size: 5 }] } },
  { yes: { bids: [{ price: 0.4, size: 12 }, { price: 0.39, size: 3 }], asks: [] } },
];

before(async () => {
  server = createServer((req, res) => {
    // No streams here: the watch polls this server.
    if (req.url.startsWith("/stream")) {
      res.writeHead(404);
      res.end();
      return;
    }
    const book = books[Math.min(answers, books.length - 1)];
    answers += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: { market_id: "m1", ...book }, meta: { request_time: answers } }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});

after(() => server?.close());

test("a watch yields the changes of the core's rule", async () => {
  const client = new pm.Client({ apiKey: "k", baseUrl });
  const watch = client.watchOrderbook("m1", { intervalMs: 50 });
  const updates = [];
  for await (const update of watch) {
    updates.push(update);
    if (updates.length === 2) break;
  }
  assert.deepEqual(updates[0].changes, []);
  assert.deepEqual(updates[1].changes, pm.bookChanges({ data: books[0] }, { data: books[1] }));
  assert.deepEqual(updates[1].changes, [
    { book: "yes", side: "bids", price: 0.39, from: null, to: 3 },
    { book: "yes", side: "bids", price: 0.4, from: 10, to: 12 },
    { book: "yes", side: "asks", price: 0.45, from: 5, to: null },
  ]);
});
