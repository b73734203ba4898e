// The decode benchmark, shared by Node and the browser page: a 250-market
// page turned into JS objects by (1) plain JSON.parse of its text already
// in hand, (2) `JSON.parse(await res.text())` and (3) `await res.json()` on
// a Response holding the same bytes, and (4) the library's path, `client.listMarkets()`, whose fetch is pointed at the
// same bytes (so the network is out of the picture; everything the
// library does per call is in). Methods are interleaved round by round so
// load drift affects them alike; figures are medians of the rounds.

const now = () => performance.now();

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function bench({ Client, text, rounds = 21, iterations = 10 }) {
  const realFetch = globalThis.fetch;
  const headers = { "content-type": "application/json" };
  globalThis.fetch = async () => new Response(text, { status: 200, headers });
  try {
    const client = new Client({
      apiKey: "bench-key",
      baseUrl: "http://bench.invalid",
      rateLimitPerMinute: 1e9,
      maxRetries: 0,
    });
    const methods = {
      "JSON.parse(text)": async () => JSON.parse(text),
      "JSON.parse(await res.text())": async () => JSON.parse(await (await fetch("http://bench.invalid/markets")).text()),
      "await res.json()": async () => (await fetch("http://bench.invalid/markets")).json(),
      "library: client.listMarkets()": async () => client.listMarkets({ limit: 250 }),
    };
    const names = Object.keys(methods);

    // Same objects from every path.
    const expected = JSON.stringify(JSON.parse(text));
    for (const name of names) {
      const value = await methods[name]();
      if (JSON.stringify(value) !== expected) throw new Error(`${name} decodes differently`);
      if (value.markets.length !== 250) throw new Error(`${name}: ${value.markets.length} markets`);
    }

    // Warm-up (JIT, wasm tier-up), then interleaved rounds.
    let sink = 0;
    for (let i = 0; i < 5 * iterations; i++) for (const name of names) sink += (await methods[name]()).markets.length;
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        const t0 = now();
        for (let i = 0; i < iterations; i++) sink += (await methods[name]()).markets.length;
        samples[name].push((now() - t0) / iterations);
      }
    }
    if (sink === 0) throw new Error("nothing decoded");

    const parse = median(samples[names[0]]);
    const parseText = median(samples[names[1]]);
    const json = median(samples[names[2]]);
    return {
      bytes: new TextEncoder().encode(text).length,
      rounds,
      iterations,
      results: names.map((name) => {
        const ms = median(samples[name]);
        return { name, ms, vsParse: ms / parse, vsParseText: ms / parseText, vsJson: ms / json };
      }),
    };
  } finally {
    globalThis.fetch = realFetch;
  }
}
