// @ts-check
// `predmarket/venues`: is a market on one platform the same question as
// one on another, and what a trade across the two costs net of fees. Two
// wasm modules of its own, each instantiated synchronously on the first
// call that needs it: the matcher's (inlined in venues-inline.js) and the
// fees' (fees.js). An app that only matches markets ships no fee code;
// the main entry's wasm is not loaded.
import * as glue from "./venues_glue.js";
import { wasmBytes } from "./venues-inline.js";
import { fees, feeSide } from "./fees.js";

let loaded = false;

/** The matcher's glue, its wasm instantiated. */
function matcher() {
  if (!loaded) {
    glue.initSync({ module: wasmBytes() });
    loaded = true;
  }
  return glue;
}

/**
 * The text fields the matcher reads after the id, in the order its wasm
 * reads them (crates/venues/src/markets_in.rs, `OPTIONAL_FIELDS`).
 */
const OPTIONAL_FIELDS = [
  "platform", "title", "market_type", "event_name", "trading_end_at", "resolution_date",
  "resolution_source", "resolution_criteria",
];

/**
 * Markets as the matcher's wasm reads them (crates/venues/src/markets_in.rs):
 * every text field back to back in one string, as it is, and a
 * `Uint32Array` of their lengths and the markets' shape. No JSON: the wasm
 * carries no JSON decoder and no float parser for them.
 * @param {unknown[]} markets @param {(i: number) => string} what
 * @returns {[string, Uint32Array]}
 */
function encodeMarkets(markets, what) {
  /** @type {string[]} */
  const texts = [];
  /** @type {number[]} */
  const shape = [markets.length];
  /** @param {string} text */
  const put = (text) => {
    texts.push(text);
    shape.push(text.length);
  };
  /** @param {string | null} text */
  const putOptional = (text) => {
    if (text === null) {
      shape.push(0);
    } else {
      texts.push(text);
      shape.push(text.length + 1);
    }
  };
  markets.forEach((market, i) => {
    if (market === null || typeof market !== "object" || Array.isArray(market)) {
      throw new TypeError(`${what(i)} must be a market object`);
    }
    const m = /** @type {Record<string, unknown>} */ (market);
    put(m.id == null ? "" : String(m.id));
    for (const key of OPTIONAL_FIELDS) {
      const value = m[key];
      // Times may come as Unix numbers; the core reads them as text.
      if (typeof value === "number" && (key.endsWith("_at") || key.endsWith("_date"))) putOptional(String(value));
      else if (typeof value === "string" || value == null) putOptional(value ?? null);
      else throw new TypeError(`${what(i)}.${key} must be a string`);
    }
    // Which outcome is YES is read from the outcomes' ids and names and the
    // prices' keys; the prices themselves never cross.
    if (Array.isArray(m.outcomes)) {
      shape.push(m.outcomes.length + 1);
      m.outcomes.forEach((o, j) => {
        const x = o !== null && typeof o === "object" ? /** @type {Record<string, unknown>} */ (o) : {};
        put(x.id == null ? String(j) : String(x.id));
        putOptional(typeof x.name === "string" ? x.name : null);
      });
    } else {
      shape.push(0);
    }
    if (m.current_prices !== null && typeof m.current_prices === "object" && !Array.isArray(m.current_prices)) {
      const keys = Object.keys(m.current_prices);
      shape.push(keys.length + 1);
      for (const k of keys) put(k);
    } else {
      shape.push(0);
    }
  });
  return [texts.join(""), Uint32Array.from(shape)];
}

/** @param {() => string} call */
function run(call) {
  try {
    return JSON.parse(call());
  } catch (e) {
    if (e instanceof SyntaxError) throw e;
    throw new TypeError(String(e));
  }
}

/** @type {typeof import("./venues.d.ts").classifyPair} */
export function classifyPair(a, b) {
  const [text, shape] = encodeMarkets([a, b], (i) => (i === 0 ? "a" : "b"));
  return run(() => matcher().__classifyPair(text, shape));
}

/** The relations, in the order of the bits the wasm reads. */
const RELATIONS = ["same", "inverted", "subset", "superset", "different", "unsure"];

/**
 * `relations` as the wasm's mask: 0 when not given (no filter).
 * @param {unknown} relations
 */
function relationMask(relations) {
  if (relations === undefined) return 0;
  if (!Array.isArray(relations)) throw new TypeError(`relations must be an array of ${RELATIONS.join(", ")}`);
  // An empty list keeps nothing: a bit no relation has.
  let mask = 1 << RELATIONS.length;
  for (const r of relations) {
    const bit = RELATIONS.indexOf(r);
    if (bit < 0) throw new TypeError(`relations: ${JSON.stringify(r)} is not one of ${RELATIONS.join(", ")}`);
    mask |= 1 << bit;
  }
  return mask;
}

/** @type {typeof import("./venues.d.ts").findPairs} */
export function findPairs(markets, options = {}) {
  if (!Array.isArray(markets)) throw new TypeError("markets must be an array of market objects");
  const [text, shape] = encodeMarkets(markets, (i) => `markets[${i}]`);
  const pairs = run(() => matcher().__findPairs(text, shape, options.includeDifferent === true, options.samePlatform === true, relationMask(options.relations)));
  return pairs.map((/** @type {any} */ p) => {
    const a = markets[p.a];
    const b = markets[p.b];
    const { relation, outcome_mapping, disagreements, vetoes } = p.classification;
    const pair = { a, b, aIndex: p.a, bIndex: p.b, relation, outcome_mapping, disagreements, vetoes };
    // The reasons of thousands of pairs would cost more than finding them:
    // each pair's are read when first asked for (`classifyPair` of the two).
    Object.defineProperty(pair, "reasons", {
      enumerable: true,
      configurable: true,
      get() {
        const reasons = classifyPair(a, b).reasons;
        Object.defineProperty(pair, "reasons", { value: reasons, enumerable: true, writable: true });
        return reasons;
      },
    });
    return pair;
  });
}

/** @type {typeof import("./venues.d.ts").feeModel} */
export function feeModel(market, override) {
  const [texts, numbers] = feeSide(market, undefined, override, undefined);
  return run(() => fees().__feeModel(texts, numbers));
}

/** @param {any} side @param {string} what @returns {[string[], Float64Array]} */
function venue(side, what) {
  if (side === null || typeof side !== "object") throw new TypeError(`${what} must be { market, orderbook, fee? }`);
  const book = side.orderbook && typeof side.orderbook === "object" && "data" in side.orderbook
    ? side.orderbook.data
    : side.orderbook;
  if (book === null || typeof book !== "object") throw new TypeError(`${what}.orderbook must be an order book`);
  return feeSide(side.market, book, side.fee, what);
}

/** @type {typeof import("./venues.d.ts").netArbitrage} */
export function netArbitrage(a, b, options) {
  const size = Number(options?.size);
  if (!(size > 0) || !Number.isFinite(size)) throw new TypeError("options.size must be a positive number of contracts");
  // `now: null` leaves the quotes undated; absent, they are dated now.
  const now = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : options.now;
  // Sides checked before the classification, as one call of old did.
  const [textsA, numbersA] = venue(a, "a");
  const [textsB, numbersB] = venue(b, "b");
  // The matcher classifies and says, by the classification's own rules,
  // whether a gap may be priced and is firm; the fee wasm prices it.
  const [text, shape] = encodeMarkets([a.market, b.market], (i) => (i === 0 ? "a.market" : "b.market"));
  const { classification, allows_gap, firm } = run(() => matcher().__classifyForGap(text, shape));
  const gap = allows_gap
    ? run(() => fees().__netGap(textsA, numbersA, textsB, numbersB, classification.relation, firm, size, now === null ? undefined : Number(now)))
    : null;
  return { classification, gap };
}
