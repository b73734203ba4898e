// @ts-check
// Instantiates the wasm from the bytes inlined in wasm-inline.js: no file
// to fetch or find, so every bundler, server bundle and runtime loads it
// unchanged. Synchronous: no top-level await.
import { initSync, __registerErrorClasses } from "./predmarket.js";
import { PredmarketError, PredmarketAbortError } from "./errors.js";
// Before the inlined wasm: a bundle then holds the glue and the JS layer
// side by side, within one gzip window of each other (−257 B gzip of the
// client app), and the wasm's bytes after them. Nothing in api.js calls
// the wasm while it loads.
export * from "./api.js";
import { wasmBytes } from "./wasm-inline.js";

initSync({ module: wasmBytes() });
__registerErrorClasses(PredmarketError, PredmarketAbortError);
