// Capabilities read at run time and the cost of a plan: with
// `checkCapabilities`, a call naming a platform whose `/platforms` entry
// says it does not serve that data is refused before any request (typed,
// saying why); an unknown platform's call goes out; `estimate` says what a
// walk or a set of watches costs, checked against the requests a real walk
// sends. Platform ids come from the server's /platforms (any naming).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { key, packageDir, url } from "./support.mjs";

let pm;
let platforms;
before(async () => {
  const project = mkdtempSync(join(tmpdir(), "predmarket-capabilities-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  pm = await import(pathToFileURL(join(project, "entry.mjs")).href);
  const res = await fetch(`${url}/platforms`, { headers: { "X-API-Key": key } });
  platforms = (await res.json()).platforms;
});

/** A client whose requests are logged by path (but those the key's
 * limit refused: other suites share the server's key, and the client
 * retries them). */
function logged(options = {}) {
  const sent = [];
  const client = new pm.Client({
    apiKey: key,
    baseUrl: url,
    ...options,
    fetch: async (u, init) => {
      const res = await fetch(u, init);
      if (res.status !== 429) sent.push(new URL(u).pathname);
      return res;
    },
  });
  return { client, sent };
}

const withFeature = (feature, value) => platforms.find((p) => p.features?.[feature] === value)?.id;

test("a call the platform cannot answer is refused before any request, with a typed error", async () => {
  const without = withFeature("orderbook", false);
  assert.ok(without, "the server has a platform without order books");
  const { client, sent } = logged({ checkCapabilities: true });
  const error = await client.getOrderbook({ id: "any-market", platform: without }).then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.ok(error instanceof pm.PredmarketError);
  assert.ok(pm.isApiError(error));
  assert.equal(error.code, "VALIDATION_ERROR");
  assert.equal(error.parameter, "platform");
  assert.deepEqual(error.details, { platform: without, feature: "orderbook", source: "/platforms" });
  assert.match(error.message, /does not serve order books/);
  assert.equal(error.status, undefined, "no answer of the service");
  assert.deepEqual(sent, ["/platforms"], "only /platforms was asked");

  // The same call without the option goes out and the service refuses it.
  const plain = logged();
  const served = await plain.client.getOrderbook({ id: "any-market", platform: without }).then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.equal(served.status, 400);
  assert.equal(plain.sent.length, 1);
  assert.match(plain.sent[0], /\/orderbook$/);
});

test("a platform that serves the data, and one /platforms does not list, are asked", async () => {
  const { client, sent } = logged({ checkCapabilities: true });
  const platform = withFeature("orderbook", true);
  const { markets } = await client.listMarkets({ platform, limit: 1 });
  const book = await client.getOrderbook({ id: markets[0].id, platform });
  assert.equal(book.data.market_id, markets[0].id);
  // Unknown: the service's call (here a 400 from the service itself).
  const error = await client.getOrderbook({ id: "x", platform: "not_a_listed_platform" }).then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.equal(error.status, 400);
  assert.deepEqual(sent.filter((p) => p === "/platforms"), ["/platforms"], "/platforms read once");
  assert.equal(sent.filter((p) => p.endsWith("/orderbook")).length, 2);
  assert.equal(await client.supports(platform, "orderbook"), true);
  assert.equal(await client.supports("not_a_listed_platform", "orderbook"), undefined);
  assert.equal(await client.supports(platform, "a_feature_nobody_has"), undefined);
});

test("a pager of a platform without profiles is refused at its first page", async () => {
  const without = withFeature("user_profiles", false);
  const { client, sent } = logged({ checkCapabilities: true });
  const pager = client.profileTrades({ platform: without, user: "someone" });
  await assert.rejects(pager.nextPage(), (e) => e.code === "VALIDATION_ERROR" && e.details.feature === "user_profiles");
  await assert.rejects(
    (async () => {
      for await (const _ of client.profileTrades({ platform: without, user: "someone" })) assert.fail("an item");
    })(),
    (e) => e.parameter === "platform",
  );
  assert.deepEqual(sent, ["/platforms"]);
  assert.throws(() => new pm.Client({ apiKey: key, baseUrl: url, checkCapabilities: "yes" }), (e) => e.parameter === "checkCapabilities");
});

test("estimate tells a walk's requests, and the walk sends that many", async () => {
  const { client, sent } = logged();
  const capped = await client.estimate({ walk: { list: "markets", params: { limit: 100 }, maxItems: 430 } });
  assert.equal(capped.requests, 5);
  assert.equal(capped.exact, true);
  assert.equal(capped.rateLimitPerMinute, 100);

  const plan = await client.estimate({ walk: { list: "series", params: { limit: 150 } } });
  sent.length = 0;
  let n = 0;
  for await (const _ of client.series({ limit: 150 })) n += 1;
  assert.ok(n > 150);
  assert.equal(plan.requests, sent.length, `estimated ${plan.requests}, sent ${sent.length} for ${n} series`);

  // Past the budget, the rest goes at the budget's pace.
  const slow = logged({ rateLimitPerMinute: 10 }).client;
  const big = await slow.estimate({ walk: { list: "markets", params: { limit: 10 }, maxItems: 400 } });
  // (One page fetched: the rest is arithmetic.)
  assert.equal(big.requests, 40);
  assert.equal(big.minutes, (40 - big.remainingNow) / 10);
  assert.ok(big.minutes >= 3, "40 requests at 10 a minute, 10 of them now");
});

test("estimate tells what watches cost a minute, within the budget", async () => {
  const { client, sent } = logged();
  const three = await client.estimate({ watches: [{ kind: "orderbook" }, { kind: "orderbook" }, { kind: "market" }], durationMs: 120_000 });
  // Order books every 5 s, a market every 10 s.
  assert.equal(three.requestsPerMinute, 12 + 12 + 6);
  assert.equal(three.requests, 60);
  assert.equal(three.budgetShare, 0.3);
  assert.deepEqual(sent, [], "estimating watches sends nothing");
  // A budget that cannot afford them: the scheduler's longer intervals.
  const tight = await new pm.Client({ apiKey: key, baseUrl: url, rateLimitPerMinute: 40 }).estimate({ watches: Array.from({ length: 10 }, () => ({ kind: "orderbook" })) });
  // Watches get half the budget; the rest stays for the user's own calls.
  assert.ok(tight.requestsPerMinute <= 20, `${tight.requestsPerMinute} a minute on a budget of 40`);
  assert.ok(tight.requestsPerMinute > 0);
  await assert.rejects(client.estimate({ watches: [{ kind: "weather" }] }), (e) => e.parameter === "watches[0].kind");
  await assert.rejects(client.estimate({ walk: { list: "nope" } }), (e) => e.parameter === "walk.list");
});

/** A platform whose `/platforms` entry lists markets and says `feature` is `value`. */
const listing = (feature, value) =>
  platforms.find((p) => p.features?.[feature] === value && p.endpoints?.some?.((e) => e.name === "markets" && e.available))?.id;

test("trades, price history and books of a market the client saw on a platform without them are refused", async () => {
  const noTrades = listing("trades", false);
  const noHistory = listing("historical_data", false);
  const noBook = listing("orderbook", false);
  assert.ok(noTrades && noHistory && noBook, "the server lists markets of platforms without trades, history, books");
  const { client, sent } = logged({ checkCapabilities: true });
  const { markets } = await client.listMarkets({ platform: noTrades, limit: 2 });
  const market = markets[0];
  const error = await client.listTrades({ market_id: market.id }).then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.ok(error instanceof pm.PredmarketError);
  assert.equal(error.code, "VALIDATION_ERROR");
  assert.equal(error.parameter, "market_id");
  assert.deepEqual(error.details, { platform: noTrades, feature: "trades", source: "/platforms", market_id: market.id });
  assert.match(error.message, /is on platform .* does not serve trades/);
  // A bare id, and the pager, are held to it too.
  await assert.rejects(client.listTrades(market.id), (e) => e.details?.feature === "trades");
  await assert.rejects(client.trades({ market_id: market.id }).nextPage(), (e) => e.details?.market_id === market.id);
  assert.deepEqual(sent, ["/markets", "/platforms"], "no /trades request");

  // Markets learned from a pager's items; history of several ids, one of them without.
  const withHistory = listing("historical_data", true);
  let seen;
  for await (const m of client.markets({ platform: noHistory, limit: 3 })) {
    seen = m;
    break;
  }
  const { markets: good } = await client.listMarkets({ platform: withHistory, limit: 1 });
  sent.length = 0;
  await assert.rejects(client.getPriceHistory({ market_ids: [good[0].id, seen.id] }), (e) => e.parameter === "market_ids" && e.details.market_id === seen.id && e.details.feature === "historical_data");
  await assert.rejects(client.getPriceHistory({ market_ids: `${good[0].id},${seen.id}` }), (e) => e.details?.market_id === seen.id);
  const history = await client.getPriceHistory({ market_ids: [good[0].id] });
  assert.ok(history);
  assert.deepEqual(sent, ["/price-history"], "only the history the platform has was asked");

  // A book asked by market id alone, of a market seen in an event's nested markets or a list.
  const { markets: bookless } = await client.listMarkets({ platform: noBook, limit: 1 });
  await assert.rejects(client.getOrderbook({ id: bookless[0].id }), (e) => e.parameter === "id" && e.details.feature === "orderbook");
});

test("a market the client has not seen is asked as usual, and without the option nothing is checked", async () => {
  const noTrades = listing("trades", false);
  const { client, sent } = logged({ checkCapabilities: true });
  // Learned by one client, not by another.
  const other = logged().client;
  const { markets } = await other.listMarkets({ platform: noTrades, limit: 1 });
  const error = await client.listTrades({ market_id: markets[0].id }).then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.equal(error.status, 400, "the service's own refusal");
  assert.deepEqual(sent, ["/trades"], "no /platforms read for a market of unknown platform");
  const plain = logged();
  await plain.client.listMarkets({ platform: noTrades, limit: 1 });
  await assert.rejects(plain.client.listTrades({ market_id: markets[0].id }), (e) => e.status === 400);
  assert.deepEqual(plain.sent, ["/markets", "/trades"]);
  // A platform with trades: asked.
  const { client: checked, sent: asked } = logged({ checkCapabilities: true });
  const { markets: traded } = await checked.listMarkets({ platform: listing("trades", true), limit: 1 });
  const trades = await checked.listTrades({ market_id: traded[0].id, limit: 1 });
  assert.ok(Array.isArray(trades.trades));
  assert.deepEqual(asked, ["/markets", "/platforms", "/trades"]);
});

test("estimate prices watches through the server's stream once a watch found it", async () => {
  const { client, sent } = logged();
  const plan = { watches: [{ kind: "orderbook" }, { kind: "orderbook" }, { kind: "market" }], durationMs: 120_000 };
  // Nothing found out yet: priced as polled, and said.
  const before = await client.estimate(plan);
  assert.equal(before.watchSource, "unknown");
  assert.equal(before.requests, 60);
  assert.equal(before.streamed, 0);
  assert.ok(before.notes.some((n) => /stream: true/.test(n)), before.notes.join("; "));
  // The plan may say it.
  const said = await client.estimate({ ...plan, stream: true });
  assert.equal(said.watchSource, "stream");
  assert.equal(said.requests, 1);

  const { markets } = await client.listMarkets({ platform: listing("orderbook", true), limit: 1 });
  const watch = client.watchOrderbook(markets[0].id);
  const first = (await watch.next()).value;
  watch.stop();
  assert.equal(first.source, "stream", "the server streams");
  sent.length = 0;
  const streamed = await client.estimate(plan);
  assert.equal(streamed.watchSource, "stream");
  assert.equal(streamed.streamed, 3);
  assert.equal(streamed.requests, 1, "one stream opening, whatever the duration");
  assert.equal(streamed.requestsPerMinute, 0);
  assert.equal(streamed.budgetShare, 0);
  // Beyond the stream's 32 resources the rest poll.
  const many = await client.estimate({ watches: Array.from({ length: 34 }, () => ({ kind: "market" })) });
  assert.equal(many.streamed, 32);
  assert.equal(many.requestsPerMinute, 12, "two markets polled every 10 s");
  assert.equal(many.requests, 1 + 12);
  // Priced as polled when asked, whatever the client found.
  const polled = await client.estimate({ ...plan, stream: false });
  assert.equal(polled.watchSource, "poll");
  assert.equal(polled.requests, 60);
  await assert.rejects(client.estimate({ ...plan, stream: "yes" }), (e) => e.parameter === "stream");
  assert.deepEqual(sent, [], "estimating sends nothing");
});

test("Client is one class: with every option on, an instance owns no method and each feature is a method of its class", async () => {
  const { client } = logged({ checkCapabilities: true, sharedBudget: true });
  const owned = Reflect.ownKeys(client).filter((k) => typeof client[k] === "function");
  assert.deepEqual(owned, [], "no method redefined on the instance");
  const methods = ["listMarkets", "markets", "getOrderbook", "watchOrderbook", "history", "capabilities", "supports", "estimate", "keptAgeMs", "clearCache", "clearPersistentCache"];
  for (const name of methods) assert.equal(typeof client[name], "function", name);
  // The package's class and the wasm's, nothing between: what it adds is
  // its own, what the operation table makes is the wasm class's.
  const own = new Set(Object.getOwnPropertyNames(pm.Client.prototype));
  for (const name of ["watchOrderbook", "history", "estimate", "capabilities", "keptAgeMs"]) assert.ok(own.has(name), name);
  const base = Object.getPrototypeOf(pm.Client.prototype);
  for (const name of ["listMarkets", "markets", "getOrderbook"]) assert.ok(Object.hasOwn(base, name), name);
  assert.equal(Object.getPrototypeOf(base), Object.prototype, "no wrapper class between");
  // The checked calls still answer.
  assert.ok(Array.isArray((await client.listMarkets({ limit: 1 })).markets));
  for await (const market of client.markets({ limit: 1 }, { maxItems: 1 })) assert.equal(typeof market.id, "string");
});
