#!/usr/bin/env bash
# A cached list through the proxy: a release server as the
# upstream, a release proxy in front of it, then the load generator on one
# cached path at several connection counts (throughput and latency are one
# trade-off on a 2-core machine where the load generator shares the cores).
#
#   crates/server/proxy-bench.sh [REQUESTS] [CONNECTIONS...]
#
# Defaults: 100000 requests at 8, 16 and 32 connections. Prints one line
# per run (req/s, p50, p99, max) from `examples/load`. SERVER_BIN=PATH loads
# a server built already instead of this checkout's release build.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
requests="${1:-100000}"
shift || true
connections=(8 16 32)
if [[ $# -gt 0 ]]; then connections=("$@"); fi

cargo build --quiet --release -p predmarket-server --example load \
  --manifest-path "$root/Cargo.toml"
load="$target/release/examples/load"
# The server (SERVER_BIN, else this checkout's release build), `work`,
# `pids` and their clean-up, and `address`.
# shellcheck source=bench/release_server.sh
source "$root/crates/server/bench/release_server.sh"

"$server" --addr 127.0.0.1:0 --api-key upstream-bench:unlimited --quiet 2>"$work/upstream.log" &
pids+=($!)
upstream="$(address "$work/upstream.log")"
printf 'upstream-bench\n' >"$work/upstream.key"
"$server" --addr 127.0.0.1:0 --upstream "http://$upstream" --upstream-key-file "$work/upstream.key" \
  --api-key bench:unlimited --quiet 2>"$work/proxy.log" &
pids+=($!)
proxy="$(address "$work/proxy.log")"
echo "upstream http://$upstream, proxy http://$proxy ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
for n in "${connections[@]}"; do
  # The list stays fresh for 5 s and is then served while revalidating:
  # every request after the first is a cache hit.
  "$load" --url "http://$proxy" --key bench --requests "$requests" --connections "$n"
done
