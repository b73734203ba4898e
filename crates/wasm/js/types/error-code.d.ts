// The codes of a PredmarketError: predmarket-core's `ErrorCode`, held to it
// by a test of crates/wasm/src/lib.rs. Appended to the package's index.d.ts
// by `cargo xtask npm`.
export type ErrorCode = "VALIDATION_ERROR" | "INVALID_CURSOR" | "UNAUTHORIZED" | "NOT_FOUND" | "RATE_LIMITED" | "INTERNAL_ERROR" | "PLATFORM_UNAVAILABLE" | "NETWORK_ERROR" | "TIMEOUT" | "ABORTED" | "DECODE_ERROR" | "PAGINATION_LOOP" | "RESPONSE_TOO_LARGE";
