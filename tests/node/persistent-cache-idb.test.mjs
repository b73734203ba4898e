// `persistentCache` over IndexedDB (fake-indexeddb, the in-memory
// implementation of the standard): a call with its own headers is neither
// served from nor kept in it, eviction stays within a key's space, an
// answer the service later refuses (404) is dropped, and without WebCrypto
// the option is refused rather than naming the space by a weak hash.
// The service is a `fetch` of the test's own, so each answer
// is the test's choice.
import "fake-indexeddb/auto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { eventually, packageDir } from "./support.mjs";

const project = mkdtempSync(join(tmpdir(), "predmarket-persistent-idb-"));
mkdirSync(join(project, "node_modules"));
symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
const pm = await import(pathToFileURL(join(project, "entry.mjs")).href);

const BASE = "https://service.test";

/** A service whose answer to each market id is `answers[id]` (a status, a title); every request is logged. */
function service(answers) {
  const log = [];
  const fetch = async (url, init) => {
    const u = new URL(url);
    const id = decodeURIComponent(u.pathname.split("/").at(-1));
    log.push({ id, headers: new Headers(init?.headers) });
    const [status, title] = answers[id] ?? [404, ""];
    const body =
      status === 200
        ? { markets: [{ id, platform: "polymarket", title, status: "open" }] }
        : { error: { code: status === 404 ? "NOT_FOUND" : "UNAUTHORIZED", message: `status ${status}` } };
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { fetch, log };
}

/** Every kept entry: its key (`space|method params`). */
function keptKeys() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("predmarket-answers");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction("answers").objectStore("answers").getAllKeys();
      all.onsuccess = () => {
        open.result.close();
        resolve(all.result);
      };
      all.onerror = () => reject(all.error);
    };
  });
}

const client = (apiKey, fetch, options = {}) => new pm.Client({ apiKey, baseUrl: BASE, maxRetries: 0, fetch, persistentCache: { maxEntries: 2, ...options } });

test("a call with its own headers is neither served from nor kept in the store", async () => {
  const { fetch, log } = service({ h1: [200, "first"] });
  const c = client("key-headers", fetch);
  await c.getMarket("h1", { headers: { "x-tenant": "a" } });
  assert.equal((await keptKeys()).filter((k) => k.includes("h1")).length, 0, "not kept");
  await c.getMarket("h1");
  await c.getMarket("h1", { headers: { "x-tenant": "b" } });
  // The kept answer (from the plain call) was not served to the call with headers: it asked.
  assert.equal(log.filter((r) => r.id === "h1").length, 3);
  assert.equal(log.at(-1).headers.get("x-tenant"), "b");
});

test("eviction stays within a key's space", async () => {
  const { fetch } = service({ e1: [200, "1"], e2: [200, "2"], e3: [200, "3"] });
  const a = client("key-space-a", fetch);
  const b = client("key-space-b", fetch);
  await a.getMarket("e1");
  await a.getMarket("e2");
  for (const id of ["e1", "e2", "e3"]) await b.getMarket(id);
  const keys = await keptKeys();
  const spaces = new Map();
  for (const k of keys.filter((k) => /getMarket "e\d"/.test(k))) {
    const space = k.split("|")[0];
    spaces.set(space, (spaces.get(space) ?? 0) + 1);
  }
  // a keeps its two; b kept at most its two, its oldest evicted.
  assert.deepEqual([...spaces.values()].sort(), [2, 2], JSON.stringify(keys));
});

test("an answer the service later refuses is dropped", async () => {
  const answers = { gone: [200, "here today"] };
  const { fetch, log } = service(answers);
  const c = client("key-gone", fetch);
  assert.equal((await c.getMarket("gone")).markets[0].title, "here today");
  answers.gone = [404, ""];
  // The kept answer comes at once; the revalidation hears 404 and drops it.
  const kept = await c.getMarket("gone");
  assert.equal(typeof c.keptAgeMs(kept), "number");
  await eventually(() => log.length >= 2, "the revalidation asked");
  let dropped = false;
  await eventually(() => {
    keptKeys().then((keys) => (dropped = !keys.some((k) => k.includes('"gone"'))));
    return dropped;
  }, "the refused answer dropped");
  await assert.rejects(c.getMarket("gone"), (e) => e.code === "NOT_FOUND");
});

test("without WebCrypto the option is refused, never a weak name", () => {
  const crypto = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true, writable: true });
  try {
    assert.throws(
      () => client("key-nocrypto", service({}).fetch),
      (e) => e instanceof pm.PredmarketError && e.code === "VALIDATION_ERROR" && e.parameter === "persistentCache" && /WebCrypto/.test(e.message),
    );
  } finally {
    if (crypto) Object.defineProperty(globalThis, "crypto", crypto);
  }
});
