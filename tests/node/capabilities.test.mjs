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
