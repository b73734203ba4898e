// A Node ESM program: `import` through the package's exports map.
import * as pm from "predmarket";
import { check } from "../check.mjs";

const result = await check(pm, { baseUrl: process.env.PREDMARKET_URL, apiKey: process.env.PREDMARKET_KEY });
console.log(`RESULT ${JSON.stringify(result)}`);
