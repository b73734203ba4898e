// @ts-check
// The package `Client`'s own options, checked when the client is made
// (client.js): a wrong one is refused at once with a typed error, while
// the code that does what they ask (capabilities.js, persistent-cache.js,
// shared-budget.js) loads later, at the client's first use of it.

import { PredmarketError } from "./errors.js";

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The `checkCapabilities` option, checked.
 * @param {unknown} value
 */
export function checkCapabilitiesOption(value) {
  if (value !== undefined && typeof value !== "boolean") {
    throw Object.assign(new PredmarketError("checkCapabilities: true or false expected"), { code: "VALIDATION_ERROR", parameter: "checkCapabilities" });
  }
  return value === true;
}

/** `persistentCache: true`'s settings. */
const PERSISTENT_CACHE_DEFAULTS = { maxEntries: 400, maxBytes: 512 * 1024, maxAgeMs: 0 };

/** @param {string} message */
const invalid = (message) => Object.assign(new PredmarketError(`persistentCache: ${message}`), { code: "VALIDATION_ERROR", parameter: "persistentCache" });

/**
 * @typedef {{ maxEntries: number, maxBytes: number, maxAgeMs: number, onRevalidated?: (info: any) => void }} PersistentCacheSettings
 */

/**
 * The `persistentCache` option, checked: its settings, or `undefined` when off.
 * @param {unknown} given
 * @returns {PersistentCacheSettings | undefined}
 */
export function persistentCacheOption(given) {
  if (given === undefined || given === false) return undefined;
  if (given !== true && !isObject(given)) throw invalid("true, false or an options object expected");
  if (!globalThis.indexedDB) throw invalid("needs IndexedDB (a browser or a web worker); in Node use `cacheTtlMs`, the in-memory cache");
  if (typeof globalThis.crypto?.subtle?.digest !== "function") {
    throw invalid("needs WebCrypto to name its storage without writing the key (a secure context: https or localhost); use `cacheTtlMs`, the in-memory cache");
  }
  /** @type {PersistentCacheSettings} */
  const settings = { ...PERSISTENT_CACHE_DEFAULTS };
  if (isObject(given)) {
    for (const name of /** @type {const} */ (["maxEntries", "maxBytes", "maxAgeMs"])) {
      const v = given[name];
      if (v === undefined) continue;
      if (typeof v !== "number" || !(v >= 0) || (name !== "maxAgeMs" && !Number.isInteger(v))) throw invalid(`${name}: a number of 0 or more expected`);
      settings[name] = v;
    }
    if (given.onRevalidated !== undefined) {
      if (typeof given.onRevalidated !== "function") throw invalid("onRevalidated: a function expected");
      settings.onRevalidated = given.onRevalidated;
    }
  }
  return settings;
}
