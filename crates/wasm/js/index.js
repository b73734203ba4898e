// @ts-check
// Instantiates the wasm from the bytes inlined in wasm-inline.js: no file
// to fetch or find, so every bundler, server bundle and runtime loads it
// unchanged. Synchronous: no top-level await.
import { initSync, __registerErrorClasses } from "./predmarket.js";
import { wasmBytes } from "./wasm-inline.js";
import { PredmarketError, PredmarketAbortError } from "./errors.js";

initSync({ module: wasmBytes() });
__registerErrorClasses(PredmarketError, PredmarketAbortError);

export * from "./api.js";
