#!/usr/bin/env bash
# Prints quakemap's figures on this machine: parser throughput, end-to-end wall time,
# peak memory. Inputs are generated deterministically (synthetic); the largest real
# feed in ../shared is used when present. Run with `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIG_BYTES=${BIG_BYTES:-1e9}
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-5}
mkdir -p "$WORK"
swift build -c release --product quakemap >/dev/null
BIN=.build/release/quakemap

[ -f "$WORK/big.csv" ] || python3 Benchmarks/make_big_feed.py "$WORK/big.csv" "$BIG_BYTES"
[ -f "$WORK/1m.csv" ] || python3 Benchmarks/make_big_feed.py "$WORK/1m.csv" 1000000r

# median wall seconds and max peak RSS (MB) over $RUNS runs of a command
measure() {
    local times=() peak=0
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt"
        read -r seconds kb <"$WORK/time.txt"
        times+=("$seconds")
        (( kb > peak )) && peak=$kb
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "$median $((peak / 1024))"
}

row() { printf '%-58s %9s s %8s MB  %s\n' "$1" "$2" "$3" "$4"; }
printf '%-58s %11s %11s  %s\n' "job (median of $RUNS runs)" "wall" "peak RSS" "throughput"

size_of() { stat -c %s "$1"; }
rows_of() { echo $(( $(wc -l <"$1") - 1 )); }

for feed in "$WORK/big.csv" "$WORK/1m.csv"; do
    bytes=$(size_of "$feed"); rows=$(rows_of "$feed")
    read -r t m < <(measure "$BIN" list "$feed" --limit 1 --quiet)
    row "parse+select $(basename "$feed") ($rows rows), --limit 1" "$t" "$m" \
        "$(awk -v b="$bytes" -v r="$rows" -v t="$t" 'BEGIN {printf "%.0f MB/s, %.2f M rows/s", b/t/1e6, r/t/1e6}')"
    read -r t m < <(measure "$BIN" render "$feed" -o "$WORK/out.png")
    row "render $(basename "$feed"), --limit 300 (default)" "$t" "$m" ""
done

SHARED=../shared/data/usgs/all_month_2020-06.csv
if [ -f "$SHARED" ]; then
    read -r t m < <(measure "$BIN" render "$SHARED" -o "$WORK/out.png")
    row "render all_month_2020-06.csv (19,816 rows, real)" "$t" "$m" ""
    read -r t m < <(measure "$BIN" render "$SHARED" -o "$WORK/out.png" --limit 0)
    row "render all_month_2020-06.csv, --limit 0 (all)" "$t" "$m" ""
else
    echo "(../shared/data/usgs not present: real-feed rows skipped)"
fi
read -r t m < <(measure "$BIN" render Data/synthetic_all_day.csv -o "$WORK/out.png")
row "render Data/synthetic_all_day.csv (420 rows)" "$t" "$m" ""
read -r t m < <(measure "$BIN" render "$WORK/1m.csv" -o "$WORK/out.png" --limit 0 --basemap none)
row "render 1m.csv, --limit 0, --basemap none (all drawn)" "$t" "$m" ""
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(swift --version 2>&1 | head -1)"
