// @ts-check
// What a plan of calls will cost: requests, and minutes of the client's
// rate budget (the package `Client`'s `estimate()`, client.js, which
// loads this module on its first call, a chunk of its own in a bundle
// that splits code: most apps never estimate).

import { PredmarketError } from "./errors.js";

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What a plan of calls will cost: requests, and minutes of the client's rate budget.
 * @param {any} client the package's `Client`
 * @param {any} plan
 * @param {{ limit: number, pagers: string[], watchKinds: string[], streamMode: "discover" | "stream" | "poll", watchIntervalMs: typeof import("./watch.js").watchIntervalMs, streamMaxResources: number }} known
 *   the client's budget, its pager methods and the kinds it watches (the operation table's), what its watches found out of the server's stream,
 *   how many watches a stream carries (the core's rule; the rest poll)
 */
export async function estimate(client, plan, known) {
  const { limit, pagers } = known;
  if (!isObject(plan)) throw Object.assign(new PredmarketError("estimate: a plan object expected"), { code: "VALIDATION_ERROR", parameter: "plan" });
  const remaining = client.rateBudgetRemaining;
  /** @type {string[]} */
  const notes = [];
  let requests = 0;
  let exact = true;
  if (plan.walk !== undefined) {
    const walk = plan.walk;
    if (!isObject(walk) || !pagers.includes(walk.list)) {
      throw Object.assign(new PredmarketError(`estimate: walk.list is one of ${pagers.join(", ")}`), { code: "VALIDATION_ERROR", parameter: "walk.list" });
    }
    const pager = client[walk.list](walk.params ?? {}, walk.maxItems === undefined ? {} : { maxItems: walk.maxItems });
    // One page tells the page size and, where the service says it, the total.
    const first = await pager.nextPage();
    requests += 1;
    const size = first?.items.length ?? 0;
    const pagination = isObject(first?.response?.pagination) ? first.response.pagination : isObject(first?.response) ? first.response : {};
    const totalRaw = pagination.total ?? first?.response?.meta?.total;
    const total = typeof totalRaw === "number" ? totalRaw : Number(totalRaw);
    const more = !pager.done;
    let items = Number.isFinite(total) ? total : NaN;
    if (typeof walk.maxItems === "number") items = Number.isFinite(items) ? Math.min(items, walk.maxItems) : walk.maxItems;
    if (!more || size === 0) {
      notes.push("the walk fits in its first page, already fetched");
    } else if (Number.isFinite(items)) {
      requests += Math.max(0, Math.ceil(items / size) - 1);
      notes.push(`${items} items at ${size} a page`);
    } else {
      exact = false;
      requests += 1;
      notes.push("the service gives no total: at least one more page");
    }
    pager.free?.();
  }
  if (plan.calls !== undefined) {
    if (typeof plan.calls !== "number" || !(plan.calls >= 0)) throw Object.assign(new PredmarketError("estimate: calls is a count"), { code: "VALIDATION_ERROR", parameter: "calls" });
    requests += Math.ceil(plan.calls);
  }
  let requestsPerMinute = 0;
  let streamed = 0;
  /** @type {"stream" | "poll" | "unknown"} */
  let watchSource = "poll";
  if (plan.watches !== undefined) {
    if (!Array.isArray(plan.watches)) throw Object.assign(new PredmarketError("estimate: watches is an array"), { code: "VALIDATION_ERROR", parameter: "watches" });
    if (plan.stream !== undefined && typeof plan.stream !== "boolean") throw Object.assign(new PredmarketError("estimate: stream is true or false"), { code: "VALIDATION_ERROR", parameter: "stream" });
    /** @type {number[]} */
    const wanted = plan.watches.map((/** @type {any} */ w, /** @type {number} */ i) => {
      const kind = isObject(w) ? w.kind : undefined;
      if (!known.watchKinds.includes(kind)) throw Object.assign(new PredmarketError(`estimate: watches[${i}].kind is one of ${known.watchKinds.join(", ")}`), { code: "VALIDATION_ERROR", parameter: `watches[${i}].kind` });
      return typeof w.intervalMs === "number" ? w.intervalMs : known.watchIntervalMs(kind);
    });
    // What the client's watches found out about the server (`GET
    // /stream` answered, or did not exist), unless the plan says.
    const mode = plan.stream === true ? "stream" : plan.stream === false ? "poll" : known.streamMode;
    watchSource = mode === "stream" ? "stream" : mode === "poll" ? "poll" : "unknown";
    const durationMs = typeof plan.durationMs === "number" ? plan.durationMs : 60_000;
    if (watchSource === "stream" && wanted.length > 0) {
      // One stream carries them all (up to the server's cap): opening
      // it is one request, whatever the watches' intervals.
      streamed = Math.min(wanted.length, known.streamMaxResources);
      requests += 1;
      notes.push(`${streamed} watches through the server's stream: one request to open it, none a poll`);
    }
    const polled = wanted.slice(streamed);
    if (polled.length > 0) {
      const intervals = /** @type {number[]} */ (client.__watchIntervals(polled, true));
      requestsPerMinute = intervals.reduce((sum, ms) => sum + 60_000 / ms, 0);
      requests += Math.ceil((requestsPerMinute * durationMs) / 60_000);
      notes.push(
        watchSource === "stream"
          ? `${polled.length} watches beyond the stream's ${known.streamMaxResources} resources, polled by this client`
          : watchSource === "poll"
            ? "watches polled by this client (the server has no stream)"
            : "watches priced as polled by this client: no watch has found out yet whether the server streams (through its stream they cost one request to open it; `stream: true` prices that)",
      );
    }
  }
  // What the budget has now goes at once; the rest at `limit` a minute.
  const minutes = Math.max(0, requests - remaining) / limit;
  return { requests, minutes, exact, rateLimitPerMinute: limit, remainingNow: remaining, requestsPerMinute, budgetShare: requestsPerMinute / limit, watchSource, streamed, notes };
}
