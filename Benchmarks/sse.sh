#!/usr/bin/env bash
# The change stream's part of `make bench-servers` (Benchmarks/servers.sh runs it last; alone:
# `PARTS=sse make bench-servers`, or Benchmarks/sse.sh): quakemap-server's Server-Sent Events,
# /collections/quakes/changes, on a PostgreSQL + PostGIS catalogue of SSE_ROWS (100,000) events of the
# realistic generator (Benchmarks/make_big_catalog.py), database bench_sse. RUNS (default 2) runs, each
# on one replica started afresh with the default heartbeat (25 s; HEARTBEAT=SECONDS to pass another):
#   CLIENTS (5,000) clients connect (Benchmarks/sse_client.py: asyncio streams in 2 processes), then
#     `quakemap ingest` of 100 new events (the generator's rows after the catalogue's, new ids, moved to
#     the last hour): when the last client has all 100, from the ingest's commit (when it exits) and
#     from its start, and p50/p99/max of the clients (target ≤ 2 s); clients that failed to connect,
#     got a reload instead, or fell short;
#   the replica's resident memory (VmRSS every 50 ms): idle, with the clients connected, peak
#     (target: peak ≤ idle + 256 MiB);
#   the clients idle for IDLE (60) s: the replica's CPU, all and beyond the heartbeats' bursts (target
#     ≤ 1 % of a core), and the heartbeats the clients received; and, before they connect, the replica
#     alone for BASELINE (20) s.
# The tables go to $WORK/servers/sse/results.md, every figure to run-N.json. BIN=DIR takes quakemap and
# quakemap-server from DIR instead of building them into .build/release (servers.sh passes its own).
# PostgreSQL runs beside it with fsync on (scripts/with_postgres.sh, unless one is given).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
SSE_ROWS=${SSE_ROWS:-100000}
CLIENTS=${CLIENTS:-5000}
IDLE=${IDLE:-60}
BASELINE=${BASELINE:-20}
NEW=100
mkdir -p "$WORK/servers/sse"
OUT=$(cd "$WORK/servers/sse" && pwd)

if [ -z "${QUAKEMAP_TEST_POSTGRES:-}" ]; then
    exec env PG_FSYNC=on scripts/with_postgres.sh "$0" "$@"
fi

if [ -z "${BIN:-}" ]; then
    echo "building (release)…"
    RELEASE=$(cat scripts/release-flags)
    # shellcheck disable=SC2086
    swift build $RELEASE --product quakemap >"$OUT/build.txt" 2>&1 && swift build $RELEASE --product quakemap-server >>"$OUT/build.txt" 2>&1 \
        || { cat "$OUT/build.txt" >&2; echo "bench-servers (sse): the build failed" >&2; exit 1; }
    BIN=$PWD/.build/release
fi

# The catalogue, and after it in the same feed the rows each run ingests (new ids: the generator's ids
# follow its rows).
. Benchmarks/realistic_feed.sh
FEED=$(realistic_feed $((SSE_ROWS + NEW * RUNS)))
head -n $((SSE_ROWS + 1)) "$FEED" >"$OUT/catalogue.csv"

PG_ADMIN_DIR=${QUAKEMAP_TEST_POSTGRES_ADMIN%:*}
PG_PORT=${QUAKEMAP_TEST_POSTGRES_ADMIN##*:}
psql_admin() { PGOPTIONS=--client-min-messages=warning psql -X -q -t -A -v ON_ERROR_STOP=1 -h "$PG_ADMIN_DIR" -p "$PG_PORT" -U postgres "$@"; }
psql_admin -d postgres -c "DROP DATABASE IF EXISTS bench_sse WITH (FORCE)" -c "CREATE DATABASE bench_sse OWNER quakemap_writer"
psql_admin -d bench_sse -f scripts/catalogue_database.sql
WRITER=${QUAKEMAP_TEST_POSTGRES%/*}/bench_sse
READER=${QUAKEMAP_TEST_POSTGRES_READER%/*}/bench_sse
echo "ingesting $SSE_ROWS events for the change stream…"
PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD "$BIN/quakemap" ingest "$OUT/catalogue.csv" --catalogue "$WRITER" --quiet
psql_admin -d bench_sse -c "VACUUM ANALYZE events"

# new_events RUN: run RUN's rows in the USGS layout, moved in time so that the newest is a minute old
# (the intervals between them kept; `updated` no later than now).
new_events() {
    python3 - "$FEED" "$((SSE_ROWS + NEW * ($1 - 1)))" "$NEW" "$OUT/new-$1.csv" <<'PY'
import csv, datetime, itertools, sys
feed, skip, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
stamp = "%Y-%m-%dT%H:%M:%S.%fZ"
def parse(text): return datetime.datetime.strptime(text, stamp)
def write(moment): return moment.strftime(stamp)[:-4] + "Z"
with open(feed, newline="", encoding="utf-8") as f:
    reader = csv.reader(f)
    header = next(reader)
    rows = list(itertools.islice(reader, skip, skip + count))
assert len(rows) == count, f"{feed}: {len(rows)} rows after {skip}, not {count}"
time, updated = header.index("time"), header.index("updated")
now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
shift = now - datetime.timedelta(minutes=1) - max(parse(row[time]) for row in rows)
for row in rows:
    row[updated] = write(min(now, parse(row[updated]) + shift))
    row[time] = write(parse(row[time]) + shift)
with open(out, "w", newline="", encoding="utf-8") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
PY
}

SERVER=
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
    cp "$PG_ADMIN_DIR/server.log" "$OUT/postgres.log" 2>/dev/null || true
}
trap cleanup EXIT

{
    echo
    echo "## The change stream (SSE): $CLIENTS clients on one replica, $SSE_ROWS-event PostgreSQL catalogue, $(date -u +%Y-%m-%dT%H:%MZ), $(git describe --always --dirty 2>/dev/null || echo '?')"
} | tee "$OUT/results.md"
for run in $(seq "$RUNS"); do
    new_events "$run"
    log=$OUT/replica-$run.log
    # shellcheck disable=SC2086
    PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_READER_PASSWORD "$BIN/quakemap-server" --catalogue "$READER" --port 0 \
        ${HEARTBEAT:+--heartbeat "$HEARTBEAT"} >/dev/null 2>"$log" &
    SERVER=$!
    PORT=
    for _ in $(seq 600); do
        PORT=$(sed -n 's|.*serving .* on http://[^:]*:\([0-9]*\)/.*|\1|p' "$log")
        [ -n "$PORT" ] && break
        kill -0 "$SERVER" 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$PORT" ] || { cat "$log" >&2; echo "bench-servers (sse): the replica did not start" >&2; exit 1; }
    echo | tee -a "$OUT/results.md"
    python3 Benchmarks/sse_client.py "http://127.0.0.1:$PORT/collections/quakes/changes" \
        --pid "$SERVER" --clients "$CLIENTS" --processes 2 --expect "$NEW" --idle "$IDLE" --baseline "$BASELINE" \
        --json "$OUT/run-$run.json" --label "run $run" \
        -- env PGPASSWORD="$QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD" "$BIN/quakemap" ingest "$OUT/new-$run.csv" --catalogue "$WRITER" --quiet \
        | tee -a "$OUT/results.md"
    kill "$SERVER"
    wait "$SERVER" 2>/dev/null || true
    SERVER=
    warnings=$(grep -ciE "warning|error" "$log" || true)
    [ "$warnings" = 0 ] || echo "the replica logged $warnings warnings or errors: $log" | tee -a "$OUT/results.md"
done
