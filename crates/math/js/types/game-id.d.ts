// The declarations of crates/math/src/game_id.rs's exports that wasm-bindgen
// does not write: appended to the package's math.d.ts by `cargo xtask npm`.
/** The parts of a game id such as `KCvSF20250209@NFL`. */
export interface GameIdParts {
  /** Away team code: upper-case letters and digits. */
  away: string;
  home: string;
  /** `YYYY-MM-DD` (`YYYYMMDD` is accepted by `formatGameId`). */
  date: string;
  /** The suffix after `@`; absent in the older form without it. */
  league?: string;
}
