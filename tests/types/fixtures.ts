// Type-checked (never run) by `cargo xtask test` (tsc --noEmit, strict,
// resolveJsonModule): every real-shaped fixture of tests/fixtures/public,
// as `JSON.parse` would give it, is assignable to the type the package
// declares for that operation's response. tests/node/fixtures.test.mjs
// shows the client hands these bodies to JS unchanged, so together: what
// JS receives is what its type says .
import type {
  EventsResponse,
  GameResponse,
  LeagueInfoResponse,
  ListAwardsResponse,
  ListFuturesResponse,
  ListGamesResponse,
  MarketsResponse,
  Numeric,
  OrderbookResponse,
  PlatformsResponse,
  PriceHistoryResponse,
  ProfileInfoResponse,
  ProfileTradesResponse,
  Timestamp,
  TradesResponse,
} from "predmarket";
import listMarkets from "../fixtures/public/list_markets.json";
import getOrderbook from "../fixtures/public/get_orderbook.json";
import listTradesWrapped from "../fixtures/public/list_trades_wrapped.json";
import listFutures from "../fixtures/public/list_futures.json";
import listAwards from "../fixtures/public/list_awards_nested_pagination.json";
import leagueInfo from "../fixtures/public/league_info.json";
import listGamesTopLevel from "../fixtures/public/list_games_top_level.json";
import getGame from "../fixtures/public/get_game.json";
import priceHistory from "../fixtures/public/price_history.json";
import profileInfo from "../fixtures/public/profile_info.json";
import profileTrades from "../fixtures/public/profile_trades.json";
import listEventsMarketsKey from "../fixtures/public/list_events_markets_key.json";
import listPlatforms from "../fixtures/public/list_platforms.json";

export const checked: [
  MarketsResponse,
  OrderbookResponse,
  TradesResponse,
  ListFuturesResponse,
  ListAwardsResponse,
  LeagueInfoResponse,
  ListGamesResponse,
  GameResponse,
  PriceHistoryResponse,
  ProfileInfoResponse,
  ProfileTradesResponse,
  EventsResponse,
  PlatformsResponse,
] = [
  listMarkets,
  getOrderbook,
  listTradesWrapped,
  listFutures,
  listAwards,
  leagueInfo,
  listGamesTopLevel,
  getGame,
  priceHistory,
  profileInfo,
  profileTrades,
  listEventsMarketsKey,
  listPlatforms,
];

// The declarations are not `any`: a wrong shape fails.
// @ts-expect-error a market needs an id
export const noId: MarketsResponse = { markets: [{ title: "x" }] };
// @ts-expect-error a number field is a number or a numeric string, not a boolean
export const badNumber: Numeric = true;
// @ts-expect-error a time is text or a number
export const badTime: Timestamp = { at: 1 };
// Nullable, as the wire says.
export const nullable: MarketsResponse = { markets: [{ id: "m", event_name: null, volume_7d: null, tags: null }] };
// Both spellings of a team id.
export const teams: LeagueInfoResponse = {
  leagues: [{ id: "nfl", teams: [{ polyrouter_id: "nfl_kc" }, { service_id: "league_a_kc" }] }],
};
