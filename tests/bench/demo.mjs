// `cargo xtask bench demo`: how fast the demo paints, the figures the
// end-to-end tests print but do not assert (a duration in a test fails on a
// busy machine; here it is measured and recorded in docs/benchmarks.md).
//
// - first load: a cold profile (empty cache) opens `/app/`; the time from
//   navigation start to the first painted row of the market list;
// - reload from the device's cache: a market page visited once, then
//   loaded again with its API answers held back until it has painted; the
//   time from the app's mount (its header in the DOM) to the market's
//   title, and from navigation start.
//
// Every figure is the `performance.now()` of the page, taken in the
// animation frame after the element was inserted (a MutationObserver
// installed before the page loads). Medians of PREDMARKET_BENCH_RUNS runs
// (default 7), with the range.
//
// Env: PREDMARKET_DEMO_URL (the demo's `…/app/` on a server whose demo
// key has room: `--rate-limit 100000`).
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const demoUrl = process.env.PREDMARKET_DEMO_URL;
if (!demoUrl) throw new Error("run through `cargo xtask bench demo` (PREDMARKET_DEMO_URL)");
const runs = Number(process.env.PREDMARKET_BENCH_RUNS ?? 7);
const origin = new URL(demoUrl).origin;
const WAIT = { timeout: 120_000 };
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Records, in the page, when `selectors` first match (after a frame). */
function watch(page) {
  return page.addInitScript(() => {
    const seen = {};
    window.__seen = seen;
    const marks = { mount: "header.top", list: "#markets tbody tr", market: ".market-page h1" };
    const observer = new MutationObserver(() => {
      for (const [name, selector] of Object.entries(marks)) {
        if (seen[name] === undefined && !seen[`_${name}`] && document.querySelector(selector)) {
          seen[`_${name}`] = true;
          requestAnimationFrame(() => (seen[name] = performance.now()));
        }
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

async function withProfile(body) {
  const dir = mkdtempSync(join(tmpdir(), "predmarket-bench-demo-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ARGS,
  });
  try {
    // Pictures point at the platforms' hosts, which may be unreachable.
    await context.route(/^https?:\/\/[^/]+\.example\//, (route) => route.fulfill({ status: 404, body: "" }));
    return await body(context);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const seen = (page, name) => page.waitForFunction((n) => window.__seen?.[n] !== undefined, name, WAIT).then(() => page.evaluate((n) => window.__seen[n], name));

async function firstLoad() {
  return withProfile(async (context) => {
    const page = context.pages()[0] ?? (await context.newPage());
    await watch(page);
    await page.goto(demoUrl);
    return { list: await seen(page, "list") };
  });
}

/** A market id from the listing, as the server names it. */
async function someMarket() {
  const res = await fetch(`${origin}/markets?limit=1&status=open`, { headers: { "X-API-Key": "pm_demo_key" } });
  if (!res.ok) throw new Error(`/markets: HTTP ${res.status}`);
  return (await res.json()).markets[0].id;
}

async function reloadFromCache(id) {
  return withProfile(async (context) => {
    const url = `${demoUrl}markets/${encodeURIComponent(id)}`;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForSelector(".market-page h1", WAIT);
    await page.waitForLoadState("networkidle");
    // The market's answers are held until the page painted: the figure is
    // the cache's, never the network's.
    const api = /\/(markets|price-history)(\/|\?)/;
    let release;
    const released = new Promise((resolve) => (release = resolve));
    const answered = [];
    await page.route(api, async (route) => {
      if (route.request().url().includes("/app/")) return route.continue();
      await released;
      return route.continue().catch(() => {});
    });
    page.on("response", (r) => {
      if (api.test(r.url()) && !r.url().includes("/app/")) answered.push(r.url());
    });
    await watch(page);
    try {
      await page.goto(url);
      const market = await seen(page, "market");
      const mount = await seen(page, "mount");
      if (answered.length) throw new Error(`painted after an answer arrived: ${answered.join(", ")}`);
      return { market, fromMount: market - mount };
    } finally {
      release();
    }
  });
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return `median ${median.toFixed(0)} ms (${sorted[0].toFixed(0)} – ${sorted[sorted.length - 1].toFixed(0)}, ${sorted.length} runs)`;
}

const id = await someMarket();
const loads = [];
const reloads = [];
const load = [];
// Interleaved, so that a change in the machine's load affects both alike.
for (let i = 0; i < runs; i++) {
  load.push(loadavg()[0]);
  loads.push(await firstLoad());
  reloads.push(await reloadFromCache(id));
}
const version = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS }).then(async (b) => {
  const v = b.version();
  await b.close();
  return v;
});
console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), load average ${Math.min(...load).toFixed(1)} – ${Math.max(...load).toFixed(1)}; Chromium ${version}; Node ${process.versions.node}`);
console.log("");
console.log("| measure | result |");
console.log("|---|---|");
console.log(`| first load, cold profile: navigation start → first market row painted | ${stats(loads.map((l) => l.list))} |`);
console.log(`| reload of a visited market, answers held: app mounted → market title painted | ${stats(reloads.map((r) => r.fromMount))} |`);
console.log(`| the same reload: navigation start → market title painted | ${stats(reloads.map((r) => r.market))} |`);
