// @ts-check
// Lists as CSV or NDJSON: plain functions, no client needed. The rule is
// predmarket-core's `export` module (the demo's downloads run it in Rust);
// it is written here in JS rather than compiled into the wasm, whose size
// budget it would not fit, and held to the core by the vectors of
// tests/fixtures/rules/export.json, which both test suites read. The
// module doc of crates/core/src/export.rs states the rule; in short:
// rows are an answer's list (one row per level for an order book), objects
// flatten by path (keys in byte order), arrays stay one JSON cell, CSV
// quotes per RFC 4180 with CRLF records, NDJSON is one compact JSON a line.

const LIST_FIELDS = ["data", "markets", "events", "series", "trades", "games", "futures", "awards", "platforms"];
const EXTRA_COLUMN = "_extra";
/** Items read before a stream of plain items fixes its header. */
const HEADER_SAMPLE = 100;

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
/** @param {object} o */
const own = (o, /** @type {string} */ k) => Object.prototype.hasOwnProperty.call(o, k);
/** Keys in byte order (UTF-16 code units order like byte order for the BMP; the service's keys are ASCII). @param {object} o */
const sortedKeys = (o) => Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** @param {unknown} v */
function isBook(v) {
  return isObject(v) && ["yes", "no"].some((o) => {
    const b = v[o];
    return isObject(b) && (own(b, "bids") || own(b, "asks"));
  });
}

/** @param {Record<string, unknown>} book */
function bookRows(book) {
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  for (const outcome of ["yes", "no"]) {
    for (const side of ["bids", "asks"]) {
      const b = book[outcome];
      const levels = isObject(b) ? b[side] : undefined;
      if (!Array.isArray(levels)) continue;
      for (const level of levels) {
        rows.push({
          market_id: book.market_id ?? null,
          platform: book.platform ?? null,
          outcome,
          side,
          price: isObject(level) ? level.price ?? null : null,
          size: isObject(level) ? level.size ?? null : null,
        });
      }
    }
  }
  return rows;
}

/**
 * The rows of an answer: its list, one row per price level of an order book, or the answer's one object.
 * @param {unknown} answer
 * @returns {unknown[]}
 */
export function exportRows(answer) {
  if (Array.isArray(answer)) return answer;
  if (!isObject(answer)) return [answer];
  if (isBook(answer.data)) return bookRows(/** @type {Record<string, unknown>} */ (answer.data));
  if (isBook(answer)) return bookRows(answer);
  for (const name of LIST_FIELDS) if (own(answer, name) && Array.isArray(answer[name])) return /** @type {unknown[]} */ (answer[name]);
  return isObject(answer.data) ? [answer.data] : [answer];
}

/** @param {unknown} row */
const asObject = (row) => (isObject(row) ? row : { value: row });
/** @param {string} prefix @param {string} key */
const join = (prefix, key) => (prefix === "" ? key : `${prefix}.${key}`);

/** @param {unknown} value @param {string} prefix @param {string[]} out */
function leafPaths(value, prefix, out) {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const key of sortedKeys(value)) leafPaths(value[key], join(prefix, key), out);
  } else out.push(prefix);
}

/**
 * The CSV header of rows: every path, first seen first.
 * @param {Iterable<unknown>} rows
 * @returns {string[]}
 */
export function exportColumns(rows) {
  const seen = new Set();
  /** @type {string[]} */
  const out = [];
  for (const row of rows) {
    /** @type {string[]} */
    const paths = [];
    const object = asObject(row);
    for (const key of sortedKeys(object)) leafPaths(object[key], key, paths);
    for (const p of paths) if (!seen.has(p)) (seen.add(p), out.push(p));
  }
  return out;
}

/** `String(n)`, the same for -0 as for 0. @param {number} n */
const numberText = (n) => (Object.is(n, -0) ? "0" : String(n));

/**
 * Compact JSON with keys in byte order.
 * @param {unknown} value
 * @returns {string}
 */
function json(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return Number.isFinite(value) ? numberText(value) : "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(json).join(",")}]`;
  if (isObject(value)) {
    const parts = [];
    for (const key of sortedKeys(value)) if (value[key] !== undefined) parts.push(`${JSON.stringify(key)}:${json(value[key])}`);
    return `{${parts.join(",")}}`;
  }
  return "null";
}

/** @param {unknown} value */
function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return String(value);
  return json(value);
}

/** @param {string} text */
function field(text) {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** @param {unknown} value @param {boolean} safe */
function csvCell(value, safe) {
  const text = cellText(value);
  return field(safe && typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
}

/** @param {string[]} fields */
const record = (fields) => `${fields.join(",")}\r\n`;

/**
 * The header record: column names are data keys, so spreadsheet-safe
 * applies to them as to cells.
 * @param {string[]} columns @param {boolean} extra @param {boolean} safe
 */
const header = (columns, extra, safe) => record([...columns.map((c) => csvCell(c, safe)), ...(extra ? [EXTRA_COLUMN] : [])]);

/**
 * A header: its columns and the paths above them (walked into, not cut).
 * @param {string[]} columns
 */
function plan(columns) {
  const wanted = new Set(columns);
  const above = new Set();
  for (const c of columns) {
    let end = c.length;
    for (let dot = c.lastIndexOf(".", end - 1); dot >= 0; dot = c.lastIndexOf(".", end - 1)) {
      above.add(c.slice(0, dot));
      end = dot;
    }
  }
  return { columns, wanted, above };
}

/**
 * @param {unknown} row
 * @param {ReturnType<typeof plan>} p
 * @param {boolean} extra
 * @param {boolean} safe
 */
function rowRecord(row, p, extra, safe) {
  /** @type {Map<string, unknown>} */
  const found = new Map();
  // No prototype: a path named `__proto__` is data.
  /** @type {Record<string, unknown>} */
  const rest = Object.create(null);
  /** @param {unknown} value @param {string} path */
  const walk = (value, path) => {
    if (isObject(value) && Object.keys(value).length > 0 && p.above.has(path)) {
      for (const key of sortedKeys(value)) walk(value[key], join(path, key));
    } else if (p.wanted.has(path)) found.set(path, value);
    else rest[path] = value ?? null;
  };
  const object = asObject(row);
  for (const key of sortedKeys(object)) walk(object[key], key);
  const fields = p.columns.map((c) => csvCell(found.get(c) ?? null, safe));
  if (extra) fields.push(Object.keys(rest).length === 0 ? "" : field(json(rest)));
  return record(fields);
}

/** @param {{ columns?: string[], spreadsheetSafe?: boolean } | undefined} options */
function checked(options) {
  const columns = options?.columns;
  if (columns !== undefined && !(Array.isArray(columns) && columns.every((c) => typeof c === "string"))) {
    throw new TypeError("columns: an array of paths (strings) expected");
  }
  // Safe unless the caller says otherwise (the core's rule).
  return { columns, safe: options?.spreadsheetSafe !== false };
}

/**
 * An answer (or an array of rows) as CSV.
 * @param {unknown} input
 * @param {{ columns?: string[], spreadsheetSafe?: boolean }} [options]
 */
export function toCsv(input, options) {
  const { columns, safe } = checked(options);
  const rows = exportRows(input);
  const p = plan(columns ?? exportColumns(rows));
  const extra = columns !== undefined;
  let out = header(p.columns, extra, safe);
  for (const row of rows) out += rowRecord(row, p, extra, safe);
  return out;
}

/**
 * An answer (or an array of rows) as NDJSON.
 * @param {unknown} input
 */
export function toNdjson(input) {
  return exportRows(input).map((row) => `${json(row)}\n`).join("");
}

/**
 * Batches of rows from a source: a pager's pages (`nextPage()`), an async
 * or sync iterable's items in batches, or an answer's rows at once.
 * @param {unknown} source
 * @returns {AsyncGenerator<unknown[], void, undefined>}
 */
async function* batches(source) {
  const s = /** @type {any} */ (source);
  if (!streamed(source)) {
    yield exportRows(source);
  } else if (typeof s.nextPage === "function") {
    for (let page = await s.nextPage(); page !== null && page !== undefined; page = await s.nextPage()) {
      yield page.items;
    }
  } else {
    /** @type {unknown[]} */
    let batch = [];
    for await (const item of s) {
      batch.push(item);
      if (batch.length >= HEADER_SAMPLE) (yield batch, (batch = []));
    }
    if (batch.length > 0) yield batch;
  }
}

/** Whether the source comes in parts (a pager, an iterable but an array). @param {unknown} source */
function streamed(source) {
  const s = /** @type {any} */ (source);
  if (s === null || typeof s !== "object" || Array.isArray(s)) return false;
  return typeof s.nextPage === "function" || typeof s[Symbol.asyncIterator] === "function" || typeof s[Symbol.iterator] === "function";
}

/**
 * CSV text in chunks as the source delivers it: one chunk per page of a
 * pager (the header with the first), nothing buffered beyond a page.
 * Without `columns` the header is the first page's paths and ends with
 * `_extra`, which holds what a later page has outside it.
 * @param {unknown} source
 * @param {{ columns?: string[], spreadsheetSafe?: boolean }} [options]
 * @returns {AsyncGenerator<string, void, undefined>}
 */
export async function* csvChunks(source, options) {
  const { columns, safe } = checked(options);
  // A header fixed before the whole source is seen needs `_extra`.
  const extra = columns !== undefined || streamed(source);
  /** @type {ReturnType<typeof plan> | undefined} */
  let p;
  for await (const rows of batches(source)) {
    let chunk = "";
    // An empty first page fixes no header.
    if (p === undefined && rows.length === 0 && columns === undefined) continue;
    if (p === undefined) {
      p = plan(columns ?? exportColumns(rows));
      chunk = header(p.columns, extra, safe);
    }
    for (const row of rows) chunk += rowRecord(row, p, extra, safe);
    if (chunk !== "") yield chunk;
  }
  if (p === undefined) yield header(columns ?? [], extra, safe);
}

/**
 * NDJSON text in chunks: one chunk per page of a pager.
 * @param {unknown} source
 * @returns {AsyncGenerator<string, void, undefined>}
 */
export async function* ndjsonChunks(source) {
  for await (const rows of batches(source)) {
    if (rows.length > 0) yield rows.map((row) => `${json(row)}\n`).join("");
  }
}

/**
 * The chunks of `csvChunks` or `ndjsonChunks` as a `ReadableStream` of
 * strings; cancelling it stops the paging.
 * @param {unknown} source
 * @param {{ format: "csv" | "ndjson", columns?: string[], spreadsheetSafe?: boolean }} options
 * @returns {ReadableStream<string>}
 */
export function exportStream(source, options) {
  const format = options?.format;
  if (format !== "csv" && format !== "ndjson") throw new TypeError('format: "csv" or "ndjson" expected');
  const chunks = format === "csv" ? csvChunks(source, options) : ndjsonChunks(source);
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
