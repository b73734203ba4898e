// A dedicated web worker: the package runs off the main thread (no DOM,
// no window) and posts its result back.
import * as pm from "predmarket";
import { check } from "../check.mjs";

self.onmessage = async (event) => {
  try {
    self.postMessage(await check(pm, event.data));
  } catch (error) {
    self.postMessage({ failed: String(error?.stack ?? error) });
  }
};
