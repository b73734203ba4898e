#!/usr/bin/env bash
# Property-based API tests of the reference server against its own OpenAPI
# document, with schemathesis from PyPI (installed into a venv under
# target/, so nothing touches the system Python).
#
#   crates/server/schemathesis.sh [URL] [API_KEY]
#
# With a URL, tests the server there (it needs a key with a large budget,
# e.g. started with `--api-key KEY:unlimited`). Without one, builds the
# server, starts it on a free loopback port with such a key, and stops it
# afterwards. Extra options for `st run` go in ST_ARGS, e.g.
# ST_ARGS="--max-examples 20". Exits non-zero on any failed check, and
# in particular on any 5xx.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/schemathesis/venv"
version="${SCHEMATHESIS_VERSION:-4.32.5}"

# A venv is not relocatable: its scripts name its own path. One copied or
# moved (a build cache seeded from another clone) is rebuilt, not trusted.
if ! "$venv/bin/st" --version >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==$version"
fi

url="${1:-}"
key="${2:-schemathesis}"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT

if [[ -z "$url" ]]; then
  cargo build --quiet --release -p predmarket-server --manifest-path "$root/Cargo.toml"
  log="$target/schemathesis/server.log"
  "$target/release/predmarket-server" --addr 127.0.0.1:0 --api-key "$key:unlimited" \
    --quiet 2>"$log" &
  server_pid=$!
  for _ in $(seq 1 200); do
    url="$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log" | head -n1)"
    [[ -n "$url" ]] && break
    sleep 0.05
  done
  [[ -n "$url" ]] || { echo "the server did not start" >&2; cat "$log" >&2; exit 1; }
fi

# Checks: every answer is documented (status, content type, headers,
# schema) and none is a server error. `positive_data_acceptance` is left
# out: a well-formed but unknown id is a documented 404, and a random
# cursor a documented 400.
"$venv/bin/st" run "$url/openapi.json" \
  --header "X-API-Key: $key" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,negative_data_rejection \
  --workers 2 \
  ${ST_ARGS:-}
