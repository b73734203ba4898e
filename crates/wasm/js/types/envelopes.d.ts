// The responses the public service sends in two documented shapes: the
// spec's, declared by tsify from predmarket-core's response structs (the
// names these unions build on: `EventsPage`, `ListGamesEnvelope`,
// `LeagueInfoEnvelope`, `TradesPage`), or the other one. The library hands
// out the body as parsed, so a response is either. Appended to the
// package's index.d.ts by `cargo xtask npm`; `tsc` checks them there
// against the wasm's declarations (`cargo xtask test --only types`).
// The readers of both shapes: crates/core/src/models/event.rs, game.rs,
// league.rs and trade.rs.

/** `GET /events` and `GET /events/{id}`: the spec's page, or an older one with the events under `markets`. */
export type EventsResponse = EventsPage | (Omit<EventsPage, "events"> & { markets: Event[] });

/** `GET /list-games`: `{ data, meta }`, or the page at the top level. */
export type ListGamesResponse = ListGamesEnvelope | (GamesPage & { meta?: SportsMeta | null });

/** `GET /league-info`: `{ data, meta }`, or (older pages) `{ leagues, meta }`. */
export type LeagueInfoResponse = LeagueInfoEnvelope | { leagues: LeagueInfo[]; meta?: RequestMeta | null };

/** `GET /trades`: the page at the top level, or inside `data`. */
export type TradesResponse = TradesPage | { data: TradesPage; meta?: TradesMeta | null };
