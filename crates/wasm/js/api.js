// @ts-check
// The package's public values, for both entries (index.js, edge.js): the
// glue's but `Client` (exports.js, written by `cargo xtask npm` from the
// declarations), the error classes, the export functions and the
// package's `Client` (client.js). Nothing here runs at import: a bundler
// drops what an app does not import.
export * from "./exports.js";
export { PredmarketError, PredmarketAbortError } from "./errors.js";
export { exportRows, exportColumns, toCsv, toNdjson, csvChunks, ndjsonChunks, exportStream } from "./export.js";
export { Client } from "./client.js";
