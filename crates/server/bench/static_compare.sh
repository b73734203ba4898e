#!/usr/bin/env bash
# The server and the proxy against a static file server (the targets of
# targets.sh: nginx serving the server's own `/markets?limit=25` answer as
# a file, the release server, a release proxy on a cache hit; with
# BASELINE_BIN, that binary as server and proxy too). The load generator
# is Debian's wrk, with WRK_THREADS threads (default 2). Each round runs
# every target with each kind of client (no Accept-Encoding; "gzip, br"
# as browsers send), one after the other, so the machine's load falls on
# all alike.
#
#   crates/server/bench/static_compare.sh [ROUNDS] [SECONDS] [CONNECTIONS]
#
# Defaults: 3 rounds of 5 s runs, `wrk -t2 -c32`. SERVER_BIN runs a
# server binary kept from another commit instead of building this
# checkout's; BASELINE_BIN adds a kept binary's server and proxy, and
# NGINX_COPY=1 an nginx with `sendfile off` (targets.sh). Needs `nginx`
# (or `nginx-light`) and `wrk`:
# `apt-get install -y nginx-light wrk`. Also run by
# `cargo xtask bench server`. Prints one line per run, then the median of
# each target and client, with its ratio to nginx's.
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
rounds="${1:-3}"
seconds="${2:-5}"
connections="${3:-32}"
threads="${WRK_THREADS:-2}"
# shellcheck source=targets.sh
source "$(dirname "$0")/targets.sh"

echo "nginx $(nginx -v 2>&1 | cut -d/ -f2), $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t$threads -c$connections -d${seconds}s --latency, $rounds rounds; answer $(wc -c <"$work/www/markets.json") B, gzip -9 $(wc -c <"$work/www/markets.json.gz") B"

# Milliseconds from wrk's "1.23ms" / "850.00us" / "1.02s".
to_ms() {
  awk -v v="$1" 'BEGIN {
    if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 }
    else if (v ~ /ms$/) { sub(/ms$/, "", v); print v + 0 }
    else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1000 }
    else print v }'
}

results="$work/results"
: >"$results"
for round in $(seq 1 "$rounds"); do
  for client in "${clients[@]}"; do
    for t in "${targets[@]}"; do
      headers=(-H "X-API-Key: $key")
      [[ "$client" != identity ]] && headers+=(-H "Accept-Encoding: $client")
      out="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "${headers[@]}" "${url[$t]}")"
      rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
      p99="$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")"
      errors="$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')"
      printf 'round %s  %-9s %-7s %10.0f req/s  p99 %7.2f ms  load %s %s\n' \
        "$round" "$client" "$t" "$rps" "$p99" "$(cut -d' ' -f1 /proc/loadavg)" "$errors"
      printf '%s\t%s\t%s\t%s\n' "$client" "$t" "$rps" "$p99" >>"$results"
    done
  done
done

echo
echo "median of $rounds rounds (ratio to nginx's median; p99 minus nginx's)"
for client in "${clients[@]}"; do
  base_rps="$(median_of "$results" "$client" nginx 3)"
  base_p99="$(median_of "$results" "$client" nginx 4)"
  for t in "${targets[@]}"; do
    rps="$(median_of "$results" "$client" "$t" 3)"
    p99="$(median_of "$results" "$client" "$t" 4)"
    awk -v c="$client" -v t="$t" -v r="$rps" -v p="$p99" -v br="$base_rps" -v bp="$base_p99" 'BEGIN {
      printf "%-9s %-6s %9.0f req/s  %5.2fx   p99 %6.2f ms  %+6.2f ms\n", c, t, r, r / br, p, p - bp }'
  done
done
