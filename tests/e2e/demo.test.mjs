// The demo end to end: the built app served by predmarket-server, driven in
// the system Chromium. Fails on any console error; saves a screenshot of
// each page into tests/artifacts/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const demoUrl = process.env.PREDMARKET_DEMO_URL;
const artifacts = process.env.PREDMARKET_ARTIFACTS ?? "artifacts";
assert.ok(demoUrl, "run through `cargo xtask test` (PREDMARKET_DEMO_URL)");
mkdirSync(artifacts, { recursive: true });

let context;
let page;
const consoleErrors = [];

before(async () => {
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "predmarket-e2e-")), {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
});

after(async () => {
  await context?.close();
});

test("the platforms page lists every platform with its health", async () => {
  const started = Date.now();
  await page.goto(`${demoUrl}platforms`);
  const rows = page.locator("#platforms tbody tr");
  await rows.first().waitFor({ timeout: 30_000 });
  assert.equal(await rows.count(), 8);
  assert.match(await rows.first().innerText(), /Platform A/);
  assert.equal(await page.locator("#platforms .health").count(), 8);
  console.log(`# platforms painted in ${Date.now() - started} ms`);
  await page.screenshot({ path: join(artifacts, "platforms.png"), fullPage: true });
  assert.deepEqual(consoleErrors, []);
});

test("the root of the app shows the platforms too", async () => {
  await page.goto(demoUrl);
  await page.locator("#platforms tbody tr").first().waitFor({ timeout: 30_000 });
  assert.deepEqual(consoleErrors, []);
});

test("a wrong key shows an error asking for the key, not a crash", async () => {
  await page.evaluate(() => sessionStorage.setItem("predmarket.apiKey", "wrong-key"));
  await page.goto(`${demoUrl}platforms`);
  const alert = page.locator("[role=alert]");
  await alert.waitFor({ timeout: 30_000 });
  assert.match(await alert.innerText(), /API key/);
  await page.screenshot({ path: join(artifacts, "platforms-unauthorized.png") });
  await page.evaluate(() => sessionStorage.removeItem("predmarket.apiKey"));
  // The 401 shows up as a failed resource load in the console: expected here.
  consoleErrors.length = 0;
});
