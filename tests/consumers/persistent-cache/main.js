// One page, loaded three times in one browser profile (consumers.test.mjs):
// `?step=fill` keeps five markets through `persistentCache` (at most three
// kept), `?step=offline` reloads with every request failing: what was kept
// shows at once, what was evicted fails; `?step=revalidate` reloads online:
// the kept answer comes at once, then the fresh one through `onRevalidated`.
import { Client } from "predmarket";

const { baseUrl, apiKey, ids } = window.__predmarket;
const step = new URLSearchParams(location.search).get("step");
let sent = 0;
let revalidated;
const offline = step === "offline";
const client = new Client({
  apiKey,
  baseUrl,
  maxRetries: 0,
  persistentCache: {
    maxEntries: 3,
    onRevalidated: ({ method, answer }) => {
      revalidated = { method, id: answer.markets[0].id };
    },
  },
  fetch: (url, init) => {
    sent += 1;
    return offline ? Promise.reject(new TypeError("offline")) : fetch(url, init);
  },
});

/** Answers kept in the database, of every key. */
function keptCount() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("predmarket-answers");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const count = open.result.transaction("answers").objectStore("answers").count();
      count.onsuccess = () => resolve(count.result);
      count.onerror = () => reject(count.error);
    };
  });
}

async function run() {
  if (step === "fill") {
    const titles = [];
    for (const id of ids) titles.push((await client.getMarket(id)).markets[0].title);
    return { sent, titles, kept: await keptCount() };
  }
  if (step === "offline") {
    const outcomes = [];
    const ages = [];
    for (const id of ids) {
      try {
        const answer = await client.getMarket(id);
        outcomes.push(answer.markets[0].title);
        ages.push(typeof client.keptAgeMs(answer));
      } catch (error) {
        outcomes.push(error.code);
      }
    }
    return { sent, outcomes, ages, kept: await keptCount() };
  }
  const id = ids.at(-1);
  const answer = await client.getMarket(id);
  const keptAge = client.keptAgeMs(answer);
  const deadline = Date.now() + 30_000;
  while (revalidated === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await client.clearPersistentCache();
  return { title: answer.markets[0].title, fromKept: typeof keptAge === "number", revalidated, keptAfterClear: await keptCount() };
}

run().then(
  (result) => {
    window.__result = result;
  },
  (error) => {
    window.__result = { failed: String(error?.stack ?? error) };
  },
);
