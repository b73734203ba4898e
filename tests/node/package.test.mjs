// The built npm package, installed from its tarball into a fresh project and
// imported exactly as a user would: ESM `import`, CJS `require`, and the
// README's examples run as written.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const packageDir = process.env.PREDMARKET_PACKAGE;
const url = process.env.PREDMARKET_URL;
const key = process.env.PREDMARKET_KEY;
assert.ok(packageDir && url && key, "run through `cargo xtask test` (PREDMARKET_PACKAGE, PREDMARKET_URL, PREDMARKET_KEY)");

let project;
let pm;

before(() => {
  project = mkdtempSync(join(tmpdir(), "predmarket-user-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
  const npm = (args) => execFileSync("npm", args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const tarball = npm(["pack", packageDir, "--pack-destination", project, "--silent"]).trim().split("\n").pop();
  npm(["install", "--no-audit", "--no-fund", "--offline", join(project, tarball)]);
  // Resolution from inside the user's project, through the exports map.
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  return import(pathToFileURL(join(project, "entry.mjs")).href).then((module) => {
    pm = module;
  });
});

test("ESM import gives the Client class and the isApiError guard", () => {
  assert.equal(typeof pm.Client, "function");
  assert.equal(typeof pm.isApiError, "function");
});

test("listPlatforms resolves with the eight platforms", async () => {
  const client = new pm.Client({ apiKey: key, baseUrl: url });
  const response = await client.listPlatforms();
  assert.equal(response.platforms.length, 8);
  assert.equal(response.platforms[0].id, "platform_a");
  assert.equal(response.meta.total, 8);
  assert.equal(client.baseUrl, url);
});

test("CommonJS require works too", async () => {
  const require = createRequire(join(project, "package.json"));
  const { Client } = require("predmarket");
  const response = await new Client({ apiKey: key, baseUrl: url }).listPlatforms();
  assert.equal(response.platforms.length, 8);
});

test("a wrong key rejects with a real Error carrying code and status", async () => {
  const client = new pm.Client({ apiKey: "wrong-key", baseUrl: url, maxRetries: 0 });
  await assert.rejects(client.listPlatforms(), (err) => {
    assert.ok(err instanceof Error);
    assert.ok(pm.isApiError(err));
    assert.equal(err.name, "PredmarketError");
    assert.equal(err.code, "UNAUTHORIZED");
    assert.equal(err.status, 401);
    assert.ok(!err.message.includes("wrong-key"), "the key never appears in a message");
    assert.ok(typeof err.stack === "string");
    return true;
  });
});

test("bad options throw synchronously with VALIDATION_ERROR", () => {
  assert.throws(() => new pm.Client({ baseUrl: url }), (err) => err.code === "VALIDATION_ERROR" && err.parameter === "apiKey");
  assert.throws(() => new pm.Client({ apiKey: key, baseUrl: "ftp://x" }), (err) => err.parameter === "baseUrl");
});

test("the package.json has what bundlers and Node need", () => {
  const manifest = JSON.parse(readFileSync(join(project, "node_modules/predmarket/package.json"), "utf8"));
  assert.equal(manifest.sideEffects, false);
  assert.deepEqual(Object.keys(manifest.exports["."].node), ["types", "default"]);
  assert.ok(manifest.files.includes("web/") && manifest.files.includes("node/"));
});

test("the README's examples run as written", () => {
  const readme = readFileSync(join(project, "node_modules/predmarket/README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length > 0, "the README has examples");
  blocks.forEach((code, i) => {
    const file = join(project, `readme-${i}.mjs`);
    writeFileSync(file, code);
    const out = execFileSync("node", [file], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, PREDMARKET_URL: url, PREDMARKET_KEY: key },
    });
    assert.match(out, /platform_a/);
  });
});
