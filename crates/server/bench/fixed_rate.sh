#!/usr/bin/env bash
# The targets of targets.sh (nginx serving the server's own
# `/markets?limit=25` answer as a file, the release server, a release
# proxy on a cache hit) asked at one fixed rate each, by `oha` (crates.io)
# with its latency correction: every target is offered the same requests a
# second, so a faster target does not take more of the cores from the
# load generator, as it does under wrk's closed loop (static_compare.sh,
# which keeps a number of requests in flight and so measures each target
# at its own rate). Prints each target's p50, p99 and p99.9 at each rate,
# alternating targets within a round so the machine's load falls on all
# alike.
#
#   crates/server/bench/fixed_rate.sh [ROUNDS] [SECONDS] [RATE...]
#
# Defaults: 3 rounds of 5 s at 20000 and 40000 requests a second, 32
# connections (CONNECTIONS), "gzip, br" clients (CLIENT=identity for the
# other kind). SERVER_BIN as in static_compare.sh. Needs nginx, wrk and
# curl (targets.sh) and oha: `cargo install oha --locked`.
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
rounds="${1:-3}"
seconds="${2:-5}"
shift $(($# < 2 ? $# : 2))
rates=("$@")
[[ ${#rates[@]} -eq 0 ]] && rates=(20000 40000)
connections="${CONNECTIONS:-32}"
client="${CLIENT:-gzip, br}"
command -v oha >/dev/null || { echo "needs oha: cargo install oha --locked" >&2; exit 1; }
# shellcheck source=targets.sh
source "$(dirname "$0")/targets.sh"

echo "oha $(oha --version | cut -d' ' -f2), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "oha -c$connections -z${seconds}s -q RATE --latency-correction; client: $client; $rounds rounds"

results="$work/fixed-rate"
: >"$results"
for round in $(seq 1 "$rounds"); do
  for rate in "${rates[@]}"; do
    for t in "${targets[@]}"; do
      headers=(-H "X-API-Key: $key")
      [[ "$client" != identity ]] && headers+=(-H "Accept-Encoding: $client")
      json="$(oha --no-tui --output-format json --latency-correction -c "$connections" \
        -z "${seconds}s" -q "$rate" "${headers[@]}" "${url[$t]}")"
      # Seconds in oha's JSON; milliseconds here.
      read -r rps p50 p99 p999 ok <<<"$(python3 -c '
import json, sys
r = json.load(sys.stdin)
p = r["latencyPercentiles"]
codes = r.get("statusCodeDistribution", {})
print(r["summary"]["requestsPerSec"], p["p50"] * 1e3, p["p99"] * 1e3, p["p99.9"] * 1e3,
      sum(v for k, v in codes.items() if k.startswith("2")))
' <<<"$json")"
      printf 'round %s  rate %6s  %-7s %9.0f req/s  p50 %6.2f  p99 %6.2f  p99.9 %7.2f ms  2xx %s  load %s\n' \
        "$round" "$rate" "$t" "$rps" "$p50" "$p99" "$p999" "$ok" "$(cut -d' ' -f1 /proc/loadavg)"
      printf '%s\t%s\t%s\t%s\n' "$rate" "$t" "$p99" "$p999" >>"$results"
    done
  done
done

echo
echo "median p99 of $rounds rounds (minus nginx's at the same rate)"
for rate in "${rates[@]}"; do
  base="$(median_of "$results" "$rate" nginx 3)"
  for t in "${targets[@]}"; do
    p99="$(median_of "$results" "$rate" "$t" 3)"
    p999="$(median_of "$results" "$rate" "$t" 4)"
    awk -v r="$rate" -v t="$t" -v p="$p99" -v q="$p999" -v b="$base" 'BEGIN {
      printf "rate %6s  %-7s p99 %6.2f ms  %+6.2f ms   p99.9 %7.2f ms\n", r, t, p, p - b, q }'
  done
done
