#!/usr/bin/env bash
# `make bench-tiles`: vector tiles.
#   a world PMTiles pyramid z0–z10 of 1 M realistic events (`quakemap tiles --encoding mvt`):
#     seconds, peak resident memory, the largest tile;
#   the server's CPU a tile from memory (quakemap-server on the 1 M file), for tiles where events
#     are at z0–z7 and at z8–z12 (user + system of its process over the tiles, /proc);
#   a 5 M-event PostGIS catalogue (the realistic generator's) served by quakemap-server (its index)
#     and by tipg (PostGIS ST_AsMVT on each request) on the same database and machine: tiles/s
#     for every tile of z0–z5 and for a mixed z3–z10 set where events are, each tile asked once
#     (nothing from a cache), 8 client threads; and how many of tipg's tiles stop at its 10,000
#     features (quakemap clusters instead: none is cut).
# RUNS (default 2) runs of the measured parts; PARTS (default "pyramid memory catalogue") which parts.
# PostgreSQL runs beside it (scripts/with_postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
ROWS=${ROWS:-5000000}
PARTS=${PARTS:-pyramid memory catalogue}
part() { [[ " $PARTS " == *" $1 "* ]]; }
mkdir -p "$WORK/tiles"
OUT=$(cd "$WORK/tiles" && pwd)

if [ -z "${QUAKEMAP_TEST_POSTGRES:-}" ]; then
    exec scripts/with_postgres.sh "$0" "$@"
fi

# tipg, uvicorn and the client's decoder, from PyPI, in a venv of the benchmark's own.
VENV=$HOME/.cache/quakemap/bench-tiles-$(sha1sum Benchmarks/tiles-requirements.txt | cut -c1-12)
if [ ! -x "$VENV/bin/uvicorn" ]; then
    echo "Installing Benchmarks/tiles-requirements.txt (PyPI) into $VENV…"
    rm -rf "$VENV" && python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check -r Benchmarks/tiles-requirements.txt
fi
PY=$VENV/bin/python

echo "building (release)…"
RELEASE=$(cat scripts/release-flags)
swift build $RELEASE --product quakemap >"$OUT/build.txt" 2>&1 && swift build $RELEASE --product quakemap-server >>"$OUT/build.txt" 2>&1 \
    || { cat "$OUT/build.txt" >&2; echo "bench-tiles: the build failed" >&2; exit 1; }
BIN=$PWD/.build/release

. Benchmarks/realistic_feed.sh
ONE=$(realistic_feed 1000000)
FIVE=$(realistic_feed "$ROWS")

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_quakemap LOG ARGUMENTS…: a quakemap-server; sets PORT and PID once it listens.
start_quakemap() {
    local log=$1
    shift
    PORT=$(free_port)
    "$BIN/quakemap-server" "$@" --port "$PORT" >/dev/null 2>"$log" &
    PID=$!
    PIDS+=("$PID")
    for _ in $(seq 1200); do
        grep -q "serving" "$log" && return
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.05
    done
    cat "$log" >&2
    echo "bench-tiles: quakemap-server did not start" >&2
    exit 1
}

# tiles_where_events_are CSV ZOOMS COUNT: COUNT tiles `z x y`, each where an event of CSV (every
# 97th row) lies, at a zoom of ZOOMS (a-b), drawn with a fixed seed; each tile once.
tiles_where_events_are() {
    python3 - "$@" <<'PY'
import csv, math, random, sys
path, zooms, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
low, high = map(int, zooms.split("-"))
random.seed(7)
points = []
with open(path, newline="") as handle:
    for index, row in enumerate(csv.DictReader(handle)):
        if index % 97 == 0 and row["mag"]:
            points.append((float(row["latitude"]), float(row["longitude"])))
tiles = set()
while len(tiles) < count:
    latitude, longitude = random.choice(points)
    zoom = random.randint(low, high)
    latitude = max(min(latitude, 85.0511), -85.0511)
    x = int((longitude + 180) / 360 * 2 ** zoom) % 2 ** zoom
    y = int((1 - math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2)) / math.pi) / 2 * 2 ** zoom)
    tiles.add((zoom, x, min(y, 2 ** zoom - 1)))
for tile in sorted(tiles):
    print(*tile)
PY
}

if part pyramid; then
echo
echo "== a world PMTiles pyramid z0–z10 of 1 M events"
for run in $(seq "$RUNS"); do
    /usr/bin/time -f "%e s, %M KB peak" "$BIN/quakemap" tiles "$ONE" --encoding mvt --zoom 0-10 -o "$OUT/world.pmtiles" \
        2>"$OUT/pyramid-$run.txt" || { cat "$OUT/pyramid-$run.txt" >&2; exit 1; }
    echo "run $run: $(tail -1 "$OUT/pyramid-$run.txt"); $(grep -o "[0-9]* vector tiles.*kB)" "$OUT/pyramid-$run.txt")"
done
fi

if part memory; then
echo
echo "== the server's CPU a tile from memory (the 1 M file)"
tiles_where_events_are "$ONE" 0-7 600 >"$OUT/low.txt"
tiles_where_events_are "$ONE" 8-12 600 >"$OUT/high.txt"
start_quakemap "$OUT/memory.log" "$ONE"
# The index of the snapshot is made by the first tile: asked once before the runs.
curl -s -o /dev/null "http://127.0.0.1:$PORT/collections/quakes/tiles/WebMercatorQuad/0/0/0?v=warm"
for run in $(seq "$RUNS"); do
    for set in low high; do
        echo "run $run, $set zooms ($([ $set = low ] && echo z0–z7 || echo z8–z12)): $("$PY" Benchmarks/tile_client.py \
            "http://127.0.0.1:$PORT/collections/quakes/tiles/WebMercatorQuad/{z}/{y}/{x}?v=$run" "$OUT/$set.txt" --threads 1 --pid "$PID")"
    done
done
kill "$PID"
fi

part catalogue || exit 0
echo
echo "== $ROWS events in PostGIS: quakemap-server against tipg"
PG_ADMIN_DIR=${QUAKEMAP_TEST_POSTGRES_ADMIN%:*}
PG_PORT=${QUAKEMAP_TEST_POSTGRES_ADMIN##*:}
psql_admin() { PGOPTIONS=--client-min-messages=warning psql -X -q -t -A -v ON_ERROR_STOP=1 -h "$PG_ADMIN_DIR" -p "$PG_PORT" -U postgres "$@"; }
psql_admin -d postgres -c "DROP DATABASE IF EXISTS bench_tiles WITH (FORCE)" -c "CREATE DATABASE bench_tiles OWNER quakemap_writer"
psql_admin -d bench_tiles -f scripts/catalogue_database.sql
WRITER=${QUAKEMAP_TEST_POSTGRES%/*}/bench_tiles
READER=${QUAKEMAP_TEST_POSTGRES_READER%/*}/bench_tiles
echo "ingesting $ROWS events…"
PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD "$BIN/quakemap" ingest "$FIVE" --catalogue "$WRITER" --quiet
# tipg keeps its functions in pg_temp: its role may make temporary tables.
psql_admin -d bench_tiles -c "VACUUM ANALYZE events" -c "GRANT TEMPORARY ON DATABASE bench_tiles TO quakemap_reader"
export PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_READER_PASSWORD

python3 -c 'print("\n".join(f"{z} {x} {y}" for z in range(6) for x in range(2 ** z) for y in range(2 ** z)))' >"$OUT/z0-5.txt"
tiles_where_events_are "$FIVE" 3-10 1000 >"$OUT/mixed.txt"

start_quakemap "$OUT/catalogue.log" --catalogue "$READER"
QPID=$PID
QPORT=$PORT
# The index is read once the server listens; /healthz says when it is ready.
for _ in $(seq 600); do
    curl -s "http://127.0.0.1:$QPORT/healthz" | grep -q '"tileIndex":"ready"' && break
    sleep 1
done
echo "quakemap-server: $(ps -o rss= -p "$QPID" | awk '{printf "%.0f MiB resident with its index", $1 / 1024}')"

TPORT=$(free_port)
DATABASE_URL="postgresql://quakemap_reader:$PGPASSWORD@127.0.0.1:$PG_PORT/bench_tiles" \
    TIPG_DB_SCHEMAS='["public"]' \
    "$VENV/bin/uvicorn" tipg.main:app --host 127.0.0.1 --port "$TPORT" --workers 2 --log-level warning >"$OUT/tipg.log" 2>&1 &
PIDS+=("$!")
for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$TPORT/collections" && break; sleep 0.1; done
curl -sf -o /dev/null "http://127.0.0.1:$TPORT/collections/public.events" || { cat "$OUT/tipg.log" >&2; echo "bench-tiles: tipg does not serve the events table" >&2; exit 1; }
TIPG_PROPERTIES="properties=id,magnitude,magnitude_type,time_ms,updated_ms,depth,place,event_type,status,network"
TIPG_URL="http://127.0.0.1:$TPORT/collections/public.events/tiles/WebMercatorQuad/{z}/{x}/{y}?geom-column=position&$TIPG_PROPERTIES"

for run in $(seq "$RUNS"); do
    for set in z0-5 mixed; do
        echo "run $run, $set:"
        echo "  quakemap: $("$PY" Benchmarks/tile_client.py \
            "http://127.0.0.1:$QPORT/collections/quakes/tiles/WebMercatorQuad/{z}/{y}/{x}?v=$run" "$OUT/$set.txt" --count 10000)"
        echo "  tipg:     $("$PY" Benchmarks/tile_client.py "$TIPG_URL" "$OUT/$set.txt" --count 10000)"
    done
done
