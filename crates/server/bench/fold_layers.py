#!/usr/bin/env python3
# Folds a `perf record --call-graph dwarf` profile of the server by the
# stage of the request path each sample is in: the kernel, the allocator
# and memmove/memcpy by the sample's own symbol; anything else by the
# innermost frame of its stack that names a stage (hyper's parse and
# encode, axum's routing, each tower layer, the operation middleware, the
# handler, the proxy, tokio). Prints each stage's share of the samples
# and, given the target's CPU µs per request (per_request.sh), its µs.
#
#   crates/server/bench/fold_layers.py PERF_DATA [CPU_US_PER_REQUEST]
#
# Used by per_request.sh when PROFILE=DIR is set.
import re
import subprocess
import sys
from collections import Counter

# Stages by the leading path of a frame's own item (for `<T as Trait>::f`,
# T's path), first match wins. Order: the most specific first.
STAGES = [
    ("boxed route clone (axum Route)", r"^tower::util::boxed_clone_sync|^axum::routing::route::Route"),
    ("CORS", r"^tower_http::cors"),
    ("constant headers", r"^predmarket_server::layers|^tower::util::map_response"),
    ("in-flight cap", r"^predmarket_server::guard::InFlight|^predmarket_server::guard::in_flight"),
    ("timeout", r"^tower::timeout|^axum::error_handling"),
    ("catch-panic", r"^tower_http::catch_panic"),
    ("compression (tower-http)", r"^tower_http::compression|^async_compression|^flate2"),
    ("kept-part encode", r"^predmarket_server::encoding"),
    ("operation middleware (key, rate, faults)", r"^predmarket_server::operation|^predmarket_server::auth|^predmarket_server::faults|^predmarket_server::guard|^predmarket_server::front"),
    ("axum from_fn", r"^axum::middleware"),
    ("handler (routes, cursor, data)", r"^predmarket_server::routes|^predmarket_server::cursor|^predmarket_server::data|^predmarket_server::query|^sha2|^hmac"),
    ("proxy", r"^predmarket_server::proxy"),
    ("connection (listen, IdleTimeout)", r"^predmarket_server::listen|^hyper_util"),
    ("axum routing and extraction", r"^axum|^matchit"),
    ("hyper parse", r"^hyper::proto::h1::role::.*parse|^httparse|^hyper::proto::h1::io.*parse"),
    ("hyper encode and write", r"^hyper::proto::h1::role|^hyper::proto::h1::encode|^hyper::proto::h1::io"),
    ("hyper dispatch", r"^hyper"),
    ("http types (HeaderMap, extensions)", r"^http::"),
    ("tokio", r"^tokio"),
]
COMPILED = [(name, re.compile(pattern)) for name, pattern in STAGES]

FRAME = re.compile(r"^\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")


def item_path(symbol):
    """The leading path of a frame's own item: `<T<..> as Tr>::f` -> T."""
    symbol = re.sub(r"\+0x[0-9a-f]+$", "", symbol)
    if symbol.startswith("core::ptr::drop_in_place<"):
        symbol = symbol[len("core::ptr::drop_in_place<"):]
    symbol = symbol.lstrip("<&*")
    symbol = re.sub(r"^(mut |dyn |const )+", "", symbol)
    return re.split(r"[< (]", symbol, maxsplit=1)[0]


def leaf_stage(symbol, dso):
    if "kernel" in dso or dso.startswith("[") and dso != "[unknown]":
        return "kernel"
    if re.search(r"(^|_)mi_|mimalloc", symbol):
        return "allocator (mimalloc)"
    if re.search(r"memmove|memcpy|memset|memcmp", symbol):
        return "memmove, memcpy (libc)"
    return None


def stage_of(frames):
    """`frames` leaf first, each (symbol, dso)."""
    if not frames:
        return "unknown"
    leaf = leaf_stage(*frames[0])
    if leaf:
        return leaf
    for symbol, _dso in frames:
        path = item_path(symbol)
        for name, pattern in COMPILED:
            if pattern.search(path):
                return name
    if "libc" in frames[0][1]:
        return "libc (other)"
    return "other"


def samples(data):
    out = subprocess.run(
        ["perf", "script", "-i", data, "--no-inline", "-F", "ip,sym,dso"],
        capture_output=True, text=True, check=True,
    ).stdout
    frames = []
    for line in out.splitlines():
        if not line.strip():
            if frames:
                yield frames
            frames = []
            continue
        match = FRAME.match(line)
        if match:
            frames.append((match.group(1), match.group(2)))
    if frames:
        yield frames


def main():
    data = sys.argv[1]
    cpu_us = float(sys.argv[2]) if len(sys.argv) > 2 else None
    counts = Counter(stage_of(frames) for frames in samples(data))
    total = sum(counts.values())
    print(f"{data}: {total} samples" + (f", {cpu_us:.1f} CPU µs a request" if cpu_us else ""))
    for name, count in counts.most_common():
        share = count / total
        us = f"{share * cpu_us:6.2f} µs" if cpu_us else ""
        print(f"  {share * 100:5.1f} %  {us}  {name}")


if __name__ == "__main__":
    main()
