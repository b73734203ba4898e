// A Cloudflare-style worker (module syntax). The server URL and key come
// from bindings, as secrets do on the edge.
import * as pm from "predmarket";
import { check } from "../check.mjs";

export default {
  async fetch(_request, env) {
    try {
      const result = await check(pm, { baseUrl: env.PREDMARKET_URL, apiKey: env.PREDMARKET_KEY });
      return Response.json(result);
    } catch (error) {
      return Response.json({ failed: String(error?.stack ?? error) });
    }
  },
};
