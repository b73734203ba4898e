// Type-checked (never run) against the built package's declarations by
// `cargo xtask test` (tsc --noEmit, strict): every method, pager, option
// and exported function, with `@ts-expect-error` lines proving that wrong
// types fail. A declaration that became `any` would make those lines
// unused, which tsc reports as an error.
import {
  Client,
  isApiError,
  americanToDecimal,
  americanToProbability,
  decimalToAmerican,
  decimalToProbability,
  probabilityToAmerican,
  probabilityToDecimal,
  impliedProbability,
  overround,
  noVigProbabilities,
  futureQuotes,
  awardQuotes,
  gameQuotes,
  bestPrices,
  findArbitrage,
  bestBid,
  bestAsk,
  midPrice,
  spread,
  normalizeBook,
  isCrossed,
  vwapToFill,
  depthCurve,
  depthWithin,
  parseGameId,
  formatGameId,
  isSameGame,
  toCsv,
  toNdjson,
  csvChunks,
  ndjsonChunks,
  exportStream,
  exportRows,
  exportColumns,
} from "predmarket";
import type {
  ApiError,
  Arbitrage,
  CallOptions,
  ClientOptions,
  SharedBudgetLedger,
  DepthCurve,
  ErrorCode,
  Fill,
  GameIdParts,
  Market,
  MarketsResponse,
  Numeric,
  Page,
  PagerOptions,
  PlatformError,
  PlatformId,
  PriceLevel,
  Quote,
  JsonChange,
  LevelChange,
  OrderbookResponse,
  Watch,
  WatchUpdate,
  WatchSource,
  AwardResponse,
  StaleReason,
} from "predmarket";

/** Fails to compile unless `T` is exactly `U` (and neither is `any`). */
type Exact<T, U> = (<G>() => G extends T ? 1 : 2) extends <G>() => G extends U ? 1 : 2 ? true : false;
function expectType<T>(_value: T): void {}
function assertExact<T, U>(_proof: Exact<T, U> extends true ? true : never): void {}

const options: ClientOptions = {
  apiKey: "pm_demo_key",
  baseUrl: "http://127.0.0.1:8787",
  timeoutMs: 10_000,
  maxRetries: 2,
  rateLimitPerMinute: 60,
  cacheTtlMs: 5_000,
  cacheMaxEntries: 100,
};
const client = new Client(options);
const call: CallOptions = { signal: new AbortController().signal };
const pagerOptions: PagerOptions = { signal: call.signal, maxItems: 500 };

// @ts-expect-error apiKey is required
new Client({ baseUrl: "http://x" });
// @ts-expect-error timeoutMs is a number
new Client({ apiKey: "k", timeoutMs: "10s" });
new Client({ apiKey: "k", sharedBudget: true });
const ledger: SharedBudgetLedger = { acquire: async () => 0, blockFor: () => {}, remaining: (limit) => limit };
new Client({ apiKey: "k", sharedBudget: ledger });
// @ts-expect-error a ledger has acquire, blockFor and remaining
new Client({ apiKey: "k", sharedBudget: { acquire: () => 0 } });

async function operations(): Promise<void> {
  const markets = await client.listMarkets({ platform: "platform_a", status: "open", limit: 100, sort: "volume_24h", order: "desc" }, call);
  assertExact<typeof markets, MarketsResponse>(true);
  const first: Market | undefined = markets.markets[0];
  // Nullable and numeric strings, as the wire says (Numeric = number | string).
  expectType<string | null | undefined>(first?.title);
  expectType<Numeric | null | undefined>(markets.pagination?.total);
  // @ts-expect-error a total may arrive as a numeric string
  expectType<number | undefined>(markets.pagination?.total);
  expectType<string | null | undefined>(markets.pagination?.next_cursor);

  await client.listMarkets();
  await client.getMarket("500024");
  await client.getMarket({ id: "500024", platform: "platform_b", include_raw: true }, call);
  const book = await client.getOrderbook("500024", { signal: call.signal });
  expectType<PriceLevel[] | null | undefined>(book.data.yes?.bids);

  const series = await client.listSeries({ limit: 10, include_nested: true });
  expectType<PlatformId[] | null | undefined>(series.meta?.platforms_queried);
  await client.getSeries("1001");
  await client.getSeries({ id: "1001", include_nested: true });

  const events = await client.listEvents({ series_id: "1001", include_nested: true });
  // Older pages put the events under `markets`: the type says so.
  const eventList = "events" in events ? events.events : events.markets;
  expectType<Market[] | null | undefined>(eventList[0]?.markets);
  await client.getEvent("20001");
  await client.getEvent({ id: "20001", platform: "platform_a" });

  const trades = await client.listTrades({ market_id: "500024", limit: 50, takerOnly: true });
  // `{trades, pagination}` or `{data: {trades, pagination}}`.
  const tradeList = "trades" in trades ? trades.trades : trades.data.trades;
  expectType<Numeric | null | undefined>(tradeList[0]?.price);
  await client.listTrades("500024");

  const leagues = await client.getLeagueInfo({ league: "league_a", include_teams: true });
  const data = "data" in leagues ? leagues.data : leagues.leagues;
  expectType<string | null | undefined>(Array.isArray(data) ? data[0]?.name : data.name);
  await client.getLeagueInfo();

  const games = await client.listGames({ league: "league_a", status: "not_started", from: "2026-01-01", to: "2026-12-31", limit: 25 });
  const gameErrors: Record<string, PlatformError> | null | undefined = games.meta?.platform_errors;
  expectType<string | null | undefined>(gameErrors?.["platform_h"]?.code);
  const game = await client.getGame("KCvSF20250209@NFL");
  await client.getGame({ game_id: "KCvSF20250209" });
  expectType<string>(game.data.id);

  const platforms = await client.listPlatforms();
  expectType<string>(platforms.platforms[0]!.id);
  await client.listPlatforms({}, call);

  const future = await client.getFuture("league_a_championship_2025");
  expectType<Record<string, PlatformError> | null | undefined>(future.meta?.platform_errors);
  await client.getFuture({ id: "league_a_championship_2025", platform: "platform_f", odds_format: "american" });
  const futures = await client.listFutures({ league: "league_a", future_type: "championship", season: 2026, limit: 10, offset: 10 });
  expectType<Numeric | null | undefined>(futures.data.pagination?.next_offset);

  const award = await client.getAward({ id: "league_a_mvp_2026", odds_format: "probability" });
  expectType<string | null | undefined>(award.data.markets?.[0]?.candidates?.[0]?.player_name);
  await client.getAward("league_a_mvp_2026");
  await client.listAwards({ league: "league_b", award_type: "mvp", season: 2026 });

  const history = await client.getPriceHistory({ market_ids: ["500024", "500025"], start_ts: 1, end_ts: 2, interval: "1h", limit: 100 });
  expectType<Numeric | null | undefined>(history.data[0]?.price?.close);
  await client.getPriceHistory({ market_ids: "500024,500025" });

  const profile = await client.getProfileInfo({ platform: "platform_a", user: "alice", include_metrics: true });
  expectType<Numeric | null | undefined>(profile.data.metrics?.pnl);
  const profileTrades = await client.listProfileTrades({ platform: "platform_b", user: "alice", limit: 20, cursor: "c" });
  expectType<string>(profileTrades.data.trades[0]!.trade_id);

  expectType<string>(client.baseUrl);
  expectType<number>(client.rateBudgetRemaining);
  client.clearCache();

  // @ts-expect-error limit is a number
  await client.listMarkets({ limit: "100" });
  // @ts-expect-error parameters use the wire names (include_raw)
  await client.listMarkets({ includeRaw: true });
  // @ts-expect-error listGames needs its league
  await client.listGames({ status: "final" });
  // @ts-expect-error getMarket needs an id
  await client.getMarket();
  // @ts-expect-error listPlatforms takes no parameters
  await client.listPlatforms({ limit: 1 });
  // @ts-expect-error call options take a signal, not parameters
  await client.getMarket("500024", { platform: "platform_a" });
  // @ts-expect-error a response is not any: no such field
  markets.nope;
}

async function recordedHistory(): Promise<void> {
  const rows = client.history({ resource: "orderbook:500024", from: "2026-03-01T12:00:00Z", to: Date.now(), limit: 100 }, { maxItems: 500 });
  for await (const row of rows) {
    expectType<"first" | "continues" | "gap" | "resync">(row.continuity);
    expectType<number | null>(row.gap_ms);
  }
  const page = await rows.nextPage();
  if (page !== null) expectType<number | null>(page.response.meta.next_from);
  // @ts-expect-error a resource is required
  client.history({ from: 0 });
  // @ts-expect-error limit is a number
  client.history({ resource: "orderbook:500024", limit: "10" });
}

async function pagers(): Promise<void> {
  for await (const m of client.markets({ query: "election" }, pagerOptions)) {
    expectType<Market>(m);
    assertExact<typeof m, Market>(true);
  }
  const pager = client.markets({ limit: 250 });
  const page = await pager.nextPage();
  if (page !== null) {
    assertExact<typeof page, Page<Market, MarketsResponse>>(true);
    expectType<Market[]>(page.items);
    expectType<MarketsResponse>(page.response);
  }
  expectType<boolean>(pager.done);
  expectType<number>(pager.delivered);
  expectType<number>(pager.pages);

  for await (const e of client.events({ limit: 25 })) expectType<string>(e.id);
  for await (const s of client.series()) expectType<string>(s.id);
  for await (const t of client.trades("500024", { maxItems: 10 })) expectType<string>(t.trade_id);
  for await (const t of client.trades({ market_id: "500024" })) expectType<string>(t.trade_id);
  for await (const g of client.games({ league: "league_c" })) expectType<string>(g.id);
  for await (const f of client.futures({ league: "league_d" })) expectType<string>(f.id);
  for await (const a of client.awards({ league: "league_a" })) expectType<string>(a.id);
  for await (const t of client.profileTrades({ platform: "platform_a", user: "alice" })) expectType<string>(t.trade_id);

  const futuresPage = await client.futures({ league: "league_a" }).nextPage();
  expectType<Record<string, PlatformError> | null | undefined>(futuresPage?.response.meta?.platform_errors);

  // @ts-expect-error maxItems is a pager option, a number
  client.markets({}, { maxItems: "all" });
  // @ts-expect-error items are markets, not strings
  for await (const m of client.markets()) expectType<string>(m);
}

function errors(err: unknown): void {
  if (isApiError(err)) {
    const e: ApiError = err;
    const code: ErrorCode = e.code;
    expectType<number | undefined>(e.status);
    expectType<number | undefined>(e.retryAfterMs);
    expectType<Record<string, unknown> | undefined>(e.details);
    expectType<string | undefined>(e.parameter);
    expectType<string | undefined>(e.stack);
    // @ts-expect-error not one of the codes
    const wrong: ErrorCode = "TEAPOT";
    void code;
    void wrong;
  }
  // @ts-expect-error unknown is not narrowed without the guard
  err.code;
}

async function functions(): Promise<void> {
  expectType<number>(americanToDecimal("+250"));
  expectType<number>(americanToProbability("-110"));
  expectType<string>(decimalToAmerican(3.5));
  expectType<number>(decimalToProbability(3.5));
  expectType<string>(probabilityToAmerican(0.2));
  expectType<number>(probabilityToDecimal(0.2));
  expectType<number | undefined>(impliedProbability({ american: "+250" }));
  expectType<number | undefined>(impliedProbability("+250"));
  expectType<number | undefined>(impliedProbability(3.5));
  expectType<number>(overround([0.52, 0.52]));
  expectType<number[] | undefined>(noVigProbabilities([0.52, 0.52]));

  const future = await client.getFuture("league_a_championship_2025");
  const quotes: Quote[] = [...futureQuotes(future), ...futureQuotes(future.data)];
  const award = await client.getAward("league_a_mvp_2026");
  quotes.push(...awardQuotes(award));
  const game = await client.getGame("KCvSF20250209@NFL");
  quotes.push(...gameQuotes(game, "moneyline"), ...gameQuotes(game.data, "total", 47.5));
  expectType<Record<string, Quote>>(bestPrices(quotes));
  const arb: Arbitrage | undefined = findArbitrage(quotes, 100, future.data.metadata?.eligible_teams);
  expectType<number | undefined>(arb?.guaranteed_profit);
  findArbitrage(quotes, 100);

  const book = await client.getOrderbook("500024");
  expectType<PriceLevel | undefined>(bestBid(book));
  expectType<PriceLevel | undefined>(bestAsk(book.data, "no"));
  expectType<number | undefined>(midPrice(book.data.yes!));
  expectType<number | undefined>(spread(book));
  expectType<PriceLevel[]>(normalizeBook(book).bids);
  expectType<boolean>(isCrossed(book));
  const fill: Fill = vwapToFill(book, "buy", 100);
  expectType<number | undefined>(fill.vwap);
  expectType<boolean>(fill.partial);
  const curve: DepthCurve = depthCurve(book, "yes");
  expectType<number | undefined>(curve.bids[0]?.cumulative);
  expectType<number>(depthWithin(book, 0.05).bid_size);

  const parts: GameIdParts = parseGameId("KCvSF20250209@NFL");
  expectType<string>(formatGameId({ ...parts, league: "NFL" }));
  expectType<boolean>(isSameGame("KCvSF20250209@NFL", "KCvSF20250209"));

  // @ts-expect-error american odds are a string
  americanToDecimal(250);
  // @ts-expect-error side is "buy" or "sell"
  vwapToFill(book, "hold", 1);
  // @ts-expect-error outcome is "yes" or "no"
  bestBid(book, "maybe");
  // @ts-expect-error quotes are Quote objects
  findArbitrage([1, 2], 100);
  // @ts-expect-error a game id is a string
  parseGameId(20250209);
}

/** Watch streams: typed updates, iteration, stop, and wrong options refused. */
async function watches(client: Client, signal: AbortSignal) {
  const book = client.watchOrderbook("m1", { intervalMs: 5_000, signal, onError: (e) => expectType<string>(e.code) });
  assertExact<typeof book, Watch<OrderbookResponse, LevelChange>>(true);
  for await (const update of book) {
    expectType<WatchUpdate<OrderbookResponse, LevelChange>>(update);
    expectType<"yes" | "no">(update.changes[0].book);
    expectType<number | null>(update.changes[0].to);
    expectType<string | null>(update.asOf);
    expectType<"update" | "stale" | "live">(update.type);
    expectType<WatchSource>(update.source);
    expectType<number>(update.ageMs);
    if (update.type === "stale") expectType<StaleReason | undefined>(update.reason);
    break;
  }
  const strict = client.watchAward("a1", { maxStalenessMs: 30_000, staleAction: "end" });
  assertExact<typeof strict, Watch<AwardResponse, JsonChange>>(true);
  strict.stop();
  // @ts-expect-error staleAction is "flag" or "end"
  client.watchOrderbook("m1", { maxStalenessMs: 1_000, staleAction: "warn" });
  const market = client.watchMarket({ id: "m1" });
  const next = await market.next();
  if (!next.done) {
    expectType<MarketsResponse>(next.value.snapshot);
    expectType<JsonChange[]>(next.value.changes);
  }
  market.stop();
  expectType<number>(market.intervalMs);
  client.watchGame("KCvSF20250209@NFL").stop();
  client.watchFuture("f1", { callOptions: { timeoutMs: 1_000 } }).stop();
  // @ts-expect-error the interval is a number of ms
  client.watchOrderbook("m1", { intervalMs: "5s" });
  // @ts-expect-error a watch's calls take their signal from the watch
  client.watchMarket("m1", { callOptions: { signal } });
}

async function exports(client: Client) {
  expectType<string>(toCsv(await client.listMarkets({ limit: 5 })));
  expectType<string>(toCsv([{ a: 1 }], { columns: ["a"], spreadsheetSafe: true }));
  // @ts-expect-error columns are paths (strings)
  toCsv([], { columns: [1] });
  expectType<string>(toNdjson(await client.getOrderbook("m1")));
  for await (const chunk of csvChunks(client.markets({ limit: 100 }), { spreadsheetSafe: true })) expectType<string>(chunk);
  for await (const chunk of ndjsonChunks(client.trades("m1"))) expectType<string>(chunk);
  const stream: ReadableStream<string> = exportStream(client.markets(), { format: "csv" });
  void stream;
  // @ts-expect-error the format is csv or ndjson
  exportStream([], { format: "xml" });
  expectType<unknown[]>(exportRows({ markets: [] }));
  expectType<string[]>(exportColumns([{ a: { b: 1 } }]));
}

async function capabilities() {
  const client = new Client({ apiKey: "k", checkCapabilities: true, persistentCache: { maxEntries: 50, maxAgeMs: 10_000, onRevalidated: ({ method }) => void method } });
  // @ts-expect-error checkCapabilities is a boolean
  new Client({ apiKey: "k", checkCapabilities: "yes" });
  // @ts-expect-error maxEntries is a number
  new Client({ apiKey: "k", persistentCache: { maxEntries: "50" } });
  const table = await client.capabilities();
  expectType<boolean | undefined>(table["x"]?.orderbook);
  expectType<boolean | undefined>(await client.supports("x", "trades"));
  // @ts-expect-error features are the service's names
  await client.supports("x", "orderbooks");
  const cost = await client.estimate({ walk: { list: "markets", params: { limit: 100 }, maxItems: 1_000 }, watches: [{ kind: "orderbook" }], durationMs: 60_000 });
  expectType<number>(cost.requests);
  expectType<number>(cost.minutes);
  expectType<boolean>(cost.exact);
  // @ts-expect-error walks are of the pagers
  await client.estimate({ walk: { list: "orderbooks" } });
  const streamed = await client.estimate({ watches: [{ kind: "market" }], stream: true });
  expectType<"stream" | "poll" | "unknown">(streamed.watchSource);
  expectType<number>(streamed.streamed);
  const answer = await client.getMarket("m1");
  expectType<number | undefined>(client.keptAgeMs(answer));
  await client.clearPersistentCache();
}

export { operations, recordedHistory, pagers, errors, functions, watches, exports, capabilities };

// predmarket/venues: the second entry, typed on its own.
import { classifyPair, findPairs, feeModel, netArbitrage } from "predmarket/venues";
import type { Classification, Pair, Relation } from "predmarket/venues";

{
  const a = { id: "1", platform: "platform_a", title: "Bitcoin above $95,000 on March 3?" };
  const b = { id: 2, title: "Will BTC close above $95k on Mar 3, 2026?", extra: true };
  const c: Classification = classifyPair(a, b);
  const relation: Relation = c.relation;
  const fields: string[] = c.reasons.map((r) => `${r.field}: ${r.finding} ${r.a ?? ""} / ${r.b ?? ""}`);
  const pairs: Pair<typeof a>[] = findPairs([a], { includeDifferent: true });
  const firm: Pair<typeof a>[] = findPairs([a], { relations: ["same", "inverted"] });
  // @ts-expect-error relations are the six words
  findPairs([a], { relations: ["equal"] });
  const first: string | undefined = pairs[0]?.a.title;
  const model = feeModel(a, { kind: "notional", rate: 0.02 });
  const book = { timestamp: "2026-03-01T12:00:00Z", yes: { asks: [{ price: 0.4, size: 10 }] } };
  const { gap } = netArbitrage({ market: a, orderbook: book }, { market: b, orderbook: { data: book }, fee: model }, { size: 10, now: new Date() });
  const net: number | undefined = gap?.net_profit;
  const conditional: boolean | undefined = gap?.conditional;
  // @ts-expect-error a relation is one of six words
  const wrong: Relation = "maybe";
  // @ts-expect-error size is required
  netArbitrage({ market: a, orderbook: book }, { market: b, orderbook: book }, {});
  // @ts-expect-error a fee model's kind is one of two
  feeModel(a, { kind: "flat", rate: 1 });
  // The main entry's types fit: markets and order books as the client returns them.
  const served: Market[] = [];
  const servedPairs: Pair<Market>[] = findPairs(served);
  void [relation, fields, first, net, conditional, wrong, servedPairs, firm];
}

// predmarket/math: the pure functions' own entry, typed on their own; the
// main entry re-exports the same functions and types.
import * as math from "predmarket/math";
import type { Fill as MathFill, GameIdParts as MathGameIdParts, Quote as MathQuote } from "predmarket/math";

{
  expectType<number>(math.americanToDecimal("+250"));
  expectType<number | undefined>(math.impliedProbability({ american: "-110" }));
  const parts: MathGameIdParts = math.parseGameId("KCvSF20250209@NFL");
  const fill: MathFill = math.vwapToFill({ bids: [], asks: [{ price: 0.4, size: 10 }] }, "buy", 5);
  const quotes: MathQuote[] = [{ outcome: "a", label: "A", decimal: 2.1 }];
  const best: Record<string, MathQuote> = math.bestPrices(quotes);
  // @ts-expect-error american odds are a string
  math.americanToDecimal(250);
  // @ts-expect-error a fill's side is buy or sell
  math.vwapToFill({ bids: [], asks: [] }, "hold", 1);
  // One function, whichever entry it comes from.
  const same: typeof americanToDecimal = math.americanToDecimal;
  void [parts, fill, best, same];
}
