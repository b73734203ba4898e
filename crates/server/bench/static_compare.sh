#!/usr/bin/env bash
# The server and the proxy against a static file server: nginx (Debian's,
# 2 workers) serving the server's own `/markets?limit=25` answer as a file,
# with a gzip -9 copy beside it for `gzip_static`; the release server; and
# a release proxy on a cache hit (a release server as its upstream). The
# load generator is Debian's wrk. Each round runs every target with each
# kind of client (no Accept-Encoding; "gzip, br" as browsers send), one
# after the other, so the machine's load falls on all alike.
#
#   crates/server/bench/static_compare.sh [ROUNDS] [SECONDS] [CONNECTIONS]
#
# Defaults: 3 rounds of 5 s runs, `wrk -t2 -c32`. Needs `nginx` (or
# `nginx-light`) and `wrk`: `apt-get install -y nginx-light wrk`. Also run
# by `cargo xtask bench server`. Prints one line per run, then the median
# of each target and client, with its ratio to nginx's.
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
rounds="${1:-3}"
seconds="${2:-5}"
connections="${3:-32}"
path='/markets?limit=25'
key=bench

for tool in nginx wrk curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool: apt-get install -y nginx-light wrk curl" >&2; exit 1; }
done

# SERVER_BIN: a server built already (a commit's binary kept to compare
# against); else the release build of this checkout.
server="${SERVER_BIN:-}"
if [[ -z "$server" ]]; then
  cargo build --quiet --release -p predmarket-server --bin predmarket-server \
    --manifest-path "$root/Cargo.toml"
  server="$target/release/predmarket-server"
fi
work="$(mktemp -d)"
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for "listening on http://ADDR" in a log and prints ADDR.
address() {
  for _ in $(seq 1 600); do
    if addr="$(grep -o 'listening on http://[0-9.:]*' "$1" | head -1)" && [[ -n "$addr" ]]; then
      echo "${addr#listening on http://}"
      return 0
    fi
    sleep 0.1
  done
  echo "no listening line in $1" >&2
  cat "$1" >&2
  return 1
}

# A free loopback port.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

"$server" --addr 127.0.0.1:0 --api-key "$key:unlimited" --quiet 2>"$work/server.log" &
pids+=($!)
direct="$(address "$work/server.log")"

printf 'upstream-bench\n' >"$work/upstream.key"
"$server" --addr 127.0.0.1:0 --api-key upstream-bench:unlimited --quiet 2>"$work/upstream.log" &
pids+=($!)
upstream="$(address "$work/upstream.log")"
"$server" --addr 127.0.0.1:0 --upstream "http://$upstream" --upstream-key-file "$work/upstream.key" \
  --api-key "$key:unlimited" --quiet 2>"$work/proxy.log" &
pids+=($!)
proxy="$(address "$work/proxy.log")"

# The static file is the server's own answer.
mkdir -p "$work/www"
curl -sf -H "X-API-Key: $key" "http://$direct$path" -o "$work/www/markets.json"
gzip -9 -k "$work/www/markets.json"
chmod -R a+rX "$work/www"
port="$(free_port)"
cat >"$work/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  sendfile on;
  tcp_nopush on;
  server {
    listen 127.0.0.1:$port;
    root $work/www;
    location / {
      default_type application/json;
      gzip_static on;
      try_files /markets.json =404;
    }
  }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" &
pids+=($!)
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/" -o /dev/null && break; sleep 0.1; done

declare -A url=(
  [nginx]="http://127.0.0.1:$port$path"
  [server]="http://$direct$path"
  [proxy]="http://$proxy$path"
)
targets=(nginx server proxy)
clients=(identity "gzip, br")

# The proxy's entry is stored by a first request; every later one is a hit.
curl -sf -H "X-API-Key: $key" "${url[proxy]}" -o /dev/null
for t in "${targets[@]}"; do
  plain="$(curl -sf -H "X-API-Key: $key" "${url[$t]}" | wc -c)"
  gz="$(curl -sf -H "X-API-Key: $key" -H 'Accept-Encoding: gzip, br' -D "$work/$t.headers" "${url[$t]}" | wc -c)"
  echo "$t: $plain B identity; for \"gzip, br\": $(grep -i '^content-encoding' "$work/$t.headers" | tr -d '\r' || echo 'no content-encoding'), $gz B"
done

echo "nginx $(nginx -v 2>&1 | cut -d/ -f2), $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t2 -c$connections -d${seconds}s --latency, $rounds rounds; answer $(wc -c <"$work/www/markets.json") B, gzip -9 $(wc -c <"$work/www/markets.json.gz") B"

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
      out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "${headers[@]}" "${url[$t]}")"
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
# The median of one column of the results, for one client and target.
median() {
  awk -F'\t' -v c="$1" -v t="$2" -v col="$3" '$1 == c && $2 == t { print $col }' "$results" |
    sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
for client in "${clients[@]}"; do
  base_rps="$(median "$client" nginx 3)"
  base_p99="$(median "$client" nginx 4)"
  for t in "${targets[@]}"; do
    rps="$(median "$client" "$t" 3)"
    p99="$(median "$client" "$t" 4)"
    awk -v c="$client" -v t="$t" -v r="$rps" -v p="$p99" -v br="$base_rps" -v bp="$base_p99" 'BEGIN {
      printf "%-9s %-6s %9.0f req/s  %5.2fx   p99 %6.2f ms  %+6.2f ms\n", c, t, r, r / br, p, p - bp }'
  done
done
