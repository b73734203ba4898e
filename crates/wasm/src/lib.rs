//! predmarket-wasm: the JS face of predmarket.
//!
//! Responses cross into JS the fastest way measured (docs/benchmarks.md):
//! the body stays a JS string, the JS engine's `JSON.parse` builds the
//! objects, and Rust reads only what it needs from them. The TypeScript
//! types come from the core's models (tsify), so they cannot drift from
//! what the Rust side decodes.

mod client;
mod errors;
mod json;
mod options;

pub use client::Client;
pub use errors::is_api_error;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_OPTIONS: &'static str = r#"
/** Options of `new Client(...)`. */
export interface ClientOptions {
  /** Sent as the `X-API-Key` header, never in a URL. */
  apiKey: string;
  /** Default: `http://127.0.0.1:8787` (the local reference server). */
  baseUrl?: string;
  /** Per attempt. Default 30 000; 0 disables the timeout. */
  timeoutMs?: number;
  /** Retries on 429, 5xx and network errors. Default 3. */
  maxRetries?: number;
  /** The client-side budget. Default 100 (the service's limit). */
  rateLimitPerMinute?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call: the promise rejects with code `ABORTED`. */
  signal?: AbortSignal;
}

/** Every failure of the library: a real `Error` with these fields. */
export interface ApiError extends Error {
  name: "PredmarketError";
  code: ErrorCode;
  /** HTTP status, when the service answered. */
  status?: number;
  /** How long the service asked to wait (429). */
  retryAfterMs?: number;
  /** The service's `error.details`. */
  details?: Record<string, unknown>;
  /** The parameter a client-side check named. */
  parameter?: string;
}
"#;

/// Keeps in step with `predmarket_core::ErrorCode` (a test checks it).
const ERROR_CODE_TS: &str = "export type ErrorCode = \"VALIDATION_ERROR\" | \"INVALID_CURSOR\" | \"UNAUTHORIZED\" | \"NOT_FOUND\" | \"RATE_LIMITED\" | \"INTERNAL_ERROR\" | \"PLATFORM_UNAVAILABLE\" | \"NETWORK_ERROR\" | \"TIMEOUT\" | \"ABORTED\" | \"DECODE_ERROR\" | \"PAGINATION_LOOP\";";

#[wasm_bindgen(typescript_custom_section)]
const TS_ERROR_CODE: &'static str = ERROR_CODE_TS;

#[cfg(test)]
mod tests {
    #[test]
    fn the_declared_error_codes_are_the_cores() {
        assert_eq!(super::ERROR_CODE_TS, predmarket_core::ErrorCode::typescript_union());
    }
}
