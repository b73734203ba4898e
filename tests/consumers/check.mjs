// What every consumer app does with the package, whatever runtime or
// bundler brought it there: one page of markets, paging with `for await`,
// a typed error caught, a function used without a client, and a watch
// (the JS the entry adds to `Client`, which a bundler must not drop); then
// the pure functions' own entry, `predmarket/math` (its own wasm, loaded on
// first call), and its typed error. The runner (consumers.test.mjs)
// compares the result with what the server holds.
import * as math from "predmarket/math";

export async function check(pm, { baseUrl, apiKey }) {
  const client = new pm.Client({ apiKey, baseUrl });
  const page = await client.listMarkets({ limit: 5 });
  const ids = new Set();
  for await (const market of client.markets({ limit: 50 }, { maxItems: 120 })) ids.add(market.id);
  let error = null;
  try {
    await client.getMarket("no-such-market-0000");
  } catch (e) {
    if (!pm.isApiError(e)) throw e;
    error = { code: e.code, status: e.status, isError: e instanceof Error };
  }
  const first = page.markets[0].id;
  const watch = client.watchMarket(first, { intervalMs: 60_000 });
  const update = await watch.next();
  watch.stop();
  const watched = !update.done && update.value.snapshot.markets[0].id === first && update.value.changes.length === 0;
  return {
    listed: page.markets.length,
    watched,
    paged: ids.size,
    error,
    decimal: pm.americanToDecimal("+150"),
    math: { decimal: math.americanToDecimal("-200"), error: mathError() },
  };
}

/// The code of the error `predmarket/math` throws for a malformed game id,
/// if it is one of the package's errors.
function mathError() {
  try {
    math.parseGameId("not-a-game-id");
  } catch (e) {
    return e instanceof Error && e.name === "PredmarketError" ? e.code : String(e);
  }
  return "no error";
}
