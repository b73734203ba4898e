// The models the pure functions read, declared by the main entry (its
// types come from predmarket-core's models): `cargo xtask npm` puts this
// import in the package's math.d.ts (and, naming index.cjs, math.d.cts).
import type { Award, AwardResponse, Future, FutureResponse, GameDetail, GameMarketType, GameResponse, JsonChange, LevelChange, Odds, Orderbook, OrderbookResponse, OrderbookSide, PlatformId, PriceLevel, WatchKind } from "./index.js";
