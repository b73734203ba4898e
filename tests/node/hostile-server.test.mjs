// The npm package against hostile answers from small HTTP servers of the
// test's own, on loopback: redirects that try to send the key (and the
// caller's headers) to another origin, wire keys named `__proto__` (error
// details, outcome names, a watch's diff), 4xx statuses that must not be
// retried, and a 200 that is not JSON, which must not be cached. Needs only
// the built package (PREDMARKET_PACKAGE).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const packageDir = process.env.PREDMARKET_PACKAGE;
assert.ok(packageDir, "run through `cargo xtask test` (PREDMARKET_PACKAGE)");

const KEY = "pm_node_redirect_key";
const PLATFORMS = JSON.stringify({ platforms: [{ id: "platform_a" }], meta: { total: 1 } });

let pm;
const servers = [];

/** A server on `host` answering with `answer(req)` ({ status, headers, body }), logging every request first. */
async function listen(host, answer) {
  const log = [];
  const server = createServer((req, res) => {
    log.push({ url: req.url, headers: { ...req.headers } });
    const { status = 200, headers = {}, body = "" } = answer(req) ?? {};
    res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  const authority = `${host}:${server.address().port}`;
  return { log, authority, url: `http://${authority}` };
}

before(async () => {
  pm = await import(pathToFileURL(join(packageDir, "index.js")).href);
});

after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

// `other`: the other origin's authority; `me`: the service's. Each spelling
// is one that a hand split reads as the service while a WHATWG parser (and
// so fetch) goes to `other`.
const SPELLINGS = [
  (other, me) => `http://${other}\\@${me}/v2/platforms`,
  (other, me) => `//${other}\\@${me}/v2/platforms`,
  (other) => `/\\${other}/v2/platforms`,
  (other) => `\\\\${other}\\v2\\platforms`,
  (other) => `http:\\\\${other}/v2/platforms`,
  (other, me) => `http://${me}@${other}/v2/platforms`,
  (other, me) => `http://${me}%40@${other}/v2/platforms`,
  (other) => `HTTP://${other.toUpperCase()}/v2/platforms`,
];

/** The service redirecting `/platforms` to `location(other, me)`, and the other origin. */
async function pair(otherHost, location) {
  const other = await listen(otherHost, () => ({ body: PLATFORMS }));
  let me = "";
  const service = await listen("127.0.0.1", (req) =>
    req.url.startsWith("/v2/") ? { body: PLATFORMS } : { status: 302, headers: { location: location(other.authority, me) } },
  );
  me = service.authority;
  return { service, other };
}

const client = (service, options = {}) =>
  new pm.Client({ apiKey: KEY, baseUrl: service.url, headers: { "x-app": "client-level" }, maxRetries: 2, ...options });

test("a redirect to another origin is refused, naming its location, and nothing reaches that origin", async () => {
  for (const [n, spelling] of SPELLINGS.entries()) {
    for (const otherHost of ["127.0.0.1", "localhost"]) {
      const { service, other } = await pair(otherHost, spelling);
      const result = client(service).listPlatforms({}, { headers: { "x-trace": "per-call" } });
      const error = await result.then(
        () => assert.fail(`spelling ${n} (${otherHost}) was followed`),
        (e) => e,
      );
      // The leak itself first: the other origin saw nothing at all.
      assert.deepEqual(other.log, [], `spelling ${n} (${otherHost}): the other origin got ${JSON.stringify(other.log)}`);
      assert.ok(pm.isApiError(error), String(error));
      assert.equal(error.code, "NETWORK_ERROR");
      assert.equal(error.status, 302);
      assert.equal(error.location, spelling(other.authority, service.authority), `spelling ${n}`);
      assert.ok(!error.message.includes(KEY) && !JSON.stringify(error).includes(KEY));
      assert.equal(service.log.length, 1, `spelling ${n}: refused at once, not retried`);
      assert.equal(service.log[0].headers["x-api-key"], KEY);
    }
  }
});

test("a redirect on the service's origin is followed with the key and the caller's headers", async () => {
  const { service, other } = await pair("127.0.0.1", (_, me) => `http://user:pass@${me}/x/../v2/./platforms#top`);
  const page = await client(service).listPlatforms({}, { headers: { "x-trace": "per-call" } });
  assert.equal(page.platforms[0].id, "platform_a");
  assert.deepEqual(service.log.map((r) => r.url), ["/platforms", "/v2/platforms"]);
  for (const { headers } of service.log) {
    assert.equal(headers["x-api-key"], KEY);
    assert.equal(headers["x-app"], "client-level");
    assert.equal(headers["x-trace"], "per-call");
    assert.equal(headers.authorization, undefined, "no credentials from the Location");
  }
  assert.deepEqual(other.log, []);
});

test("a __proto__ key in error.details stays an own property", async () => {
  const body = '{"error":{"code":"VALIDATION_ERROR","message":"no","details":{"__proto__":{"polluted":true},"parameter":"x","nested":{"__proto__":{"deep":1}}}}}';
  const service = await listen("127.0.0.1", () => ({ status: 400, body }));
  const error = await client(service).listPlatforms().then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.equal(error.code, "VALIDATION_ERROR");
  const { details } = error;
  assert.equal(Object.getPrototypeOf(details), Object.prototype);
  assert.ok(Object.hasOwn(details, "__proto__"), "an own data property");
  assert.deepEqual(Object.getOwnPropertyDescriptor(details, "__proto__").value, { polluted: true });
  assert.equal(details.polluted, undefined, "not inherited");
  assert.equal(details.parameter, "x");
  assert.equal(Object.getPrototypeOf(details.nested), Object.prototype);
  assert.ok(Object.hasOwn(details.nested, "__proto__"));
  assert.equal(details.nested.deep, undefined);
  assert.equal({}.polluted, undefined);
});

test("an outcome named __proto__ is an own key of bestPrices", () => {
  const future = {
    id: "f",
    markets: [
      { platform: "a", market_id: "m1", outcomes: [{ outcome_name: "__proto__", odds: { decimal: 2.5 } }, { outcome_name: "Other", odds: { decimal: 1.5 } }] },
      { platform: "b", market_id: "m2", outcomes: [{ outcome_name: "__proto__", odds: { decimal: 3 } }] },
    ],
  };
  const best = pm.bestPrices(pm.futureQuotes(future));
  assert.equal(Object.getPrototypeOf(best), Object.prototype);
  assert.ok(Object.hasOwn(best, "__proto__"));
  assert.equal(Object.getOwnPropertyDescriptor(best, "__proto__").value.decimal, 3);
  assert.equal(best.decimal, undefined, "not inherited");
  assert.deepEqual(Object.keys(best).sort(), ["__proto__", "other"]);
});

test("a 4xx other than 408 and 429 is not retried; a 503 is", async () => {
  for (const status of [400, 403, 405, 409, 413, 414, 422, 431]) {
    const service = await listen("127.0.0.1", () => ({ status, body: '{"error":{"code":"INTERNAL_ERROR","message":"x"}}' }));
    const error = await client(service, { maxRetries: 3 }).listPlatforms().then(
      () => assert.fail("resolved"),
      (e) => e,
    );
    assert.equal(error.status, status);
    assert.equal(service.log.length, 1, `${status} is not retried`);
  }
  let n = 0;
  const service = await listen("127.0.0.1", () => (n++ === 0 ? { status: 503, body: "{}" } : { body: PLATFORMS }));
  await client(service, { maxRetries: 3 }).listPlatforms();
  assert.equal(service.log.length, 2, "503 retried");
});

test("a 200 that is not JSON is not cached", async () => {
  let n = 0;
  const service = await listen("127.0.0.1", () => ({ body: n++ === 0 ? "<html>maintenance</html>" : PLATFORMS }));
  const c = client(service, { cacheTtlMs: 60_000 });
  await assert.rejects(c.listPlatforms(), (e) => e.code === "DECODE_ERROR");
  const page = await c.listPlatforms();
  assert.equal(page.platforms.length, 1);
  await c.listPlatforms();
  assert.equal(service.log.length, 2, "asked again after the bad answer, then served from the cache");
});

test("a watch compares own keys only: a __proto__ key that goes away changes to null", async () => {
  let n = 0;
  const service = await listen("127.0.0.1", (req) => {
    // No streams here: the watch polls.
    if (req.url.startsWith("/stream")) return { status: 404, body: "{}" };
    return { body: n++ === 0 ? '{"data":{"id":"m","__proto__":5},"meta":{}}' : '{"data":{"id":"m"},"meta":{}}' };
  });
  const watch = client(service).watchMarket("m", { intervalMs: 1 });
  const updates = [];
  for await (const update of watch) {
    updates.push(update);
    if (updates.length === 2) break;
  }
  assert.equal(Object.getPrototypeOf(updates[0].snapshot.data), Object.prototype);
  assert.deepEqual(updates[1].changes, [{ path: "data.__proto__", from: 5, to: null }]);
});

test("a stream redirected to another origin is not followed: the watch polls, the key stays home", async () => {
  const other = await listen("127.0.0.1", () => ({ body: "{}" }));
  const service = await listen("127.0.0.1", (req) =>
    req.url.startsWith("/stream")
      ? { status: 307, headers: { location: `${other.url}/stream` } }
      : { body: '{"data":{"id":"m"},"meta":{}}' },
  );
  const watch = client(service).watchMarket("m", { intervalMs: 60_000 });
  const first = (await watch.next()).value;
  watch.stop();
  assert.equal(first.source, "poll");
  assert.equal(other.log.length, 0, "nothing reached the other origin");
  const stream = service.log.find((r) => r.url.startsWith("/stream"));
  assert.equal(stream.url, "/stream?watch=market%3Am");
  assert.equal(stream.headers["x-api-key"], KEY, "the key in a header");
  assert.equal(stream.headers["x-app"], "client-level", "the client's headers");
  assert.equal(stream.headers["last-event-id"], undefined, "no position on a first stream");
});
