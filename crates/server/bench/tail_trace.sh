#!/usr/bin/env bash
# Every request of a wrk run, placed in time: the targets of targets.sh
# plus `proxy-still` (a proxy started with --cache-ttl-scale 100, whose
# entry needs no refresh while measured), each loaded in turn by
# `wrk -tN -cN` (one connection a thread) with wrk_trace.lua recording
# each request's send time, latency and X-Cache; the traces are then read
# by tail_times.py (the slow requests by window and connection, the p99
# as wrk reports it, and how much of it comes from the run's first
# 300 ms and from the proxy's refreshes).
#
#   crates/server/bench/tail_trace.sh [SECONDS] [CONNECTIONS]
#
# Defaults: 10 s, 32. ROUNDS="1 2" runs every target twice (names the
# rounds); WHICH="proxy nginx" chooses the targets; SERVER_BIN and
# BASELINE_BIN as in targets.sh (`base`, `base-proxy`); CLIENT="gzip, br"
# sends that Accept-Encoding (default: none, an identity client). Traces
# go to OUT (default /tmp/tail_trace).
set -euo pipefail

bench="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$bench/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
seconds="${1:-10}"
connections="${2:-32}"
out="${OUT:-/tmp/tail_trace}"
# shellcheck source=targets.sh
source "$bench/targets.sh"
"$server" --addr 127.0.0.1:0 --upstream "http://$upstream" --upstream-key-file "$work/upstream.key" \
  --api-key "$key:unlimited" --quiet --cache-ttl-scale 100 2>"$work/proxy-still.log" &
pids+=($!)
url[proxy-still]="http://$(address "$work/proxy-still.log")$path"
curl -sf -H "X-API-Key: $key" "${url[proxy-still]}" -o /dev/null

encoding=()
[[ -n "${CLIENT:-}" ]] && encoding=(-H "Accept-Encoding: $CLIENT")

echo "wrk -t$connections -c$connections -d${seconds}s -s wrk_trace.lua${CLIENT:+, Accept-Encoding: $CLIENT}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in ${ROUNDS:-1}; do
  for t in ${WHICH:-proxy proxy-still server nginx}; do
    dir="$out/$round-$t"
    rm -rf "$dir"
    mkdir -p "$dir"
    began="$(date +%s%6N)"
    TRACE_DIR="$dir" wrk -t"$connections" -c"$connections" -d"${seconds}s" --latency -s "$bench/wrk_trace.lua" \
      -H "X-API-Key: $key" "${encoding[@]}" "${url[$t]}" >"$dir/wrk.out"
    { echo "# began_unix_us $began"; cat "$dir"/conn-* | awk -v b="$began" '{print $1 - b, $2, $3, $4}' | sort -n; } >"$dir/trace"
    rm -f "$dir"/conn-*
    echo "round $round $t: $(awk '/^Requests\/sec/ {print $2}' "$dir/wrk.out") req/s, wrk's p99 $(awk '$1 == "99%" {print $2}' "$dir/wrk.out"), load $(cut -d' ' -f1 /proc/loadavg)"
    python3 "$bench/tail_times.py" --connections "$connections" "$dir/trace" | sed 's/^/  /'
  done
done
