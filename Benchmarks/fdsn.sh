#!/usr/bin/env bash
# `make bench-servers`'s FDSN part (PARTS=fdsn): quakemap-server's FDSN event service against its own
# items on the realistic generator's 1 M-event catalogue (Benchmarks/make_big_catalog.py), served from
# the feed in memory and from a SQLite catalogue:
#   a month of events (December 2025, about 65,000) as FDSN text and as QuakeML in one request, and as
#     items in pages of 10,000: the server's CPU an event (user + system, /proc), REPEATS times each;
#   every event (1 M) as FDSN text in one request (the cap raised to 2 M): events a second at the client,
#     and the server's resident memory sampled every 20 ms while it streams (growth over its start).
# RUNS (default 2) runs of the whole; the results go to $WORK/fdsn/results.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
REPEATS=${REPEATS:-3}
mkdir -p "$WORK/fdsn"
OUT=$(cd "$WORK/fdsn" && pwd)

echo "building (release)…"
swift build $(cat scripts/release-flags) --product quakemap >"$OUT/build.txt" 2>&1 \
    && swift build $(cat scripts/release-flags) --product quakemap-server >>"$OUT/build.txt" 2>&1 \
    || { cat "$OUT/build.txt" >&2; echo "bench-servers: the build failed" >&2; exit 1; }
BIN=$PWD/.build/release

. Benchmarks/realistic_feed.sh
FEED=$(realistic_feed 1000000)
CATALOGUE=$OUT/one.sqlite
if [ ! -f "$CATALOGUE" ] || [ "$FEED" -nt "$CATALOGUE" ]; then
    echo "ingesting 1,000,000 events into SQLite…"
    rm -f "$CATALOGUE"*
    "$BIN/quakemap" ingest "$FEED" --catalogue "$CATALOGUE" --quiet
fi

run_server() {  # run_server LABEL INPUT...: the server's port and pid in PORT and PID
    local log=$OUT/server-$1.log
    shift
    "$BIN/quakemap-server" "$@" --port 0 --fdsn-max-events 2000000 --refresh 1h 2>"$log" &
    PID=$!
    for _ in $(seq 600); do
        PORT=$(sed -n 's/.*on http:\/\/127\.0\.0\.1:\([0-9]*\)\/.*/\1/p' "$log" | head -1)
        [ -n "$PORT" ] && return 0
        kill -0 "$PID" 2>/dev/null || { cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "bench-servers: the server did not start" >&2
    exit 1
}

: >"$OUT/results.txt"
for run in $(seq "$RUNS"); do
    for source in feed catalogue; do
        if [ "$source" = feed ]; then run_server feed "$FEED"; else run_server catalogue --catalogue "$CATALOGUE"; fi
        result=$(python3 Benchmarks/fdsn_client.py "$PORT" "$PID" 2025-12-01T00:00:00 2025-12-31T23:59:59.999 "$REPEATS")
        kill "$PID"
        wait "$PID" 2>/dev/null || true
        echo "run $run $source $result" | tee -a "$OUT/results.txt"
    done
done
