// A server bundle (esbuild `--platform=node`, CommonJS output, which has no
// top-level await), run from a folder without node_modules.
import * as pm from "predmarket";
import { check } from "../check.mjs";

check(pm, { baseUrl: process.env.PREDMARKET_URL, apiKey: process.env.PREDMARKET_KEY }).then((result) =>
  console.log(`RESULT ${JSON.stringify(result)}`),
);
