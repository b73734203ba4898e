// `cargo xtask bench`: the decode benchmark (decode-core.mjs) in Node and in
// headless Chromium, on one 250-market page of the reference server.
// Env: PREDMARKET_URL, PREDMARKET_KEY (the server), PREDMARKET_PACKAGE (the
// built npm package folder).
import { readFileSync, mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { bench } from "./decode-core.mjs";

const { PREDMARKET_URL: url, PREDMARKET_KEY: key, PREDMARKET_PACKAGE: pkg } = process.env;
if (!url || !key || !pkg) throw new Error("run through `cargo xtask bench` (PREDMARKET_URL, PREDMARKET_KEY, PREDMARKET_PACKAGE)");
const here = fileURLToPath(new URL(".", import.meta.url));

const response = await fetch(`${url}/markets?limit=250`, { headers: { "X-API-Key": key } });
if (!response.ok) throw new Error(`page: HTTP ${response.status}`);
const text = await response.text();

const { Client } = createRequire(import.meta.url)(join(pkg, "index.cjs"));
const node = await bench({ Client, text });

const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "predmarket-bench-")), {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let browser;
try {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
  await context.route("http://bench.local/**", (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = path.startsWith("/pkg/") ? join(pkg, path.slice(5)) : join(here, path.replace(/^\/bench\//, ""));
    try {
      route.fulfill({ status: 200, contentType: types[extname(file)] ?? "application/octet-stream", body: readFileSync(file) });
    } catch {
      route.fulfill({ status: 404, body: "" });
    }
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("http://bench.local/bench/decode.html");
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30_000 }).catch(() => {
    throw new Error(`the bench page did not load: ${errors.join("; ")}`);
  });
  browser = await page.evaluate((t) => window.runBench(t), text);
  browser.version = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]));
} finally {
  await context.close();
}

const row = (where, r) => `| ${where} | ${r.name} | ${r.ms.toFixed(3)} | ${r.vsParse.toFixed(2)}× | ${r.vsParseText.toFixed(2)}× | ${r.vsJson.toFixed(2)}× |`;
console.log(`page: ${(node.bytes / 1024).toFixed(0)} KB, 250 markets; ${node.rounds} interleaved rounds × ${node.iterations} decodes, medians`);
console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}); Node ${process.versions.node}; Chromium ${browser.version}`);
console.log("");
console.log("| runtime | path | ms per page | vs JSON.parse(text) | vs JSON.parse(await res.text()) | vs res.json() |");
console.log("|---|---|---:|---:|---:|---:|");
for (const r of node.results) console.log(row(`Node ${process.versions.node}`, r));
for (const r of browser.results) console.log(row(`Chromium ${browser.version}`, r));
const library = (b) => b.results[b.results.length - 1];
const worst = Math.max(...[node, browser].map((b) => library(b).vsJson));
console.log("");
console.log(`library vs res.json(): worst ${worst.toFixed(2)}× (target ≤ 1.3×)`);
if (process.env.PREDMARKET_BENCH_STRICT && worst > 1.3) process.exitCode = 1;
