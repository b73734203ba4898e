#!/usr/bin/env bash
# Heap allocations per request of the server and the proxy hit (with
# BASELINE_BIN, that binary's too, in the same run), counted by uprobes on
# mimalloc's entry points while `wrk` loads each target: a count, which the
# load of a shared machine does not move, where CPU time per request
# (per_request.sh) varies by a third between runs at load 7 – 11.
#
#   crates/server/bench/allocations.sh [SECONDS] [CONNECTIONS]
#
# Needs perf with uprobes (root). The probes are removed on exit.
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
seconds="${1:-3}"
connections="${2:-32}"
command -v perf >/dev/null || { echo "needs perf: apt-get install -y linux-perf" >&2; exit 1; }
# shellcheck source=targets.sh
source "$(dirname "$0")/targets.sh"

# The global allocator's entry points (mimalloc's aligned calls are what
# `mimalloc::MiMalloc` makes), one probe group per binary.
entries=(mi_malloc_aligned mi_zalloc_aligned mi_realloc_aligned)
declare -A group_of
groups=()
probe() {
  local binary="$1" group
  group="alloc_$(sha256sum "$binary" | cut -c1-8)"
  group_of[$binary]="$group"
  [[ " ${groups[*]} " == *" $group "* ]] && return 0
  for e in "${entries[@]}"; do
    perf probe -q -x "$binary" -a "$group:${e}_${group#alloc_}=$e" 2>/dev/null || true
  done
  groups+=("$group")
}
trap 'for g in "${groups[@]}"; do perf probe -q -d "$g:*" 2>/dev/null || true; done; cleanup' EXIT
probe "$server"
[[ -n "${BASELINE_BIN:-}" ]] && probe "$BASELINE_BIN"
declare -A binary_of=([server]="$server" [proxy]="$server")
[[ -n "${BASELINE_BIN:-}" ]] && binary_of+=([base]="$BASELINE_BIN" [base-proxy]="$BASELINE_BIN")

echo "wrk -t2 -c$connections -d${seconds}s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-10s %8s %8s %8s\n' client target malloc zalloc realloc
for client in "${clients[@]}"; do
  for t in "${targets[@]}"; do
    [[ "$t" == nginx* ]] && continue
    group="${group_of[${binary_of[$t]}]}"
    headers=(-H "X-API-Key: $key")
    [[ "$client" != identity ]] && headers+=(-H "Accept-Encoding: $client")
    events="syscalls:sys_enter_writev"
    for e in "${entries[@]}"; do events+=",$group:${e}_${group#alloc_}"; done
    perf stat -x, -e "$events" -p "${pid_of[$t]}" -o "$work/stat" -- sleep "$((seconds - 1))" &
    stat_pid=$!
    wrk -t2 -c"$connections" -d"${seconds}s" "${headers[@]}" "${url[$t]}" >/dev/null
    wait "$stat_pid"
    # Per answer written (one `writev` each, as in per_request.sh).
    awk -F, -v c="$client" -v t="$t" '
      $3 == "syscalls:sys_enter_writev" { n = $1 }
      $3 ~ /:mi_malloc/ { m = $1 } $3 ~ /:mi_zalloc/ { z = $1 } $3 ~ /:mi_realloc/ { r = $1 }
      END { printf "%-9s %-10s %8.1f %8.1f %8.1f\n", c, t, m / n, z / n, r / n }' "$work/stat"
  done
done
