#!/usr/bin/env python3
"""Where in time and on which connections a run's slow requests fall.

Reads traces written by `examples/load.rs --trace FILE` (lines `at_us
latency_us connection` after a `# began_unix_us N` line) and prints, for
each: the latency percentiles; the requests slower than the run's p99
grouped by window (`--window-ms`, default 100), with how concentrated
they are (the share of them in the busiest tenth of the windows: about
a tenth when they are spread evenly, near all of it when they cluster);
the busiest windows, as seconds into the run and wall-clock time (to
line up with logs and `perf` records); and how they spread over the
connections.

    bench/tail_times.py [--window-ms 100] TRACE...
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
            at, latency, connection = (int(x) for x in line.split())
            rows.append((at, latency, connection))
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
    for at, latency, _ in rows:
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
    for _, _, connection in slow:
        per_connection[connection] = per_connection.get(connection, 0) + 1
    counts = sorted(per_connection.values(), reverse=True)
    print(f"  over p99 by connection: {len(per_connection)} connections, most {counts[:5]}, "
          f"least {counts[-3:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--window-ms", type=int, default=100)
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    for path in args.traces:
        report(path, args.window_ms)


if __name__ == "__main__":
    main()
