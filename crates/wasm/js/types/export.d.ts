// The types of the export functions (`toCsv`, `csvChunks`, ...), plain JS
// in export.js following predmarket-core's `export` rule (held to it by
// tests/fixtures/rules/export.json). Appended to the package's index.d.ts
// by `cargo xtask npm`.
/** Options of `toCsv`, `csvChunks` and `exportStream` in CSV. */
export interface CsvOptions {
  /** The header, as paths (`current_prices.yes.price`); a path at an object holds its JSON. It is followed by an `_extra` column with what a row holds outside it (a JSON object by path). Default: every path of the rows, first seen first (for a pager or an iterable, of its first page or first 100 items, then with `_extra`). */
  columns?: string[];
  /** Put `'` before string cells (header cells too) that start with `=`, `+`, `-`, `@`, tab or CR, so a spreadsheet shows them instead of running them as formulas. Default true; `false` writes them raw. */
  spreadsheetSafe?: boolean;
}

/** Options of `exportStream`. */
export interface ExportStreamOptions extends CsvOptions {
  format: "csv" | "ndjson";
}

/** What the streaming exports read: a pager (page by page), any iterable or async iterable of rows, or an answer / array of rows (at once). */
export type ExportSource = { nextPage(): Promise<{ items: readonly unknown[] } | null> } | AsyncIterable<unknown> | Iterable<unknown> | object;

/** The rows of an answer: its list (`markets`, `data`, ...), one row per price level of an order book (`market_id`, `platform`, `outcome`, `side`, `price`, `size`), or its one object. An array is its own rows. */
export declare function exportRows(answer: unknown): unknown[];
/** The default CSV header of rows: every path, first seen first, object keys in byte order. */
export declare function exportColumns(rows: Iterable<unknown>): string[];
/** An answer (or an array of rows) as CSV (RFC 4180, CRLF records): objects flatten by path, arrays are one JSON cell, `null` is empty. */
export declare function toCsv(input: unknown, options?: CsvOptions): string;
/** An answer (or an array of rows) as NDJSON: one compact JSON text a row, keys in byte order. */
export declare function toNdjson(input: unknown): string;
/** CSV in chunks, one per page of a pager (the header with the first): nothing beyond a page is held. */
export declare function csvChunks(source: ExportSource, options?: CsvOptions): AsyncGenerator<string, void, undefined>;
/** NDJSON in chunks, one per page of a pager. */
export declare function ndjsonChunks(source: ExportSource): AsyncGenerator<string, void, undefined>;
/** `csvChunks` or `ndjsonChunks` as a `ReadableStream` of strings (`.pipeThrough(new TextEncoderStream())` for bytes); cancelling it stops the paging. */
export declare function exportStream(source: ExportSource, options: ExportStreamOptions): ReadableStream<string>;
