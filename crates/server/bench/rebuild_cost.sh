#!/usr/bin/env bash
# What one rebuild of the bench's page costs a request, against a hit:
# one connection (`wrk -t1 -c1`, so each request is served alone and its
# latency is the server's time plus the loopback's) asking the release
# server for `/markets?limit=25` as a compressed client, three ways,
# interleaved ROUNDS times:
#   kept      the same query every time: the page kept whole for its
#             second (a hit, only the tail written; a second's first
#             request rebuilds it)
#   made      a query no request sent before (`&n=COUNTER`, a parameter
#             the route ignores): every request makes its page from the
#             kept middle and keeps it, as the first request of each
#             second does
#   new rows  a page of rows no request asked for before (`offset=K`, K
#             new each time): its middle written and compressed, gzip and
#             brotli, as a page never seen before, and as the proxy
#             compresses an entry it refreshed
# Prints each round's time a request (the run's time over the requests
# answered: on one connection, each request's own time; wrk's "Latency
# Avg" is not used, as wrk corrects it for coordinated omission) and the
# median of each way; the difference to `kept` is that work's cost.
#
#   crates/server/bench/rebuild_cost.sh [ROUNDS] [SECONDS]
#
# Defaults: 5 rounds of 3 s. SERVER_BIN as in release_server.sh (else this
# checkout's release build).
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
rounds="${1:-5}"
seconds="${2:-3}"
for tool in wrk curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool: apt-get install -y wrk curl" >&2; exit 1; }
done
# shellcheck source=release_server.sh
source "$(dirname "$0")/release_server.sh"
"$server" --addr 127.0.0.1:0 --api-key bench:unlimited --quiet 2>"$work/server.log" &
pids+=($!)
addr="$(address "$work/server.log")"
total="$(curl -sf -H 'X-API-Key: bench' "http://$addr/markets?limit=1" | grep -o '"total":[0-9]*' | cut -d: -f2)"

# A request path per call: PATH_PREFIX then a counter that starts at
# START and steps by STEP (so that no two rounds ask for the same page).
cat >"$work/counter.lua" <<'LUA'
local prefix = os.getenv("PATH_PREFIX")
local n = tonumber(os.getenv("START"))
local step = tonumber(os.getenv("STEP"))
local limit = tonumber(os.getenv("LIMIT"))
request = function()
  n = n + step
  if n > limit then n = n - limit end
  return wrk.format("GET", prefix .. n)
end
LUA

headers=(-H "X-API-Key: bench" -H "Accept-Encoding: gzip, br")
echo "$server on $addr; $total markets; wrk -t1 -c1 -d${seconds}s, $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$work/results"
for round in $(seq 1 "$rounds"); do
  for way in kept made new-rows; do
    case "$way" in
      kept) out="$(wrk -t1 -c1 -d"${seconds}s" "${headers[@]}" "http://$addr/markets?limit=25")" ;;
      made) out="$(PATH_PREFIX="/markets?limit=25&n=" START=$((round * 10000000)) STEP=1 LIMIT=1000000000 \
        wrk -t1 -c1 -d"${seconds}s" -s "$work/counter.lua" "${headers[@]}" "http://$addr")" ;;
      # Offsets that no earlier request of this run asked for: each round
      # starts elsewhere and steps by a prime, wrapping within the list.
      new-rows) out="$(PATH_PREFIX="/markets?limit=25&offset=" START=$((round * 7)) STEP=$((rounds * 7 + 1)) \
        LIMIT=$((total - 25)) wrk -t1 -c1 -d"${seconds}s" -s "$work/counter.lua" "${headers[@]}" "http://$addr")" ;;
    esac
    # "85467 requests in 3.00s, …": µs a request.
    each="$(awk '/requests in/ { sub(/s,?$/, "", $4); printf "%.1f", $4 * 1e6 / $1 }' <<<"$out")"
    printf 'round %s  %-9s %9.1f µs a request  load %s\n' "$round" "$way" "$each" "$(cut -d' ' -f1 /proc/loadavg)"
    printf '%s\t%s\n' "$way" "$each" >>"$work/results"
  done
done
echo
echo "median of $rounds rounds (and its difference to kept)"
median() {
  awk -F'\t' -v w="$1" '$1 == w { print $2 }' "$work/results" | sort -g |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
kept="$(median kept)"
for way in kept made new-rows; do
  m="$(median "$way")"
  awk -v w="$way" -v m="$m" -v k="$kept" 'BEGIN { printf "%-9s %9.1f µs  %+9.1f µs\n", w, m, m - k }'
done
