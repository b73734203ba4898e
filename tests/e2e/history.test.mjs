// The demo's recorded history, end to end: a server started with
// `--record DIR` records the order book the market page watches; the
// server is stopped and started again on the same archive (the book's
// next row is then `first`: nothing is known in between), and the page's
// "Recorded depth" card draws the book's depth over time as two lines
// broken at that stretch, which is shaded, with a table of every row. A
// server that records nothing shows the card's words instead, without
// asking `/history` (a 404 would be a console error). Fails on any
// console error.
//
// PREDMARKET_SERVER_BIN   the predmarket-server binary
// PREDMARKET_DIST         the built demo (dist/)
// PREDMARKET_ARTIFACTS    where screenshots go
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer as spawnServer } from "../spawn-server.mjs";
import { chromium } from "playwright-core";

const bin = process.env.PREDMARKET_SERVER_BIN;
const dist = process.env.PREDMARKET_DIST;
const artifacts = process.env.PREDMARKET_ARTIFACTS ?? "artifacts";
// Skipped, not failed, when the runner gives no server to start (the
// second e2e run of `cargo xtask test`, against renamed ids).
const skip = !(bin && dist) && "PREDMARKET_SERVER_BIN and PREDMARKET_DIST not set";
if (!skip) mkdirSync(artifacts, { recursive: true });

const KEY = "pm_demo_key";
const WAIT = { timeout: 60_000 };

/** Starts the server with `args`; resolves with { child, base } once it listens. */
async function startServer(args) {
  const { url, child } = await spawnServer(bin, ["--web", dist, "--api-key", `${KEY}:unlimited`, "-q", ...args]);
  return { child, base: url };
}

/** Stops a server and waits for it to exit (the recorder writes what it holds). */
function stopServer(server) {
  return new Promise((resolve) => {
    if (!server || server.child.exitCode !== null) return resolve();
    server.child.once("exit", resolve);
    server.child.kill("SIGTERM");
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The archive's finished parts of `kind` (temporary names start with a dot). */
function parts(dir, kind) {
  try {
    return readdirSync(join(dir, `kind=${kind}`), { recursive: true }).filter((f) => String(f).endsWith(".parquet") && !String(f).split("/").pop().startsWith("."));
  } catch {
    return [];
  }
}

async function waitFor(what, condition, ms = 60_000) {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(200);
  }
}

let context;
const consoleErrors = [];
let archive;

before(async () => {
  if (skip) return;
  archive = mkdtempSync(join(tmpdir(), "predmarket-history-e2e-"));
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "predmarket-history-browser-")), {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Market images point at the platforms' hosts, unreachable here.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
  await context.route(/^https?:\/\/[^/]+\.example\//, (route) => route.fulfill({ status: 200, contentType: "image/png", body: png }));
});

after(async () => {
  await context?.close();
  if (archive) rmSync(archive, { recursive: true, force: true });
});

async function newPage() {
  const page = await context.newPage();
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  return page;
}

/** A market whose platform publishes books, from the server's own lists. */
async function bookMarket(base) {
  const get = async (path) => {
    const res = await fetch(`${base}${path}`, { headers: { "X-API-Key": KEY } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const withBook = new Set((await get("/platforms")).platforms.filter((p) => p.features?.orderbook === true).map((p) => p.id));
  const market = (await get("/markets?limit=100&status=open")).markets.find((m) => withBook.has(m.platform));
  assert.ok(market, "an open market with a book");
  return market.id;
}

const recordArgs = () => ["--record", archive, "--record-roll-secs", "1", "--stream-interval-scale", "0.2"];
const card = (page) => page.locator('article[aria-labelledby="recorded-h"]');

test("a recorded book's depth over time, broken where the recorder was down", { skip }, async () => {
  // First run: the page watches the book; its rows are recorded.
  let server = await startServer(recordArgs());
  const id = await bookMarket(server.base);
  const page = await newPage();
  await page.goto(`${server.base}/app/markets/${encodeURIComponent(id)}`);
  await page.locator("table.levels tbody tr").first().waitFor(WAIT);
  await waitFor("the book's first parts", () => parts(archive, "orderbook").length >= 2);
  await page.close();
  await stopServer(server);
  const before = parts(archive, "orderbook").length;
  // Down for a while: nothing of the book is known meanwhile.
  await sleep(3_000);
  server = await startServer(recordArgs());
  try {
    const page = await newPage();
    await page.goto(`${server.base}/app/markets/${encodeURIComponent(id)}`);
    await page.locator("table.levels tbody tr").first().waitFor(WAIT);
    await waitFor("parts after the restart", () => parts(archive, "orderbook").length >= before + 2);
    // Asked for when the card is on screen.
    await page.reload();
    await page.locator("table.levels tbody tr").first().waitFor(WAIT);
    await card(page).scrollIntoViewIfNeeded();
    const bids = card(page).locator('.history-chart path.series[data-label="Bid depth"]');
    await bids.waitFor(WAIT);
    assert.ok(await card(page).locator('path.series[data-label="Ask depth"]').count());
    // A run per line before the restart and one after, the stretch
    // between shaded (a busy machine may add a `gap` of its own: a run
    // and a stretch more each).
    const d = await bids.getAttribute("d");
    const runs = d.match(/M/g)?.length ?? 0;
    const stretches = await card(page).locator("rect.gap").count();
    assert.ok(runs >= 2 && stretches === runs - 1, `${runs} runs, ${stretches} shaded: ${d}`);
    const summary = await card(page).locator(".history-summary").innerText();
    assert.match(summary, new RegExp(`\\d+ recorded answers from .*; ${stretches} breaks? in the record`), summary);
    await card(page).locator("details.history-rows summary").click();
    const rows = card(page).locator("table.history-rows tbody tr");
    assert.ok((await rows.count()) >= 4);
    // The first row of each run of the recorder says so.
    const restarts = await card(page).locator("table.history-rows tbody tr.break", { hasText: "first recorded" }).count();
    assert.equal(restarts, 2);
    await card(page).screenshot({ path: join(artifacts, "history-recorded-depth.png") });
    await page.close();
  } finally {
    await stopServer(server);
  }
  assert.deepEqual(consoleErrors, [], "console errors");
});

test("a server that records nothing says so, and is not asked for history", { skip }, async () => {
  const server = await startServer([]);
  try {
    const id = await bookMarket(server.base);
    const page = await newPage();
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${server.base}/app/markets/${encodeURIComponent(id)}`);
    await page.locator("table.levels tbody tr").first().waitFor(WAIT);
    await card(page).scrollIntoViewIfNeeded();
    await card(page).locator(".no-history").waitFor(WAIT);
    assert.match(await card(page).innerText(), /keeps no recorded history/);
    assert.ok(asked.includes("/openapi.json"), asked.join(" "));
    assert.ok(!asked.includes("/history"), asked.join(" "));
    await page.close();
  } finally {
    await stopServer(server);
  }
  assert.deepEqual(consoleErrors, [], "console errors");
});
