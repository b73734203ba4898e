// What the node tests share: the package and server `cargo xtask test`
// hands them, and the wait for a condition under one generous ceiling.
// (Not a test file: `node --test` runs only `*.test.mjs`.)
import assert from "node:assert/strict";

export const packageDir = process.env.PREDMARKET_PACKAGE;
export const url = process.env.PREDMARKET_URL;
export const key = process.env.PREDMARKET_KEY;
/** A key of 12 a minute that only the budget test of package.test.mjs spends. */
export const twelveKey = process.env.PREDMARKET_TWELVE_KEY ?? key;
assert.ok(packageDir && url && key, "run through `cargo xtask test` (PREDMARKET_PACKAGE, PREDMARKET_URL, PREDMARKET_KEY)");

/** How long a test waits for something that should happen, at most. */
export const CEILING_MS = 50_000;

/** Resolves once `condition()` holds, asking every 50 ms; rejects after
 * `CEILING_MS` (the ceiling a loaded machine never reaches). */
export async function eventually(condition, what) {
  const deadline = Date.now() + CEILING_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${CEILING_MS / 1000} s: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
