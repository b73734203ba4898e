// The page of the worker app: starts the worker and hands its result on.
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
worker.onmessage = (event) => {
  window.__result = event.data;
};
worker.onerror = (event) => {
  window.__result = { failed: `worker error: ${event.message}` };
};
worker.postMessage(window.__predmarket);
