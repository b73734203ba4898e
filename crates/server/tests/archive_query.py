"""Reads a recorded archive as its users do, with DuckDB and pyarrow.

    python archive_query.py DOCS_MD ID AT_MS

Run from the directory that holds the archive as `archive/`. Prints one
JSON object: the rows as DuckDB reads them, the rows as pyarrow reads
them (each as [kind, id, seq, continuity, gap_ms, received_ms, answer]),
and, for each ```sql block of DOCS_MD, how many rows it gave with `$id`
bound to ID and `$at` to AT_MS (unix ms).
"""

import datetime
import json
import re
import sys

import duckdb
import pyarrow.dataset as ds

COLUMNS = ["kind", "id", "seq", "continuity", "gap_ms", "received_ms", "answer"]


def main():
    docs, ident, at_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
    con = duckdb.connect()
    by_duckdb = con.execute(
        "SELECT kind, id, seq, continuity, gap_ms, epoch_ms(received) AS received_ms, answer "
        "FROM read_parquet('archive/**/*.parquet', hive_partitioning = true) "
        "ORDER BY received_ms, kind, id, seq"
    ).fetchall()
    table = ds.dataset("archive", format="parquet", partitioning="hive").to_table()
    rows = table.to_pylist()
    by_pyarrow = sorted(
        (
            [
                r["kind"],
                r["id"],
                r["seq"],
                r["continuity"],
                r["gap_ms"],
                int(r["received"].timestamp() * 1000 + 0.5),
                r["answer"],
            ]
            for r in rows
        ),
        key=lambda r: (r[5], r[0], r[1], r[2]),
    )
    # Bound as text (DuckDB casts it): Python datetimes with a time zone
    # would need pytz.
    at = datetime.datetime.fromtimestamp(at_ms / 1000, tz=datetime.timezone.utc).isoformat()
    queries = []
    text = open(docs, encoding="utf-8").read()
    for sql in re.findall(r"```sql\n(.*?)```", text, re.S):
        params = {k: v for k, v in (("id", ident), ("at", at)) if "$" + k in sql}
        # Counted in Arrow: timestamps with a time zone fetched as Python
        # objects would need pytz too.
        result = con.execute(sql, params).to_arrow_table()
        queries.append({"sql": sql, "rows": result.num_rows})
    json.dump(
        {
            "duckdb": [list(r) for r in by_duckdb],
            "pyarrow": by_pyarrow,
            "queries": queries,
        },
        sys.stdout,
        default=str,
    )


main()
