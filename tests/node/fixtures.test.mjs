// The built package against a tiny loopback server that answers with the
// real-shaped fixtures of tests/fixtures/public (written from
// docs/spec/public-service-facts.md): every body reaches JS intact
// (the library hands out what `JSON.parse` built; tests/types/fixtures.ts
// checks those bodies against the declared types), pagers end on a list
// without a pagination object and find lists wrapped in `data`, and both
// error envelopes reject with the typed error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageDir = process.env.PREDMARKET_PACKAGE;
assert.ok(packageDir, "run through `cargo xtask test` (PREDMARKET_PACKAGE)");
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "public");
const fixture = (name) => JSON.parse(readFileSync(join(fixtures, name), "utf8"));

// path (without query) -> [status, fixture]
const routes = {
  "/markets": [200, "list_markets.json"],
  "/markets/0x8f2a1c3d/orderbook": [200, "get_orderbook.json"],
  "/markets/bad/orderbook": [400, "error_validation_map.json"],
  "/markets/down": [503, "error_platform_unavailable.json"],
  "/trades": [200, "list_trades_wrapped.json"],
  "/list-futures": [200, "list_futures.json"],
  "/list-awards": [200, "list_awards_nested_pagination.json"],
  "/league-info": [200, "league_info.json"],
  "/list-games": [200, "list_games_top_level.json"],
  "/games/KCvSF20250209@NFL": [200, "get_game.json"],
  "/price-history": [200, "price_history.json"],
  "/profile/info": [200, "profile_info.json"],
  "/profile/trades": [200, "profile_trades.json"],
  "/events": [200, "list_events_markets_key.json"],
  "/platforms": [200, "list_platforms.json"],
};

let server;
let baseUrl;
let pm;
const seen = [];

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    seen.push(url.pathname + url.search);
    let route = routes[decodeURIComponent(url.pathname)];
    if (url.pathname === "/profile/info" && url.searchParams.get("user") === "nobody") {
      route = [400, "error_validation_array.json"];
    }
    if (url.pathname === "/trades" && url.searchParams.get("cursor") === "t2") {
      route = [200, "profile_trades.json"]; // no top-level `trades`: ends below
    }
    if (!route) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: url.pathname } }));
      return;
    }
    const [status, name] = route;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(readFileSync(join(fixtures, name)));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
  // Resolved through the package's exports map, as a user's import is.
  const project = mkdtempSync(join(tmpdir(), "predmarket-fixtures-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  pm = await import(pathToFileURL(join(project, "entry.mjs")).href);
});

after(() => server?.close());

const client = () => new pm.Client({ apiKey: "pm_fixture_key", baseUrl, maxRetries: 0 });

test("every fixture body reaches JS intact", async () => {
  const c = client();
  const calls = [
    [() => c.listMarkets({ platform: "polymarket" }), "list_markets.json"],
    [() => c.getOrderbook("0x8f2a1c3d"), "get_orderbook.json"],
    [() => c.listTrades("0x8f2a1c3d"), "list_trades_wrapped.json"],
    [() => c.listFutures({ league: "nfl" }), "list_futures.json"],
    [() => c.listAwards({ league: "nfl" }), "list_awards_nested_pagination.json"],
    [() => c.getLeagueInfo({ league: "nfl", include_teams: true }), "league_info.json"],
    [() => c.listGames({ league: "nfl" }), "list_games_top_level.json"],
    [() => c.getGame("KCvSF20250209@NFL"), "get_game.json"],
    [() => c.getPriceHistory({ market_ids: ["0x8f2a1c3d"] }), "price_history.json"],
    [() => c.getProfileInfo({ platform: "polymarket", user: "0x5668", include_metrics: true }), "profile_info.json"],
    [() => c.listProfileTrades({ platform: "polymarket", user: "0x5668" }), "profile_trades.json"],
    [() => c.listEvents(), "list_events_markets_key.json"],
    [() => c.listPlatforms(), "list_platforms.json"],
  ];
  for (const [call, name] of calls) {
    assert.deepEqual(await call(), fixture(name), name);
  }
  // The values the facts are about, as JS sees them.
  const markets = await c.listMarkets();
  assert.equal(markets.markets[0].event_id, "");
  assert.equal(markets.markets[0].event_name, null);
  assert.equal(markets.markets[0].liquidity, "0.1300");
  assert.equal(markets.markets[1].last_synced_at, 1757008800);
  assert.equal(typeof markets.markets[0].metadata.clobTokenIds, "string");
  const futures = await c.listFutures({ league: "nfl" });
  const outcomes = futures.data.futures[0].markets[0].outcomes;
  assert.equal(outcomes[0].odds.american, "+450");
  assert.equal(outcomes[1].odds.american, -110);
  assert.equal(outcomes[1].team_polyrouter_id, null);
});

test("the package's functions read numeric strings and unsorted sides", async () => {
  const book = (await client().getOrderbook("0x8f2a1c3d")).data.yes;
  assert.equal(pm.bestBid(book)?.price, 0.86);
  assert.equal(pm.bestAsk(book)?.price, 0.88);
});

test("a pager ends on a list without a pagination object", async () => {
  const items = [];
  for await (const f of client().futures({ league: "nfl" })) items.push(f.id);
  assert.deepEqual(items, ["nfl_super_bowl_2026"]);
  const awards = [];
  for await (const a of client().awards({ league: "nfl" })) awards.push(a.id);
  assert.deepEqual(awards, ["nfl_mvp_2025"], "offset pagination nested in data, has_more false");
});

test("pagers find lists at the top level or inside data", async () => {
  const games = [];
  for await (const g of client().games({ league: "nfl" })) games.push(g.id);
  assert.deepEqual(games, ["KCvSF20250209"]);
  const events = [];
  for await (const e of client().events()) events.push(e.id);
  assert.deepEqual(events, ["fed-decision-september"], "events under `markets`");
  const pager = client().trades({ market_id: "0x8f2a1c3d" });
  const first = await pager.nextPage();
  assert.deepEqual(first.items.map((t) => t.trade_id), ["0xfeed-1", "k-77"], "data.trades");
  assert.deepEqual(first.response, fixture("list_trades_wrapped.json"));
  // The next page (cursor t2) holds its trades under data.trades too.
  const second = await pager.nextPage();
  assert.deepEqual(second.items.map((t) => t.trade_id), ["0xabc-0"]);
  assert.equal(await pager.nextPage(), null, "has_more false ends");
});

test("both error envelopes reject with the typed error", async () => {
  const c = client();
  await assert.rejects(c.getOrderbook("bad"), (e) => {
    assert.ok(pm.isApiError(e));
    assert.equal(e.code, "VALIDATION_ERROR");
    assert.equal(e.status, 400);
    assert.deepEqual(e.details.validation_errors.limit, ["must be at most 100"]);
    return true;
  });
  await assert.rejects(c.getProfileInfo({ platform: "polymarket", user: "nobody" }), (e) => {
    assert.equal(e.code, "VALIDATION_ERROR", "INVALID_PARAMETERS mapped by status");
    assert.equal(e.details.validation_errors[0].field, "user");
    return true;
  });
  await assert.rejects(c.getMarket("down"), (e) => {
    assert.equal(e.code, "PLATFORM_UNAVAILABLE");
    assert.equal(e.retryAfterMs, 30000);
    return true;
  });
});
