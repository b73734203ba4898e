// @ts-check
// One page of `client.history()` (history.js, which loads this module at
// its first page): the request through the client's `__send` and the
// answer read, or the error it means.

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
export async function fetchPage(client, params, from, signal) {
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
