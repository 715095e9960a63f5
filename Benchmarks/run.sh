#!/usr/bin/env bash
# `make bench`: quakemap against a plain C + Cairo program (Benchmarks/baseline/baseline.c)
# on the same inputs in the same run, then quakemap's stages in one process.
# The 1 M-row inputs come from the realistic generator (make_big_catalog.py csv: events
# along plate boundaries and scattered, continuous positions, Gutenberg–Richter
# magnitudes, the feeds' quirks); the replayed sample (make_big_feed.py) appears once,
# labelled, for what it measures (circles on a few hundred positions: the sprite cache).
# The 7,268-row real feed of ../shared is used for the default job when present.
# Whole-process figures are medians of interleaved runs (C, quakemap, C, quakemap, …),
# so both see the same machine, timed to the microsecond; peak memory is the largest
# resident set over the runs, in MiB (what /usr/bin/time reports, divided by 1024).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-5}
SMALL_RUNS=${SMALL_RUNS:-21}
LIST_RUNS=${LIST_RUNS:-3}
mkdir -p "$WORK"

echo "building (release, static Swift runtime; the C baseline with gcc -O2)…"
# The flags of the Makefile's RELEASE, so that the binary timed is the one `make map` builds.
swift build $(cat scripts/release-flags) --product quakemap >"$WORK/build.txt" 2>&1 \
    || { cat "$WORK/build.txt" >&2; echo "bench: the quakemap build failed" >&2; exit 1; }
BIN=.build/release/quakemap
gcc -O2 -o "$WORK/baseline" Benchmarks/baseline/baseline.c $(pkg-config --cflags --libs cairo)
swift build $(cat scripts/release-flags) --product quakemap-bench \
    >"$WORK/build.txt" 2>&1 || { cat "$WORK/build.txt" >&2; echo "bench: the stage timer's build failed" >&2; exit 1; }
STAGES=.build/release/quakemap-bench

# The realistic feed is made again when the generator changes (its checksum is kept beside it).
REALISTIC=$WORK/realistic-1m.csv
GENERATOR_SUM=$(cksum <Benchmarks/make_big_catalog.py)
if [ ! -f "$REALISTIC" ] || [ "$(cat "$REALISTIC.sum" 2>/dev/null)" != "$GENERATOR_SUM" ]; then
    python3 Benchmarks/make_big_catalog.py csv "$REALISTIC" 1000000r
    echo "$GENERATOR_SUM" >"$REALISTIC.sum"
fi
[ -f "$WORK/replayed-1m.csv" ] || python3 Benchmarks/make_big_feed.py "$WORK/replayed-1m.csv" 1000000r
DEFAULT_FEED=../shared/data/usgs/all_month_2015-12_15col.csv
if [ ! -f "$DEFAULT_FEED" ]; then
    DEFAULT_FEED=$WORK/realistic-7268.csv
    python3 Benchmarks/make_big_catalog.py csv "$DEFAULT_FEED" 7268r >/dev/null
fi

# run COMMAND…: times one run to the microsecond (bash's EPOCHREALTIME; /usr/bin/time
# gives only 10 ms steps) and reads its peak memory; prints "seconds kilobytes".
# A failing command stops the bench with its error output.
# EXPECT sets the exit status that counts as success (the C start-up run ends with 64).
run() {
    local start=$EPOCHREALTIME status=0
    /usr/bin/time -f "%M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || status=$?
    if [ "$status" != "${EXPECT:-0}" ]; then
        cat "$WORK/stderr.txt" >&2
        echo "bench: failed: $*" >&2
        exit 1
    fi
    local end=$EPOCHREALTIME
    echo "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}') $(grep -E '^[0-9]+$' "$WORK/time.txt" | tail -1)"
}

# interleaved RUNS COMMAND_A -- COMMAND_B: runs A, B, A, B, … and prints
# "medianA peakA medianB peakB" (seconds, MiB). EXPECT_A: A's exit status on success.
interleaved() {
    local runs=$1; shift
    (( runs >= 1 )) || { echo "bench: RUNS must be at least 1" >&2; exit 1; }
    local args=("$@") split=-1 i
    for ((i = 0; i < ${#args[@]}; i++)); do
        if [ "${args[$i]}" = "--" ]; then split=$i; break; fi
    done
    (( split > 0 )) || { echo "bench: interleaved needs COMMAND_A -- COMMAND_B" >&2; exit 1; }
    local a=("${args[@]:0:$split}") b=("${args[@]:$((split + 1))}")
    local ta=() tb=() pa=0 pb=0 seconds kb
    for _ in $(seq "$runs"); do
        read -r seconds kb < <(EXPECT=${EXPECT_A:-0} run "${a[@]}") || exit 1; ta+=("$seconds"); (( kb > pa )) && pa=$kb
        read -r seconds kb < <(EXPECT=0 run "${b[@]}") || exit 1; tb+=("$seconds"); (( kb > pb )) && pb=$kb
    done
    echo "$(median "${ta[@]}") $((pa / 1024)) $(median "${tb[@]}") $((pb / 1024))"
}
# The middle value; for an even count, the mean of the two middle ones.
median() {
    printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {m = int((NR + 1) / 2); printf "%.3f", NR % 2 ? a[m] : (a[m] + a[m + 1]) / 2}'
}
megabytes() { awk -v b="$(stat -c %s "$1")" 'BEGIN {printf "%.0f", b / 1e6}'; }
ratio() { awk -v q="$1" -v c="$2" 'BEGIN {printf "%.2f×", q / c}'; }
# verdict TEXT CONDITION…: TEXT followed by ✓ when every awk CONDITION holds, else ✗.
verdict() {
    local text=$1 ok=1 condition; shift
    for condition in "$@"; do awk "BEGIN {exit !($condition)}" || ok=0; done
    if (( ok )); then echo "$text ✓"; else echo "$text ✗"; fi
}
row() { printf '| %-50s | %8s s | %8s s | %6s | %5s (C %s) | %s |\n' "$@"; }
rowq() { printf '| %-50s | %8s s | %10s | %6s | %11s | %s |\n' "$@"; }

echo
echo "## quakemap vs C + Cairo (median of interleaved runs; peak resident memory in MiB)"
echo "Both draw circles only: quakemap with --basemap none --no-legend, as the C program has neither."
echo "1 M rows: $(basename "$REALISTIC"), $(megabytes "$REALISTIC") MB from make_big_catalog.py (realistic); RUNS=$RUNS."
printf '| %-50s | %10s | %10s | %6s | %11s | %s |\n' "job" "quakemap" "C" "ratio" "peak MiB" "target (issue)"
printf '|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..52})" "------------" "------------" "--------" "-------------" "---"
SAME=(--basemap none --no-legend --quiet)
read -r tc mc tq mq < <(interleaved "$SMALL_RUNS" "$WORK/baseline" "$DEFAULT_FEED" "$WORK/c.png" 300 -- \
    "$BIN" render "$DEFAULT_FEED" -o "$WORK/q.png" --limit 300 "${SAME[@]}")
row "default: $(( $(wc -l <"$DEFAULT_FEED") - 1 )) rows → 300 → 2048×1024 PNG" "$tq" "$tc" "$(ratio "$tq" "$tc")" "$mq" "$mc" \
    "$(verdict "≤ 0.5× C" "$tq <= 0.5 * $tc")"
read -r tc mc tq mq < <(interleaved "$RUNS" "$WORK/baseline" "$REALISTIC" "$WORK/c.png" 0 -- \
    "$BIN" render "$REALISTIC" -o "$WORK/q.png" --limit 0 "${SAME[@]}")
row "1 M rows scattered, all drawn" "$tq" "$tc" "$(ratio "$tq" "$tc")" "$mq" "$mc" \
    "$(verdict "≤ 0.18× C, ≤ 128 MiB" "$tq <= 0.18 * $tc" "$mq <= 128")"
read -r tc mc tq mq < <(interleaved "$RUNS" "$WORK/baseline" "$REALISTIC" "$WORK/c.png" 300 -- \
    "$BIN" render "$REALISTIC" -o "$WORK/q.png" --limit 300 "${SAME[@]}")
row "1 M rows, --limit 300" "$tq" "$tc" "$(ratio "$tq" "$tc")" "$mq" "$mc" \
    "$(verdict "≤ 0.30× C, ≤ 32 MiB" "$tq <= 0.30 * $tc" "$mq <= 32")"
two_cores=$tq
# One core, as a small VM or a container limited to one CPU gives: whatever waits on another
# thread waits for the scheduler (a read ahead on a dispatch queue once waited a second for libdispatch's next thread).
read -r tc mc tq mq < <(interleaved "$RUNS" taskset -c 0 "$WORK/baseline" "$REALISTIC" "$WORK/c.png" 300 -- \
    taskset -c 0 "$BIN" render "$REALISTIC" -o "$WORK/q.png" --limit 300 "${SAME[@]}")
row "1 M rows, --limit 300, one core (taskset -c 0)" "$tq" "$tc" "$(ratio "$tq" "$tc")" "$mq" "$mc" \
    "$(verdict "≤ 1.5× its time on two cores (no stall)" "$tq <= 1.5 * $two_cores")"
# No C counterpart: quakemap alone, median of LIST_RUNS (the output goes to /dev/null);
# fewer runs when they have taken more than 20 s together (while the export is slow).
times=() mq=0 spent=0
for _ in $(seq "$LIST_RUNS"); do
    read -r seconds kb < <(run "$BIN" list "$REALISTIC" --limit 0 --format csv) || exit 1
    times+=("$seconds"); (( kb > mq )) && mq=$kb
    spent=$(awk -v a="$spent" -v b="$seconds" 'BEGIN {print a + b}')
    awk -v t="$spent" 'BEGIN {exit !(t > 20)}' && break
done
tq=$(median "${times[@]}") mq=$((mq / 1024))
rowq "list --limit 0 --format csv, the same 1 M rows (${#times[@]} run$([ ${#times[@]} = 1 ] || echo s))" "$tq" "—" "—" "$mq" \
    "$(verdict "≤ 1 s, ≤ 80 MiB (22 columns)" "$tq <= 1" "$mq <= 80")"
# The C program's start-up: run without arguments it loads its libraries (Cairo, libpng,
# zlib, …), prints its usage and ends with 64, doing no work.
read -r tc mc tq mq < <(EXPECT_A=64 interleaved "$SMALL_RUNS" "$WORK/baseline" -- "$BIN" --version)
row "start-up: quakemap --version; C: usage, exit 64" "$tq" "$tc" "$(ratio "$tq" "$tc")" "$mq" "$mc" "none set (near the floor)"
read -r tc mc tq mq < <(interleaved "$RUNS" "$WORK/baseline" "$WORK/replayed-1m.csv" "$WORK/c.png" 0 -- \
    "$BIN" render "$WORK/replayed-1m.csv" -o "$WORK/q.png" --limit 0 "${SAME[@]}")
row "1 M rows replayed (cache-friendly, for reference)" "$tq" "$tc" "$(ratio "$tq" "$tc")" "$mq" "$mc" "—"

echo
echo "## animate: every event of the default feed, 100 frames (10 s at 10 fps; one run each)"
for width in 2048 1024; do
    read -r seconds kilobytes < <(run "$BIN" animate "$DEFAULT_FEED" --limit 0 --width "$width" -o "$WORK/a.png" --quiet)
    echo "- ${width} px wide: ${seconds} s, $(( kilobytes / 1024 )) MiB peak, APNG $(megabytes "$WORK/a.png") MB"
done

echo
echo "## quakemap's stages in one process (the realistic 1 M rows, $(megabytes "$REALISTIC") MB, median of 3)"
echo '```'
"$STAGES" "$REALISTIC" 3
echo '```'
echo "The parser on one core (taskset -c 0): whole events, then what a map reads:"
echo '```'
taskset -c 0 "$STAGES" "$REALISTIC" 3 parse | sed -n 3,4p
echo '```'
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(swift --version 2>&1 | head -1), cairo $(pkg-config --modversion cairo)"
