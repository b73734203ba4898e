// @ts-check
// `predmarket/venues`' fee half (crates/venues-fees): `feeModel` and the
// pricing of `netArbitrage`, in a wasm of its own, instantiated on the
// first call that needs it. Nothing here runs at import, so an app that
// never prices a trade drops this file, its glue and its wasm.
//
// A market, its order book and a fee model cross into that wasm as texts
// and numbers, not JSON (crates/venues-fees/src/side_in.rs), so it
// carries no JSON decoder and no float parser: `feeSide` reads them here
// by the rules the models' decoder applied to the JSON text of old
// (crates/core/src/models/wire.rs), on the values that JSON text held.
import * as glue from "./fees_glue.js";
import { wasmBytes } from "./fees-inline.js";

let loaded = false;

/** The fee wasm's glue, its wasm instantiated. */
export function fees() {
  if (!loaded) {
    glue.initSync({ module: wasmBytes() });
    loaded = true;
  }
  return glue;
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A decimal as Rust's `str::parse::<f64>` reads one (the wire's numeric strings). */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number of a book as the models read one: a number, or a string
 * holding a finite decimal; `undefined` otherwise.
 * @param {unknown} value
 */
function wireNumber(value) {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !DECIMAL.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The levels of one list of a book that read as price levels (an object
 * with a `price` and a `size`, or a `[price, size]` pair), in order; not
 * a list: none.
 * @param {unknown} list @param {number[]} out
 */
function putLevels(list, out) {
  const at = out.length;
  out.push(0);
  if (!Array.isArray(list)) return;
  for (const level of list) {
    const [price, size] = Array.isArray(level) ? (level.length === 2 ? level : []) : isObject(level) ? [level.price, level.size] : [];
    const p = wireNumber(price);
    const s = wireNumber(size);
    if (p === undefined || s === undefined) continue;
    out.push(p, s);
    out[at] += 1;
  }
}

/**
 * One outcome's side of a book, if it reads as one (an object whose
 * `depth`, if any, is a number, a string or null).
 * @param {unknown} side
 */
const bookSide = (side) => (isObject(side) && (side.depth == null || typeof side.depth === "number" || typeof side.depth === "string") ? side : undefined);

/** Bits of a side's first number: which texts are given. */
const PLATFORM = 1;
const TIMESTAMP = 2;
const FEE = 4;
const FEE_SOURCE = 8;

/**
 * A market (its id, platform and fee fields), its order book and a fee
 * model as the fee wasm reads them (crates/venues-fees/src/side_in.rs).
 * @param {unknown} market
 * @param {unknown} orderbook the book (`undefined`: none, for `feeModel`)
 * @param {unknown} fee a fee model overriding the market's, or `null`
 * @param {string | undefined} what the side's name in an error (`a`); none for `feeModel`'s market and override
 * @returns {[string[], Float64Array]}
 */
export function feeSide(market, orderbook, fee, what) {
  const [marketName, feeName] = what === undefined ? ["market", "override"] : [`${what}.market`, `${what}.fee`];
  const m = /** @type {Record<string, unknown>} */ (market);
  if (!isObject(m)) throw new TypeError(`${marketName} must be a market object`);
  let present = 0;
  const texts = [m.id == null ? "" : String(m.id), "", "", "", ""];
  if (m.platform != null) {
    if (typeof m.platform !== "string") throw new TypeError(`${marketName}.platform must be a string`);
    texts[1] = m.platform;
    present |= PLATFORM;
  }
  // The fee fields: numbers that may come as text ("0.02"; anything else
  // is no fee field).
  const feeField = (/** @type {unknown} */ value) => {
    const n = typeof value === "string" ? Number(value) : value;
    return typeof n === "number" && Number.isFinite(n) ? n : NaN;
  };
  const numbers = [0, feeField(m.fee_rate), feeField(m.trading_fee), 0];
  // What JSON would have carried of the fee model and the book (no NaN,
  // no `undefined`, dates as their text).
  const model = fee == null ? null : JSON.parse(JSON.stringify(fee));
  if (model !== null) {
    if (!isObject(model) || typeof model.kind !== "string" || typeof model.rate !== "number") {
      throw new TypeError(`${feeName} must be { kind, rate } with a kind's name and a number`);
    }
    texts[3] = model.kind;
    numbers[3] = model.rate;
    present |= FEE;
    if (model.source !== undefined) {
      if (typeof model.source !== "string") throw new TypeError(`${feeName}.source must be a string`);
      texts[4] = model.source;
      present |= FEE_SOURCE;
    }
  }
  const book = orderbook === undefined ? {} : JSON.parse(JSON.stringify(orderbook));
  if (!isObject(book)) throw new TypeError(`${what}.orderbook must be an order book`);
  const t = book.timestamp;
  if (typeof t === "string" || typeof t === "number") {
    texts[2] = String(t);
    present |= TIMESTAMP;
  }
  const yes = bookSide(book.yes);
  const no = bookSide(book.no);
  for (const list of [yes?.bids, yes?.asks, no?.bids, no?.asks]) putLevels(list, numbers);
  numbers[0] = present;
  return [texts, Float64Array.from(numbers)];
}
