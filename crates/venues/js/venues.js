// @ts-check
// `predmarket/venues`: is a market on one platform the same question as
// one on another, and what a trade across the two costs net of fees. Two
// wasm modules of its own, each instantiated synchronously on the first
// call that needs it: the matcher's (inlined in venues-inline.js) and the
// fees' (fees.js). An app that only matches markets ships no fee code;
// the main entry's wasm is not loaded.
import * as glue from "./venues_glue.js";
import { wasmBytes } from "./venues-inline.js";
import { fees } from "./fees.js";

let loaded = false;

/** The matcher's glue, its wasm instantiated. */
function matcher() {
  if (!loaded) {
    glue.initSync({ module: wasmBytes() });
    loaded = true;
  }
  return glue;
}

/** The fields the comparison reads; the rest of a market never crosses. */
const FIELDS = [
  "id", "platform", "title", "market_type", "event_name", "trading_end_at", "resolution_date",
  "resolution_source", "resolution_criteria",
];

/** @param {unknown} market @param {string} what */
function slim(market, what) {
  if (market === null || typeof market !== "object" || Array.isArray(market)) {
    throw new TypeError(`${what} must be a market object`);
  }
  const m = /** @type {Record<string, unknown>} */ (market);
  /** @type {Record<string, unknown>} */
  const out = { id: m.id == null ? "" : String(m.id) };
  for (const key of FIELDS) {
    const value = m[key];
    if (key === "id" || value == null) continue;
    // Times may come as Unix numbers; the core reads them as text.
    out[key] = typeof value === "number" && (key.endsWith("_at") || key.endsWith("_date")) ? String(value) : value;
  }
  // Which outcome is YES is read from the outcomes' ids and names and the
  // prices' keys; the prices themselves never cross. Each outcome crosses
  // as `[id, name]`.
  if (Array.isArray(m.outcomes)) {
    out.outcomes = m.outcomes.map((o, i) => {
      const x = o !== null && typeof o === "object" ? /** @type {Record<string, unknown>} */ (o) : {};
      return [x.id == null ? String(i) : String(x.id), typeof x.name === "string" ? x.name : null];
    });
  }
  if (m.current_prices !== null && typeof m.current_prices === "object" && !Array.isArray(m.current_prices)) {
    out.price_keys = Object.keys(m.current_prices);
  }
  return out;
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
  return run(() => matcher().__classifyPair(JSON.stringify(slim(a, "a")), JSON.stringify(slim(b, "b"))));
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
  const text = JSON.stringify(markets.map((m, i) => slim(m, `markets[${i}]`)));
  const pairs = run(() => matcher().__findPairs(text, options.includeDifferent === true, options.samePlatform === true, relationMask(options.relations)));
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

/**
 * The fields a fee model and a leg read: the id, the platform and the fee
 * fields, numbers that may come as text ("0.02"; anything else is no fee
 * field).
 * @param {unknown} market @param {string} what
 */
function feeFields(market, what) {
  if (market === null || typeof market !== "object" || Array.isArray(market)) {
    throw new TypeError(`${what} must be a market object`);
  }
  const m = /** @type {Record<string, unknown>} */ (market);
  /** @type {Record<string, unknown>} */
  const out = { id: m.id == null ? "" : String(m.id) };
  if (m.platform != null) out.platform = m.platform;
  for (const key of ["fee_rate", "trading_fee"]) {
    const value = m[key];
    const n = typeof value === "string" ? Number(value) : value;
    if (typeof n === "number" && Number.isFinite(n)) out[key] = n;
  }
  return out;
}

/** @type {typeof import("./venues.d.ts").feeModel} */
export function feeModel(market, override) {
  return run(() => fees().__feeModel(JSON.stringify(feeFields(market, "market")), JSON.stringify(override ?? null)));
}

/** @param {any} side @param {string} what */
function venue(side, what) {
  if (side === null || typeof side !== "object") throw new TypeError(`${what} must be { market, orderbook, fee? }`);
  const book = side.orderbook && typeof side.orderbook === "object" && "data" in side.orderbook
    ? side.orderbook.data
    : side.orderbook;
  if (book === null || typeof book !== "object") throw new TypeError(`${what}.orderbook must be an order book`);
  return { market: feeFields(side.market, `${what}.market`), orderbook: book, fee: side.fee ?? null };
}

/** @type {typeof import("./venues.d.ts").netArbitrage} */
export function netArbitrage(a, b, options) {
  const size = Number(options?.size);
  if (!(size > 0) || !Number.isFinite(size)) throw new TypeError("options.size must be a positive number of contracts");
  // `now: null` leaves the quotes undated; absent, they are dated now.
  const now = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : options.now;
  // Sides checked before the classification, as one call of old did.
  const sideA = JSON.stringify(venue(a, "a"));
  const sideB = JSON.stringify(venue(b, "b"));
  // The matcher classifies and says, by the classification's own rules,
  // whether a gap may be priced and is firm; the fee wasm prices it.
  const { classification, allows_gap, firm } = run(() =>
    matcher().__classifyForGap(JSON.stringify(slim(a.market, "a.market")), JSON.stringify(slim(b.market, "b.market"))),
  );
  const gap = allows_gap
    ? run(() => fees().__netGap(sideA, sideB, classification.relation, firm, size, now === null ? undefined : Number(now)))
    : null;
  return { classification, gap };
}
