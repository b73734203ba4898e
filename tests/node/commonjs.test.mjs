// The package's CommonJS entries share one copy of the error classes
// (errors.cjs) and of `predmarket/math` (math.cjs, its wasm and state):
// a CommonJS user who requires `predmarket` and `predmarket/math` gets
// errors that are `instanceof` the one `PredmarketError` either exports,
// and the same functions from both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageDir } from "./support.mjs";

test("require of two entries shares the error classes and predmarket/math", () => {
  const project = mkdtempSync(join(tmpdir(), "predmarket-cjs-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true }));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"), "dir");
  const require = createRequire(join(project, "entry.cjs"));
  const main = require("predmarket");
  const math = require("predmarket/math");
  assert.equal(main.americanToDecimal, math.americanToDecimal, "one predmarket/math");
  let thrown;
  try {
    math.parseGameId("not-a-game-id");
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof main.PredmarketError, `${thrown?.name}: ${thrown?.message}`);
  assert.equal(thrown.code, "VALIDATION_ERROR");
  // A client's error too, thrown by the main entry's wasm.
  assert.throws(() => new main.Client({ baseUrl: "http://127.0.0.1:9" }), (e) => e instanceof main.PredmarketError);
});
