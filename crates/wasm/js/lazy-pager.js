// @ts-check
// A pager handed out at once whose pages come from a pager made at the
// first page: the one a part of the package loaded on first use (a
// dynamic `import()`: capabilities.js) puts around the wasm's pager. Its
// `done`, `delivered` and `pages` are the wasm pager's, which the pager
// put around it reports too; `free()` frees the wasm's.

/**
 * @param {any} pager the wasm's pager
 * @param {() => Promise<any>} make the pager whose pages are handed out, made at the first page
 */
export function lazyPager(pager, make) {
  /** @type {Promise<any> | undefined} */
  let made;
  const ready = () => (made ??= make());
  return {
    async nextPage() {
      return (await ready()).nextPage();
    },
    [Symbol.asyncIterator]() {
      /** @type {Promise<any> | undefined} */
      let inner;
      const iterator = () => (inner ??= ready().then((p) => p[Symbol.asyncIterator]()));
      return {
        async next() {
          return (await iterator()).next();
        },
        async return() {
          const it = await iterator();
          return it.return ? it.return() : { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
    get done() {
      return pager.done;
    },
    get delivered() {
      return pager.delivered;
    },
    get pages() {
      return pager.pages;
    },
    free() {
      pager.free?.();
    },
  };
}
