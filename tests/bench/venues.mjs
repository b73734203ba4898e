// `cargo xtask bench venues`: `findPairs` of `predmarket/venues` over every
// market of the reference server (about 5,000 at scale 1) in Node, against
// `JSON.parse` of the same markets' JSON text, interleaved, medians.
// Env: PREDMARKET_URL, PREDMARKET_KEY (the server), PREDMARKET_PACKAGE (the
// built npm package folder).
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { PREDMARKET_URL: url, PREDMARKET_KEY: key, PREDMARKET_PACKAGE: pkg } = process.env;
if (!url || !key || !pkg) throw new Error("run through `cargo xtask bench venues` (PREDMARKET_URL, PREDMARKET_KEY, PREDMARKET_PACKAGE)");
const { findPairs } = await import(pathToFileURL(join(pkg, "venues.js")).href);

// Every market, page by page (not measured).
const markets = [];
for (let cursor = null; ;) {
  const res = await fetch(`${url}/markets?limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: { "X-API-Key": key } });
  if (!res.ok) throw new Error(`markets: HTTP ${res.status}`);
  const page = await res.json();
  markets.push(...page.markets);
  cursor = page.pagination?.has_more ? page.pagination.next_cursor : null;
  if (!cursor) break;
}
const text = JSON.stringify(markets);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (f) => {
  const t = performance.now();
  const out = f();
  return [performance.now() - t, out];
};
// One warm-up of each, then interleaved rounds.
findPairs(markets);
JSON.parse(text);
const rounds = 9;
const parse = [];
const pairs = [];
const firm = [];
let found;
let firmFound;
// The same, keeping only same and inverted pairs (the others are
// classified to be left out, and cost no result objects).
const FIRM = { relations: ["same", "inverted"] };
for (let i = 0; i < rounds; i++) {
  parse.push(time(() => JSON.parse(text))[0]);
  const [ms, out] = time(() => findPairs(markets));
  pairs.push(ms);
  found = out;
  const [msFirm, outFirm] = time(() => findPairs(markets, FIRM));
  firm.push(msFirm);
  firmFound = outFirm;
}
const counts = {};
for (const p of found) counts[p.relation] = (counts[p.relation] ?? 0) + 1;
const p = median(parse);
const f = median(pairs);
console.log(`markets: ${markets.length} (${(text.length / 1024 / 1024).toFixed(1)} MB of JSON); ${rounds} interleaved rounds, medians`);
console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}); Node ${process.versions.node}`);
console.log(`pairs found: ${found.length} ${JSON.stringify(counts)}`);
console.log("");
console.log("| what | ms | vs JSON.parse |");
console.log("|---|---:|---:|");
console.log(`| JSON.parse of the markets' JSON text | ${p.toFixed(1)} | 1.00× |`);
console.log(`| findPairs(markets) | ${f.toFixed(1)} | ${(f / p).toFixed(2)}× |`);
const r = median(firm);
console.log(`| findPairs(markets, { relations: ["same", "inverted"] }) (${firmFound.length} pairs) | ${r.toFixed(1)} | ${(r / p).toFixed(2)}× |`);
// The figures the docs quote, for `cargo xtask bench venues` to write into
// docs/figures.md: one `id<TAB>value` line each.
if (process.env.PREDMARKET_FIGURES) {
  const ratio = `${(f / p).toFixed(2)}× JSON.parse in the same run`;
  writeFileSync(process.env.PREDMARKET_FIGURES, [
    `venues-find-pairs\t${f.toFixed(1)} ms for ${markets.length} markets (${ratio})`,
    `venues-markets\t${markets.length}`,
  ].join("\n") + "\n");
}
