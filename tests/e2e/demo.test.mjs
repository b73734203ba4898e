// The demo end to end: the built app served by predmarket-server, driven in
// the system Chromium. Every route, search, filters, paging, the market
// page's order book, the sports boards, settings, themes, keyboard access,
// hostile text and the 429 countdown. Fails on any console error; saves a
// screenshot of each route into tests/artifacts/; prints the first-load
// figures recorded in docs/benchmarks.md.
//
// PREDMARKET_DEMO_URL      the demo (…/app/) on a server with a high rate limit
// PREDMARKET_HOSTILE_URL   optional: the demo on a server started with
//                          --hostile --fail-platform platform_g
// PREDMARKET_FAULT_URL     optional: an API server answering every call with 429
//
// Platform and league ids are read from the server (`/platforms`,
// `/league-info`), never written here: `cargo xtask test` runs this suite a
// second time against a server started with --rename-ids.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const demoUrl = process.env.PREDMARKET_DEMO_URL;
const hostileUrl = process.env.PREDMARKET_HOSTILE_URL;
const faultUrl = process.env.PREDMARKET_FAULT_URL;
const artifacts = process.env.PREDMARKET_ARTIFACTS ?? "artifacts";
assert.ok(demoUrl, "run through `cargo xtask test` (PREDMARKET_DEMO_URL)");
mkdirSync(artifacts, { recursive: true });
const origin = new URL(demoUrl).origin;
// A minute and a half: the suite spends its key's 100 a minute (each live
// view's stream opening counts), so a page may wait a whole window of the
// budget before it asks; a wait only lasts until its condition holds.
const WAIT = { timeout: 90_000 };

let context;
let page;
/// Ids as the demo's server names them, in its listing order.
let P;
let L;
/// The same for the hostile server (its own data and naming).
let hostileP;

async function ids(base) {
  const get = async (path) => {
    const res = await fetch(`${base}${path}`, { headers: { "X-API-Key": "pm_demo_key" } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const directory = (await get("/platforms")).platforms;
  const platforms = directory.map((p) => p.id);
  const leagues = (await get("/league-info")).data.map((l) => l.id);
  return { platforms, leagues, get, directory };
}
/// The directory of the demo's server (features, endpoints).
let directory;
const consoleErrors = [];
const dialogs = [];

before(async () => {
  ({ platforms: P, leagues: L, directory } = await ids(origin));
  if (hostileUrl) hostileP = (await ids(new URL(hostileUrl).origin)).platforms;
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "predmarket-e2e-")), {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Market images and avatars point at the platforms' hosts, which this
  // offline machine cannot reach: a 1×1 PNG answers for them, so a page
  // shows its pictures without a failed load in the console.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
  await context.route(/^https?:\/\/[^/]+\.example\//, (route) => route.fulfill({ status: 200, contentType: "image/png", body: png }));
  page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
});

after(async () => {
  await context?.close();
});

afterEach(() => {
  assert.deepEqual(consoleErrors, [], "console errors");
  assert.deepEqual(dialogs, [], "no script may open a dialog");
});

const shot = (name, options = {}) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true, ...options });
const rows = (table) => page.locator(`${table} tbody tr`);
const query = () => new URL(page.url()).searchParams;

/// Clears the console errors a deliberate failure causes (Chromium logs
/// every 4xx as "Failed to load resource"), keeping any other error.
function expectFailedLoads(status) {
  const rest = consoleErrors.filter((e) => !e.includes(`status of ${status}`));
  consoleErrors.length = 0;
  consoleErrors.push(...rest);
}

/**
 * Waits until the page has settled: the network idle, or, on a page with
 * live views (whose stream stays open, so the network never idles), every
 * indicator past "connecting".
 */
async function settled(page) {
  if ((await page.locator(".live-status").count()) === 0) {
    await page.waitForLoadState("networkidle");
    return;
  }
  await page.waitForFunction(() => [...document.querySelectorAll(".live-status")].every((e) => e.dataset.state !== "waiting"), null, WAIT);
}

test("first load: bytes over the wire and time to the first painted market list", async () => {
  // Watch the DOM from the very start, so the time is when the first row
  // was inserted and painted, not when the test noticed it.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector("#markets tbody tr")) {
        observer.disconnect();
        requestAnimationFrame(() => {
          window.__firstMarketRow = performance.now();
        });
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const sizes = [];
  const onFinished = async (request) => {
    const response = await request.response();
    if (!response) return;
    const s = await request.sizes().catch(() => null);
    if (!s) return;
    sizes.push({ url: request.url(), status: response.status(), type: request.resourceType(), body: s.responseBodySize, headers: s.responseHeadersSize, encoding: (await response.allHeaders())["content-encoding"] ?? "" });
  };
  page.on("requestfinished", onFinished);
  await page.goto(demoUrl);
  await rows("#markets").first().waitFor(WAIT);
  await page.waitForFunction(() => window.__firstMarketRow !== undefined, null, WAIT);
  await page.waitForLoadState("networkidle");
  page.off("requestfinished", onFinished);
  const painted = await page.evaluate(() => window.__firstMarketRow);
  const app = sizes.filter((s) => new URL(s.url).pathname.startsWith("/app/"));
  const api = sizes.filter((s) => !new URL(s.url).pathname.startsWith("/app/"));
  const total = (list) => list.reduce((n, s) => n + s.body + s.headers, 0);
  const kind = (ext) => app.filter((s) => new URL(s.url).pathname.endsWith(ext)).reduce((n, s) => n + s.body, 0);
  const figures = {
    app_bytes: total(app),
    wasm_bytes: kind(".wasm"),
    js_bytes: kind(".js"),
    css_bytes: kind(".css"),
    html_bytes: app.filter((s) => s.type === "document").reduce((n, s) => n + s.body, 0),
    app_gzip: app.every((s) => s.encoding === "gzip" || s.body < 1024),
    api_bytes: total(api),
    api_requests: api.length,
    first_market_list_ms: Math.round(painted),
  };
  console.log(
    `# demo first load: ${(figures.app_bytes / 1024).toFixed(1)} KB app (wasm ${(figures.wasm_bytes / 1024).toFixed(1)} KB, js ${(figures.js_bytes / 1024).toFixed(1)} KB, css ${(figures.css_bytes / 1024).toFixed(1)} KB, html ${(figures.html_bytes / 1024).toFixed(1)} KB, gzip ${figures.app_gzip}) + ${(figures.api_bytes / 1024).toFixed(1)} KB in ${figures.api_requests} API calls; first market list painted at ${figures.first_market_list_ms} ms`,
  );
  writeFileSync(join(artifacts, "first-load.json"), JSON.stringify({ ...figures, requests: sizes }, null, 2));
  assert.equal(await rows("#markets").count(), 25);
  await shot("markets");
});

test("every route answers with its page", async () => {
  const routes = [
    ["markets", "#markets tbody tr"],
    ["events", "#events tbody tr"],
    ["series", "#series tbody tr"],
    ["sports", "#games tbody tr"],
    ["platforms", "#platforms tbody tr"],
    ["settings", "#base-url"],
    ["no-such-page", "text=Page not found"],
  ];
  for (const [path, selector] of routes) {
    await page.goto(`${demoUrl}${path}`);
    await page.locator(selector).first().waitFor(WAIT);
    assert.equal(await page.locator("h1").count(), 1, `${path}: one h1`);
    await shot(path === "no-such-page" ? "not-found" : path);
  }
});

// The list's filters go with its "Across platforms" link; the pairs found
// among those markets are the same or inverted ones unless others are
// ticked, each with its reasons.
test("across platforms: the pairs among the markets of the list's search", async () => {
  await page.goto(`${demoUrl}markets?q=coin`);
  await rows("#markets").first().waitFor(WAIT);
  await page.click("a.venues-link");
  await page.waitForURL(/\/app\/venues\?q=coin/, WAIT);
  await page.locator('li.pair[data-relation="same"] .reasons li').first().waitFor(WAIT);
  const relations = await page.locator("li.pair").evaluateAll((rows) => rows.map((r) => r.dataset.relation));
  assert.deepEqual([...new Set(relations)].filter((r) => r !== "same" && r !== "inverted"), [], relations.join());
  assert.equal(await page.locator("#market-search").inputValue(), "coin");
  // The first screen only: the whole list is ~23,000 px tall, and its
  // full-page capture outlasted the 30 s action timeout on a busy machine.
  await shot("venues", { fullPage: false });
});

// The app asks for the leagues only when a page needs them: reached by
// a link from the market list (the league request not yet made), the
// sports page still gets them.
test("the sports page reached by a link from the market list shows its leagues and games", async () => {
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  await page.waitForLoadState("networkidle");
  await page.click('nav[aria-label="Main"] a[href="/app/sports"]');
  await page.waitForURL(/\/app\/sports/, WAIT);
  await page.locator(".pills a.pill").first().waitFor(WAIT);
  await rows("#games").first().waitFor(WAIT);
  assert.equal(await page.locator(".pills a.pill").count(), L.length);
});

test("search puts the query in the URL and finds markets", async () => {
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  await page.fill("#market-search", "election");
  await page.press("#market-search", "Enter");
  await page.waitForURL(/q=election/, WAIT);
  // Until the results replace the list: the unfiltered one may already
  // hold a title with the word.
  await page
    .waitForFunction(() => {
      const titles = [...document.querySelectorAll("#markets tbody tr .title")];
      return titles.length > 0 && titles.filter((t) => /election/i.test(t.textContent)).length >= titles.length / 2;
    }, null, WAIT)
    .catch(() => {});
  const titles = await page.locator("#markets tbody tr .title").allInnerTexts();
  assert.ok(titles.length > 0);
  assert.ok(titles.filter((t) => /election/i.test(t)).length >= titles.length / 2, "most results mention the query");
  // The URL is the view: a reload shows the same search.
  await page.reload();
  await rows("#markets").first().waitFor(WAIT);
  assert.equal(await page.inputValue("#market-search"), "election");
  await shot("markets-search");
  await page.fill("#market-search", "zzzzqqqq-nothing");
  await page.press("#market-search", "Enter");
  await page.locator(".empty-state").waitFor(WAIT);
});

test("platform and status filters, and sort by liquidity", async () => {
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  await page.selectOption("#filter-platform", P[1]);
  await page.waitForURL(new RegExp(`platform=${P[1]}`), WAIT);
  await page.waitForFunction((id) => {
    const cells = [...document.querySelectorAll("#markets tbody tr [data-platform]")];
    return cells.length > 0 && cells.every((c) => c.dataset.platform === id);
  }, P[1], WAIT);
  await page.selectOption("#filter-status", "closed");
  await page.waitForURL(/status=closed/, WAIT);
  await page.waitForFunction(() => {
    const badges = [...document.querySelectorAll("#markets tbody tr .badge")];
    return badges.length > 0 && badges.every((b) => b.textContent.trim() === "Closed");
  }, null, WAIT);
  await page.selectOption("#filter-platform", "");
  await page.selectOption("#filter-status", "");
  await page.selectOption("#filter-sort", "liquidity");
  await page.waitForURL(/sort=liquidity/, WAIT);
  await page.locator('#markets th[aria-sort="descending"]').waitFor(WAIT);
  const liquidity = async () => {
    const cells = await page.locator("#markets tbody tr td:nth-child(6)").allInnerTexts();
    return cells.map((c) => {
      const n = parseFloat(c.replace(/[$,]/g, ""));
      return c.endsWith("M") ? n * 1e6 : c.endsWith("K") ? n * 1e3 : n;
    });
  };
  await page.waitForFunction(() => !document.querySelector(".results.pending"));
  const values = await liquidity();
  assert.ok(values.every((v, i) => i === 0 || v <= values[i - 1] * 1.001), `descending: ${values}`);
  await shot("markets-filtered");
});

test("load more pages through the list and survives a reload", async () => {
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  assert.equal(await rows("#markets").count(), 25);
  await page.click(".load-more button");
  await page.waitForFunction(() => document.querySelectorAll("#markets tbody tr").length === 50, null, WAIT);
  await page.waitForURL(/pages=2/, WAIT);
  const ids = await page.locator("#markets tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
  assert.equal(new Set(ids).size, 50, "no market twice");
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#markets tbody tr").length === 50, null, WAIT);
  assert.match(await page.locator(".load-more .count").innerText(), /Showing 50 of/);
});

test("a market: orderbook levels, depth chart, calculator, trades and history", async () => {
  await page.goto(`${demoUrl}markets?platform=${P[0]}`);
  await rows("#markets").first().waitFor(WAIT);
  const title = await page.locator("#markets tbody tr .title").first().innerText();
  await page.locator("#markets tbody tr .title").first().click();
  await page.waitForURL(/\/app\/markets\/[^/?]+/, WAIT);
  await page.locator("h1", { hasText: title.slice(0, 20) }).waitFor(WAIT);
  // Order book: both ladders have levels, the depth chart has both areas.
  await page.locator("table.levels.bids tbody tr.bid").first().waitFor(WAIT);
  assert.ok((await page.locator("table.levels.bids tbody tr.bid").count()) > 0);
  assert.ok((await page.locator("table.levels.asks tbody tr.ask").count()) > 0);
  assert.equal(await page.locator(".depth-chart path.bids").count(), 1);
  assert.equal(await page.locator(".depth-chart path.asks").count(), 1);
  assert.match(await page.locator(".v.spread").innerText(), /¢/);
  // Calculator: buying more than the best level walks the book.
  await page.fill(".calculator input.shares", "2500");
  const cost = await page.locator(".fill .cost").innerText();
  assert.match(cost, /^\$/);
  assert.ok(parseInt(await page.locator(".fill div:nth-child(5) dd").innerText(), 10) >= 1, "levels used");
  // The No side, in the URL.
  await page.click("#side-no");
  await page.waitForURL(/side=no/, WAIT);
  await page.locator('.book[data-side="no"]').waitFor(WAIT);
  // Trades (they load when their card scrolls into view) and the taker
  // filter.
  await page.locator('article[aria-labelledby="trades-h"]').scrollIntoViewIfNeeded();
  await rows("#trades").first().waitFor(WAIT);
  const before = await rows("#trades").count();
  await page.check("#taker-only");
  await page.waitForURL(/taker=1/, WAIT);
  await rows("#trades").first().waitFor(WAIT);
  assert.ok((await rows("#trades").count()) > 0 && before > 0);
  await page.locator("article:has(#trades) .load-more button").click();
  await page.waitForFunction((n) => document.querySelectorAll("#trades tbody tr").length > n, 20, WAIT);
  // Price history with another interval.
  await page.locator(".price-chart path.line").waitFor(WAIT);
  await page.click('[data-interval="1d"]');
  await page.waitForURL(/interval=1d/, WAIT);
  await page.locator('[data-interval="1d"][aria-pressed="true"]').waitFor(WAIT);
  await page.locator(".price-chart path.line").waitFor(WAIT);
  // Keyboard on the chart reads a point.
  await page.focus(".price-chart svg");
  await page.keyboard.press("End");
  await page.locator(".price-chart .readout").waitFor(WAIT);
  await shot("market");
  // Tabs, toggles and intervals replace the history entry: one step back
  // is the filtered list the market was opened from.
  await page.goBack();
  await page.waitForURL(new RegExp(`/app/markets\\?platform=${P[0]}$`), WAIT);
  await rows("#markets").first().waitFor(WAIT);
});

test("a market of a platform without trades says so instead of failing", async () => {
  await page.goto(`${demoUrl}markets?platform=${P[3]}`);
  await rows("#markets").first().waitFor(WAIT);
  await page.locator("#markets tbody tr .title").first().click();
  // Trades are asked for when their card scrolls into view.
  await page.locator('article[aria-labelledby="trades-h"]').scrollIntoViewIfNeeded(WAIT);
  await page.locator("text=does not publish trades").waitFor(WAIT);
  await page.locator("text=does not publish price history").waitFor(WAIT);
  await page.locator("table.levels").first().waitFor(WAIT);
});

test("events and series: lists, search and detail pages with nested items", async () => {
  await page.goto(`${demoUrl}events`);
  await rows("#events").first().waitFor(WAIT);
  await page.locator("#events tbody tr .title").first().click();
  await page.waitForURL(/\/app\/events\/.+/, WAIT);
  await rows("#event-markets").first().waitFor(WAIT);
  await shot("event");

  await page.goto(`${demoUrl}series`);
  await rows("#series").first().waitFor(WAIT);
  await page.fill("#list-search", "elections");
  await page.press("#list-search", "Enter");
  await page.waitForURL(/q=elections/, WAIT);
  await page.waitForFunction(() => [...document.querySelectorAll("#series tbody tr .title")].some((t) => /election/i.test(t.textContent)), null, WAIT);
  await page.locator("#series tbody tr .title").first().click();
  await page.waitForURL(/\/app\/series\/.+/, WAIT);
  await rows("#series-events").first().waitFor(WAIT);
  await shot("series-detail");
  // From a series to an event to a market: the whole chain links up.
  await page.locator("#series-events tbody tr .title").first().click();
  await rows("#event-markets").first().waitFor(WAIT);
  await page.locator("#event-markets tbody tr .title").first().click();
  await page.waitForURL(/\/app\/markets\/.+/, WAIT);
  await page.locator(".market-head h1").waitFor(WAIT);
});

test("sports: league tabs, games, futures and awards boards with the odds switch", async () => {
  await page.goto(`${demoUrl}sports`);
  await rows("#games").first().waitFor(WAIT);
  await page.locator(".league-head").waitFor(WAIT);
  await page.click('.pills a:has-text("NBA")');
  await page.waitForURL(new RegExp(`league=${L[1]}`), WAIT);
  await page.locator(".league-head h2", { hasText: "Basketball" }).waitFor(WAIT);
  await rows("#games").first().waitFor(WAIT);
  await page.selectOption("#game-status", "final");
  await page.waitForURL(/status=final/, WAIT);
  await page.waitForFunction(() => {
    const b = [...document.querySelectorAll("#games tbody tr .badge")];
    return b.length > 0 && b.every((x) => x.textContent.trim() === "Final");
  }, null, WAIT);

  // A game: each platform's moneyline, spread and total.
  await page.locator("#games tbody tr .title").first().click();
  await page.waitForURL(/\/app\/sports\/games\/.+/, WAIT);
  await page.locator('[data-market-type="moneyline"] table.board').waitFor(WAIT);
  for (const kind of ["moneyline", "spread", "total"]) {
    assert.ok((await page.locator(`[data-market-type="${kind}"] table.board tbody tr`).count()) >= 2, kind);
  }
  // The markets table: one row per platform event as the server sent it
  // (`data.markets`), with its name, volume and liquidity.
  const gameId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
  const { get } = await ids(origin);
  const sent = (await get(`/games/${encodeURIComponent(gameId)}`)).data.markets;
  assert.ok(sent.length >= 2, "the server sent several platform events");
  const marketRows = page.locator("table.game-markets tbody tr");
  await marketRows.first().waitFor(WAIT);
  assert.equal(await marketRows.count(), sent.length);
  const names = await page.locator("table.game-markets tbody tr th").allInnerTexts();
  assert.deepEqual(names, sent.map((m) => m.event_name));
  for (const column of [4, 5, 6]) {
    for (const cell of await page.locator(`table.game-markets tbody tr td:nth-child(${column})`).allInnerTexts()) {
      assert.match(cell, /^\$\d/, `volume, 24h volume and liquidity shown: ${cell}`);
    }
  }
  // The order books: one disclosure per outcome with a book (a final
  // game's markets are closed: none); on a game not yet played, opened,
  // its ladders have levels.
  const books = page.locator("details.outcome-book");
  const booked = (markets) => markets.flatMap((m) => m.outcomes).filter((o) => (o.order_book?.yes?.length ?? 0) > 0).length;
  assert.equal(await books.count(), booked(sent));
  const listed = (await get(`/list-games?league=${encodeURIComponent(L[1])}&status=not_started&limit=25`)).data.games;
  let open;
  for (const g of listed) {
    const markets = (await get(`/games/${encodeURIComponent(g.id)}`)).data.markets;
    if (booked(markets) > 0) {
      open = { id: g.id, books: booked(markets) };
      break;
    }
  }
  assert.ok(open, "a game with order books");
  await page.goto(`${demoUrl}sports/games/${encodeURIComponent(open.id)}`);
  await books.first().waitFor(WAIT);
  assert.equal(await books.count(), open.books);
  await books.first().locator("summary").click();
  await books.first().locator("table.levels tbody tr").first().waitFor(WAIT);
  assert.ok((await books.first().locator("table.levels.bids tbody tr.bid, table.levels.asks tbody tr.ask").count()) > 0);
  await shot("game");

  // Futures board: best price per outcome, no-vig fair probability.
  await page.goto(`${demoUrl}sports?league=${L[0]}&view=futures`);
  await rows("#futures").first().waitFor(WAIT);
  await page.locator("#futures tbody tr .title").first().click();
  await page.waitForURL(/\/app\/sports\/futures\/.+/, WAIT);
  const board = page.locator("table.board");
  await board.waitFor(WAIT);
  const outcomes = await board.locator("tbody tr").count();
  assert.ok(outcomes > 2);
  assert.ok((await board.locator("td.best").count()) >= outcomes, "a best price in every row");
  const fair = (await board.locator("td.fair").allInnerTexts()).map((t) => parseFloat(t));
  const sum = fair.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 100) < 1, `fair probabilities add up to 100%: ${sum}`);
  assert.match(await board.locator("tbody tr td.best").first().innerText(), /^[+-]\d+/);
  await page.click('[data-format="decimal"]');
  await page.waitForURL(/odds=decimal/, WAIT);
  assert.match(await board.locator("tbody tr td.best").first().innerText(), /^\d+\.\d\d/);
  await page.click('[data-format="probability"]');
  await page.waitForURL(/odds=probability/, WAIT);
  assert.match(await board.locator("tbody tr td.best").first().innerText(), /%/);
  assert.equal(await page.locator(".arb").count(), 1, "the arbitrage verdict is shown");
  await shot("future");

  await page.goto(`${demoUrl}sports?league=${L[0]}&view=awards`);
  await rows("#awards").first().waitFor(WAIT);
  await page.locator("#awards tbody tr .title").first().click();
  await page.locator("table.board tbody tr").first().waitFor(WAIT);
  await shot("award");

  await page.goto(`${demoUrl}sports?league=${L[2]}&view=teams`);
  await rows("#teams").first().waitFor(WAIT);
  assert.ok((await rows("#teams").count()) >= 20);
  await shot("teams");
});

test("filters in the URL: category and event on markets, dates on games, type and season on futures", async () => {
  const api = async (path) => (await fetch(`${origin}${path}`, { headers: { "X-API-Key": "pm_demo_key" } })).json();
  const category = (await api("/markets?limit=5")).markets.find((m) => m.category).category;
  const expected = (await api(`/markets?limit=25&category=${encodeURIComponent(category)}`)).markets.map((m) => m.id);
  const shown = () => page.locator("#markets tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  await page.fill("#filter-category", category);
  await page.press("#filter-category", "Enter");
  await page.waitForURL(/category=/, WAIT);
  // The whole list, not its first row: the category is the first
  // market's, so the unfiltered list starts with the same row.
  await page.waitForFunction(
    (ids) => [...document.querySelectorAll("#markets tbody tr")].map((tr) => tr.dataset.id).join() === ids.join(),
    expected,
    WAIT,
  );
  assert.deepEqual(await shown(), expected);
  // A reload keeps the filter: the field and the list.
  await page.reload();
  await rows("#markets").first().waitFor(WAIT);
  assert.equal(await page.inputValue("#filter-category"), category);
  assert.deepEqual(await shown(), expected);
  await shot("markets-by-category");
  // An event's markets, from a link.
  const market = (await api(`/markets?limit=25&category=${encodeURIComponent(category)}`)).markets.find((m) => m.event_id);
  await page.goto(`${demoUrl}markets?event=${encodeURIComponent(market.event_id)}`);
  await rows("#markets").first().waitFor(WAIT);
  assert.equal(await page.inputValue("#filter-event"), market.event_id);
  const eventMarkets = (await api(`/markets?limit=25&event_id=${encodeURIComponent(market.event_id)}`)).markets.map((m) => m.id);
  await page.waitForFunction((n) => document.querySelectorAll("#markets tbody tr").length === n, eventMarkets.length, WAIT);
  assert.deepEqual(await shown(), eventMarkets);
  await page.click("text=Clear filters");
  await page.waitForURL(/\/app\/markets$/, WAIT);

  // Games between two dates; futures of one type and season.
  await page.goto(`${demoUrl}sports?league=${L[0]}`);
  await rows("#games").first().waitFor(WAIT);
  await page.fill("#game-from", "2020-01-01");
  await page.press("#game-from", "Enter");
  await page.waitForURL(/from=2020-01-01/, WAIT);
  await page.fill("#game-to", "2020-01-02");
  await page.press("#game-to", "Enter");
  await page.waitForURL(/to=2020-01-02/, WAIT);
  await page.locator("text=No games with these filters.").waitFor(WAIT);
  await page.goto(`${demoUrl}sports?league=${L[0]}&view=futures`);
  await rows("#futures").first().waitFor(WAIT);
  const types = await page.locator("#contest-type option:not([value=''])").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(types.length >= 1);
  await page.selectOption("#contest-type", types[0]);
  await page.waitForURL(new RegExp(`type=${types[0]}`), WAIT);
  await page.fill("#contest-season", "1901");
  await page.press("#contest-season", "Enter");
  await page.waitForURL(/season=1901/, WAIT);
  await page.locator("text=No futures for this league with these filters.").waitFor(WAIT);
  await page.reload();
  assert.equal(await page.inputValue("#contest-season"), "1901");
  await shot("futures-filtered");
});

test("views: a market's picture, candles, range and comparison, a trader's profile", async () => {
  const profiles = directory.find((p) => p.features?.user_profiles && p.features?.trades && p.features?.historical_data);
  assert.ok(profiles, "a platform with profiles, trades and history");
  await page.goto(`${demoUrl}markets?platform=${profiles.id}&status=open`);
  await rows("#markets").first().waitFor(WAIT);
  await page.locator("#markets tbody tr .title").first().click();
  await page.waitForURL(/\/app\/markets\/[^/?]+/, WAIT);
  await page.locator(".market-head h1").waitFor(WAIT);
  const image = page.locator(".market-head img.market-image");
  // Every generated market has a picture (`image_url`): asserted, not
  // hoped for, so the checks below cannot be skipped by the day's data.
  assert.equal(await image.count(), 1, "the market's picture");
  assert.equal(await image.getAttribute("referrerpolicy"), "no-referrer");
  assert.equal(await image.getAttribute("loading"), "lazy");
  assert.match(await image.getAttribute("src"), /^https?:\/\//);
  // Candles with volume over a date range, all in the URL.
  await page.locator(".price-chart path.line").waitFor(WAIT);
  await page.click("#chart-candles");
  await page.waitForURL(/chart=candles/, WAIT);
  await page.locator(".candle-chart g.candle").first().waitFor(WAIT);
  await page.selectOption("#history-range", "7d");
  await page.waitForURL(/range=7d/, WAIT);
  await page.locator(".candle-chart g.candle").first().waitFor(WAIT);
  assert.ok((await page.locator(".candle-chart rect.volume").count()) > 0, "volume bars");
  await page.reload();
  await page.locator(".candle-chart g.candle").first().waitFor(WAIT);
  assert.equal(await page.inputValue("#history-range"), "7d");
  await shot("market-candles");
  // The trader's name in the tape opens their profile. The tape loads
  // when its card scrolls into view, as a reader scrolls to it.
  await page.locator('article[aria-labelledby="trades-h"]').scrollIntoViewIfNeeded();
  const trader = page.locator("#trades .trader-link").first();
  await trader.waitFor(WAIT);
  const name = await trader.innerText();
  const compare = await page.locator(".compare-link").getAttribute("href");
  await trader.click();
  await page.waitForURL(/\/app\/profiles\/[^/]+\/[^/?]+/, WAIT);
  await page.locator("#profile-metrics").waitFor(WAIT);
  assert.equal(await page.locator("h1").innerText(), name);
  await rows("#profile-trades").first().waitFor(WAIT);
  assert.ok((await rows("#profile-trades").count()) > 0);
  await shot("profile");
  await page.locator("#profile-trades tbody tr a.title").first().click();
  await page.waitForURL(/\/app\/markets\/[^/?]+/, WAIT);
  await page.locator(".market-head h1").waitFor(WAIT);
  // Several markets of the event on one chart.
  await page.goto(new URL(compare, demoUrl).href);
  await page.locator(".compare-chart path.series").nth(1).waitFor(WAIT);
  const lines = await page.locator(".compare-chart path.series").count();
  assert.equal(await rows("#compare-table").count(), lines);
  await page.locator(".compare-picks input[type=checkbox]:checked").first().uncheck();
  await page.waitForURL(/ids=/, WAIT);
  await page.waitForFunction((n) => document.querySelectorAll(".compare-chart path.series").length === n - 1, lines, WAIT);
  await shot("compare");
});

test("settings: defaults, a wrong key asks for the key, then back to defaults", async () => {
  await page.goto(`${demoUrl}settings`);
  await page.locator("#base-url").waitFor(WAIT);
  assert.equal(await page.inputValue("#base-url"), origin);
  assert.equal(await page.inputValue("#api-key"), "pm_demo_key");
  await page.click("text=Test connection");
  await page.locator("#check").waitFor(WAIT);
  assert.match(await page.locator("#check").innerText(), /Connected: 8 platforms/);
  await page.fill("#api-key", "wrong-key");
  await page.click('button[type="submit"]');
  await page.locator("#saved").waitFor(WAIT);
  assert.equal(await page.evaluate(() => sessionStorage.getItem("predmarket.apiKey")), "wrong-key");
  assert.equal(await page.evaluate(() => localStorage.getItem("predmarket.apiKey")), null, "not remembered unless asked");
  await page.goto(`${demoUrl}markets`);
  const alert = page.locator('[role=alert][data-code="UNAUTHORIZED"]').first();
  await alert.waitFor(WAIT);
  assert.match(await alert.innerText(), /API key/);
  await shot("unauthorized");
  await alert.locator('a[href="/app/settings"]').click();
  await page.waitForURL(/\/app\/settings/, WAIT);
  await page.click("text=Reset to defaults");
  assert.equal(await page.inputValue("#api-key"), "pm_demo_key");
  assert.equal(await page.evaluate(() => sessionStorage.getItem("predmarket.apiKey")), null);
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  expectFailedLoads(401);
});

test("theme toggle: light, dark, back to the system's", async () => {
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? "system");
  assert.equal(await theme(), "system");
  await page.click(".theme-toggle");
  assert.equal(await theme(), "light");
  await page.click(".theme-toggle");
  assert.equal(await theme(), "dark");
  await page.reload();
  await rows("#markets").first().waitFor(WAIT);
  assert.equal(await theme(), "dark", "the choice is remembered");
  await shot("markets-dark");
  const { get } = await ids(origin);
  const futures = await get(`/list-futures?league=${L[1]}&future_type=championship&limit=1`);
  await page.goto(`${demoUrl}sports/futures/${encodeURIComponent(futures.data.futures[0].id)}`);
  await page.locator("table.board").waitFor(WAIT);
  await shot("future-dark");
  await page.click(".theme-toggle");
  assert.equal(await theme(), "system");
});

test("keyboard: skip link, focus moves through real links and buttons", async () => {
  await page.goto(`${demoUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "main");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "market-search");
  // Every table has a caption and scoped headers.
  for (const table of await page.locator("table").all()) {
    assert.equal(await table.locator("caption").count(), 1);
    assert.equal(await table.locator("thead th:not([scope=col])").count(), 0);
  }
});

test("phone layout", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(`${demoUrl}markets`);
    await rows("#markets").first().waitFor(WAIT);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `no sideways scrolling of the page: ${overflow}px`);
    await shot("markets-phone");
    await page.goto(`${demoUrl}markets/500024`);
    await page.locator("table.levels").first().waitFor(WAIT);
    await shot("market-phone");
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
});

test("hostile text is shown as text, never run or parsed", { skip: !hostileUrl && "PREDMARKET_HOSTILE_URL not set" }, async () => {
  await page.goto(`${hostileUrl}markets`);
  await rows("#markets").first().waitFor(WAIT);
  const text = await page.locator("#markets").innerText();
  assert.match(text, /<script>alert\("xss"\)<\/script>/, "the markup is visible as characters");
  assert.equal(await page.locator("main script, main img, main iframe").count(), 0, "no element came from data");
  assert.equal(await page.locator('main a[href^="javascript"]').count(), 0);
  await shot("hostile-markets");
  await page.locator("#markets tbody tr .title", { hasText: "<script>" }).first().click();
  await page.locator(".market-head h1").waitFor(WAIT);
  assert.match(await page.locator(".market-head h1").innerText(), /<script>/);
  await page.locator(".about .description").first().waitFor(WAIT);
  // The only picture is the market's own, from an http(s) URL.
  assert.equal(await page.locator("main script, main img:not(.market-image)").count(), 0);
  for (const src of await page.locator("main img.market-image").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src")))) {
    assert.match(src, /^https?:\/\//);
  }
  await shot("hostile-market");
  // A platform that failed shows as a warning next to the data.
  await page.goto(`${hostileUrl}sports`);
  await rows("#games").first().waitFor(WAIT);
  await page.locator(`.platform-warnings [data-platform="${hostileP[6]}"]`).waitFor(WAIT);
  await page.locator("#games tbody tr .title").first().click();
  await page.locator('[data-market-type="moneyline"] table.board').waitFor(WAIT);
  assert.equal(await page.locator(`.platform-warnings [data-platform="${hostileP[6]}"]`).count(), 1);
  assert.equal(await page.locator(`table.board [data-platform="${hostileP[6]}"]`).count(), 0, "no column for the failed platform");
  await shot("hostile-game");
  assert.equal(await page.locator("main script, main img").count(), 0);
});

/** axe-core's WCAG 2 A and AA rules on the page as shown now: the
 * violations, each with the selectors of its nodes. axe runs through the
 * DevTools protocol (the page's CSP rightly refuses an injected script). */
async function axeViolations(page) {
  const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(`${source}\n;undefined`);
  return page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5), count: v.nodes.length }));
  });
}

// In a browser profile of its own: the tests before spend the demo key's
// budget in this profile's shared ledger (and the fault server's
// Retry-After pauses it), which would show countdowns instead of pages.
test("every page passes an axe-core WCAG 2 A/AA audit", async () => {
  const own = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "predmarket-axe-")), {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    await audit(own.pages()[0] ?? (await own.newPage()));
  } finally {
    await own.close();
  }
});

async function audit(page) {
  const { get } = await ids(origin);
  const seg = encodeURIComponent;
  const market = (await get(`/markets?limit=1&status=open&platform=${seg(P[0])}`)).markets[0];
  const game = (await get(`/list-games?limit=1&league=${seg(L[0])}`)).data.games[0];
  const event = (await get("/events?limit=1")).events[0];
  const series = (await get("/series?limit=1")).series[0];
  const future = (await get(`/list-futures?limit=1&league=${seg(L[0])}`)).data.futures[0];
  const award = (await get(`/list-awards?limit=1&league=${seg(L[0])}`)).data.awards[0];
  // A trader, as the market page's tape links to them.
  const withProfiles = directory.find((p) => p.features?.user_profiles && p.features?.trades);
  const traded = (await get(`/markets?limit=10&status=open&platform=${seg(withProfiles.id)}`)).markets;
  let trader;
  for (const m of traded) {
    const user = (await get(`/trades?market_id=${seg(m.id)}&limit=10`)).trades.map((t) => t.user?.name ?? t.user?.pseudonym).find(Boolean);
    if (user) {
      trader = user;
      break;
    }
  }
  assert.ok(trader, "a trader with a name");
  const inEvent = (await get("/markets?limit=50")).markets.find((m) => m.event_id);
  // Every route of web/src/routes.rs (`Page`), and each view of the
  // sports page.
  const pages = [
    ["markets", "#markets tbody tr"],
    [`markets/${seg(market.id)}`, "table.levels.bids tbody tr"],
    ["events", "#events tbody tr"],
    [`events/${seg(event.id)}`, "#event-markets tbody tr"],
    ["series", "#series tbody tr"],
    [`series/${seg(series.id)}`, "#series-events tbody tr"],
    ["sports", "#games tbody tr"],
    [`sports?league=${L[0]}&view=futures`, "#futures tbody tr"],
    [`sports?league=${L[0]}&view=awards`, "#awards tbody tr"],
    [`sports?league=${L[0]}&view=teams`, "#teams tbody tr"],
    [`sports/games/${seg(game.id)}`, "table.game-markets tbody tr"],
    [`sports/futures/${seg(future.id)}`, "table.board tbody tr"],
    [`sports/awards/${seg(award.id)}`, "table.board tbody tr"],
    [`profiles/${seg(withProfiles.id)}/${seg(trader)}`, "#profile-trades tbody tr"],
    [`compare?event=${seg(inEvent.event_id)}`, "#compare-table tbody tr"],
    ["venues?q=coin&pages=2&rel=same,inverted,different", "li.pair .reasons li"],
    ["platforms", "#platforms tbody tr"],
    ["settings", "#base-url"],
    ["no-such-page", "text=Page not found"],
  ];
  const found = {};
  for (const [path, ready] of pages) {
    await page.goto(`${demoUrl}${path}`);
    await page.locator(ready).first().waitFor(WAIT);
    await settled(page);
    const violations = await axeViolations(page);
    if (violations.length > 0) found[path] = violations;
  }
  assert.deepEqual(found, {}, `axe violations:\n${JSON.stringify(found, null, 2)}`);
}

test("429: a countdown, then a retry", { skip: !faultUrl && "PREDMARKET_FAULT_URL not set" }, async () => {
  await page.goto(`${demoUrl}settings`);
  await page.evaluate((url) => sessionStorage.setItem("predmarket.baseUrl", url), faultUrl);
  try {
    await page.goto(`${demoUrl}platforms`);
    const notice = page.locator('[role=alert][data-code="RATE_LIMITED"]');
    await notice.waitFor({ timeout: 60_000 });
    await notice.locator(".countdown").waitFor(WAIT);
    const first = parseInt(await notice.locator(".secs").innerText(), 10);
    assert.ok(first >= 1);
    await shot("rate-limited");
    // The countdown reaches zero and the page asks again (and is limited again).
    await page.waitForFunction(() => document.querySelector("[data-code=RATE_LIMITED] .secs")?.textContent === "0" || !document.querySelector("[data-code=RATE_LIMITED]"), null, { timeout: 60_000 });
  } finally {
    await page.evaluate(() => sessionStorage.removeItem("predmarket.baseUrl"));
    // Off the page, so its next retry (another 429) cannot land in the
    // test after this one.
    await page.goto("about:blank");
    expectFailedLoads(429);
  }
});
