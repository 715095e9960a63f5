#!/usr/bin/env bash
# `make bench`: quakemap against a plain C + Cairo program (Benchmarks/baseline/baseline.c)
# on the same inputs in the same run, then quakemap's stages in one process.
# Inputs are generated deterministically (synthetic); the 7,268-row real feed of
# ../shared is used for the default job when present. Whole-process figures are
# medians of interleaved runs (C, quakemap, C, quakemap, …), so both see the same
# machine; peak memory is the largest resident set over the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-5}
SMALL_RUNS=${SMALL_RUNS:-21}
BIG_BYTES=${BIG_BYTES:-1e9}
mkdir -p "$WORK"

echo "building (release, static Swift runtime; the C baseline with gcc -O2)…"
swift build -c release --static-swift-stdlib --product quakemap 2>&1 | grep -E "error|warning: .*QuakeKit" || true
BIN=.build/release/quakemap
gcc -O2 -o "$WORK/baseline" Benchmarks/baseline/baseline.c $(pkg-config --cflags --libs cairo)
(cd Benchmarks && swift build -c release 2>&1 | grep -E "error" || true)
STAGES=Benchmarks/.build/release/quakemap-bench

[ -f "$WORK/1m.csv" ] || python3 Benchmarks/make_big_feed.py "$WORK/1m.csv" 1000000r
[ -f "$WORK/big.csv" ] || python3 Benchmarks/make_big_feed.py "$WORK/big.csv" "$BIG_BYTES"
DEFAULT_FEED=../shared/data/usgs/all_month_2015-12_15col.csv
if [ ! -f "$DEFAULT_FEED" ]; then
    DEFAULT_FEED=$WORK/7268.csv
    [ -f "$DEFAULT_FEED" ] || python3 Benchmarks/make_big_feed.py "$DEFAULT_FEED" 7268r
fi

# interleaved RUNS COMMAND_A -- COMMAND_B: prints "medianA peakA medianB peakB" (s, MB)
interleaved() {
    local runs=$1; shift
    local a=() b=() split=0
    local args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = "--" ] && split=$i; done
    a=("${args[@]:0:$split}"); b=("${args[@]:$((split + 1))}")
    local ta=() tb=() pa=0 pb=0 seconds kb
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "${a[@]}" >/dev/null 2>"$WORK/stderr.txt"
        read -r seconds kb <"$WORK/time.txt"; ta+=("$seconds"); (( kb > pa )) && pa=$kb
        /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "${b[@]}" >/dev/null 2>"$WORK/stderr.txt"
        read -r seconds kb <"$WORK/time.txt"; tb+=("$seconds"); (( kb > pb )) && pb=$kb
    done
    echo "$(median "${ta[@]}") $((pa / 1024)) $(median "${tb[@]}") $((pb / 1024))"
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v q="$1" -v c="$2" 'BEGIN {printf "%.2f×", q / c}'; }
row() { printf '| %-44s | %8s s %4s MiB | %8s s %4s MiB | %6s | %s |\n' "$@"; }

echo
echo "## quakemap vs C + Cairo (median of interleaved runs; peak resident memory in MiB)"
printf '| %-44s | %19s | %19s | %6s | %s |\n' "job" "C + Cairo" "quakemap" "ratio" "target"
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "---------------------" "---------------------" "--------" "---"
read -r tc mc tq mq < <(interleaved "$SMALL_RUNS" "$WORK/baseline" "$DEFAULT_FEED" "$WORK/c.png" 300 -- \
    "$BIN" render "$DEFAULT_FEED" -o "$WORK/q.png" --basemap none --quiet)
row "default: $(( $(wc -l <"$DEFAULT_FEED") - 1 )) rows → 300 → 2048×1024, no basemap" "$tc" "$mc" "$tq" "$mq" "$(ratio "$tq" "$tc")" "≤ 0.70×"
read -r tc mc tq mq < <(interleaved "$RUNS" "$WORK/baseline" "$WORK/1m.csv" "$WORK/c.png" 0 -- \
    "$BIN" render "$WORK/1m.csv" -o "$WORK/q.png" --limit 0 --basemap none --quiet)
row "scale: 1,000,000 rows, all drawn, no basemap" "$tc" "$mc" "$tq" "$mq" "$(ratio "$tq" "$tc")" "≤ 0.25×, ≤ 150 MB"
read -r tc mc tq mq < <(interleaved "$RUNS" "$WORK/baseline" "$WORK/1m.csv" "$WORK/c.png" 300 -- \
    "$BIN" render "$WORK/1m.csv" -o "$WORK/q.png" --quiet)
row "streaming: 1,000,000 rows, --limit 300" "$tc" "$mc" "$tq" "$mq" "$(ratio "$tq" "$tc")" "≤ 0.5 s, ≤ 40 MB"
read -r tc mc tq mq < <(interleaved 1 "$WORK/baseline" "$WORK/big.csv" "$WORK/c.png" 300 -- \
    "$BIN" render "$WORK/big.csv" -o "$WORK/q.png" --quiet)
row "streaming: $(du -m "$WORK/big.csv" | cut -f1) MB feed, --limit 300 (one run)" "$tc" "$mc" "$tq" "$mq" "$(ratio "$tq" "$tc")" "< 64 MB"

echo
echo "## quakemap's stages in one process (1,000,000 rows, $(du -m "$WORK/1m.csv" | cut -f1) MB, median of 3)"
echo '```'
"$STAGES" "$WORK/1m.csv" 3
echo '```'
echo "The parser on one core (taskset -c 0):"
echo '```'
taskset -c 0 "$STAGES" "$WORK/1m.csv" 3 | sed -n 3p
echo '```'
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(swift --version 2>&1 | head -1), cairo $(pkg-config --modversion cairo)"
