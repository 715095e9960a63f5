#!/usr/bin/env bash
# `make bench-catalogue`: the catalogue's figures, on the realistic generator's feeds
# (make_big_catalog.py: scattered positions, Gutenberg–Richter magnitudes, ties, rows without
# magnitude, quoted places), with the release binary `make map` builds:
#   ingest 1 M rows into a new SQLite catalogue, then the same file again (all unchanged);
#   the same into PostgreSQL + PostGIS (a server of its own, fsync on: scripts/with_postgres.sh);
#   a 5 M-event catalogue ingested into each (peak memory), listed whole with every column (rows a
#   second) and drawn whole beside the same map from the file (peak memory), and by a server asked
#   for 16 such maps at once (its peak memory, the answers' statuses); the default map of the
#   last 365 days (wall time, peak memory); and the plan of a typical filtered read on the 5 M catalogue.
# RUNS (default 2) runs of each timed job; peak memory is the largest resident set, in MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
mkdir -p "$WORK"

if [ -z "${QUAKEMAP_TEST_POSTGRES:-}" ]; then
    # Again beside a PostgreSQL server of its own, fsync on as in production.
    exec env PG_FSYNC=on scripts/with_postgres.sh "$0" "$@"
fi

echo "building (release)…"
for product in quakemap quakemap-server; do
    swift build $(cat scripts/release-flags) --product "$product" \
        >"$WORK/build.txt" 2>&1 || { cat "$WORK/build.txt" >&2; echo "bench-catalogue: the build failed" >&2; exit 1; }
done
BIN=$PWD/.build/release/quakemap
SERVER=$PWD/.build/release/quakemap-server

. Benchmarks/realistic_feed.sh
ONE=$(realistic_feed 1000000)
FIVE=$(realistic_feed 5000000)
# The generator's newest event is at the end of 2025: "now" is pinned there.
NOW=2026-01-01T00:00:00Z

# timed LABEL COMMAND…: one run, wall seconds and peak MiB, and the summary line's counts.
timed() {
    local label=$1 start status=0
    shift
    start=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || status=$?
    local end=$EPOCHREALTIME
    if [ "$status" != 0 ]; then cat "$WORK/stderr.txt" >&2; echo "bench-catalogue: failed: $*" >&2; exit 1; fi
    local counts seconds
    counts=$(grep -oE '[0-9]+ new, [0-9]+ updated, [0-9]+ unchanged' "$WORK/stderr.txt" || true)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')
    # ROWS=N: also the rate, N rows over the wall time.
    [ -n "${ROWS:-}" ] && counts="$(awk -v n="$ROWS" -v s="$seconds" 'BEGIN {printf "%.0f k rows/s", n / s / 1000}') $counts"
    printf '%-58s %8.2f s %7.1f MiB  %s\n' "$label" "$seconds" \
        "$(awk '/^[0-9]+$/ {m = $1} END {print m / 1024}' "$WORK/time.txt")" "$counts"
}

# maps_at_once LABEL CATALOGUE: quakemap-server on CATALOGUE, and 16 requests at once for a map of
# every event (widths 1001…1016, so that none is answered from another's cached image): the
# slowest answer, the server's peak memory, and how many got each status.
maps_at_once() {
    local label=$1 catalogue=$2 port pid pids=() start
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$SERVER" --catalogue "$catalogue" --port "$port" --refresh 1h >"$WORK/server.txt" 2>&1 &
    pid=$!
    for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
    : >"$WORK/statuses.txt"
    start=$EPOCHREALTIME
    for i in $(seq 16); do
        curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$port/map.png?limit=100000000&width=$((1000 + i))" \
            >>"$WORK/statuses.txt" &
        pids+=($!)
    done
    wait "${pids[@]}"
    local seconds peak
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}')
    peak=$(awk '/VmHWM/ {print $2 / 1024}' "/proc/$pid/status")
    kill "$pid"; wait "$pid" || true
    printf '%-58s %8.2f s %7.1f MiB  %s\n' "$label" "$seconds" "$peak" \
        "$(sort "$WORK/statuses.txt" | uniq -c | awk '{printf "%s%s× %s", (NR > 1 ? ", " : ""), $1, $2}')"
}

PG_ADMIN_DIR=${QUAKEMAP_TEST_POSTGRES_ADMIN%:*}
PG_PORT=${QUAKEMAP_TEST_POSTGRES_ADMIN##*:}
psql_admin() { PGOPTIONS=--client-min-messages=warning psql -X -q -t -A -v ON_ERROR_STOP=1 -h "$PG_ADMIN_DIR" -p "$PG_PORT" -U postgres "$@"; }
new_database() {  # new_database NAME: empty, owned by the writer, as docs/catalogue.md makes one
    psql_admin -d postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1 OWNER quakemap_writer"
    psql_admin -d "$1" -f scripts/catalogue_database.sql
}
WRITER_URL=${QUAKEMAP_TEST_POSTGRES%/*}
READER_URL=${QUAKEMAP_TEST_POSTGRES_READER%/*}
export PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD

echo
echo "== ingest 1 M realistic rows ($(du -m "$ONE" | cut -f1) MB) =="
for run in $(seq "$RUNS"); do
    rm -f "$WORK/one.sqlite" "$WORK/one.sqlite-wal" "$WORK/one.sqlite-shm"
    timed "SQLite, new catalogue (target ≤ 15 s)" "$BIN" ingest "$ONE" --catalogue "$WORK/one.sqlite"
    timed "SQLite, the same file again (target ≤ 8 s)" "$BIN" ingest "$ONE" --catalogue "$WORK/one.sqlite"
done
for run in $(seq "$RUNS"); do
    new_database bench_one
    timed "PostgreSQL, new catalogue (target ≤ 30 s)" "$BIN" ingest "$ONE" --catalogue "$WRITER_URL/bench_one"
    timed "PostgreSQL, the same file again" "$BIN" ingest "$ONE" --catalogue "$WRITER_URL/bench_one"
done

echo
echo "== a 5 M-event catalogue ($(du -m "$FIVE" | cut -f1) MB of CSV) =="
rm -f "$WORK/five.sqlite" "$WORK/five.sqlite-wal" "$WORK/five.sqlite-shm"
timed "SQLite, ingest 5 M (≤ 512 MiB)" "$BIN" ingest "$FIVE" --catalogue "$WORK/five.sqlite"
new_database bench_five
timed "PostgreSQL, ingest 5 M (≤ 512 MiB)" "$BIN" ingest "$FIVE" --catalogue "$WRITER_URL/bench_five"
psql_admin -d bench_five -c "VACUUM ANALYZE events"
export PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_READER_PASSWORD

echo
echo "== the whole 5 M catalogue, streamed =="
for run in $(seq "$RUNS"); do
    ROWS=5000000 timed "SQLite → list --limit 0 --format csv --columns all (≥ 500 k rows/s, ≤ 128 MiB)" \
        "$BIN" list --catalogue "$WORK/five.sqlite" --limit 0 --format csv --columns all
    ROWS=5000000 timed "PostgreSQL → the same (≥ 250 k rows/s, ≤ 128 MiB)" \
        "$BIN" list --catalogue "$READER_URL/bench_five" --limit 0 --format csv --columns all
    timed "the file → render --limit 0 (the reference's memory)" "$BIN" render "$FIVE" --limit 0 -o "$WORK/five-all-file.png"
    timed "SQLite → render --limit 0 (≤ 1.25× the file's memory)" "$BIN" render --catalogue "$WORK/five.sqlite" --limit 0 \
        -o "$WORK/five-all-sqlite.png"
    timed "PostgreSQL → render --limit 0 (≤ 1.25× the file's memory)" "$BIN" render --catalogue "$READER_URL/bench_five" \
        --limit 0 -o "$WORK/five-all-pg.png"
done
for run in $(seq "$RUNS"); do
    maps_at_once "SQLite → 16 × /map.png of every event at once (≤ 1 GiB, 503s)" "$WORK/five.sqlite"
    maps_at_once "PostgreSQL → the same (≤ 1 GiB, 503s)" "$READER_URL/bench_five"
done
for run in $(seq "$RUNS"); do
    timed "SQLite → default map of the last 365 days (≤ 2 s, ≤ 128 MiB)" "$BIN" render --catalogue "$WORK/five.sqlite" \
        --now "$NOW" --since 365d -o "$WORK/five-sqlite.png"
    timed "PostgreSQL → the same map (≤ 3 s)" "$BIN" render --catalogue "$READER_URL/bench_five" \
        --now "$NOW" --since 365d -o "$WORK/five-postgres.png"
    timed "SQLite → every M4.5+ of 365 days in a box across 180°" "$BIN" render --catalogue "$WORK/five.sqlite" \
        --now "$NOW" --since 365d --min-mag 4.5 --bbox 120,-60,-60,60 --limit 0 -o "$WORK/five-box.png"
    timed "PostgreSQL → the same" "$BIN" render --catalogue "$READER_URL/bench_five" \
        --now "$NOW" --since 365d --min-mag 4.5 --bbox 120,-60,-60,60 --limit 0 -o "$WORK/five-box-pg.png"
done

echo
echo "== the plans of two filtered reads on the 5 M catalogue: the first page, as quakemap sends it =="
echo "   (a) --since 365d --min-mag 4.5 --bbox 120,-60,-60,60: the R*Tree holds more than 20,000 there, so plain bounds"
echo "   (b) --since 365d --bbox=10,10,11,11: 29 events in the R*Tree, read through it"
echo "-- SQLite (EXPLAIN QUERY PLAN, then the query timed)"
python3 - "$WORK/five.sqlite" <<'EOF'
import sqlite3, sys, time
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
columns = "seq, key, id, time_ms, latitude, longitude, depth, magnitude, magnitude_type, place, event_type, network, updated_ms, status"
reads = {
    "a": (f"""SELECT {columns} FROM events WHERE time_ms >= ? AND magnitude >= ? AND magnitude IS NOT NULL
AND ((longitude BETWEEN ? AND ? AND latitude BETWEEN ? AND ?) OR (longitude BETWEEN ? AND ? AND latitude BETWEEN ? AND ?))
ORDER BY time_ms DESC, seq LIMIT ?""", (1735689600000, 4.5, 120, 180, -60, 60, -180, -60, -60, 60, 50000)),
    "b": (f"""SELECT {columns} FROM events WHERE time_ms >= ? AND magnitude IS NOT NULL
AND seq IN (SELECT seq FROM events_position WHERE (max_longitude >= ? AND min_longitude <= ? AND max_latitude >= ? AND min_latitude <= ?))
ORDER BY time_ms DESC, seq LIMIT ?""", (1735689600000, 10, 11, 10, 11, 391)),
}
for name, (sql, args) in reads.items():
    print(f"   ({name})")
    for row in db.execute("EXPLAIN QUERY PLAN " + sql, args):
        print("     ", row[3])
    start = time.perf_counter()
    rows = db.execute(sql, args).fetchall()
    print(f"      {len(rows)} rows in {(time.perf_counter() - start) * 1000:.1f} ms")
EOF
echo "-- PostgreSQL (EXPLAIN ANALYZE)"
psql_admin -d bench_five <<'EOF'
\echo '   (a)'
EXPLAIN (ANALYZE, COSTS OFF)
SELECT seq, key, id, time_ms, latitude, longitude, depth, magnitude, magnitude_type, place, event_type, network, updated_ms, status
FROM events WHERE time_ms >= 1735689600000 AND magnitude >= 4.5 AND magnitude IS NOT NULL
  AND (position && ST_MakeEnvelope(120, -60, 180, 60, 4326) OR position && ST_MakeEnvelope(-180, -60, -60, 60, 4326))
ORDER BY time_ms DESC, seq LIMIT 50000;
\echo '   (b)'
EXPLAIN (ANALYZE, COSTS OFF)
SELECT seq, key, id, time_ms, latitude, longitude, depth, magnitude, magnitude_type, place, event_type, network, updated_ms, status
FROM events WHERE time_ms >= 1735689600000 AND magnitude IS NOT NULL AND (position && ST_MakeEnvelope(10, 10, 11, 11, 4326))
ORDER BY time_ms DESC, seq LIMIT 391;
EOF
