// `predmarket/venues`, imported through the package's exports map as a
// user would (ESM and CJS): cross-platform equivalence, fee models and
// net arbitrage on worked examples and on markets the server sends.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { key, packageDir, url } from "./support.mjs";

let venues;
let project;

before(async () => {
  project = mkdtempSync(join(tmpdir(), "predmarket-venues-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"), "dir");
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket/venues";\n');
  venues = await import(pathToFileURL(join(project, "entry.mjs")).href);
});

const CLOSE = "2026-03-03T00:00:00Z";
const market = (id, platform, title, extra = {}) => ({
  id, platform, title, trading_end_at: CLOSE, resolution_source: "Exchange reference rate", ...extra,
});

test("ESM import and CJS require give the same four functions", () => {
  const cjs = createRequire(join(project, "entry.cjs"))("predmarket/venues");
  for (const name of ["classifyPair", "findPairs", "feeModel", "netArbitrage"]) {
    assert.equal(typeof venues[name], "function", name);
    assert.equal(typeof cjs[name], "function", `require: ${name}`);
  }
  const a = market("a", "platform_a", "Bitcoin above $95,000 on March 3?");
  assert.deepEqual(cjs.classifyPair(a, a).relation, venues.classifyPair(a, a).relation);
});

test("classifyPair: same, inverted, and look-alikes with another date or threshold", () => {
  const a = market("a", "platform_a", "Bitcoin above $95,000 on March 3?");
  const same = venues.classifyPair(a, market("b", "platform_c", "Will BTC close above $95k on Mar 3, 2026?"));
  assert.equal(same.relation, "same");
  assert.equal(same.outcome_mapping, "yes_yes");
  assert.deepEqual(same.disagreements, []);
  const threshold = same.reasons.find((r) => r.field === "threshold");
  assert.deepEqual([threshold.a, threshold.b, threshold.finding], ["above $95000", "above $95000", "agrees"]);

  const inverted = venues.classifyPair(a, market("b", "platform_c", "Bitcoin at or below $95,000 on March 3, 2026?"));
  assert.equal(inverted.relation, "inverted");
  assert.equal(inverted.outcome_mapping, "yes_no");

  const otherDay = venues.classifyPair(a, market("b", "platform_c", "Bitcoin above $95,000 on March 4?", { trading_end_at: "2026-03-04T00:00:00Z" }));
  assert.equal(otherDay.relation, "different");
  assert.equal(otherDay.reasons.find((r) => r.field === "date").finding, "conflicts");
  const ranges = venues.classifyPair(
    market("p", "platform_a", "CPI between 2.5% and 3.0% for March 2026?"),
    market("q", "platform_c", "CPI between 3.0% and 3.5% for March 2026?"),
  );
  assert.equal(ranges.relation, "different");
  assert.equal(venues.classifyPair(a, market("b", "platform_c", "Bitcoin price on March 3?")).relation, "unsure");
  // Unix-second times and numeric ids, as some platforms send them.
  const numeric = venues.classifyPair({ ...a, id: 7, trading_end_at: 1772496000 }, a);
  assert.equal(numeric.relation, "same");
});

test("findPairs compares only candidates and returns the objects given", () => {
  const markets = [
    market("a1", "platform_a", "Bitcoin above $95,000 on March 3?"),
    market("a2", "platform_a", "Bitcoin above $100,000 on March 3?"),
    market("c1", "platform_c", "Will BTC close above $95k on Mar 3, 2026?"),
    market("c2", "platform_c", "Bitcoin above $95,000 on March 9?", { trading_end_at: "2026-03-09T00:00:00Z" }),
  ];
  const pairs = venues.findPairs(markets);
  assert.deepEqual(pairs.map((p) => [p.a.id, p.b.id, p.relation]), [["a1", "c1", "same"], ["a2", "c1", "subset"]]);
  assert.equal(pairs[0].a, markets[0], "the market objects themselves");
  assert.deepEqual(venues.findPairs(markets), pairs, "deterministic");
  const all = venues.findPairs(markets, { samePlatform: true, includeDifferent: true });
  assert.ok(all.some((p) => p.aIndex === 0 && p.bIndex === 1));
  assert.throws(() => venues.findPairs("x"), TypeError);
  assert.throws(() => venues.classifyPair(null, markets[0]), TypeError);
});

test("findPairs keeps only the relations asked for", () => {
  const markets = [
    market("a1", "platform_a", "Bitcoin above $95,000 on March 3?"),
    market("a2", "platform_a", "Bitcoin above $100,000 on March 3?"),
    market("c1", "platform_c", "Will BTC close above $95k on Mar 3, 2026?"),
    market("c3", "platform_c", "Will BTC close at or below $95k on Mar 3, 2026?"),
    market("c2", "platform_c", "Bitcoin above $95,000 on March 9?", { trading_end_at: "2026-03-09T00:00:00Z" }),
  ];
  const all = venues.findPairs(markets, { samePlatform: true, includeDifferent: true });
  const relations = new Set(all.map((p) => p.relation));
  assert.ok(relations.has("same") && relations.has("inverted") && relations.has("subset"), [...relations].join());
  const firm = venues.findPairs(markets, { relations: ["same", "inverted"], samePlatform: true });
  assert.deepEqual(
    firm.map((p) => [p.aIndex, p.bIndex, p.relation]),
    all.filter((p) => p.relation === "same" || p.relation === "inverted").map((p) => [p.aIndex, p.bIndex, p.relation]),
  );
  assert.ok(firm.length >= 2);
  // `different` is kept when named, whatever `includeDifferent` says.
  const different = venues.findPairs(markets, { relations: ["different"], samePlatform: true });
  assert.deepEqual(different.map((p) => p.relation), all.filter((p) => p.relation === "different").map(() => "different"));
  assert.deepEqual(venues.findPairs(markets, { relations: [] }), []);
  // Reasons as for any pair, read when asked for.
  assert.ok(firm[0].reasons.length > 0);
  assert.throws(() => venues.findPairs(markets, { relations: ["equal"] }), TypeError);
  assert.throws(() => venues.findPairs(markets, { relations: "same" }), TypeError);
});

// The markets cross into the matcher's wasm as their text fields back to
// back with their lengths (crates/venues/src/markets_in.rs), not JSON:
// text with quotes, backslashes, NULs, control characters, separators
// of every kind and emoji survives as it is, and a market full of them
// shifts nothing in the markets after it. A lone surrogate reaches the
// wasm as U+FFFD, as wasm-bindgen hands over any string (the JSON path
// before refused the whole call).
test("any text a market carries crosses as it is", () => {
  const odd = 'q"uote\\back\u0000nul\u0001\u001e\u001f|,;\t\n🦀 e\u0301 \uFFFD \u{10FFFF}';
  const a = market("a", "platform_a", "Bitcoin above $95,000 on March 3?", { resolution_source: `Source ${odd}` });
  const b = market("b", "platform_c", "Will BTC close above $95k on Mar 3, 2026?", { resolution_source: "Another" });
  const shown = (x, y) => venues.classifyPair(x, y).reasons.find((r) => r.field === "resolution_source");
  const source = shown(a, b);
  assert.equal(source.a, a.resolution_source);
  assert.equal(source.b, "Another");
  assert.equal(shown({ ...a, resolution_source: "X\ud800Y\udc00" }, b).a, "X\uFFFDY\uFFFD");
  // A market with odd text in every field, then the two: the pair is
  // found where it was, at the same indices.
  const full = {
    id: odd, platform: `p${odd}`, title: `🚀 ${odd} 🚀`, market_type: odd, event_name: odd, trading_end_at: odd,
    resolution_date: odd, resolution_source: odd, resolution_criteria: odd,
    outcomes: [{ id: odd, name: odd }, { id: 7, name: null }, null], current_prices: { [odd]: 1, Yes: 2 },
  };
  const clean = { ...a, resolution_source: b.resolution_source };
  const expected = venues.findPairs([clean, b]).map((p) => [p.aIndex + 1, p.bIndex + 1, p.relation]);
  assert.deepEqual(expected, [[1, 2, "same"]]);
  const got = venues.findPairs([full, clean, b]).filter((p) => p.aIndex > 0).map((p) => [p.aIndex, p.bIndex, p.relation]);
  assert.deepEqual(got, expected);
  assert.deepEqual(venues.classifyPair(full, full).relation, venues.classifyPair(full, { ...full }).relation);
  // A field that is not text is refused by name.
  assert.throws(() => venues.findPairs([clean, { ...b, title: 5 }]), /markets\[1\]\.title must be a string/);
});

test("fee models and net arbitrage: a worked example", () => {
  assert.deepEqual(venues.feeModel({ id: "x", platform: "platform_b" }), { kind: "probability_weighted", rate: 0.07, source: "default" });
  assert.equal(venues.feeModel({ id: "x", platform: "platform_b", fee_rate: 0.035 }).source, "market");
  assert.deepEqual(venues.feeModel({ id: "x", platform: "platform_c", fee_rate: "0.015" }), { kind: "notional", rate: 0.015, source: "market" });
  assert.equal(venues.feeModel({ id: "x", platform: "unknown_platform" }).source, "unknown");
  const book = (yes, no) => ({
    timestamp: "2026-03-01T12:00:00Z",
    yes: { bids: [], asks: [{ price: yes, size: 10 }] },
    no: { bids: [], asks: [{ price: no, size: 10 }] },
  });
  const a = { market: market("a", "platform_c", "Bitcoin above $95,000 on March 3?"), orderbook: book(0.40, 0.62) };
  const b = { market: market("b", "platform_e", "Will BTC close above $95k on Mar 3, 2026?"), orderbook: { data: book(0.58, 0.55) } };
  const { classification, gap } = venues.netArbitrage(a, b, { size: 10, now: new Date("2026-03-01T12:00:07Z") });
  assert.equal(classification.relation, "same");
  // YES on a: 10 × 0.40 = 4.00, fee 2 % of notional = 0.08.
  // NO on b: 10 × 0.55 = 5.50, no fee on platform_e. Payout 10.
  // Net: 10 − 9.50 − 0.08 = 0.42.
  assert.deepEqual(gap.legs.map((l) => l.outcome), ["yes", "no"]);
  assert.ok(Math.abs(gap.net_profit - 0.42) < 1e-9, String(gap.net_profit));
  assert.ok(Math.abs(gap.fees - 0.08) < 1e-9);
  assert.deepEqual(gap.legs.map((l) => l.quote_age_ms), [7000, 7000]);
  assert.equal(gap.conditional, false);
  // Overridden fees of 10 % of notional erase it: 10 − 9.50 − 0.95 < 0.
  const fee = { kind: "notional", rate: 0.1 };
  const taxed = venues.netArbitrage({ ...a, fee }, { ...b, fee }, { size: 10, now: null }).gap;
  assert.ok(Math.abs(taxed.net_profit - -0.45) < 1e-9, String(taxed.net_profit));
  assert.equal(taxed.legs[0].quote_age_ms, null);
  assert.throws(() => venues.netArbitrage(a, b, { size: 0 }), TypeError);
  // Another settlement source is a veto: two questions, and no gap at all
  // (buying YES on one and NO on the other is a bet on the sources).
  const other = { ...b, market: { ...b.market, resolution_source: "Another exchange" } };
  const vetoed = venues.netArbitrage(a, other, { size: 10 });
  assert.equal(vetoed.classification.relation, "different");
  assert.deepEqual(vetoed.classification.vetoes, ["settlement_source_differs"]);
  assert.ok(vetoed.classification.reasons.some((r) => r.rule === "settlement_source_differs" && r.finding === "conflicts"));
  assert.equal(vetoed.gap, null);
  // A subset is no arbitrage either.
  const wider = { ...b, market: { ...b.market, title: "Will BTC close above $90k on Mar 3, 2026?" } };
  const nested = venues.netArbitrage(a, wider, { size: 10 });
  assert.equal(nested.classification.relation, "subset");
  assert.equal(nested.gap, null);
});

// A market, its book and a fee model cross into the fee wasm as texts
// and numbers, not JSON (crates/venues-fees/src/side_in.rs): what the
// JSON path read, this one reads the same, level for level.
test("netArbitrage reads books as the models' decoder did", () => {
  const a = market("a", "platform_c", "Bitcoin above $95,000 on March 3?");
  const b = market("b", "platform_e", "Will BTC close above $95k on Mar 3, 2026?");
  const level = (price, size) => ({ price, size });
  const book = (yesAsks, noAsks, extra = {}) => ({ timestamp: "2026-03-01T12:00:00Z", yes: { bids: [], asks: yesAsks }, no: { bids: [], asks: noAsks }, ...extra });
  const options = { size: 10, now: new Date("2026-03-01T12:00:07Z") };
  const gap = (bookA, bookB, fees = {}) => venues.netArbitrage({ market: a, orderbook: bookA, ...fees }, { market: b, orderbook: bookB }, options).gap;
  const clean = gap(book([level(0.4, 10)], [level(0.62, 10)]), book([level(0.58, 10)], [level(0.55, 10)]));
  assert.ok(Math.abs(clean.net_profit - 0.42) < 1e-9, String(clean.net_profit));
  // NaN and infinite prices and sizes, and levels that are not levels,
  // are dropped (JSON wrote them as null); numeric strings are numbers;
  // a [price, size] pair is a level.
  const odd = book(
    [level(NaN, 10), level(0.1, Infinity), level("x", 10), null, [0.2], level(" 0.40 ", "10")],
    [level(-Infinity, 5), ["0.62", 10], level("0x10", 1), level("", 1)],
  );
  assert.deepEqual(gap(odd, book([level(0.58, 10)], [level(0.55, 10)])), clean);
  // A Unix-seconds timestamp dates the quote as its ISO text does.
  const unix = gap(book([level(0.4, 10)], [level(0.62, 10)], { timestamp: 1772366400 }), book([level(0.58, 10)], [level(0.55, 10)]));
  assert.deepEqual(unix.legs.map((l) => l.quote_age_ms), [7000, 7000]);
  // A side whose depth is not a number is no side: nothing to buy there.
  const noSides = book([level(0.4, 10)], [level(0.62, 10)]);
  noSides.yes.depth = true;
  noSides.no.depth = {};
  assert.equal(gap(noSides, book([], [])), null);
  // Empty books: no gap; huge sizes fill what the books hold.
  assert.equal(gap(book([], []), book([], [])), null);
  const huge = venues.netArbitrage({ market: a, orderbook: book([level(0.4, 1e15)], [level(0.62, 1e15)]) }, { market: b, orderbook: book([level(0.58, 1e15)], [level(0.55, 1e15)]) }, { size: 1e16, now: null }).gap;
  assert.equal(huge.size, 1e15);
  assert.equal(huge.partial, true);
  assert.ok(Math.abs(huge.net_profit - 1e15 * 0.042) < 1e3, String(huge.net_profit));
  assert.throws(() => venues.netArbitrage({ market: a, orderbook: book([], []) }, { market: b, orderbook: book([], []) }, { size: Infinity }), TypeError);
  // Fee models are read as before: a kind by its name, a number for a
  // rate. One difference: a model given as an array (`[kind, rate]`,
  // which serde's decoder read field by field) is refused; the documented
  // shape is `{ kind, rate }`. (This test, less that case, passes on the
  // JSON path's package too.)
  const fee = { kind: "notional", rate: 0.1, source: "override" };
  assert.ok(Math.abs(gap(book([level(0.4, 10)], [level(0.62, 10)]), book([level(0.58, 10)], [level(0.55, 10)]), { fee }).fees - 0.4) < 1e-9);
  for (const bad of [{ kind: "flat", rate: 0.1 }, { kind: "notional", rate: NaN }, { kind: "notional", rate: "0.1" }, { kind: "notional", rate: 0.1, source: "mine" }, [fee.kind, fee.rate]]) {
    assert.throws(() => gap(book([level(0.4, 10)], [level(0.62, 10)]), book([], []), { fee: bad }), TypeError, JSON.stringify(bad));
  }
  assert.throws(() => venues.feeModel({ id: "x" }, { kind: "flat", rate: 0 }), TypeError);
  assert.throws(() => venues.feeModel({ id: "x", platform: 7 }), TypeError);
  assert.deepEqual(venues.feeModel({ id: "x", platform: "platform_c", fee_rate: "bad", trading_fee: 0.03 }), { kind: "notional", rate: 0.03, source: "market" });
});

test("on served markets: pairs across platforms, priced net of fees from real books", async () => {
  const get = async (path) => {
    const res = await fetch(`${url}${path}`, { headers: { "X-API-Key": key } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  // A topic search, as a user looking for one question everywhere would.
  const { markets } = await get("/markets?query=inflation&limit=250");
  assert.ok(markets.length >= 10, `${markets.length} markets`);
  const pairs = venues.findPairs(markets);
  for (const p of pairs) {
    assert.notEqual(p.a.platform, p.b.platform);
    assert.notEqual(p.relation, "different");
    assert.ok(p.reasons.length > 0);
  }
  const same = pairs.filter((p) => p.relation === "same");
  assert.ok(same.length > 0 && pairs.some((p) => p.relation === "inverted"), JSON.stringify(pairs.map((p) => [p.a.title, p.b.title, p.relation])));
  // The net-of-fees half needs two open markets (books of closed ones are
  // empty): asked for, not hoped for among the first answer.
  const { markets: openMarkets } = await get("/markets?query=inflation&status=open&limit=250");
  const open = venues.findPairs(openMarkets, { relations: ["same"] })[0];
  assert.ok(open, `a pair asking the same question among the ${openMarkets.length} open inflation markets`);
  assert.deepEqual([open.a.status, open.b.status], ["open", "open"]);
  const [ba, bb] = await Promise.all([get(`/markets/${encodeURIComponent(open.a.id)}/orderbook`), get(`/markets/${encodeURIComponent(open.b.id)}/orderbook`)]);
  const { classification, gap } = venues.netArbitrage({ market: open.a, orderbook: ba }, { market: open.b, orderbook: bb }, { size: 50 });
  assert.equal(classification.relation, "same");
  assert.ok(gap, "both books can fill something");
  assert.ok(Math.abs(gap.net_profit - (gap.payout - gap.cost - gap.fees)) < 1e-9);
  for (const leg of gap.legs) assert.ok(Number.isInteger(leg.quote_age_ms) && leg.quote_age_ms >= 0);
  assert.equal(gap.conditional, classification.disagreements.length > 0);
});

// The pairs of `tests/fixtures/equivalence`, written in the shapes the
// public service documents (outcomes as `{ id, name }`, prices keyed by
// outcome, Unix or ISO times), through the entry as a user calls it: the
// same bar the core's own test holds the classifier to, so what the entry
// passes to its wasm loses nothing the classifier reads.
test("classifyPair on the public platforms' wordings and shapes meets the bar", () => {
  const dir = join(fileURLToPath(new URL(".", import.meta.url)), "..", "fixtures", "equivalence");
  const CLAIMS = ["same", "inverted", "subset", "superset"];
  for (const name of ["real-world.json", "held-out.json"]) {
    const { pairs } = JSON.parse(readFileSync(join(dir, name), "utf8"));
    const got = pairs.map((p) => ({ ...p, got: venues.classifyPair(p.a, p.b).relation }));
    const precision = (r) => got.filter((p) => p.got === r && p.truth === r).length / Math.max(1, got.filter((p) => p.got === r).length);
    const claimed = got.filter((p) => CLAIMS.includes(p.truth));
    const recall = claimed.filter((p) => p.got === p.truth).length / claimed.length;
    const wrong = got.filter((p) => p.got !== p.truth).map((p) => `${p.id}: ${p.truth} called ${p.got}`);
    assert.ok(got.some((p) => p.got === "same") && got.some((p) => p.got === "inverted"), `${name}: ${wrong.join("; ")}`);
    assert.ok(precision("same") >= 0.95 && precision("inverted") >= 0.95, `${name} precision: ${wrong.join("; ")}`);
    // The core's floor (crates/core/tests/equivalence_real_world.rs): 0.7
    // since a `same` is earned (docs/benchmarks.md, "Third round").
    assert.ok(recall >= 0.7, `${name} recall ${recall.toFixed(2)}: ${wrong.join("; ")}`);
    assert.deepEqual(got.filter((p) => p.kind.startsWith("lookalike") && p.got === "same").map((p) => p.id), [], `${name}: look-alikes called same`);
  }
});

// The second labelled sets (dev-v2.json, test-v2.json, both development
// data now) through the entry: each meets the core's bar (no other
// relation called `same` or `inverted`; the recall floor of
// crates/core/tests/equivalence_v2.rs, 0.65 of each since a `same` is
// earned); every reason names its rule and every veto is explained.
test("classifyPair on the second labelled sets meets the core's bar", () => {
  const dir = join(fileURLToPath(new URL(".", import.meta.url)), "..", "fixtures", "equivalence");
  for (const name of ["dev-v2.json", "test-v2.json"]) {
    const { pairs } = JSON.parse(readFileSync(join(dir, name), "utf8"));
    const got = pairs.map((p) => ({ ...p, verdict: venues.classifyPair(p.a, p.b) }));
    for (const r of ["same", "inverted"]) {
      const wrong = got.filter((p) => p.verdict.relation === r && p.truth !== r).map((p) => `${p.id}: ${p.truth} called ${r}`);
      assert.deepEqual(wrong, [], `${name}: other relations called ${r}`);
      const labelled = got.filter((p) => p.truth === r);
      const recall = labelled.filter((p) => p.verdict.relation === r).length / labelled.length;
      assert.ok(recall >= 0.65, `${name}: recall of ${r} ${recall.toFixed(2)}`);
    }
    // Every reason names its rule; every veto has a reason of its rule.
    for (const { id, verdict } of got) {
      assert.ok(verdict.reasons.every((r) => typeof r.rule === "string" && r.rule.length > 0), id);
      for (const v of verdict.vetoes) assert.ok(verdict.reasons.some((r) => r.rule === v), `${id}: ${v}`);
      if (verdict.vetoes.length > 0) assert.equal(verdict.relation, "different", id);
    }
  }
});
