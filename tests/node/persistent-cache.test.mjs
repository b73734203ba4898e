// `persistentCache` needs IndexedDB: in Node the option is refused with a
// typed error, not silently ignored (the browser behaviour is tested in
// Chromium, tests/consumers/persistent-cache).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { key, packageDir, url } from "./support.mjs";

test("persistentCache in Node is a typed error naming the in-memory cache", async () => {
  const project = mkdtempSync(join(tmpdir(), "predmarket-persistent-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  const pm = await import(pathToFileURL(join(project, "entry.mjs")).href);
  assert.equal(globalThis.indexedDB, undefined);
  for (const value of [true, { maxEntries: 10 }]) {
    assert.throws(
      () => new pm.Client({ apiKey: key, baseUrl: url, persistentCache: value }),
      (e) => e instanceof pm.PredmarketError && e.code === "VALIDATION_ERROR" && e.parameter === "persistentCache" && /IndexedDB/.test(e.message) && /cacheTtlMs/.test(e.message),
    );
  }
  assert.throws(() => new pm.Client({ apiKey: key, baseUrl: url, persistentCache: "yes" }), (e) => e.parameter === "persistentCache");
  // Off is off, everywhere.
  const client = new pm.Client({ apiKey: key, baseUrl: url, persistentCache: false });
  assert.equal((await client.listMarkets({ limit: 1 })).markets.length, 1);
  assert.equal(client.keptAgeMs({}), undefined);
});
