#!/usr/bin/env bash
# `make bench-servers`: quakemap-server on a 5 M-event PostgreSQL + PostGIS catalogue (the realistic
# generator's, Benchmarks/make_big_catalog.py), against pygeoapi's PostgreSQL provider on the same
# database and the same machine, then replicas behind nginx (docs/deploy/nginx-quakemap.conf).
#   start time and resident memory of one replica;
#   six items queries, each by wrk at 64 connections for DURATION: req/s, the server's CPU a
#     request (user + system of its processes, /proc, over the requests completed), p50, p99;
#   two replicas behind nginx, each pinned to a core (taskset), against one replica on one core,
#     with distinct queries (nothing from the cache): req/s, and CPU a request through nginx;
#   kill -9 of one replica under load behind nginx: failed requests at the client;
#   an ingest of 1,000 new events under load: when each replica serves them, failed requests.
# Then the change stream's part (Benchmarks/sse.sh): 5,000 SSE clients of one replica, an ingest of 100
# events, memory, and CPU with the clients idle.
# RUNS (default 2) runs of the measured parts. PostgreSQL runs beside it with fsync on.
# Then the FDSN event service against the items (Benchmarks/fdsn.sh): CPU an event, and 1 M events in one answer.
# PARTS (default "requests sse fdsn") chooses: `requests` is all of the above but the change stream and the
# FDSN service, `sse` the change stream, `fdsn` the FDSN service.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
DURATION=${DURATION:-10s}
ROWS=${ROWS:-5000000}
PARTS=${PARTS:-requests sse fdsn}
for part in $PARTS; do
    case $part in
        requests | sse | fdsn) ;;
        *) echo "bench-servers: PARTS: '$part' is not one of: requests sse fdsn" >&2; exit 64 ;;
    esac
done
# The FDSN part needs no PostgreSQL; it runs first, once (not again under scripts/with_postgres.sh).
if [[ " $PARTS " == *" fdsn "* ]] && [ -z "${QUAKEMAP_TEST_POSTGRES:-}" ]; then
    Benchmarks/fdsn.sh
    PARTS=${PARTS//fdsn/}
    [[ "$PARTS" =~ [a-z] ]] || exit 0
fi
# The change stream alone needs none of the above: it makes its own catalogue, builds and starts PostgreSQL.
[[ " $PARTS " == *" requests "* ]] || exec Benchmarks/sse.sh
mkdir -p "$WORK/servers"
OUT=$(cd "$WORK/servers" && pwd)

if [ -z "${QUAKEMAP_TEST_POSTGRES:-}" ]; then
    exec env PG_FSYNC=on scripts/with_postgres.sh "$0" "$@"
fi

SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
if ! command -v wrk >/dev/null || ! test -x /usr/sbin/nginx; then
    echo "Installing wrk and nginx (Debian packages)…"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk nginx
fi
# pygeoapi and what its PostgreSQL provider and a WSGI server need, from PyPI, in a venv of the benchmark's own.
VENV=$HOME/.cache/quakemap/bench-servers-$(sha1sum Benchmarks/servers-requirements.txt | cut -c1-12)
if [ ! -x "$VENV/bin/gunicorn" ]; then
    echo "Installing Benchmarks/servers-requirements.txt (PyPI) into $VENV…"
    rm -rf "$VENV" && python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check -r Benchmarks/servers-requirements.txt
fi

echo "building (release)…"
swift build -c release --product quakemap >"$OUT/build.txt" 2>&1 && swift build -c release --product quakemap-server >>"$OUT/build.txt" 2>&1 \
    || { cat "$OUT/build.txt" >&2; echo "bench-servers: the build failed" >&2; exit 1; }
BIN=$PWD/.build/release

. Benchmarks/realistic_feed.sh
FIVE=$(realistic_feed "$ROWS")

PG_ADMIN_DIR=${QUAKEMAP_TEST_POSTGRES_ADMIN%:*}
PG_PORT=${QUAKEMAP_TEST_POSTGRES_ADMIN##*:}
psql_admin() { PGOPTIONS=--client-min-messages=warning psql -X -q -t -A -v ON_ERROR_STOP=1 -h "$PG_ADMIN_DIR" -p "$PG_PORT" -U postgres "$@"; }
psql_admin -d postgres -c "DROP DATABASE IF EXISTS bench_servers WITH (FORCE)" -c "CREATE DATABASE bench_servers OWNER quakemap_writer"
psql_admin -d bench_servers -f scripts/catalogue_database.sql
WRITER=${QUAKEMAP_TEST_POSTGRES%/*}/bench_servers
READER=${QUAKEMAP_TEST_POSTGRES_READER%/*}/bench_servers
echo "ingesting $ROWS events ($(du -m "$FIVE" | cut -f1) MB of CSV)…"
start=$EPOCHREALTIME
PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD "$BIN/quakemap" ingest "$FIVE" --catalogue "$WRITER" --quiet
echo "  ingested in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}') s"
# pygeoapi reads a table's columns as they are: a view gives it the feed's names, the indexed key as
# its id, and a timestamp for `datetime` (its time_field), with an index on that expression.
psql_admin -d bench_servers -c "CREATE INDEX events_time_stamp ON events ((to_timestamp(time_ms / 1000.0)))" \
    -c "CREATE VIEW events_pygeoapi AS SELECT key AS id, to_timestamp(time_ms / 1000.0) AS time, time_ms, latitude, longitude, depth,
            magnitude AS mag, magnitude_type AS \"magType\", place, event_type AS type, network AS net, updated_ms, status, position
        FROM events WHERE magnitude IS NOT NULL" \
    -c "GRANT SELECT ON events_pygeoapi TO quakemap_reader" -c "VACUUM ANALYZE events"
export PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_READER_PASSWORD

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
TICKS=$(getconf CLK_TCK)
# The CPU seconds so far of PIDS and their children's threads (user + system, /proc/PID/stat).
cpu_seconds() {
    local total=0 pid
    for pid in "$@"; do
        [ -r "/proc/$pid/stat" ] || continue
        total=$(sed 's/^.*) //' "/proc/$pid/stat" | awk -v t="$total" -v hz="$TICKS" '{printf "%.3f", t + ($12 + $13) / hz}')
    done
    echo "$total"
}

PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    # PostgreSQL's own log, before scripts/with_postgres.sh removes its folder.
    cp "$PG_ADMIN_DIR/server.log" "$OUT/postgres.log" 2>/dev/null || true
}
trap cleanup EXIT

# start_replica PORT [taskset core]: a quakemap-server on the catalogue; echoes its pid once it listens.
start_replica() {
    local port=$1 log=$OUT/replica-$1.log
    shift
    "$@" "$BIN/quakemap-server" --catalogue "$READER" --port "$port" --refresh 1s >/dev/null 2>"$log" &
    local pid=$!
    PIDS+=("$pid")
    for _ in $(seq 600); do
        grep -q "serving" "$log" && { echo "$pid"; return; }
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    cat "$log" >&2
    echo "bench-servers: the replica on $port did not start" >&2
    exit 1
}

# The queries, for quakemap and for pygeoapi (the same rows asked the same way: newest first,
# 100 a page; pygeoapi's CQL is its `cql-text`, whose spatial predicate is INTERSECTS).
IDS=$(psql_admin -d bench_servers -c "SELECT id FROM events TABLESAMPLE SYSTEM (0.05) REPEATABLE (7) WHERE magnitude IS NOT NULL LIMIT 200" | tr '\n' ' ')
POLYGON="POLYGON((-125 32,-114 32,-114 42,-125 42,-125 32))"
cat >"$OUT/queries.lua" <<LUA
-- QUERY selects one of the kinds; SERVER says whose spelling; every request draws the next box or id in turn.
local kind, server = os.getenv("QUERY"), os.getenv("SERVER")
local ids = {} for id in ("$IDS"):gmatch("%S+") do ids[#ids + 1] = id end
local boxes = { "-125,32,-114,42", "120,-60,-60,60", "-180,-90,180,90", "10,35,30,48", "135,30,146,46", "-80,-45,-60,10" }
local i = 0
-- Each thread, and each run (SALT), starts elsewhere in the sequence: no two ask the same distinct box.
local threads = 0
function setup(thread) thread:set("tid", threads); threads = threads + 1 end
function init(args) i = (tid or 0) * 15013 + tonumber(os.getenv("SALT") or "0") * 4999 end
local function escape(s) return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end)) end
request = function()
  i = i + 1
  local path = "/collections/quakes/items"
  local suffix = server == "pygeoapi" and "&f=json&sortby=-time_ms" or ""
  if kind == "first" then path = path .. "?limit=100" .. suffix
  elseif kind == "bbox" then path = path .. "?limit=100&bbox=" .. boxes[(i % #boxes) + 1] .. suffix
  elseif kind == "feature" then
    path = path .. "/" .. ids[(i % #ids) + 1] .. (server == "pygeoapi" and "?f=json" or "")
  elseif kind == "datetime" then
    path = path .. "?limit=100&datetime=2025-06-01T00:00:00Z/2025-06-08T00:00:00Z" .. suffix
  elseif kind == "cql" then
    local language = server == "pygeoapi" and "cql-text" or "cql2-text"
    path = path .. "?limit=100&filter-lang=" .. language .. "&filter=" .. escape("mag >= 4.5") .. suffix
  elseif kind == "polygon" then
    local predicate = server == "pygeoapi" and "INTERSECTS(position, $POLYGON)" or "S_INTERSECTS(geometry, $POLYGON)"
    local language = server == "pygeoapi" and "cql-text" or "cql2-text"
    path = path .. "?limit=100&filter-lang=" .. language .. "&filter=" .. escape(predicate) .. suffix
  elseif kind == "distinct" then
    -- A different box each time: nothing a cache holds.
    local west = -170 + (i * 7 % 33001) / 200
    path = path .. string.format("?limit=100&bbox=%.3f,-60,%.3f,60", west, west + 9.5)
  end
  return wrk.format("GET", path)
end
LUA

SALT=0
# PostgreSQL's processes (the postmaster and its backends): the database's share of a request.
pg_pids() {
    local main
    main=$(head -1 "$PG_ADMIN_DIR/data/postmaster.pid")
    echo "$main $(pgrep -P "$main" | tr '\n' ' ')"
}

# load LABEL URL PIDS…: wrk at CONNECTIONS (default 64) connections; prints a row of the table.
load() {
    local label=$1 url=$2
    shift 2
    local before after pg_before pg_after
    before=$(cpu_seconds "$@")
    # shellcheck disable=SC2046
    pg_before=$(cpu_seconds $(pg_pids))
    SALT=$((SALT + 1))
    SALT=$SALT wrk -t2 -c"${CONNECTIONS:-64}" -d"$DURATION" --timeout 20s --latency -s "$OUT/queries.lua" "$url" >"$OUT/wrk.txt" 2>&1 || true
    after=$(cpu_seconds "$@")
    # shellcheck disable=SC2046
    pg_after=$(cpu_seconds $(pg_pids))
    # A server that queued more than it answered works on after wrk stops (not counted: at a steady
    # state the CPU of a window is that of the requests it completes); the next line must not share
    # the machine with it.
    local settled=$after now
    while true; do
        sleep 1
        now=$(cpu_seconds "$@")
        [ "$now" = "$settled" ] && break
        settled=$now
    done
    local rps p50 p99 requests cpu errors
    rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$OUT/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$OUT/wrk.txt")
    requests=$(awk '/requests in/ {print $1}' "$OUT/wrk.txt")
    cpu=$(awk -v a="$before" -v b="$after" -v n="$requests" 'BEGIN {printf "%.3f", (n > 0 ? (b - a) * 1000 / n : 0)}')
    pg=$(awk -v a="$pg_before" -v b="$pg_after" -v n="$requests" 'BEGIN {printf "%.3f", (n > 0 ? (b - a) * 1000 / n : 0)}')
    errors=$(awk '/Non-2xx|Socket errors/ {$1=$1; print}' "$OUT/wrk.txt" | tr '\n' ' ')
    printf "| %-40s | %9s | %8s ms | %8s ms | %8s | %8s | %s |\n" "$label" "$rps" "$cpu" "$pg" "$p50" "$p99" "${errors:-none}"
    echo "$rps $cpu $pg" >"$OUT/last.txt"
}

header() {
    echo "| $1 | req/s | server CPU a request | PostgreSQL CPU a request | p50 | p99 | errors |"
    echo "|---|---|---|---|---|---|---|"
}

# pygeoapi: its own configuration, the OpenAPI document it wants, gunicorn with a worker per core.
PYGEO_PORT=$(free_port)
cat >"$OUT/pygeoapi.yml" <<YAML
server:
  bind: {host: 127.0.0.1, port: $PYGEO_PORT}
  url: http://127.0.0.1:$PYGEO_PORT
  mimetype: application/json; charset=UTF-8
  encoding: utf-8
  languages: [en-US]
  limits: {default_items: 100, max_items: 10000}
  map: {url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", attribution: OpenStreetMap}
logging: {level: ERROR}
metadata:
  identification: {title: quakes, description: quakes, keywords: [earthquakes], keywords_type: theme, terms_of_service: none, url: http://127.0.0.1}
  license: {name: none, url: http://127.0.0.1}
  provider: {name: bench, url: http://127.0.0.1}
  contact: {name: bench, position: none, address: none, city: none, stateorprovince: none, postalcode: none, country: none,
            phone: none, fax: none, email: none, url: http://127.0.0.1, hours: none, instructions: none, role: pointOfContact}
resources:
  quakes:
    type: collection
    title: quakes
    description: the 5 M-event catalogue
    keywords: [earthquakes]
    extents: {spatial: {bbox: [-180, -90, 180, 90], crs: http://www.opengis.net/def/crs/OGC/1.3/CRS84}}
    providers:
      - type: feature
        name: PostgreSQL
        data: {host: 127.0.0.1, port: $PG_PORT, dbname: bench_servers, user: quakemap_reader, password: $PGPASSWORD, search_path: [public]}
        id_field: id
        table: events_pygeoapi
        geom_field: position
        time_field: time
YAML
PYGEOAPI_CONFIG=$OUT/pygeoapi.yml "$VENV/bin/pygeoapi" openapi generate "$OUT/pygeoapi.yml" --output-file "$OUT/pygeoapi-openapi.yml" >/dev/null 2>&1
# pygeoapi anew for each line: a slow server still works through the requests queued when wrk
# stopped (in PostgreSQL too), which would otherwise run on beside the next line.
start_pygeoapi() {
    PYGEOAPI_CONFIG=$OUT/pygeoapi.yml PYGEOAPI_OPENAPI=$OUT/pygeoapi-openapi.yml "$VENV/bin/gunicorn" -w "$(nproc)" \
        -b "127.0.0.1:$PYGEO_PORT" --log-level error pygeoapi.flask_app:APP >>"$OUT/pygeoapi.log" 2>&1 &
    PYGEO=$!
    PIDS+=("$PYGEO")
    for _ in $(seq 200); do curl -sf "http://127.0.0.1:$PYGEO_PORT/" >/dev/null && break; sleep 0.1; done
}
stop_pygeoapi() {
    kill "$PYGEO" 2>/dev/null || true
    wait "$PYGEO" 2>/dev/null || true
    # Its queries still running (the replica under test is idle between lines: only pygeoapi's are busy).
    psql_admin -d postgres -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'bench_servers'
        AND backend_type = 'client backend' AND state <> 'idle' AND pid <> pg_backend_pid()" >/dev/null
}
pygeo_pids() { echo "$PYGEO $(pgrep -P "$PYGEO" | tr '\n' ' ')"; }

for run in $(seq "$RUNS"); do
    echo
    echo "== run $run =="
    PORT=$(free_port)
    start=$EPOCHREALTIME
    REPLICA=$(start_replica "$PORT")
    started=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}')
    echo "one replica on the $ROWS-event catalogue: started in $started s (target ≤ 20 s)"
    echo
    header "query, 64 connections, $DURATION (quakemap / pygeoapi)"
    for kind in first bbox feature datetime cql polygon; do
        QUERY=$kind SERVER=quakemap load "$kind: quakemap" "http://127.0.0.1:$PORT" "$REPLICA"
        read -r q_rps q_cpu q_pg <"$OUT/last.txt"
        start_pygeoapi
        # shellcheck disable=SC2046
        CONNECTIONS=8 QUERY=$kind SERVER=pygeoapi load "$kind: pygeoapi (8 connections)" "http://127.0.0.1:$PYGEO_PORT" $(pygeo_pids)
        read -r p_rps p_cpu p_pg <"$OUT/last.txt"
        stop_pygeoapi
        awk -v a="$q_rps" -v b="$p_rps" -v c="$q_cpu" -v d="$p_cpu" -v e="$q_pg" -v f="$p_pg" -v k="$kind" \
            'BEGIN {printf "| %-40s | %8.1f× | %8.1f× less | %8.1f× less (server + database) | | | |\n", k ": quakemap / pygeoapi",
                    (b > 0 ? a / b : 0), (c > 0 ? d / c : 0), (c + e > 0 ? (d + f) / (c + e) : 0)}'
    done
    echo "resident memory of the replica after the queries: $(awk '/VmHWM/ {printf "%.0f MiB peak", $2 / 1024}' "/proc/$REPLICA/status"), $(awk '/VmRSS/ {printf "%.0f MiB now", $2 / 1024}' "/proc/$REPLICA/status")"
    kill "$REPLICA"; wait "$REPLICA" 2>/dev/null || true

    echo
    header "distinct boxes (nothing cached), 64 connections, $DURATION"
    ONE=$(free_port)
    SOLO=$(start_replica "$ONE" taskset -c 0)
    QUERY=distinct load "one replica on core 0, direct" "http://127.0.0.1:$ONE" "$SOLO"
    read -r solo_rps _ _ <"$OUT/last.txt"
    A=$(free_port); B=$(free_port)
    kill "$SOLO"; wait "$SOLO" 2>/dev/null || true
    FIRST=$(start_replica "$A" taskset -c 0)
    SECOND=$(start_replica "$B" taskset -c 1)
    NGINX_DIR=$(mktemp -d "$OUT/nginx.XXXXXX")
    NGINX_PORT=$(free_port)
    sed -e "s|/var/cache/nginx/quakemap|$NGINX_DIR/cache|" -e "s|listen 127.0.0.1:8080;|listen 127.0.0.1:$NGINX_PORT;|" \
        -e "s|server 127.0.0.1:8081 |server 127.0.0.1:$A |" -e "s|server 127.0.0.1:8082 |server 127.0.0.1:$B |" \
        docs/deploy/nginx-quakemap.conf >"$NGINX_DIR/quakemap.conf"
    cat >"$NGINX_DIR/nginx.conf" <<NGINX
$([ "$(id -u)" = 0 ] && echo "user root;")
daemon off;
worker_processes 1;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $NGINX_DIR/body; proxy_temp_path $NGINX_DIR/proxy;
    fastcgi_temp_path $NGINX_DIR/fastcgi; uwsgi_temp_path $NGINX_DIR/uwsgi; scgi_temp_path $NGINX_DIR/scgi;
    include $NGINX_DIR/quakemap.conf;
}
NGINX
    /usr/sbin/nginx -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" &
    NGINX=$!
    PIDS+=("$NGINX")
    sleep 0.5
    QUERY=distinct load "two replicas (cores 0, 1) behind nginx" "http://127.0.0.1:$NGINX_PORT" "$FIRST" "$SECOND"
    read -r pair_rps pair_cpu _ <"$OUT/last.txt"
    QUERY=distinct load "one of them, direct (CPU a request)" "http://127.0.0.1:$A" "$FIRST"
    read -r _ direct_cpu _ <"$OUT/last.txt"
    awk -v a="$pair_rps" -v b="$solo_rps" -v c="$pair_cpu" -v d="$direct_cpu" \
        'BEGIN {printf "two replicas behind nginx: %.2f× one replica (target ≥ 1.6×); the replicas\047 CPU a request through nginx %+.0f %% of direct (target within 15 %%)\n", a / b, (c / d - 1) * 100}'

    echo
    echo "kill -9 of one replica under load, through nginx:"
    (sleep 3; kill -9 "$SECOND") &
    KILLER=$!
    QUERY=distinct load "kill -9 of the replica on core 1 at 3 s" "http://127.0.0.1:$NGINX_PORT" "$FIRST"
    wait "$KILLER"
    SECOND=$(start_replica "$B" taskset -c 1)

    echo
    echo "an ingest of 1,000 new events under load:"
    python3 - "$OUT/new.csv" "$run" <<'PY'
import sys, time
header = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource"
start = 1767225600 + int(sys.argv[2]) * 5000  # after the generator's newest event
rows = [header]
for i in range(1000):
    t = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(start + i))
    rows.append(f"{t},{(i * 37) % 160 - 80},{(i * 71) % 360 - 180},10,{2 + i % 40 / 10},ml,,,,,zz,zz{sys.argv[2]}-{i:04d},{t},\"Bench place {i}\",earthquake,,,,,automatic,zz,zz")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
    BEFORE=$(curl -sf "http://127.0.0.1:$A/healthz" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
    (
        sleep 3
        t0=$EPOCHREALTIME
        PGPASSWORD=$QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD "$BIN/quakemap" ingest "$OUT/new.csv" --catalogue "$WRITER" --quiet
        t1=$EPOCHREALTIME
        for port in "$A" "$B"; do
            while [ "$(curl -sf "http://127.0.0.1:$port/healthz" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')" = "$BEFORE" ]; do
                sleep 0.02
            done
            echo "  replica $port serves the ingest $(awk -v a="$t1" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}') s after it committed (ingest: $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') s; target ≤ 5 s)"
        done
    ) &
    INGEST=$!
    QUERY=distinct load "distinct boxes through nginx, with the ingest" "http://127.0.0.1:$NGINX_PORT" "$FIRST" "$SECOND"
    wait "$INGEST"
    kill "$NGINX" "$FIRST" "$SECOND" 2>/dev/null || true
    wait "$NGINX" "$FIRST" "$SECOND" 2>/dev/null || true
done

if [[ " $PARTS " == *" sse "* ]]; then
    echo
    BIN=$BIN Benchmarks/sse.sh
fi
