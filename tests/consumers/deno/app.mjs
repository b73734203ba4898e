// A Deno program using the npm package from the project's node_modules
// (package.json beside it), with only the permissions it needs.
import * as pm from "predmarket";
import { check } from "../check.mjs";

const result = await check(pm, { baseUrl: Deno.env.get("PREDMARKET_URL"), apiKey: Deno.env.get("PREDMARKET_KEY") });
console.log(`RESULT ${JSON.stringify(result)}`);
