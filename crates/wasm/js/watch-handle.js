// @ts-check
// What a `watch*` method of the package's `Client` returns at once, while
// the watch streams' module (watch.js, loaded by client.js at the first
// watch of any client) arrives: the watch itself once it has, before
// then a handle that starts it as soon as it can. So an app that never
// watches does not load watch.js: a bundler splits a dynamic `import()`
// into a chunk of its own, fetched only when called (Vite, webpack and
// Rollup by default, esbuild with `--splitting`).
//
// Nothing is lost in the wait: the watch is made when its module loads
// (its first poll, or its place in the client's stream, starts then), a
// `next()` called before waits for it, a `stop()` called before means it
// is stopped as soon as it is made, and a module that fails to load
// rejects the first `next()` as a failed watch would.

/** @typedef {import("./predmarket.js").WatchUpdate<unknown, unknown>} Update */
/** @typedef {import("./predmarket.js").Watch<unknown, unknown>} Watch */

/** @implements {AsyncIterableIterator<Update>} */
export class WatchHandle {
  /** @type {Watch | undefined} */
  #watch;
  #stopped = false;
  /** @type {Promise<Watch | undefined>} */
  #started;

  /** @param {Promise<Watch>} start makes the watch once its module is loaded */
  constructor(start) {
    this.#started = start.then((watch) => {
      if (this.#stopped) {
        watch.stop();
        return undefined;
      }
      this.#watch = watch;
      return watch;
    });
    // A failed load is told by `next()`; unobserved it is not an
    // unhandled rejection of the app's.
    this.#started.catch(() => {});
  }

  /** The interval the scheduler gives this watch's polls now (ms); `NaN` until the watch has started. */
  get intervalMs() {
    return this.#watch ? this.#watch.intervalMs : Number.NaN;
  }

  /** Stops the watch; a `for await` over it ends. */
  stop() {
    this.#stopped = true;
    this.#watch?.stop();
  }

  /** @returns {Promise<IteratorResult<Update, undefined>>} */
  async next() {
    const watch = await this.#started;
    return watch ? watch.next() : { value: undefined, done: true };
  }

  /** @returns {Promise<IteratorResult<Update, undefined>>} */
  async return() {
    this.stop();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
