// What every consumer app does with the package, whatever runtime or
// bundler brought it there: one page of markets, paging with `for await`,
// a typed error caught, and a function used without a client. The runner
// (consumers.test.mjs) compares the result with what the server holds.
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
  return {
    listed: page.markets.length,
    paged: ids.size,
    error,
    decimal: pm.americanToDecimal("+150"),
  };
}
