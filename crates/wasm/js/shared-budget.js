// @ts-check
// `new Client({ sharedBudget: true })`: one budget per API key and base URL
// for every client that asks for it. In a browser the tabs and reloads of
// an origin share it: a ledger of send times in IndexedDB, read and written
// in one readwrite transaction, which the browser runs one at a time across
// tabs. (localStorage under a Web Lock is not enough: Chromium serves each
// tab's localStorage from a per-process copy that other tabs' writes reach
// later, and a test with three tabs sent five requests on a budget of
// four.) Where there is no IndexedDB (Node, Deno) the clients of this JS
// realm share one ledger in memory.
//
// The wasm client asks `acquire(limit)` before each request, waits as long
// as it is told (emitting `wait` events with `reason: "budget"`), and calls
// `blockFor(ms)` after a 429. The ledger's arithmetic and text form are
// predmarket-core's `ledger` module in JS, so the package's wasm does not
// carry them (in Rust they cost 31.6 KB gzip); its numbers and names (the
// window, the margin, the caps, the storage names, the default base URL)
// come from the wasm (`__ledgerRules()`, through ledger-rules.js), so none is written twice. The demo's Rust
// client (predmarket-client's `browser::TabsBudget`) keeps the same ledger
// in the same database, store and names, so its tabs and the package's
// share a key's budget. Times are wall-clock (`Date.now()`): each tab's
// monotonic clock starts at its own zero.

import { ledgerRules } from "./ledger-rules.js";

/** The ledger of one key: send times, ascending, and "no request before". */
export class Ledger {
  /**
   * @param {number[]} [sent]
   * @param {number} [blockedUntil]
   */
  constructor(sent = [], blockedUntil = 0) {
    this.sent = sent;
    this.blockedUntil = blockedUntil;
  }

  /**
   * Reads `v1;<blocked until>;<t1>,<t2>,…`; what cannot be read is dropped.
   * @param {unknown} text
   */
  static decode(text) {
    const parts = typeof text === "string" ? text.split(";") : [];
    if (parts[0] !== "v1") return new Ledger();
    /** @param {string} s */
    const number = (s) => {
      const n = s.trim() === "" ? NaN : Number(s);
      return Number.isFinite(n) ? n : null;
    };
    const blockedUntil = number(parts[1] ?? "") ?? 0;
    const sent = (parts[2] ?? "")
      .split(",")
      .map(number)
      .filter((n) => n !== null)
      .slice(0, ledgerRules().maxEntries)
      .sort((a, b) => a - b);
    return new Ledger(sent, blockedUntil);
  }

  encode() {
    return `v1;${Math.round(this.blockedUntil)};${this.sent.map(Math.round).join(",")}`;
  }

  /** @param {number} now */
  forgetOld(now) {
    const window = ledgerRules().windowMs + ledgerRules().safetyMs;
    // Entries a window in the future mean the clock was set back.
    this.sent = this.sent.filter((t) => now - t < window && t - now < window);
    if (this.blockedUntil - now > ledgerRules().maxBlockMs) this.blockedUntil = now + ledgerRules().maxBlockMs;
  }

  /**
   * Takes a slot at `now` (returns 0) or says how many ms to wait.
   * @param {number} now
   * @param {number} limit
   */
  tryAcquire(now, limit) {
    this.forgetOld(now);
    if (now < this.blockedUntil) return this.blockedUntil - now;
    const cap = Math.min(Math.max(1, Math.floor(limit) || 1), ledgerRules().maxEntries);
    if (this.sent.length < cap) {
      this.sent.push(now);
      this.sent.sort((a, b) => a - b);
      return 0;
    }
    // The slot frees when the entry that makes the count reach the cap
    // leaves the window.
    const oldest = this.sent[this.sent.length - cap];
    return Math.max(1, oldest + ledgerRules().windowMs + ledgerRules().safetyMs - now);
  }

  /**
   * @param {number} now
   * @param {number} limit
   */
  remaining(now, limit) {
    this.forgetOld(now);
    if (now < this.blockedUntil) return 0;
    return Math.max(0, Math.floor(limit) - this.sent.length);
  }

  /**
   * @param {number} now
   * @param {number} ms
   */
  blockFor(now, ms) {
    const wait = Math.min(Math.max(0, Number(ms) || 0), ledgerRules().maxBlockMs);
    this.blockedUntil = Math.max(this.blockedUntil, now + wait);
  }
}

/**
 * The storage name of a key's ledger: a hash, never the key (predmarket-core's `budget_name`).
 * @param {string} baseUrl
 * @param {string} apiKey
 */
export async function budgetName(baseUrl, apiKey) {
  const bytes = new TextEncoder().encode(`${baseUrl}\n${apiKey}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${ledgerRules().namePrefix}${hex}`;
}

/**
 * A name that still never holds the key where there is no WebCrypto (a page over plain http to another host).
 * @param {string} baseUrl
 * @param {string} apiKey
 */
function fallbackName(baseUrl, apiKey) {
  let h = 0x811c9dc5;
  // A string's iteration yields whole characters: each has a code point.
  for (const c of `${baseUrl}\n${apiKey}`) h = Math.imul(h ^ /** @type {number} */ (c.codePointAt(0)), 0x01000193) >>> 0;
  return `${ledgerRules().namePrefix}fnv${h.toString(16).padStart(8, "0")}`;
}

/**
 * The ledgers' database, or null where IndexedDB is missing or refused (private modes, opaque origins).
 * @returns {Promise<IDBDatabase | null>}
 */
function openDatabase() {
  return new Promise((resolve) => {
    try {
      const factory = globalThis.indexedDB;
      if (!factory) return resolve(null);
      const request = factory.open(ledgerRules().database, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(ledgerRules().store);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

/**
 * Reads the ledger `name`, lets `change` edit it, writes it back: one transaction.
 * @template T
 * @param {IDBDatabase} db
 * @param {string} name
 * @param {(ledger: Ledger) => T} change
 * @returns {Promise<T>}
 */
function updateStored(db, name, change) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(ledgerRules().store, "readwrite");
    const store = tx.objectStore(ledgerRules().store);
    /** @type {T} */
    let result;
    const read = store.get(name);
    read.onsuccess = () => {
      const ledger = Ledger.decode(read.result);
      result = change(ledger);
      store.put(ledger.encode(), name);
    };
    // `complete` follows the read's `success`: `result` is set by then.
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/**
 * Ledgers of this realm, by name, where there is no IndexedDB.
 * @type {Map<string, Ledger>}
 */
const inMemory = new Map();

/**
 * The ledger of `apiKey` at `baseUrl` as the wasm client asks it.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @returns {import("./predmarket.js").SharedBudgetLedger}
 */
export function sharedBudget(baseUrl, apiKey) {
  // Hashing and opening are asynchronous: ready from the first `acquire`
  // on. `remaining` answers from the last ledger this client saw.
  const ready = (async () => {
    let name;
    try {
      name = await budgetName(baseUrl, apiKey);
    } catch {
      name = fallbackName(baseUrl, apiKey);
    }
    return { name, db: await openDatabase() };
  })();
  let seen = new Ledger();
  /**
   * @template T
   * @param {(ledger: Ledger) => T} change
   * @returns {Promise<T>}
   */
  const update = async (change) => {
    const { name, db } = await ready;
    if (db) {
      try {
        return await updateStored(db, name, (ledger) => {
          const result = change(ledger);
          seen = ledger;
          return result;
        });
      } catch {
        // A failed transaction (quota, a closed database): this client's
        // own ledger for this request; the margin and the service's headers
        // absorb the difference.
      }
    }
    const ledger = inMemory.get(name) ?? new Ledger();
    inMemory.set(name, ledger);
    seen = ledger;
    return change(ledger);
  };
  return {
    acquire(limit) {
      return update((ledger) => ledger.tryAcquire(Date.now(), limit));
    },
    blockFor(ms) {
      update((ledger) => ledger.blockFor(Date.now(), ms)).catch(() => {});
    },
    remaining(limit) {
      return new Ledger([...seen.sent], seen.blockedUntil).remaining(Date.now(), limit);
    },
  };
}
