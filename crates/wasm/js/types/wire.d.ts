// The aliases predmarket-model-derive's `#[model]` declares fields with
// (crates/model-derive/src/lib.rs: an `f64` is `Numeric`, a
// `#[model(timestamp)]` field `Timestamp`): the public service sends
// numbers as numbers or numeric strings, and times in every form (see
// crates/core/src/time.rs). Appended to the package's index.d.ts by
// `cargo xtask npm`.

/** A number as the service sends it: a JSON number or a string holding one (`"0.1300"`). `Number(x)` reads both. */
export type Numeric = number | string;
/** A time as the service sends it: RFC 3339 or date-only text, Unix seconds (number) or Unix milliseconds (string). */
export type Timestamp = string | number;
