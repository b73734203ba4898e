// @ts-check
// Edge runtimes (workerd) compile no wasm from bytes at run time: the
// module comes in as an import, compiled by the runtime.
import wasm from "./predmarket_bg.wasm";
import { initSync, __registerErrorClasses, Client, bookChanges, valueChanges, watchIntervalMs, endsWatch, __ledgerRules, __liveRules, __LivePositions, __LiveReader, __streamBackoffMs, __hasNoStreams, __operations } from "./predmarket.js";
import { withWatch } from "./watch.js";
import { withSharedBudget } from "./shared-budget.js";
import { withCapabilities } from "./capabilities.js";
import { withPersistentCache } from "./persistent-cache.js";
import { PredmarketError, PredmarketAbortError } from "./errors.js";

initSync({ module: wasm });
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
