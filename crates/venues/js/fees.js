// @ts-check
// `predmarket/venues`' fee half (crates/venues-fees): `feeModel` and the
// pricing of `netArbitrage`, in a wasm of its own, instantiated on the
// first call that needs it. Nothing here runs at import, so an app that
// never prices a trade drops this file, its glue and its wasm.
import * as glue from "./fees_glue.js";
import { wasmBytes } from "./fees-inline.js";

let loaded = false;

/** The fee wasm's glue, its wasm instantiated. */
export function fees() {
  if (!loaded) {
    glue.initSync({ module: wasmBytes() });
    loaded = true;
  }
  return glue;
}
