#!/usr/bin/env bash
# `make load`: requests per second, the server's CPU time a request and latency
# percentiles of quakemap-server (release build) under a loopback load from wrk
# (Debian's package), for tiles and for items. Feed: the shared 19,813-event month
# when present, else a generated synthetic feed of the same size.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/load}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-16}
mkdir -p "$WORK"

if ! command -v wrk >/dev/null; then
    echo "Installing wrk (Debian package)…"
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk
fi
echo "building quakemap-server (release)…"
swift build -c release --product quakemap-server >"$WORK/build.txt" 2>&1 || { cat "$WORK/build.txt" >&2; exit 1; }
FEED=../shared/data/usgs/all_month_2020-06.csv
if [ ! -f "$FEED" ]; then
    FEED=$WORK/synthetic-19813.csv
    [ -f "$FEED" ] || python3 Benchmarks/make_big_feed.py "$FEED" 19813r
fi

.build/release/quakemap-server "$FEED" --port 0 --quiet 2>"$WORK/server.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
# --quiet drops the start-up line, so the port comes from /proc.
for _ in $(seq 100); do
    PORT=$(ss -ltnp 2>/dev/null | sed -n "s/.*127.0.0.1:\([0-9]*\) .*pid=$SERVER,.*/\1/p" | head -1)
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "${PORT:-}" ] || { cat "$WORK/server.log" >&2; echo "load: the server did not start" >&2; exit 1; }
ROOT=http://127.0.0.1:$PORT

# Every tile of zooms 0–4 in turn (341 paths); with UNIQUE=1 each request carries
# a filter no other has (it matches every event), so every tile is drawn anew.
cat >"$WORK/tiles.lua" <<'LUA'
local paths = {}
for z = 0, 4 do for x = 0, 2 ^ z - 1 do for y = 0, 2 ^ z - 1 do
  paths[#paths + 1] = string.format("/tiles/%d/%d/%d.png", z, x, y)
end end end
local i, n = 0, 0
local unique = os.getenv("UNIQUE") == "1"
request = function()
  i = i % #paths + 1
  n = n + 1
  local path = paths[i]
  if unique then path = path .. string.format("?filter=mag%%20%%3E%%3D%%20-%d", n) end
  return wrk.format("GET", path)
end
LUA
cat >"$WORK/items.lua" <<'LUA'
local boxes = { "-125,32,-114,42", "120,-60,-60,60", "-180,-90,180,90", "10,35,30,48" }
local i = 0
request = function()
  i = i % #boxes + 1
  return wrk.format("GET", "/collections/quakes/items?limit=100&bbox=" .. boxes[i])
end
LUA

# The server's CPU time so far (user + system), in seconds, from /proc/PID/stat
# (fields 14 and 15 in clock ticks; counted after the command name, which is in brackets).
TICKS=$(getconf CLK_TCK)
cpu_seconds() {
    sed 's/^.*) //' "/proc/$SERVER/stat" | awk -v hz="$TICKS" '{printf "%.3f", ($12 + $13) / hz}'
}

measure() {
    local label=$1
    shift
    local before after
    before=$(cpu_seconds)
    wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$ROOT" >"$WORK/wrk.txt"
    after=$(cpu_seconds)
    local rps p50 p99 errors requests cpu
    rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")
    requests=$(awk '/requests in/ {print $1}' "$WORK/wrk.txt")
    # The server's CPU over the run divided by the requests wrk completed (a request cut
    # off at the end is counted in the CPU, not in the requests: a slight overestimate).
    cpu=$(awk -v a="$before" -v b="$after" -v n="$requests" 'BEGIN {printf "%.3f ms", (n > 0 ? (b - a) * 1000 / n : 0)}')
    errors=$(awk '/Non-2xx|Socket errors/ {$1=$1; print}' "$WORK/wrk.txt" | tr '\n' ' ')
    printf "| %-44s | %9s | %12s | %8s | %8s | %s\n" "$label" "$rps" "$cpu" "$p50" "$p99" "${errors:-none} |"
}

echo
echo "quakemap-server, $(nproc) cores, wrk -t2 -c$CONNECTIONS -d$DURATION on loopback; feed: $FEED"
echo "CPU a request: the server's user + system time over the run (/proc/PID/stat) over the requests wrk completed."
echo "| requests                                     | req/s     | CPU a request | p50      | p99      | errors |"
echo "|---|---|---|---|---|---|"
UNIQUE=0 wrk -t1 -c4 -d3s -s "$WORK/tiles.lua" "$ROOT" >/dev/null   # fills the tile cache
measure "tiles z0-4, cached (200 with body)" -s "$WORK/tiles.lua"
UNIQUE=1 measure "tiles z0-4, each drawn anew" -s "$WORK/tiles.lua"
measure "items, limit=100, four bboxes (target ≤ 0.5 ms CPU)" -s "$WORK/items.lua"
measure "/healthz" "$ROOT/healthz"
