// @ts-check
// predmarket-core's ledger rules and names (the window, the margin, the
// caps, the storage names, the default base URL), as the client's wasm
// states them (`__ledgerRules()`), for shared-budget.js and client.js.
// client.js hands this module the glue's function when it loads: shared-
// budget.js is a chunk loaded on first use, and a lazy chunk that imported
// the glue itself would have a bundler that splits code move the glue
// into a chunk of its own, away from the inlined wasm (+1.7 KB gzip of
// the client app measured with esbuild, the glue compressing worse apart).

import { PredmarketError } from "./errors.js";

/** @typedef {{ windowMs: number, safetyMs: number, maxBlockMs: number, maxEntries: number, namePrefix: string, database: string, store: string, defaultBaseUrl: string }} LedgerRules */

/** @type {(() => LedgerRules) | undefined} */
let source;
/** @type {LedgerRules | undefined} */
let read;

/**
 * Where the rules are read from (client.js: the glue's `__ledgerRules`).
 * @param {() => LedgerRules} from
 */
export function readLedgerRulesFrom(from) {
  source = from;
}

/**
 * The rules, read from the wasm at first use (the entry has initialised it
 * by then).
 * @returns {LedgerRules}
 */
export function ledgerRules() {
  if (read) return read;
  if (!source) throw Object.assign(new PredmarketError("predmarket: the ledger's rules are read from the client's wasm: import the package's entry first"), { code: "INTERNAL_ERROR" });
  return (read = source());
}
