#!/usr/bin/env bash
# What one request costs each target of targets.sh (nginx, the server, the
# proxy hit; with BASELINE_BIN, that binary's too), counted by the kernel
# rather than timed: for each target and kind of client, a `wrk` run while
# `perf stat` counts, in the target's processes only, the CPU time, the
# context switches and every system call it makes; printed divided by the
# requests it answered (its `writev`s: one an answer in every target).
# CPU time per request is the target's own cost, which the load of a
# shared machine moves less than req/s.
#
#   crates/server/bench/per_request.sh [SECONDS] [CONNECTIONS]
#
# Defaults: 5 s runs, `wrk -t2 -c32` (WRK_THREADS sets -t). Needs perf
# (linux-perf) with the syscalls tracepoints readable (root, or
# perf_event_paranoid ≤ 1). PROFILE=DIR also records each run's CPU
# samples with their stacks (`perf record -e cpu-clock --call-graph
# dwarf`: the release binaries have no frame pointers) into
# DIR/TARGET-CLIENT.data, and prints each folded by the stage of the
# request path its samples are in, in µs a request (fold_layers.py).
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
seconds="${1:-5}"
connections="${2:-32}"
threads="${WRK_THREADS:-2}"
command -v perf >/dev/null || { echo "needs perf: apt-get install -y linux-perf" >&2; exit 1; }
# shellcheck source=targets.sh
source "$(dirname "$0")/targets.sh"

# The system calls a server makes on its hot path, and those it should not.
calls=(read recvfrom readv write writev sendto sendmsg sendfile64 epoll_wait epoll_pwait
  epoll_ctl futex sched_yield setsockopt accept4 close)
events="task-clock,context-switches"
for c in "${calls[@]}"; do events+=",syscalls:sys_enter_$c"; done

[[ -n "${PROFILE:-}" ]] && mkdir -p "$PROFILE" && rm -f "$PROFILE/cpu_us"
echo "wrk -t$threads -c$connections -d${seconds}s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-10s %8s %8s %6s' client target req/s "cpu µs" ctxsw
for c in "${calls[@]}"; do printf ' %s' "$c"; done
echo "   (per request; calls under 0.005 a request left blank)"
for client in "${clients[@]}"; do
  for t in "${targets[@]}"; do
    headers=(-H "X-API-Key: $key")
    [[ "$client" != identity ]] && headers+=(-H "Accept-Encoding: $client")
    # The target's processes: nginx's workers, or the server itself.
    ids="$(pgrep -d, -P "${pid_of[$t]}" || true)"
    [[ "$t" != nginx* || -z "$ids" ]] && ids="${pid_of[$t]}"
    counted=$((seconds - 1))
    perf stat -x, -e "$events" -p "$ids" -o "$work/stat" -- sleep "$counted" &
    stat_pid=$!
    if [[ -n "${PROFILE:-}" ]]; then
      mkdir -p "$PROFILE"
      perf record -q -e cpu-clock -F 499 --call-graph dwarf,16384 -p "$ids" -o "$PROFILE/$t-${client%%,*}.data" -- sleep "$counted" \
        2>/dev/null &
      record_pid=$!
    fi
    out="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" "${headers[@]}" "${url[$t]}")"
    wait "$stat_pid"
    [[ -n "${PROFILE:-}" ]] && wait "$record_pid"
    rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
    # Requests counted by their writes: every target answers a request with
    # one `writev` (nginx its head, then `sendfile` for the file), so the
    # counters need not line up with wrk's own clock.
    awk -F, -v rps="$rps" -v c="$client" -v t="$t" '
      $3 == "task-clock" { cpu = $1 }
      $3 == "context-switches" { cs = $1 }
      $3 == "syscalls:sys_enter_writev" { n = $1 }
      $3 ~ /^syscalls:/ { v[++k] = $1 }
      END {
        printf "%-9s %-10s %8.0f %8.1f %6.2f", c, t, rps, cpu * 1000 / n, cs / n
        for (i = 1; i <= k; i++) if (v[i] / n < 0.005) printf " %s", "-"; else printf " %.2f", v[i] / n
        printf "\n" }' "$work/stat"
    if [[ -n "${PROFILE:-}" ]]; then
      awk -F, -v name="$t-${client%%,*}" '
        $3 == "task-clock" { cpu = $1 }
        $3 == "syscalls:sys_enter_writev" { n = $1 }
        END { printf "%s %.2f\n", name, cpu * 1000 / n }' "$work/stat" >>"$PROFILE/cpu_us"
    fi
  done
done
if [[ -n "${PROFILE:-}" ]]; then
  echo "where the CPU of a request goes, by stage (samples folded by fold_layers.py)"
  while read -r name us; do
    python3 "$(dirname "$0")/fold_layers.py" "$PROFILE/$name.data" "$us"
  done <"$PROFILE/cpu_us"
fi
