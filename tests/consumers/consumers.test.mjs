// The packed npm package used the way users use it, one test per runtime or
// bundler: `npm pack` of the built package, `npm install` of the tarball,
// then each tiny app (tests/consumers/<runtime>/) is built with its real
// tool (pinned in tests/package.json) and run for real against the test
// server: Node (ESM, CommonJS, webpack and esbuild server bundles), Bun,
// Deno, workerd, and browser bundles (Vite dev and build, webpack dev and
// production, esbuild, Rollup, bun build, a web worker) in headless Chromium.
// Every app runs check.mjs; each test compares its result with the server's
// data. Run by `cargo xtask test` (step "consumers").
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { codeBlocks, runnerOf, shown } from "../node/examples.mjs";

const packageDir = process.env.PREDMARKET_PACKAGE;
const baseUrl = process.env.PREDMARKET_URL;
const apiKey = process.env.PREDMARKET_KEY;
assert.ok(packageDir && baseUrl && apiKey, "run through `cargo xtask test` (PREDMARKET_PACKAGE, PREDMARKET_URL, PREDMARKET_KEY)");

const here = dirname(fileURLToPath(import.meta.url));
const bin = (name) => join(here, "..", "node_modules", ".bin", name);
const run = promisify(execFile);
/// No single build or run may hang the step.
const STEP_TIMEOUT_MS = 120_000;

let work;
let browser;
let staticServer;
let staticUrl;

/// Runs a tool, failing with its output when it fails.
async function sh(file, args, options = {}) {
  try {
    return await run(file, args, { timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, ...options, env: { ...process.env, ...options.env } });
  } catch (error) {
    throw new Error(`${file} ${args.join(" ")} failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}\n${error.message}`);
  }
}

/// What every app must report (see check.mjs).
function assertResult(result) {
  assert.ok(!result.failed, result.failed);
  assert.deepEqual(result, {
    listed: 5,
    watched: true,
    paged: 120,
    error: { code: "NOT_FOUND", status: 404, isError: true },
    decimal: 2.5,
    math: { decimal: 1.5, error: "VALIDATION_ERROR" },
  });
}

/// A command-line app's result: its `RESULT {...}` line.
async function runApp(file, args, options) {
  const { stdout } = await sh(file, args, { ...options, env: { PREDMARKET_URL: baseUrl, PREDMARKET_KEY: apiKey, ...options?.env } });
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  assert.ok(line, `no RESULT line in:\n${stdout}`);
  return JSON.parse(line.slice("RESULT ".length));
}

/// Opens `url` in Chromium and waits for the app's `window.__result`;
/// uncaught page errors fail the test.
async function runPage(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  // The check's own 404 (an unknown market) is logged by the browser.
  page.on("console", (m) => m.type() === "error" && !/status of 404/.test(m.text()) && errors.push(`console: ${m.text()}`));
  await page.addInitScript((config) => {
    window.__predmarket = config;
  }, { baseUrl, apiKey });
  try {
    await page.goto(url);
    const handle = await page.waitForFunction(() => window.__result, null, { timeout: 60_000 }).catch(() => null);
    const result = handle ? await handle.jsonValue() : { failed: `no result after 60 s; ${errors.join("; ") || "no error reported"}` };
    assert.deepEqual(errors, []);
    return result;
  } finally {
    await page.close();
  }
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/// Serves `work` (the built apps) over loopback.
function serveWork() {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
      let file = join(work, path);
      if (!file.startsWith(work)) return res.writeHead(403).end();
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
      if (!existsSync(file)) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(readFileSync(file));
    });
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/// A page that loads `script` as a module.
function writePage(dir, script, title) {
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head><body><script type="module" src="./${script}"></script></body></html>\n`,
  );
}

function freePort() {
  return new Promise((resolve) => {
    const server = createNetServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), "predmarket-consumers-"));
  // Installed exactly as a user installs a package: from its tarball.
  const { stdout } = await sh("npm", ["pack", packageDir, "--pack-destination", work, "--silent"]);
  const tarball = join(work, stdout.trim().split("\n").pop());
  rmSync(join(here, "node_modules"), { recursive: true, force: true });
  await sh("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--offline", tarball], { cwd: here });
  browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "predmarket-chromium-")), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  staticServer = await serveWork();
  staticUrl = `http://127.0.0.1:${staticServer.address().port}`;
});

after(async () => {
  await browser?.close();
  staticServer?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("Node ESM (import)", async () => {
  assertResult(await runApp("node", ["app.mjs"], { cwd: join(here, "node-esm") }));
});

test("Node CommonJS (require)", async () => {
  assertResult(await runApp("node", ["app.cjs"], { cwd: join(here, "node-cjs") }));
});

test("webpack 5 server bundle (target: node), run without node_modules", async () => {
  const out = join(work, "webpack-node");
  await sh(bin("webpack"), ["--config", "webpack.config.cjs"], { cwd: join(here, "webpack-node"), env: { OUT_DIR: out } });
  assertResult(await runApp("node", ["server.cjs"], { cwd: out }));
});

test("esbuild server bundle (--platform=node), run without node_modules", async () => {
  const out = join(work, "esbuild-node");
  await sh(bin("esbuild"), ["app.mjs", "--bundle", "--platform=node", `--outfile=${join(out, "server.cjs")}`, "--log-level=warning"], { cwd: join(here, "esbuild-node") });
  assertResult(await runApp("node", ["server.cjs"], { cwd: out }));
});

test("Bun", async () => {
  assertResult(await runApp(bin("bun"), ["app.mjs"], { cwd: join(here, "bun") }));
});

test("Deno", async () => {
  assertResult(
    await runApp(bin("deno"), ["run", "--allow-net", "--allow-env=PREDMARKET_URL,PREDMARKET_KEY", "--allow-read", "app.mjs"], {
      cwd: join(here, "deno"),
      env: { DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(work, "deno-cache") },
    }),
  );
});

test("workerd (Cloudflare's runtime; wasm imported as a module)", async () => {
  // Bundled the way wrangler bundles a worker: esbuild with the `workerd`
  // condition, `.wasm` imports left as modules the runtime compiles.
  const out = join(work, "workerd");
  mkdirSync(out, { recursive: true });
  await sh(bin("esbuild"), ["worker.mjs", "--bundle", "--format=esm", "--conditions=workerd,worker", "--external:*.wasm", `--outfile=${join(out, "worker.js")}`, "--log-level=warning"], { cwd: join(here, "workerd") });
  for (const wasm of ["predmarket_bg.wasm", "math_glue_bg.wasm", "watch_glue_bg.wasm"]) cpSync(join(here, "node_modules/predmarket", wasm), join(out, wasm));
  const port = await freePort();
  writeFileSync(
    join(out, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The test server is on loopback, which workerd's default outbound refuses.
    (name = "net", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "predmarket_bg.wasm", wasm = embed "predmarket_bg.wasm"),
    (name = "math_glue_bg.wasm", wasm = embed "math_glue_bg.wasm"),
    (name = "watch_glue_bg.wasm", wasm = embed "watch_glue_bg.wasm"),
  ],
  bindings = [
    (name = "PREDMARKET_URL", text = ${JSON.stringify(baseUrl)}),
    (name = "PREDMARKET_KEY", text = ${JSON.stringify(apiKey)}),
  ],
  globalOutbound = "net",
  compatibilityDate = "2025-09-01",
);
`,
  );
  const child = spawn(bin("workerd"), ["serve", "config.capnp"], { cwd: out, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    let response;
    // Asked until workerd listens (a busy machine takes longer to start it).
    for (let i = 0; i < 600 && !response; i++) {
      response = await fetch(`http://127.0.0.1:${port}/`).catch(() => new Promise((r) => setTimeout(r, 100)));
    }
    assert.ok(response, `workerd did not answer: ${stderr}`);
    assertResult(await response.json());
  } finally {
    child.kill();
  }
});

test("Vite dev server", async () => {
  const { createServer: createViteServer } = await import("vite");
  const server = await createViteServer({ root: join(here, "vite"), logLevel: "warn", server: { host: "127.0.0.1", port: 0, strictPort: false }, cacheDir: join(work, "vite-cache") });
  await server.listen();
  try {
    assertResult(await runPage(server.resolvedUrls.local[0]));
  } finally {
    await server.close();
  }
});

test("Vite production build", async () => {
  const out = join(work, "vite-build");
  await sh(bin("vite"), ["build", "--outDir", out, "--emptyOutDir", "--logLevel", "warn", "--base", "./"], { cwd: join(here, "vite") });
  assertResult(await runPage(`${staticUrl}/vite-build/`));
});

for (const mode of ["development", "production"]) {
  test(`webpack 5 ${mode} build`, async () => {
    const out = join(work, `webpack-${mode}`);
    await sh(bin("webpack"), ["--config", "webpack.config.cjs", "--mode", mode], { cwd: join(here, "webpack"), env: { OUT_DIR: out } });
    writePage(out, "main.js", `webpack ${mode}`);
    assertResult(await runPage(`${staticUrl}/webpack-${mode}/`));
  });
}

for (const minify of [false, true]) {
  test(`esbuild browser bundle${minify ? " (minified)" : ""}`, async () => {
    const name = `esbuild${minify ? "-min" : ""}`;
    const out = join(work, name);
    await sh(bin("esbuild"), ["main.js", "--bundle", "--format=esm", ...(minify ? ["--minify"] : []), `--outfile=${join(out, "main.js")}`, "--log-level=warning"], { cwd: join(here, "esbuild") });
    writePage(out, "main.js", name);
    assertResult(await runPage(`${staticUrl}/${name}/`));
  });
}

test("Rollup browser bundle", async () => {
  const out = join(work, "rollup");
  await sh(bin("rollup"), ["--config", "rollup.config.mjs", "--silent"], { cwd: join(here, "rollup"), env: { OUT_DIR: out } });
  writePage(out, "main.js", "rollup");
  assertResult(await runPage(`${staticUrl}/rollup/`));
});

test("bun build --target=browser", async () => {
  const out = join(work, "bun-build");
  await sh(bin("bun"), ["build", "main.js", "--target=browser", `--outdir=${out}`], { cwd: join(here, "bun-build") });
  writePage(out, "main.js", "bun build");
  assertResult(await runPage(`${staticUrl}/bun-build/`));
});

test("web worker (module worker, esbuild bundle)", async () => {
  const out = join(work, "worker");
  await sh(bin("esbuild"), ["worker.mjs", "--bundle", "--format=esm", `--outfile=${join(out, "worker.js")}`, "--log-level=warning"], { cwd: join(here, "worker") });
  cpSync(join(here, "worker/main.js"), join(out, "main.js"));
  writePage(out, "main.js", "web worker");
  assertResult(await runPage(`${staticUrl}/worker/`));
});

test("tabs share one budget (sharedBudget: true): three pages of an origin at once", async () => {
  const out = join(work, "shared-budget");
  await sh(bin("esbuild"), ["main.js", "--bundle", "--format=esm", `--outfile=${join(out, "main.js")}`, "--log-level=warning"], { cwd: join(here, "shared-budget") });
  writePage(out, "main.js", "shared budget");
  // The browser profile is new for this file and no other test shares its
  // budget, so the ledger starts empty.
  const limit = 4;
  const pages = await Promise.all([0, 1, 2].map(() => browser.newPage()));
  try {
    const errors = [];
    for (const page of pages) {
      page.on("pageerror", (e) => errors.push(e.message));
      await page.addInitScript((config) => {
        window.__predmarket = config;
      }, { baseUrl, apiKey, limit });
    }
    await Promise.all(pages.map((page) => page.goto(`${staticUrl}/shared-budget/`)));
    const results = await Promise.all(
      pages.map((page) => page.waitForFunction(() => window.__result, null, { timeout: 60_000 }).then((h) => h.jsonValue())),
    );
    assert.deepEqual(errors, []);
    for (const r of results) assert.ok(!r.failed, r.failed);
    // Six calls against a budget of four a minute: four were sent, in
    // whichever tabs, and two waited for the budget until their timeout.
    assert.equal(results.reduce((n, r) => n + r.sent, 0), limit, JSON.stringify(results));
    const outcomes = results.flatMap((r) => r.outcomes).sort();
    assert.deepEqual(outcomes, ["TIMEOUT", "TIMEOUT", "ok", "ok", "ok", "ok"]);
    for (const r of results.filter((r) => r.outcomes.includes("TIMEOUT"))) assert.deepEqual(r.waits, ["budget"]);
  } finally {
    await Promise.all(pages.map((page) => page.close()));
  }
});

test("persistentCache: a reload shows kept answers at once from IndexedDB, bounded, then revalidates", async () => {
  const out = join(work, "persistent-cache");
  await sh(bin("esbuild"), ["main.js", "--bundle", "--format=esm", `--outfile=${join(out, "main.js")}`, "--log-level=warning"], { cwd: join(here, "persistent-cache") });
  writePage(out, "main.js", "persistent cache");
  const res = await fetch(`${baseUrl}/markets?limit=5`, { headers: { "X-API-Key": apiKey } });
  const markets = (await res.json()).markets;
  const ids = markets.map((m) => m.id);
  const titles = markets.map((m) => m.title);
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The offline step's failed requests are the point: not errors here.
  page.on("console", (m) => m.type() === "error" && !/offline|Failed to fetch/.test(m.text()) && errors.push(m.text()));
  await page.addInitScript((config) => {
    window.__predmarket = config;
  }, { baseUrl, apiKey, ids });
  const step = async (name) => {
    await page.goto(`${staticUrl}/persistent-cache/?step=${name}`);
    const handle = await page.waitForFunction(() => window.__result, null, { timeout: 60_000 });
    const result = await handle.jsonValue();
    assert.ok(!result.failed, result.failed);
    return result;
  };
  try {
    const fill = await step("fill");
    assert.deepEqual(fill, { sent: 5, titles, kept: 3 });
    // Reloaded with the network gone: the three kept show at once (and
    // their revalidations fail quietly); the two evicted fail.
    const offline = await step("offline");
    assert.deepEqual(offline.outcomes, ["NETWORK_ERROR", "NETWORK_ERROR", ...titles.slice(2)]);
    assert.deepEqual(offline.ages, ["number", "number", "number"]);
    assert.equal(offline.kept, 3);
    const again = await step("revalidate");
    assert.deepEqual(again, { title: titles[4], fromKept: true, revalidated: { method: "getMarket", id: ids[4] }, keptAfterClear: 0 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// The docs' browser examples (```js browser, tests/node/examples.mjs), run
// as written in Chromium: bundled by esbuild with the test server's address
// and key defined for `process.env`, loaded, then reloaded in the same
// profile (what a kept answer needs), with no page error either time, and
// printing what each says it prints.
const EXAMPLE_PRINTS = {
  // From the service, then kept across the reload and revalidated in the
  // background.
  [join("docs", "js-persistent-cache.md")]: ["from the service: 50 markets", "kept: 50 markets", "listMarkets, revalidated: 50 markets"],
};

test("the docs' browser examples run in Chromium as written", async (t) => {
  const blocks = codeBlocks().filter((b) => runnerOf(b).run === "browser");
  assert.ok(blocks.length >= 1, "the docs have a browser example");
  for (const [i, block] of blocks.entries()) {
    await t.test(shown(block), async () => {
      const out = join(work, `doc-example-${i}`);
      mkdirSync(out, { recursive: true });
      // The example, then the signal that its top-level awaits are done.
      writeFileSync(join(out, "example.js"), `${block.code}\nwindow.__result = { done: true };\n`);
      const define = [`--define:process.env.PREDMARKET_URL=${JSON.stringify(baseUrl)}`, `--define:process.env.PREDMARKET_KEY=${JSON.stringify(apiKey)}`];
      await sh(bin("esbuild"), ["example.js", "--bundle", "--format=esm", ...define, "--outfile=main.js", "--log-level=warning"], { cwd: out, env: { NODE_PATH: join(here, "node_modules") } });
      writePage(out, "main.js", `example ${shown(block)}`);
      const page = await browser.newPage();
      const errors = [];
      const logs = [];
      page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
      page.on("console", (m) => (m.type() === "error" ? errors.push(`console: ${m.text()}`) : logs.push(m.text())));
      try {
        for (const load of ["first load", "reload"]) {
          const before = logs.length;
          await page.goto(`${staticUrl}/doc-example-${i}/`);
          await page.waitForFunction(() => window.__result?.done, null, { timeout: 60_000 });
          assert.ok(logs.length > before, `${load}: the example printed something`);
        }
        const expected = EXAMPLE_PRINTS[block.file] ?? [];
        const printed = () => expected.every((line) => logs.includes(line));
        const deadline = Date.now() + 60_000;
        while (!printed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.deepEqual(expected.filter((line) => !logs.includes(line)), [], `printed:\n${logs.join("\n")}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});
