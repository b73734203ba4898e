// The demo's live layer (web/src/api/live.rs, reading with
// predmarket-client's `live` and predmarket-core's `sse`) against a stream
// that stays open but stops writing: the order book's indicator must say
// `stale: silent` by itself, no earlier than the deadline the stream's
// events announced (`stale_after_ms`), and the demo must reopen its stream
// and be `live` again.
//
// Starts its own servers: the reference server (short intervals and
// heartbeat, so the announced deadline is a few seconds) serving the demo,
// and a small pass-through proxy in front of it whose streams that watch
// the order book go silent once they have passed the book's snapshot on:
// the socket is kept open and nothing more is forwarded (heartbeats
// included). Once the page has said `silent`, every stream passes through.
//
// PREDMARKET_SERVER_BIN   the predmarket-server binary
// PREDMARKET_DIST         the built demo (dist/)
// PREDMARKET_ARTIFACTS    where screenshots go
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createServer, request } from "node:http";
import { join } from "node:path";
import { startServer as spawnServer } from "../spawn-server.mjs";
import { chromium } from "playwright-core";

const bin = process.env.PREDMARKET_SERVER_BIN;
const dist = process.env.PREDMARKET_DIST;
const artifacts = process.env.PREDMARKET_ARTIFACTS ?? "artifacts";
const skip = !(bin && dist) && "PREDMARKET_SERVER_BIN and PREDMARKET_DIST not set";
if (!skip) mkdirSync(artifacts, { recursive: true });

const HARNESS_KEY = "harness_key_silence";
const CEILING_MS = Number(process.env.CEILING_MS ?? 90_000);
/** How much earlier than the announced deadline the page may say `silent`
 * and still be on time: the proxy's clock and the page's are one machine's,
 * but the last bytes reach the page a little after the proxy wrote them. */
const CLOCK_SLACK_MS = 250;

let server;
let target;
let browser;
let bookMarket;
/** The silencing proxy: whether it silences new streams, how many it
 * saw, and each silenced one's time of silence and announced deadlines. */
const silencer = { server: null, url: "", silencing: true, streams: 0, passed: 0, silenced: [] };

async function startServer() {
  const started = await spawnServer(bin, ["--web", dist, "--rate-limit", "100000", "--api-key", "pm_demo_key", "--api-key", `${HARNESS_KEY}:unlimited`, "--stream-heartbeat", "1", "--stream-interval-scale", "0.2", "-q"]);
  target = new URL(started.url);
  return started.child;
}

/** Every `stale_after_ms` the text's events announce. */
const deadlines = (text) => [...text.matchAll(/"stale_after_ms":(\d+)/g)].map((m) => Number(m[1]));

/**
 * Passes everything on. While `silencing`, a new `/stream` that watches
 * the book goes silent once the book's snapshot has passed: from then on
 * it is read and dropped, its socket held open. (The page may reopen its
 * stream with a longer list as its views come up: each new one is
 * silenced too, until the test has seen the page say `silent`.) Only the
 * book's snapshot is waited for, not every watched resource's: the
 * indicator under test is the book's, and on a busy machine another
 * resource's first event may be late or not a snapshot at all, which
 * used to leave a stream passing through and the page never silent.
 */
async function startSilencer() {
  silencer.server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const bookResource = `orderbook:${bookMarket}`;
    const silence = url.pathname === "/stream" && silencer.silencing && url.searchParams.getAll("watch").some((w) => w.split(",").includes(bookResource));
    if (url.pathname === "/stream") silencer.streams++;
    if (url.pathname === "/stream" && !silence) silencer.passed++;
    const out = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!silence) {
          answer.pipe(res);
          return;
        }
        const waiting = new Set([bookResource]);
        const mine = { since: null, announced: [] };
        let text = "";
        answer.on("data", (chunk) => {
          if (mine.since !== null) return;
          res.write(chunk);
          text += chunk.toString("utf8");
          // Whole events only: a chunk may end inside one.
          const end = text.lastIndexOf("\n\n");
          const events = text.slice(0, end + 1);
          text = text.slice(end + 1);
          mine.announced.push(...deadlines(events));
          for (const m of events.matchAll(/event: snapshot\n(?:id: .*\n)?data: \{"resource":"([^"]+)"/g)) waiting.delete(m[1]);
          if (waiting.size === 0) {
            mine.since = Date.now();
            silencer.silenced.push(mine);
          }
        });
        answer.on("end", () => res.end());
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise((resolve) => silencer.server.listen(0, "127.0.0.1", resolve));
  silencer.url = `http://127.0.0.1:${silencer.server.address().port}`;
}

before(async () => {
  if (skip) return;
  server = await startServer();
  const get = async (path) => {
    const res = await fetch(new URL(path, target), { headers: { "X-API-Key": HARNESS_KEY } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const platforms = (await get("/platforms")).platforms;
  const withBook = new Set(platforms.filter((p) => p.features?.orderbook !== false).map((p) => p.id));
  const markets = (await get("/markets?limit=50&status=open")).markets;
  bookMarket = markets.find((m) => withBook.has(m.platform))?.id;
  assert.ok(bookMarket, "an open market with an order book");
  await startSilencer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  silencer.server?.closeAllConnections();
  silencer.server?.close();
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

test("a stream that stays open but stops writing: the demo says stale: silent after the announced deadline, reopens, and is live again", { skip }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const logged = [];
  page.on("console", (m) => logged.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => logged.push(`error: ${e.message}`));
  // Every state the book's indicator says, with the page's time: the
  // silent state may last only until the view's own request answers.
  await page.addInitScript(() => {
    window.__states = [];
    new MutationObserver(() => {
      const text = document.querySelector("[aria-labelledby=book-h] .live-status .live-state")?.textContent ?? null;
      if (text !== null && window.__states.at(-1)?.text !== text) window.__states.push({ text, at: Date.now() });
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  const states = () => page.evaluate(() => window.__states);
  const said = (list) => list.map((s) => s.text).join(" → ");
  const failed = async (e, name) => {
    await page.screenshot({ path: join(artifacts, name), fullPage: true });
    return new Error(`${e.message}: states ${said(await states())}, streams ${silencer.streams} (${silencer.passed} passed through), silenced ${silencer.silenced.length}, console ${logged.join(" | ")}`);
  };
  try {
    await page.goto(`${silencer.url}/app/markets/${encodeURIComponent(bookMarket)}`);
    await eventually(async () => (await states()).some((s) => s.text === "live"), "the book live through the stream").catch(async (e) => {
      throw await failed(e, "silence-never-live.png");
    });
    await eventually(async () => (await states()).some((s) => s.text === "stale: silent"), "the indicator says stale: silent").catch(async (e) => {
      throw await failed(e, "silence-never-silent.png");
    });
    silencer.silencing = false;
    const list = await states();
    const silentAt = list.findIndex((s) => s.text === "stale: silent");
    assert.ok(list.slice(0, silentAt).some((s) => s.text === "live"), `live before silent: ${said(list)}`);
    // The stream the page was reading when it said so: the last one
    // silenced before then. Not before its announced deadline.
    const stream = silencer.silenced.filter((s) => s.since <= list[silentAt].at).at(-1);
    assert.ok(stream, "a silenced stream before the page said silent");
    const announced = Math.min(...stream.announced);
    assert.ok(Number.isFinite(announced) && announced > 0, `the stream announced its deadline (stale_after_ms): ${stream.announced}`);
    const after = list[silentAt].at - stream.since;
    assert.ok(after >= announced - CLOCK_SLACK_MS, `said silent ${after} ms after the last bytes, before the announced ${announced} ms`);

    // Reopened (a new stream, passed through) and live again.
    await eventually(async () => {
      const now = await states();
      return silencer.passed > 0 && now.slice(silentAt + 1).some((s) => s.text === "live");
    }, "a new stream, and the indicator live again").catch(async (e) => {
      throw await failed(e, "silence-never-live-again.png");
    });
    await page.screenshot({ path: join(artifacts, "silence-live-again.png") });
    process.stdout.write(`# states: ${said(await states())}; silent ${after} ms after the last bytes (announced ${announced} ms); ${silencer.streams} streams opened, ${silencer.silenced.length} silenced\n`);
  } finally {
    await context.close();
  }
});
