// The demo's live views through the server's stream (`GET /stream`): the
// order book updates with no polling of its own, its indicator goes stale
// when the upstream fails and live again (its live region the same element
// throughout, not announced again on each update), a reload paints the
// streamed book from what the device kept while the stream reopens, and
// ten tabs through the proxy cost the upstream what one tab costs.
//
// Starts its own servers: the reference server (the upstream), a small
// counting proxy in front of it that can fail on demand and numbers every
// answer of one order book (its best yes bid's size is 777,000 plus the
// count of upstream requests for that book, so each tab's ladder says
// which upstream request it shows), and predmarket-server in proxy mode
// serving the demo in front of that.
//
// PREDMARKET_SERVER_BIN   the predmarket-server binary
// PREDMARKET_DIST         the built demo (dist/)
// PREDMARKET_ARTIFACTS    where screenshots go
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer as spawnServer } from "../spawn-server.mjs";
import { chromium } from "playwright-core";

const bin = process.env.PREDMARKET_SERVER_BIN;
const dist = process.env.PREDMARKET_DIST;
const artifacts = process.env.PREDMARKET_ARTIFACTS ?? "artifacts";
const skip = !(bin && dist) && "PREDMARKET_SERVER_BIN and PREDMARKET_DIST not set";
if (!skip) mkdirSync(artifacts, { recursive: true });

const UPSTREAM_KEY = "upstream_key_e2e";
const CEILING_MS = Number(process.env.CEILING_MS ?? 90_000);
const BASE_SIZE = 777_000;

const children = [];
let upstreamUrl;
let browser;
/** The counting proxy in front of the reference server. */
const upstream = { down: false, bookPath: "", bookRequests: 0, server: null, url: "" };
let bookMarket;

/** Starts predmarket-server with `args`; resolves with its URL. */
async function startServer(args, env = {}) {
  const started = await spawnServer(bin, args, { env });
  children.push(started.child);
  return started;
}

/** The counting, failing, numbering proxy in front of the reference server. */
async function startUpstream() {
  const target = new URL(upstreamUrl);
  upstream.server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (upstream.down) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"error":{"code":"PLATFORM_UNAVAILABLE","message":"down for the test"}}');
      return;
    }
    const numbered = path === upstream.bookPath;
    const n = numbered ? ++upstream.bookRequests : 0;
    const out = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        if (!numbered || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks = [];
        answer.on("data", (c) => chunks.push(c));
        answer.on("end", () => {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          body.data.yes.bids[0].size = BASE_SIZE + n;
          const text = JSON.stringify(body);
          const headers = { ...answer.headers, "content-length": Buffer.byteLength(text) };
          delete headers["content-encoding"];
          delete headers["etag"];
          res.writeHead(200, headers);
          res.end(text);
        });
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise((resolve) => upstream.server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${upstream.server.address().port}`;
}

/** A proxy-mode server serving the demo, in front of the counting proxy. */
async function startProxy() {
  const { url, child } = await startServer(
    ["--upstream", upstream.url, "--web", dist, "--public-proxy", "--visitor-requests", "100000", "--visitor-misses", "100000", "--visitor-in-flight", "64", "--upstream-limit", "1000", "--stream-interval-scale", "0.2", "--stream-grace", "1", "-q"],
    { PREDMARKET_UPSTREAM_KEY: UPSTREAM_KEY },
  );
  return { url, stop: () => child.kill() };
}

before(async () => {
  if (skip) return;
  ({ url: upstreamUrl } = await startServer(["--api-key", `${UPSTREAM_KEY}:unlimited`, "-q"]));
  const get = async (path) => {
    const res = await fetch(`${upstreamUrl}${path}`, { headers: { "X-API-Key": UPSTREAM_KEY } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const platforms = (await get("/platforms")).platforms;
  const withBook = new Set(platforms.filter((p) => p.features?.orderbook !== false).map((p) => p.id));
  const markets = (await get("/markets?limit=50&status=open")).markets;
  bookMarket = markets.find((m) => withBook.has(m.platform))?.id;
  assert.ok(bookMarket, "an open market with an order book");
  upstream.bookPath = `/markets/${encodeURIComponent(bookMarket)}/orderbook`;
  await startUpstream();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  for (const child of children) child.kill();
  upstream.server?.closeAllConnections();
  upstream.server?.close();
});

/** Resolves once `condition()` (async) holds, asking every 100 ms, within the ceiling. */
async function eventually(condition, what) {
  const deadline = Date.now() + CEILING_MS;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`not within ${CEILING_MS / 1000} s: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Opens the market page in a fresh context (a tab with storage of its
 * own); records the page's API requests, the resources of each stream it
 * opened (sorted), and the book versions its ladder showed, in order.
 */
async function openTab(base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  const streams = [];
  const console = [];
  page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => console.push(`error: ${e.message}`));
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith("/app")) requests.push(url.pathname);
    if (url.pathname === "/stream") streams.push(url.searchParams.getAll("watch").sort());
  });
  await page.addInitScript(() => {
    window.__versions = [];
    new MutationObserver(() => {
      const text = document.querySelector(".book")?.innerText ?? "";
      const m = /777,?(\d{3})/.exec(text);
      const v = m ? Number(m[1]) : null;
      if (v !== null && window.__versions.at(-1) !== v) window.__versions.push(v);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(`${base}/app/markets/${encodeURIComponent(bookMarket)}`);
  return { page, context, requests, streams, console };
}

/**
 * The demo's stream rules as a tab meets them: one stream per tab, of
 * every resource on screen, reopened only when that list changed (a view
 * that comes up after the stream opened, as the trades view may on a busy
 * machine, reopens it with the longer list), and carrying the book.
 */
function assertStreamsFollowTheViews(tab) {
  assert.ok(tab.streams.length >= 1, `a stream: ${tab.requests.join(" ")}`);
  tab.streams.forEach((watched, i) => {
    if (i > 0) assert.notDeepEqual(watched, tab.streams[i - 1], `stream ${i + 1} reopened with the same list: ${JSON.stringify(tab.streams)}`);
  });
  assert.ok(tab.streams.at(-1).some((r) => r.startsWith("orderbook:")), `the stream carries the book: ${JSON.stringify(tab.streams)}`);
}

/**
 * The page's own requests for the book: at most one, the one a view makes
 * when the stream has not brought its first data within two of the kind's
 * intervals (web/src/api/live.rs, `Feed::settled`; a busy machine's
 * tabs can take that long), and none from `from` on (an index into
 * `tab.requests` taken once the stream's data was shown).
 */
function assertNoPollingOfTheBook(tab, from) {
  const own = tab.requests.filter((p) => p.endsWith("/orderbook"));
  assert.ok(own.length <= 1, `the page asked for the book ${own.length} times: ${tab.requests.join(" ")}`);
  assert.deepEqual(tab.requests.slice(from).filter((p) => p.endsWith("/orderbook")), [], "no book asked by the page once the stream's was shown");
}

const versions = (tab) => tab.page.evaluate(() => window.__versions);
/** The book's indicator as a reader gets it (its text, spaces folded). */
const status = (tab) =>
  tab.page.evaluate(() => (document.querySelector("[aria-labelledby=book-h] .live-status")?.textContent ?? "").replace(/\s+/g, " ").trim());

test("the order book updates through the stream, with no polling of its own; stale when the upstream fails, live again", { skip }, async () => {
  const proxy = await startProxy();
  const tab = await openTab(proxy.url);
  try {
    await eventually(async () => (await versions(tab)).length >= 3, "three versions of the book in the ladder").catch(async (e) => {
      await tab.page.screenshot({ path: join(artifacts, "stream-book-failed.png"), fullPage: true });
      throw new Error(`${e.message}: versions ${JSON.stringify(await versions(tab))}, indicator "${await status(tab)}", book ${await tab.page.evaluate(() => document.querySelector(".book")?.innerText.slice(0, 300))}, upstream book requests ${upstream.bookRequests}, requests ${tab.requests.join(" ")}, console ${tab.console.join(" | ")}`);
    });
    assertStreamsFollowTheViews(tab);
    const opened = tab.streams.length;
    const shownAt = tab.requests.length;
    assertNoPollingOfTheBook(tab, shownAt);
    assert.match(await status(tab), /^live\b/);
    await tab.page.screenshot({ path: join(artifacts, "stream-book-live.png") });

    upstream.down = true;
    await eventually(async () => /^stale: poll_failed · \d+ s$/.test(await status(tab)), "the indicator says stale, with the data's age");
    await tab.page.screenshot({ path: join(artifacts, "stream-book-stale.png") });
    upstream.down = false;
    const shown = (await versions(tab)).length;
    await eventually(async () => /^live\b/.test(await status(tab)) && (await versions(tab)).length > shown, "live again, with a new book");
    assertNoPollingOfTheBook(tab, shownAt);
    assert.equal(tab.streams.length, opened, "the same stream throughout: not reopened when the upstream failed");
  } finally {
    upstream.down = false;
    await tab.context.close();
    proxy.stop();
  }
});

/** The book's indicator's live region, marked, and every change to it recorded from now on. */
const watchAnnouncer = (tab) =>
  tab.page.evaluate(() => {
    const region = document.querySelector("[aria-labelledby=book-h] .live-status [aria-live]");
    if (!region) return false;
    region.__marked = true;
    window.__announced = [];
    new MutationObserver(() => window.__announced.push(region.textContent)).observe(region, { childList: true, subtree: true, characterData: true });
    return true;
  });
/** Whether the marked live region is still the one on screen, and what it said since it was marked. */
const announcer = (tab) =>
  tab.page.evaluate(() => ({
    same: document.querySelector("[aria-labelledby=book-h] .live-status [aria-live]")?.__marked === true,
    text: document.querySelector("[aria-labelledby=book-h] .live-status [aria-live]")?.textContent ?? null,
    announced: window.__announced ?? [],
  }));

test("a streamed book is kept on the device: a reload paints it at once, with its age, while the stream is held; the indicator is not announced again on each update", { skip }, async () => {
  const proxy = await startProxy();
  const tab = await openTab(proxy.url);
  try {
    await eventually(async () => (await versions(tab)).length >= 1 && /^live\b/.test(await status(tab)), "the book, live");
    const shownAt = tab.requests.length;
    assert.ok(await watchAnnouncer(tab), "the indicator has a live region");
    const first = (await versions(tab)).at(-1);
    await eventually(async () => (await versions(tab)).filter((v) => v > first).length >= 2, "two updates of the book through the stream");
    const heard = await announcer(tab);
    assert.ok(heard.same, "the updates kept the indicator's live region (the same element)");
    assert.deepEqual(heard.announced, [], "nothing new to announce: the state stayed live");
    assert.equal(heard.text, "live");
    // A watch waits for the stream one interval at most, then asks once
    // (session 23's CI: a slow first snapshot made the page ask): what
    // the other stream tests allow, and nothing once the stream's was shown.
    assertNoPollingOfTheBook(tab, shownAt);

    // The stream and the book's own request are held unanswered: what the
    // page shows after the reload can only come from what it kept.
    await tab.context.route(/\/stream\?|\/orderbook(\?|$)/, () => {});
    const last = (await versions(tab)).at(-1);
    const asked = tab.requests.length;
    await tab.page.reload();
    await eventually(async () => (await versions(tab)).length >= 1 && /^cached · \d+ s$/.test(await status(tab)), "the kept book, said to be cached, with its age").catch(async (e) => {
      await tab.page.screenshot({ path: join(artifacts, "stream-book-cached-failed.png"), fullPage: true });
      throw new Error(`${e.message}: versions ${JSON.stringify(await versions(tab))}, indicator "${await status(tab)}", requests ${tab.requests.slice(asked).join(" ")}, console ${tab.console.join(" | ")}`);
    });
    await tab.page.screenshot({ path: join(artifacts, "stream-book-cached.png") });
    const kept = await versions(tab);
    assert.ok(kept[0] >= last, `the newest book streamed before the reload (${kept[0]}, at least ${last})`);
    const after = tab.requests.slice(asked);
    assert.ok(after.includes("/stream"), `the page is reopening its stream: ${after.join(" ")}`);

    // The stream answers again: live, with newer data.
    await tab.context.unrouteAll({ behavior: "ignoreErrors" });
    await eventually(async () => /^live\b/.test(await status(tab)) && (await versions(tab)).some((v) => v > kept[0]), "live again, with a newer book");
  } finally {
    await tab.context.close();
    proxy.stop();
  }
});

/**
 * `count` tabs on the book through a fresh proxy: returns, per tab, the
 * versions its ladder showed, once every tab has seen `updates` new ones
 * after the first all of them showed.
 */
async function run(count, updates) {
  const proxy = await startProxy();
  const tabs = [];
  try {
    for (let i = 0; i < count; i++) tabs.push(await openTab(proxy.url));
    await eventually(async () => (await Promise.all(tabs.map(versions))).every((v) => v.length > 0), "every tab shows the book");
    const shownAt = tabs.map((t) => t.requests.length);
    // Counted from a book each tab had from the stream after its first:
    // a tab's own one request (allowed before the stream's book,
    // `assertNoPollingOfTheBook`) may be answered after the stream's
    // first book and not shown, its version a step no update showed
    // (session 23's CI: one tab, 4 requests for 3 updates).
    const firsts = (await Promise.all(tabs.map(versions))).map((v) => v.at(-1));
    await eventually(
      async () => (await Promise.all(tabs.map(versions))).every((v, i) => v.some((x) => x > firsts[i])),
      "every tab shows a book after its first",
    );
    const start = Math.max(...(await Promise.all(tabs.map(versions))).map((v) => v.at(-1)));
    await eventually(
      async () => (await Promise.all(tabs.map(versions))).every((v) => v.filter((x) => x > start).length >= updates),
      `every tab shows ${updates} versions after ${start}`,
    );
    const seen = await Promise.all(tabs.map(versions));
    tabs.forEach((tab, i) => {
      assertNoPollingOfTheBook(tab, shownAt[i]);
      assertStreamsFollowTheViews(tab);
    });
    return { start, seen };
  } finally {
    await Promise.all(tabs.map((t) => t.context.close()));
    proxy.stop();
  }
}

test("ten tabs on the order book through the proxy cost the upstream what one tab costs", { skip }, async () => {
  const UPDATES = 3;
  const one = await run(1, UPDATES);
  const ten = await run(10, UPDATES);
  // Every upstream answer of the book has its number in the ladder: the
  // upstream requests a tab's updates cost are the steps between the
  // versions it showed. One tab: one request per update; ten tabs: the
  // same, for each tab (a tab polling on its own would skip the numbers
  // the others' requests took).
  const cost = ({ start, seen }) =>
    seen.map((v) => {
      const after = v.filter((x) => x >= start);
      return { updates: after.length - 1, requests: after.at(UPDATES) - after[0] };
    });
  const oneCost = cost(one);
  const tenCost = cost(ten);
  console.log(`# upstream requests for ${UPDATES} updates: one tab ${JSON.stringify(oneCost[0])}, ten tabs ${JSON.stringify(tenCost.map((c) => c.requests))}`);
  // The versions each tab showed, in the message: once (session 23's CI)
  // the one tab counted 4 requests for 3 updates and the rerun did not;
  // what it showed says where the extra request fell.
  const shown = ({ start, seen }) => `from ${start}: ${JSON.stringify(seen)}`;
  assert.equal(oneCost[0].requests, UPDATES, `one tab: one upstream request per update (versions ${shown(one)})`);
  for (const c of tenCost) assert.equal(c.requests, oneCost[0].requests, `each of ten tabs: what one tab costs (versions ${shown(ten)})`);
});
