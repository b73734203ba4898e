// @ts-check
// `client.history({ resource, from, to, limit })`: a resource's recorded
// rows from the server's `GET /history` (an extension served where the
// server records or replays: `x-history` in its `/openapi.json`), paged by
// the answer's `meta.next_from`. The request goes through the client's
// `__send`, which adds the key and waits for the rate budget as any call
// does; a server without the extension answers 404, rejected as a
// `PredmarketError` with code `NOT_FOUND`. How a page is asked and read
// (history-page.js) is loaded at the first page, a chunk of its own in a
// bundle that splits code: most apps never ask for history.

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
      const { fetchPage } = await import("./history-page.js");
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
