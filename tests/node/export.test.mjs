// Export as CSV and NDJSON: the package's functions against the vectors
// predmarket-core's tests read (tests/fixtures/rules/export.json), then
// round trips of real answers of the local server (the CSV read back by a
// reader written here, not the package's), and a pager streamed page by
// page over loopback.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { key, packageDir, url } from "./support.mjs";

const rulesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "rules");
const vectors = JSON.parse(readFileSync(join(rulesDir, "export.json"), "utf8"));

let pm;
before(async () => {
  const project = mkdtempSync(join(tmpdir(), "predmarket-export-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(packageDir, join(project, "node_modules", "predmarket"));
  writeFileSync(join(project, "entry.mjs"), 'export * from "predmarket";\n');
  pm = await import(pathToFileURL(join(project, "entry.mjs")).href);
});

const client = () => new pm.Client({ apiKey: key, baseUrl: url });

/** RFC 4180 records of a CSV text (quoted fields, doubled quotes, CRLF). */
function parseCsv(text) {
  const records = [];
  let record = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (c === '"') (quoted = false), (i += 1);
      else (field += c), (i += 1);
    } else if (c === '"' && field === "") (quoted = true), (i += 1);
    else if (c === ",") record.push(field), (field = ""), (i += 1);
    else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      (record = []), (field = ""), (i += 2);
    } else (field += c), (i += 1);
  }
  assert.equal(field, "", "the text ends with CRLF");
  assert.equal(record.length, 0, "the text ends with CRLF");
  return records;
}

/** Every leaf of a row by path: objects walked into, arrays and `{}` leaves. */
function leaves(value, prefix = "", out = new Map()) {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix === "" ? k : `${prefix}.${k}`, out);
  } else out.set(prefix, value);
  return out;
}

/** Whether a cell holds `value` (the rule's cell text, read back by type). */
function holds(cell, value, where) {
  if (value === null || value === undefined) assert.equal(cell, "", where);
  else if (typeof value === "string") assert.equal(cell, value, where);
  else if (typeof value === "number") assert.equal(Number(cell), value, where);
  else if (typeof value === "boolean") assert.equal(cell, String(value), where);
  else assert.deepEqual(JSON.parse(cell), value, where);
}

/** The data as JSON carries it (-0 is written 0, as JSON.stringify does). */
const asJson = (value) => JSON.parse(JSON.stringify(value));

/** The CSV read back holds every value of every row, under the header or in `_extra`. */
function assertRoundTrip(csv, given) {
  const rows = asJson(given);
  const [header, ...records] = parseCsv(csv);
  assert.equal(records.length, rows.length, "one record per row");
  const extraAt = header.indexOf("_extra");
  rows.forEach((row, r) => {
    const record = records[r];
    assert.equal(record.length, header.length, `record ${r} has every column`);
    const extra = extraAt >= 0 && record[extraAt] !== "" ? JSON.parse(record[extraAt]) : {};
    for (const [path, value] of leaves(row)) {
      const at = header.indexOf(path);
      // A column cut at an object above the path holds the object's JSON.
      const cut = header.findIndex((c) => c !== "_extra" && path.startsWith(`${c}.`));
      if (at >= 0) holds(record[at], value, `row ${r} ${path}`);
      else if (cut >= 0) assert.deepEqual(leaves(JSON.parse(record[cut]), header[cut]).get(path), value, `row ${r} ${path} in ${header[cut]}`);
      else {
        // Outside the header: under `_extra`, at the path or an ancestor.
        const parent = Object.keys(extra).find((p) => path === p || path.startsWith(`${p}.`));
        assert.ok(parent !== undefined, `row ${r}: ${path} is neither a column nor in _extra`);
        const sub = path === parent ? extra[parent] : leaves(extra[parent], parent).get(path);
        assert.deepEqual(sub, value ?? null, `row ${r} ${path} in _extra`);
      }
    }
  });
}

test("toCsv, toNdjson, exportRows and exportColumns follow the shared vectors", () => {
  assert.ok(vectors.cases.length >= 5);
  for (const c of vectors.cases) {
    assert.deepEqual(pm.exportRows(c.input), c.rows, `${c.name}: rows`);
    if (c.columns) assert.deepEqual(pm.exportColumns(c.rows), c.columns, `${c.name}: columns`);
    const options = { ...(c.spreadsheet_safe === undefined ? {} : { spreadsheetSafe: c.spreadsheet_safe }), ...(c.given_columns ? { columns: c.given_columns } : {}) };
    assert.equal(pm.toCsv(c.input, options), c.csv, `${c.name}: csv`);
    if (c.ndjson !== undefined) assert.equal(pm.toNdjson(c.input), c.ndjson, `${c.name}: ndjson`);
  }
  for (const [n, text] of vectors.numbers) assert.equal(pm.toCsv([{ v: n }]), `v\r\n${text}\r\n`, `${n}`);
});

test("the chunked forms of an answer or an array are the whole texts", async () => {
  for (const c of vectors.cases) {
    const options = { ...(c.spreadsheet_safe === undefined ? {} : { spreadsheetSafe: c.spreadsheet_safe }), ...(c.given_columns ? { columns: c.given_columns } : {}) };
    let csv = "";
    for await (const chunk of pm.csvChunks(c.input, options)) csv += chunk;
    assert.equal(csv, c.csv, c.name);
    let ndjson = "";
    for await (const chunk of pm.ndjsonChunks(c.input)) ndjson += chunk;
    assert.equal(ndjson, pm.toNdjson(c.input), c.name);
  }
});

test("the local server's markets, order book and price history round-trip through CSV and NDJSON", async () => {
  const c = client();
  const page = await c.listMarkets({ limit: 60 });
  assert.equal(page.markets.length, 60);
  const answers = [page];
  const book = await c.getOrderbook(page.markets[0].id);
  answers.push(book);
  answers.push(await c.getPriceHistory({ market_ids: [page.markets[0].id, page.markets[1].id] }));
  for (const answer of answers) {
    const rows = pm.exportRows(answer);
    assert.ok(rows.length > 0);
    assertRoundTrip(pm.toCsv(answer), rows);
    const lines = pm.toNdjson(answer).split("\n");
    assert.equal(lines.pop(), "", "NDJSON ends with a newline");
    assert.deepEqual(lines.map((l) => JSON.parse(l)), asJson(rows));
  }
  // The book: one row per level, every level there.
  const levels = ["yes", "no"].flatMap((o) => ["bids", "asks"].flatMap((s) => (book.data[o]?.[s] ?? []).map((l) => [o, s, l.price, l.size])));
  assert.deepEqual(
    pm.exportRows(book).map((r) => [r.outcome, r.side, r.price, r.size]),
    levels,
  );
  // A header of one's own: the rest goes to `_extra`, nothing is lost.
  assertRoundTrip(pm.toCsv(page, { columns: ["id", "title", "current_prices"] }), page.markets);
});

test("a pager streams as CSV page by page, and the text round-trips", async () => {
  const c = client();
  const all = [];
  for await (const m of c.markets({ limit: 50 }, { maxItems: 120 })) all.push(m);
  assert.equal(all.length, 120);

  const pager = c.markets({ limit: 50 }, { maxItems: 120 });
  const chunks = [];
  for await (const chunk of pm.csvChunks(pager)) {
    // A chunk comes as soon as its page: no whole-list buffering.
    assert.equal(pager.pages, chunks.length + 1, "one page fetched per chunk");
    chunks.push(chunk);
  }
  assert.equal(chunks.length, 3);
  const csv = chunks.join("");
  assert.equal(parseCsv(csv)[0].at(-1), "_extra", "a streamed header ends with _extra");
  assertRoundTrip(csv, all);

  let ndjson = "";
  for await (const chunk of pm.ndjsonChunks(c.markets({ limit: 50 }, { maxItems: 120 }))) ndjson += chunk;
  assert.deepEqual(ndjson.trimEnd().split("\n").map((l) => JSON.parse(l)), asJson(all));
});

test("exportStream is a ReadableStream; cancelling it stops the paging", async () => {
  const pager = client().markets({ limit: 50 });
  const stream = pm.exportStream(pager, { format: "ndjson" });
  const reader = stream.getReader();
  const first = await reader.read();
  assert.equal(first.done, false);
  assert.equal(first.value.trimEnd().split("\n").length, 50);
  await reader.cancel();
  const pages = pager.pages;
  assert.ok(pages <= 2, `pages after cancel: ${pages}`);
  assert.throws(() => pm.exportStream([], { format: "xml" }), TypeError);
  assert.throws(() => pm.toCsv([], { columns: "id" }), TypeError);

  // Bytes for a file or a Response.
  const bytes = pm.exportStream([{ a: 1 }], { format: "csv" }).pipeThrough(new TextEncoderStream());
  assert.equal(await new Response(bytes).text(), "a\r\n1\r\n");
});

test("formulas in real titles are defused by default; spreadsheetSafe: false opts out", async () => {
  const rows = [{ id: "m1", title: "=cmd|' /C calc'!A0" }, { id: "m2", title: "-1 or more?" }];
  const safe = parseCsv(pm.toCsv(rows));
  assert.deepEqual(safe.slice(1).map((r) => r[1]), ["'=cmd|' /C calc'!A0", "'-1 or more?"]);
  let streamed = "";
  for await (const chunk of pm.csvChunks(rows)) streamed += chunk;
  assert.equal(streamed, pm.toCsv(rows));
  const exported = await new Response(pm.exportStream(rows, { format: "csv" }).pipeThrough(new TextEncoderStream())).text();
  assert.equal(exported, pm.toCsv(rows));
  const plain = parseCsv(pm.toCsv(rows, { spreadsheetSafe: false }));
  assert.deepEqual(plain.slice(1).map((r) => r[1]), rows.map((r) => r.title));
});
