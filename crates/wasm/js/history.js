// @ts-check
// `client.history({ resource, from, to, limit })`: a resource's recorded
// rows from the server's `GET /history` (an extension served where the
// server records or replays: `x-history` in its `/openapi.json`), paged by
// the answer's `meta.next_from`. The request goes through the client's
// `__send`, which adds the key and waits for the rate budget as any call
// does; a server without the extension answers 404, rejected as a
// `PredmarketError` with code `NOT_FOUND`.

import { PredmarketError, PredmarketAbortError } from "./errors.js";

/**
 * @param {string} message
 * @param {Record<string, unknown>} fields `code` and what else the error says
 */
const fail = (message, fields) => Object.assign(new PredmarketError(`history: ${message}`), fields);

/**
 * One page of rows from `from` on.
 * @param {any} client the package's `Client`
 * @param {import("./predmarket.js").HistoryParams} params
 * @param {string | number | undefined} from
 * @param {AbortSignal | undefined} signal
 */
async function fetchPage(client, params, from, signal) {
  if (typeof params?.resource !== "string") throw fail("`resource` (KIND:ID) expected", { code: "VALIDATION_ERROR", parameter: "resource" });
  const query = new URLSearchParams({ resource: params.resource });
  for (const [name, value] of Object.entries({ from, to: params.to, limit: params.limit })) if (value !== undefined) query.set(name, String(value));
  let response, body;
  try {
    // No redirect is followed: the key stays on the base URL's origin.
    response = await client.__send("/history", String(query), { headers: { accept: "application/json" }, redirect: "manual", signal });
    body = await response.json().catch(() => undefined);
  } catch (cause) {
    if (signal?.aborted) throw new PredmarketAbortError(undefined, { cause });
    throw fail("the server could not be reached", { code: "NETWORK_ERROR", cause });
  }
  const { status } = response;
  if (!response.ok) {
    // The server's error names its code; a body without one (a proxy's
    // page) is coded by its status.
    const told = body?.error ?? {};
    const code = told.code ?? (status === 404 ? "NOT_FOUND" : status === 429 ? "RATE_LIMITED" : status < 500 ? "VALIDATION_ERROR" : "INTERNAL_ERROR");
    throw fail(told.message ?? `HTTP ${status}`, { code, status, parameter: told.parameter });
  }
  if (!Array.isArray(body?.data)) throw fail("an answer without `data`", { code: "DECODE_ERROR", status });
  return body;
}

/**
 * The pager of `client.history(params, options)`.
 * @param {any} client
 * @param {import("./predmarket.js").HistoryParams} params
 * @param {import("./predmarket.js").HistoryOptions} [options]
 * @returns {import("./predmarket.js").HistoryPager}
 */
export function historyPager(client, params, options = {}) {
  let from = params?.from;
  let done = false;
  let delivered = 0;
  const max = options.maxItems ?? Infinity;
  const pager = {
    get done() {
      return done;
    },
    get delivered() {
      return delivered;
    },
    async nextPage() {
      if (done) return null;
      const response = await fetchPage(client, params, from, options.signal);
      const items = response.data.slice(0, max - delivered);
      delivered += items.length;
      const next = response.meta?.next_from;
      // A loop guard: a next page must start later than this one did.
      done = delivered >= max || typeof next !== "number" || (typeof from === "number" && next <= from);
      from = next;
      return { items, response };
    },
    async *[Symbol.asyncIterator]() {
      for (let page; (page = await pager.nextPage()); ) yield* page.items;
    },
  };
  return pager;
}
