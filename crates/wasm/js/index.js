// @ts-check
// Instantiates the wasm from the bytes inlined in wasm-inline.js: no file
// to fetch or find, so every bundler, server bundle and runtime loads it
// unchanged. Synchronous: no top-level await.
import { initSync, __registerErrorClasses, Client, bookChanges, valueChanges, watchIntervalMs, endsWatch, __ledgerRules, __liveRules, __LivePositions, __LiveReader, __streamBackoffMs, __hasNoStreams, __operations } from "./predmarket.js";
import { withWatch } from "./watch.js";
import { withSharedBudget } from "./shared-budget.js";
import { withCapabilities } from "./capabilities.js";
import { withPersistentCache } from "./persistent-cache.js";
import { wasmBytes } from "./wasm-inline.js";
import { PredmarketError, PredmarketAbortError } from "./errors.js";

initSync({ module: wasmBytes() });
__registerErrorClasses(PredmarketError, PredmarketAbortError);

// The glue's public values but `Client` (exports.js, written by
// `cargo xtask npm` from the declarations), then `Client` extended by shared-budget.js,
// watch.js, capabilities.js and persistent-cache.js.
export * from "./exports.js";
export { PredmarketError, PredmarketAbortError } from "./errors.js";
export { exportRows, exportColumns, toCsv, toNdjson, csvChunks, ndjsonChunks, exportStream } from "./export.js";
const rules = __ledgerRules();
const operations = __operations();
const watchRules = {
  bookChanges,
  valueChanges,
  watchIntervalMs,
  endsWatch,
  live: { rules: __liveRules(), Positions: __LivePositions, Reader: __LiveReader, backoffMs: __streamBackoffMs, hasNoStreams: __hasNoStreams },
};
const PackageClient = withPersistentCache(withCapabilities(withWatch(withSharedBudget(Client, rules), PredmarketAbortError, watchRules), PredmarketError, watchIntervalMs, operations), PredmarketError, rules.defaultBaseUrl, operations);
export { PackageClient as Client };
