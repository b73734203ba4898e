#!/usr/bin/env python3
"""Where in time and on which connections a run's slow requests fall.

Reads traces written by `examples/load.rs --trace FILE` or
`tail_trace.sh` (lines `at_us latency_us connection [x-cache]` after a
`# began_unix_us N` line) and prints, for
each: the latency percentiles; the requests slower than the run's p99
grouped by window (`--window-ms`, default 100), with how concentrated
they are (the share of them in the busiest tenth of the windows: about
a tenth when they are spread evenly, near all of it when they cluster);
the busiest windows, as seconds into the run and wall-clock time (to
line up with logs and `perf` records); and how they spread over the
connections. With `--connections N` (the run's), also the p99 wrk
reports for the run: wrk 4 corrects its latencies for coordinated
omission (`stats_correct` in wrk.c: a request that took L is recorded
with extra samples at L - e, L - 2e, ... down to e, where e is the run's
time divided by the requests a connection made), so one stall of S ms
on C connections adds about C * S / e samples between e and S, and
wrk's "99%" is often set by a few stalls rather than by the requests'
own p99; the share of those extra samples from requests sent in the
first 300 ms, and within 300 ms of a proxy refresh (answers whose
X-Cache is not HIT), says where they come from. Also, for the server's
pages kept for their second (`encoding::whole`), the requests that were
in flight when a wall-clock second turned (sent before it and answered
after, or sent in its first `--turn-ms`, default 2): their share of the
requests, of those over p99 and of wrk's added samples, and their own
percentiles against the others'.

    bench/tail_times.py [--window-ms 100] [--turn-ms 2] [--connections N] TRACE...
"""
import argparse
import datetime


def read(path):
    began = 0
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("# began_unix_us"):
                began = int(line.split()[2])
                continue
            fields = line.split()
            at, latency, connection = (int(x) for x in fields[:3])
            rows.append((at, latency, connection, fields[3] if len(fields) > 3 else "-"))
    return began, rows


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(round((len(sorted_values) - 1) * p)))]


def report(path, window_ms):
    began, rows = read(path)
    latencies = sorted(r[1] for r in rows)
    p50, p99, p999 = (percentile(latencies, p) for p in (0.5, 0.99, 0.999))
    span_s = (rows[-1][0] - rows[0][0]) / 1e6 if rows else 0
    print(f"{path}: {len(rows)} requests in {span_s:.2f} s; p50 {p50 / 1000:.2f} ms, "
          f"p99 {p99 / 1000:.2f} ms, p99.9 {p999 / 1000:.2f} ms, max {latencies[-1] / 1000:.2f} ms")
    slow = [r for r in rows if r[1] > p99]
    windows = {}
    for at, latency, *_ in rows:
        w = windows.setdefault(at // (window_ms * 1000), [0, 0])
        w[0] += 1
        if latency > p99:
            w[1] += 1
    ranked = sorted(windows.items(), key=lambda kv: -kv[1][1])
    tenth = max(1, len(ranked) // 10)
    in_top = sum(w[1] for _, w in ranked[:tenth])
    print(f"  {len(slow)} requests over p99, in {sum(1 for _, w in ranked if w[1])} of {len(ranked)} "
          f"windows of {window_ms} ms; the busiest tenth of the windows holds "
          f"{100 * in_top / max(1, len(slow)):.0f} % of them")
    for index, (w, (count, slow_count)) in enumerate(ranked[:8]):
        start_us = w * window_ms * 1000
        wall = datetime.datetime.fromtimestamp((began + start_us) / 1e6, datetime.timezone.utc)
        worst = max(r[1] for r in rows if r[0] // (window_ms * 1000) == w)
        print(f"    at {start_us / 1e6:6.2f} s ({wall:%H:%M:%S.%f}"[:-3] + f"): {slow_count} of {count} "
              f"requests over p99, worst {worst / 1000:.2f} ms")
    per_connection = {}
    for _, _, connection, _ in slow:
        per_connection[connection] = per_connection.get(connection, 0) + 1
    counts = sorted(per_connection.values(), reverse=True)
    print(f"  over p99 by connection: {len(per_connection)} connections, most {counts[:5]}, "
          f"least {counts[-3:]}")


def as_wrk(rows, connections):
    """wrk's corrected p99 (its `stats_correct`), and where the extra
    samples come from."""
    latencies = [r[1] for r in rows]
    runtime = rows[-1][0] - rows[0][0] + latencies[-1]
    e = runtime / (len(latencies) / connections)
    counts = {}
    for latency in latencies:
        counts[latency] = counts.get(latency, 0) + 1

    def extra(latency):
        return int((latency - e) / e) if latency >= 2 * e else 0

    for latency, count in list(counts.items()):
        m = latency - e
        while latency >= 2 * e and m > e:
            counts[int(m)] = counts.get(int(m), 0) + count
            m -= e
    total = sum(counts.values())
    seen = 0
    p99 = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= 0.99 * total:
            p99 = value
            break
    refreshes = [r[0] for r in rows if r[3] not in ("HIT", "-")]
    added = sum(extra(r[1]) for r in rows)
    first = sum(extra(r[1]) for r in rows if r[0] < 300_000)
    near = sum(extra(r[1]) for r in rows
               if r[0] >= 300_000 and any(abs(r[0] - t) < 300_000 for t in refreshes[::10]))
    print(f"  as wrk reports it: p99 {p99 / 1000:.2f} ms ({added} samples added to {len(rows)}, "
          f"e = {e / 1000:.2f} ms); of the added, {100 * first / max(1, added):.0f} % from the first 300 ms, "
          f"{100 * near / max(1, added):.0f} % within 300 ms of a refresh ({len(refreshes)} answers not HIT)")


def at_turn(began, row, turn_us):
    """Whether the request was in flight as a wall-clock second turned."""
    sent = began + row[0]
    return sent // 1_000_000 != (sent + row[1]) // 1_000_000 or sent % 1_000_000 < turn_us


def turns(path, connections, turn_ms):
    """The requests in flight when a second turned, against the rest."""
    began, rows = read(path)
    if not rows:
        return
    turn_us = turn_ms * 1000
    latencies = sorted(r[1] for r in rows)
    p99 = percentile(latencies, 0.99)
    at = [r for r in rows if at_turn(began, r, turn_us)]
    rest = sorted(r[1] for r in rows if not at_turn(began, r, turn_us))
    at_lat = sorted(r[1] for r in at)
    slow_at = sum(1 for r in at if r[1] > p99)
    slow = sum(1 for r in rows if r[1] > p99)
    line = (f"  at a second's turn (in flight across it, or sent in its first {turn_ms} ms): "
            f"{len(at)} requests ({100 * len(at) / len(rows):.1f} %), "
            f"{100 * slow_at / max(1, slow):.0f} % of those over p99")
    if connections:
        e = (rows[-1][0] - rows[0][0] + latencies[-1]) / (len(latencies) / connections)

        def extra(latency):
            return int((latency - e) / e) if latency >= 2 * e else 0

        added = sum(extra(r[1]) for r in rows)
        line += f", {100 * sum(extra(r[1]) for r in at) / max(1, added):.0f} % of wrk's added samples"
    print(line)
    if at_lat and rest:
        print(f"    their p50 / p99 / max {percentile(at_lat, 0.5) / 1000:.2f} / "
              f"{percentile(at_lat, 0.99) / 1000:.2f} / {at_lat[-1] / 1000:.2f} ms; "
              f"the others' {percentile(rest, 0.5) / 1000:.2f} / {percentile(rest, 0.99) / 1000:.2f} / "
              f"{rest[-1] / 1000:.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--window-ms", type=int, default=100)
    parser.add_argument("--connections", type=int, help="the run's, to print wrk's corrected p99")
    parser.add_argument("--turn-ms", type=int, default=2,
                        help="a request sent this soon after a second turned counts as at the turn")
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    for path in args.traces:
        report(path, args.window_ms)
        if args.connections:
            as_wrk(read(path)[1], args.connections)
        turns(path, args.connections, args.turn_ms)


if __name__ == "__main__":
    main()
