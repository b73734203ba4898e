#!/usr/bin/env bash
# The archive read as its users read it: DuckDB and pyarrow from PyPI
# (installed into a venv under the target dir, so nothing touches the
# system Python), then the recorder's tests, which hand the archive they
# wrote to crates/server/tests/archive_query.py and compare its rows and
# the queries of docs/record.md with what the server wrote. Then the
# recorder's S3 backend against moto's S3-compatible server (PyPI
# `moto[server]`, same venv), required here: missing, it fails.
#
#   crates/server/archive_query.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/archive-query/venv"

# A venv is not relocatable: one copied or moved is rebuilt, not trusted.
if ! "$venv/bin/python" -c "import duckdb, pyarrow, moto.server" >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "duckdb==${DUCKDB_VERSION:-2.0.0}" "pyarrow==${PYARROW_VERSION:-26.0.1}" \
    "moto[server]==${MOTO_VERSION:-5.2.5}"
fi

PREDMARKET_ARCHIVE_PYTHON="$venv/bin/python" \
  cargo test --quiet -p predmarket-server --manifest-path "$root/Cargo.toml" --test record

PREDMARKET_MOTO_SERVER="$venv/bin/moto_server" PREDMARKET_REQUIRE_MOTO=1 \
  cargo test --quiet -p predmarket-server --manifest-path "$root/Cargo.toml" --test record_s3
