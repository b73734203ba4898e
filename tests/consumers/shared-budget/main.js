// Three of these pages run at once on one origin (consumers.test.mjs): each
// client spends the key through `sharedBudget: true` and reports what it
// sent, how its calls ended and why it waited.
import { Client } from "predmarket";

const { baseUrl, apiKey, limit } = window.__predmarket;
let sent = 0;
const waits = new Set();
const client = new Client({
  apiKey,
  baseUrl,
  sharedBudget: true,
  rateLimitPerMinute: limit,
  maxRetries: 0,
  fetch: (url, init) => {
    sent += 1;
    return fetch(url, init);
  },
  onEvent: (event) => {
    if (event.type === "wait") waits.add(event.reason);
  },
});

// Two different calls: the client joins identical calls in flight into one.
// The timeout ends the two that wait for the budget (whose window is a
// minute) and leaves a busy machine ample time for the four that are sent.
const outcome = (limit) =>
  client.listMarkets({ limit }, { timeoutMs: 10_000 }).then(
    () => "ok",
    (error) => error.code,
  );

Promise.all([outcome(1), outcome(2)]).then(
  (outcomes) => {
    window.__result = { sent, outcomes, waits: [...waits] };
  },
  (error) => {
    window.__result = { failed: String(error?.stack ?? error) };
  },
);
