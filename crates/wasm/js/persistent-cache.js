// @ts-check
// `new Client({ persistentCache: true })` (client.js holds a
// `PersistentCache` then): answers kept in IndexedDB across
// reloads, stale-while-revalidate, bounded, as the demo keeps its own
// (predmarket-client's `browser::IdbStore`): a call that has a kept answer
// resolves with it at once and asks the service in the background; the
// fresh answer replaces the kept one and is handed to `onRevalidated`. A
// kept answer younger than `maxAgeMs` is used without asking. At most
// `maxEntries` answers are kept per key and base URL (the oldest of that
// space go first), none larger than `maxBytes`. A call with its own
// `headers` is neither served from nor kept in it (they may change the
// answer, and the headers are not written to disk); an answer the service
// later refuses (401, 403, 404) is dropped. Plain JS, not the wasm
// client's store: that would not fit the package's size budget. Where
// there is no IndexedDB (Node, Deno), or no WebCrypto to name a key's
// space without writing the key (a page on plain http to another host),
// the option is refused with a typed error instead of silently doing
// nothing or naming the space by a weak hash (client-options.js checks
// it when the client is made; client.js loads this module then, a chunk
// of its own in a bundle that splits code).

const DATABASE = "predmarket-answers";
// Version 2: entries carry their space (`s`), evicted per space.
const VERSION = 2;
const STORE = "answers";
const BY_SPACE_AGE = "space-at";
/** Statuses after which a kept answer is not served again. */
const GONE = new Set([401, 403, 404]);

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The storage space of a key at a base URL: a SHA-256 hash, never the key
 * (the constructor checked WebCrypto is there).
 * @param {string} baseUrl
 * @param {string} apiKey
 */
async function spaceName(baseUrl, apiKey) {
  const text = `${baseUrl}\n${apiKey}`;
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @returns {Promise<IDBDatabase | null>} */
function openDatabase() {
  return new Promise((resolve) => {
    try {
      const request = globalThis.indexedDB.open(DATABASE, VERSION);
      request.onupgradeneeded = () => {
        // Entries of version 1 carry no space: they are dropped.
        const db = request.result;
        if (db.objectStoreNames.contains(STORE)) db.deleteObjectStore(STORE);
        const store = db.createObjectStore(STORE, { keyPath: "k" });
        store.createIndex(BY_SPACE_AGE, ["s", "at"]);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

/**
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
const done = (request) =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/**
 * The kept answers of one key and base URL.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @param {{ maxEntries: number, maxBytes: number }} limits
 */
function answerStore(baseUrl, apiKey, limits) {
  const ready = Promise.all([spaceName(baseUrl, apiKey), openDatabase()]);
  return {
    /** @param {string} key @returns {Promise<{ body: string, at: number } | undefined>} */
    async get(key) {
      const [space, db] = await ready;
      if (!db) return undefined;
      const entry = await done(db.transaction(STORE).objectStore(STORE).get(`${space}|${key}`));
      return isObject(entry) && typeof entry.body === "string" ? { body: entry.body, at: Number(entry.at) } : undefined;
    },
    /** @param {string} key @param {string} body */
    async put(key, body) {
      const [space, db] = await ready;
      if (!db || body.length > limits.maxBytes) return;
      await new Promise((resolve, reject) => {
        const tx = db.transaction(STORE, "readwrite");
        const store = tx.objectStore(STORE);
        store.put({ k: `${space}|${key}`, s: space, at: Date.now(), body });
        // Bounded: past the cap the oldest of this space go (another
        // key's answers are not this client's to evict), in the same
        // transaction.
        const mine = IDBKeyRange.bound([space, -Infinity], [space, Infinity]);
        const byAge = store.index(BY_SPACE_AGE);
        const count = byAge.count(mine);
        count.onsuccess = () => {
          let extra = count.result - limits.maxEntries;
          if (extra <= 0) return;
          const cursor = byAge.openCursor(mine);
          cursor.onsuccess = () => {
            const c = cursor.result;
            if (!c || extra <= 0) return;
            c.delete();
            extra -= 1;
            c.continue();
          };
        };
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    },
    /** @param {string} key */
    async drop(key) {
      const [space, db] = await ready;
      if (!db) return;
      await done(db.transaction(STORE, "readwrite").objectStore(STORE).delete(`${space}|${key}`));
    },
    async clear() {
      const [space, db] = await ready;
      if (!db) return;
      const range = IDBKeyRange.bound(`${space}|`, `${space}|\uffff`);
      await done(db.transaction(STORE, "readwrite").objectStore(STORE).delete(range));
    },
  };
}

/** @typedef {import("./client-options.js").PersistentCacheSettings} Settings */

/** The answers one client keeps (client.js holds one when `persistentCache` is on). */
export class PersistentCache {
  /**
   * @param {string} baseUrl
   * @param {string} apiKey
   * @param {Settings} settings
   */
  constructor(baseUrl, apiKey, settings) {
    this.settings = settings;
    this.store = answerStore(baseUrl, apiKey, settings);
    /** Revalidations under way, by key. @type {Map<string, Promise<void>>} */
    this.revalidating = new Map();
    /** The age of each answer handed out from the store. @type {WeakMap<object, number>} */
    this.keptAnswers = new WeakMap();
  }

  /**
   * A call of operation `method`: a kept answer at once (asking the
   * service in the background), else `send`'s, kept.
   * @param {string} method
   * @param {unknown} params
   * @param {unknown} callOptions
   * @param {() => Promise<unknown>} send
   */
  async call(method, params, callOptions, send) {
    const { store, revalidating, settings: s } = this;
    // Headers of the call's own may change the answer: such a call is
    // neither served from nor kept in the store.
    if (isObject(callOptions) && callOptions.headers !== undefined) return send();
    const key = `${method} ${JSON.stringify(params ?? null)}`;
    const ask = async () => {
      let answer;
      try {
        answer = await send();
      } catch (error) {
        // Refused now (the key revoked, the id gone): the kept answer is
        // not served again.
        if (GONE.has(/** @type {any} */ (error)?.status)) await store.drop(key).catch(() => {});
        throw error;
      }
      try {
        await store.put(key, JSON.stringify(answer));
      } catch {
        // Quota or a closed database: the answer still goes to the caller.
      }
      return answer;
    };
    let kept;
    try {
      kept = await store.get(key);
    } catch {
      kept = undefined;
    }
    if (!kept) return ask();
    const ageMs = Math.max(0, Date.now() - kept.at);
    if (ageMs >= s.maxAgeMs && !revalidating.has(key)) {
      const fresh = ask()
        .then((answer) => {
          try {
            s.onRevalidated?.({ method, params, answer });
          } catch {
            // A hook that throws does not break the cache.
          }
        })
        .catch(() => {})
        .finally(() => revalidating.delete(key));
      revalidating.set(key, fresh);
    }
    const answer = JSON.parse(kept.body);
    if (isObject(answer)) this.keptAnswers.set(answer, ageMs);
    return answer;
  }

  /** Forgets the answers kept for this key and base URL. */
  async clear() {
    try {
      await this.store.clear();
    } catch {
      // Nothing kept can be read back either.
    }
  }
}
