// @ts-check
// Edge runtimes (workerd) compile no wasm from bytes at run time: the
// module comes in as an import, compiled by the runtime.
import wasm from "./predmarket_bg.wasm";
import { initSync, __registerErrorClasses } from "./predmarket.js";
import { PredmarketError, PredmarketAbortError } from "./errors.js";

initSync({ module: wasm });
__registerErrorClasses(PredmarketError, PredmarketAbortError);

export * from "./api.js";
