// The browser apps' page script: runs the check with what the runner put
// in `window.__predmarket` (server URL and key: never in the page URL) and
// leaves the outcome in `window.__result` for Playwright to read.
import * as pm from "predmarket";
import { check } from "./check.mjs";

check(pm, window.__predmarket).then(
  (result) => {
    window.__result = result;
  },
  (error) => {
    window.__result = { failed: String(error?.stack ?? error) };
  },
);
