// @ts-check
// The rules every watch follows, read from predmarket-core through the
// watch streams' wasm at the first watch (watch.js says whose rules are
// whose): the typedefs of the live contract and its reader, and `rules`,
// read once and shared by the watches (watch.js) and the stream they
// share (watch-hub.js).

import { PredmarketError } from "./errors.js";
import { load } from "./watch-load.js";

/**
 * @typedef {object} Rules
 * @property {typeof import("./watch_glue.js").bookChanges} bookChanges
 * @property {typeof import("./watch_glue.js").valueChanges} valueChanges
 * @property {typeof import("./watch_glue.js").watchIntervalMs} watchIntervalMs
 * @property {typeof import("./watch_glue.js").endsWatch} endsWatch
 * @property {Live} live
 */
/**
 * The stream's contract and reader, predmarket-core's `live` and `sse`
 * compiled into the watch streams' wasm (crates/watch): watch.js
 * restates none of their rules (the vectors in tests/fixtures/live/ hold
 * both).
 * @typedef {object} Live
 * @property {LiveRules} rules
 * @property {new () => LivePositions} Positions
 * @property {new (resources: string[], nowMs: number) => LiveReader} Reader
 * @property {(retryMs: number, failures: number, jitter: number, retryAfterMs: number | undefined) => number} backoffMs
 * @property {(status: number, contentType: string | undefined) => boolean} hasNoStreams
 */
/**
 * @typedef {{ maxResources: number, openTimeoutMs: number, retryMs: number, pollFailed: string, maxStaleness: string, kind: LiveKinds, path: string, watchParam: string, lastEventIdHeader: string, mediaType: string }} LiveRules
 * @typedef {{ forget(resource: string): void, retain(resources: string[]): void, lastEventId(resources: string[]): string | undefined }} LivePositions
 * @typedef {{ retryMs: number } | { kind: string, event: StreamEvent }} LiveRead
 * @typedef {{ feed(positions: LivePositions, chunk: string, nowMs: number): LiveRead[], deadlineMs(): number, isSilent(nowMs: number): boolean, silentEvents(nowMs: number): StreamEvent[], free(): void }} LiveReader
 */
/**
 * The stream's event kinds, keyed by predmarket-core's names for them
 * (`live::Kind`'s variants) and valued by their wire names (`event:`,
 * the reader's `kind`), which only the core states.
 * @typedef {{ Snapshot: string, Change: string, Stale: string, Live: string, Resync: string, Error: string }} LiveKinds
 */
/**
 * One event of a stream, as its JSON says (`resource` and `seq` always).
 * @typedef {object} StreamEvent
 * @property {string} resource
 * @property {number} seq
 * @property {string | null} [as_of]
 * @property {number | null} [age_ms]
 * @property {unknown} [data]
 * @property {unknown[]} [changes]
 * @property {string} [reason]
 * @property {number} [status]
 * @property {string} [code]
 * @property {string} [message]
 */

/**
 * The rules every watch follows, from predmarket-core (compiled into the
 * watch streams' wasm, instantiated here at the first watch):
 * `bookChanges`, `valueChanges`, `watchIntervalMs(kind)`,
 * `endsWatch(error)`, the live contract and reader. The vectors in tests/fixtures/rules/ and
 * tests/fixtures/live/ hold them.
 * @returns {Rules}
 */
const coreRules = () => {
  const glue = load();
  return {
    bookChanges: glue.bookChanges,
    valueChanges: glue.valueChanges,
    watchIntervalMs: glue.watchIntervalMs,
    endsWatch: glue.endsWatch,
    live: { rules: glue.__liveRules(), Positions: glue.__LivePositions, Reader: glue.__LiveReader, backoffMs: glue.__streamBackoffMs, hasNoStreams: glue.__hasNoStreams },
  };
};
/**
 * The core's rules once `readRules()` has run (watch.js's `watch()` runs
 * it before it makes a watch, so nothing else here reads it earlier).
 * @type {Rules}
 */
export let rules;

/** Reads the core's rules, the first time only. */
export function readRules() {
  rules ??= checkedRules();
}

/**
 * The core's rules, read once. The event kinds this file dispatches on
 * are the wasm's (`kind.Snapshot` is `"snapshot"` because the core says
 * so); a kind the core no longer has fails the first watch, not silently
 * as a branch never taken.
 * @returns {Rules}
 */
function checkedRules() {
  const read = coreRules();
  const { kind } = read.live.rules;
  if (![kind.Snapshot, kind.Change, kind.Stale, kind.Live, kind.Error].every((name) => typeof name === "string")) {
    throw Object.assign(new PredmarketError("watch.js: predmarket-core's live::Kind lacks a kind this file acts on"), { code: "INTERNAL_ERROR" });
  }
  return read;
}

/** The stream's event kinds (see `LiveKinds`), once `rules` is read. */
export const kind = () => rules.live.rules.kind;
