#!/usr/bin/env bash
# Build QuakeKit's libFuzzer fuzzers and run each one for SECONDS seconds.
#
#   Fuzz/run.sh [SECONDS] [FUZZER...]      (default 60 s, every fuzzer)
#
# Builds the fuzzers (targets of the main package with QUAKEMAP_FUZZ=1; release, -sanitize=fuzzer,address, scratch path
# Fuzz/.build), writes the seed corpora into Fuzz/.corpus/<fuzzer> (kept between
# runs, so the corpora grow), runs at most JOBS fuzzers at a time (default 2:
# this machine has 2 cores), and prints per fuzzer the executions, exec/s,
# coverage (cov/ft), corpus size and what it found, crashes grouped by cause.
# Crash, timeout and OOM inputs go to Fuzz/artifacts/<fuzzer>/, the logs to
# Fuzz/artifacts/logs/. Exits 1 if any fuzzer found something, 2 if the build
# or the seeds failed.
#
# Environment:
#   JOBS=N        fuzzers run at once (default 2)
#   KEEP_GOING=1  libFuzzer's fork mode with -ignore_crashes/-ignore_timeouts/
#                 -ignore_ooms: a fuzzer records each finding and goes on for
#                 the whole time instead of stopping at the first one
#   FUZZ_FLAGS    extra libFuzzer flags, e.g. "-use_value_profile=1"
set -uo pipefail

SECONDS_EACH=${1:-60}
shift || true
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE"
ALL=(fuzz-csv fuzz-geojson fuzz-fdsntext fuzz-quakeml fuzz-cql fuzz-arguments)
if [ $# -gt 0 ]; then FUZZERS=("$@"); else FUZZERS=("${ALL[@]}"); fi
JOBS=${JOBS:-2}
KEEP_GOING=${KEEP_GOING:-0}
SCRATCH="$HERE/.build"
CORPUS="$HERE/.corpus"
ARTIFACTS="$HERE/artifacts"
LOGS="$ARTIFACTS/logs"

case "$SECONDS_EACH" in ''|*[!0-9]*) echo "usage: $0 [SECONDS] [FUZZER...]" >&2; exit 2 ;; esac

# Per fuzzer: the largest input, and the dictionary.
max_len() {
    case "$1" in
        fuzz-csv|fuzz-geojson|fuzz-fdsntext|fuzz-quakeml) echo 8192 ;;
        fuzz-cql) echo 2048 ;;
        fuzz-arguments) echo 256 ;;
    esac
}
dict() {
    case "$1" in
        fuzz-csv) echo "$HERE/dict/csv.dict" ;;
        fuzz-geojson) echo "$HERE/dict/geojson.dict" ;;
        fuzz-fdsntext) echo "$HERE/dict/fdsntext.dict" ;;
        fuzz-quakeml) echo "$HERE/dict/quakeml.dict" ;;
        fuzz-cql) echo "$HERE/dict/cql.dict" ;;
        fuzz-arguments) echo "$HERE/dict/arguments.dict" ;;
    esac
}

# The Swift backtracer would fight ASan over the crash signal. LeakSanitizer is
# off: it cannot follow Swift's tagged pointers (an enum payload with tag bits,
# as in Data), so it reports reachable globals as leaked at exit.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

# --- Build ------------------------------------------------------------------
# The fuzzers are targets of the main package when QUAKEMAP_FUZZ is set; QUAKEMAP_TEST_TARGETS keeps
# them and what they use, nothing else. gold crashes linking the instrumented executables
# ("internal error in format_file_lineno"); lld, which ships with the toolchain, links them.
echo "== building fuzzers (release, -sanitize=fuzzer,address)"
if ! (cd "$HERE/.." && QUAKEMAP_FUZZ=1 QUAKEMAP_TEST_TARGETS=$(IFS=,; echo "${ALL[*]}") swift build -c release \
        --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld) > "$HERE/.build.log" 2>&1; then
    grep -E "error:" "$HERE/.build.log" | head -40 >&2
    echo "build failed (full log: Fuzz/.build.log)" >&2
    exit 2
fi
BIN="$SCRATCH/release"
for name in "${FUZZERS[@]}"; do
    [ -x "$BIN/$name" ] || { echo "no fuzzer named $name (have: ${ALL[*]})" >&2; exit 2; }
done

# --- Seeds ------------------------------------------------------------------
mkdir -p "$CORPUS" "$LOGS"
python3 make_corpus.py "$CORPUS" || { echo "make_corpus.py failed" >&2; exit 2; }

# --- Fuzz -------------------------------------------------------------------
run_one() {
    local name=$1 mode=()
    [ "$KEEP_GOING" = 1 ] && mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    mkdir -p "$ARTIFACTS/$name" "$CORPUS/$name"
    touch "$LOGS/$name.start"
    # shellcheck disable=SC2086
    "$BIN/$name" "$CORPUS/$name" "${mode[@]}" \
        -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
        -detect_leaks=0 -max_len="$(max_len "$name")" -dict="$(dict "$name")" \
        -artifact_prefix="$ARTIFACTS/$name/" -print_final_stats=1 -report_slow_units=2 \
        ${FUZZ_FLAGS:-} > "$LOGS/$name.log" 2>&1
    echo $? > "$LOGS/$name.exit"
}

echo "== fuzzing ${FUZZERS[*]} for ${SECONDS_EACH} s each, $JOBS at a time$([ "$KEEP_GOING" = 1 ] && echo ", fork mode (KEEP_GOING=1)")"
echo "   logs: Fuzz/artifacts/logs/<fuzzer>.log"
running=0
for name in "${FUZZERS[@]}"; do
    run_one "$name" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

# --- Report -----------------------------------------------------------------
# What a crash input does when run again: the failure and the first frame in
# the project's sources, so that many inputs of one bug group together.
signature() {
    local out
    out=$(timeout 60 "$1" "$2" 2>&1)
    local what where
    for pattern in "Fatal error: .*" "Swift runtime failure: [^/]*[^ /]" "ERROR: AddressSanitizer: [a-z-]+" \
                   "ERROR: libFuzzer: [a-z -]+"; do
        what=$(grep -m1 -oE "$pattern" <<< "$out") && break
    done
    where=$(grep -oE "[^ ]*/Sources/[^ ]+:[0-9]+" <<< "$out" | grep -v "/main.swift" | head -1)
    echo "${what:-no crash on re-run} at ${where#"$(dirname "$HERE")"/}"
}

found=0
report=""
printf '\n%-15s %12s %8s %7s %7s %8s  %s\n' fuzzer executions exec/s cov ft corpus result
for name in "${FUZZERS[@]}"; do
    log="$LOGS/$name.log"
    status=$(cat "$LOGS/$name.exit" 2>/dev/null || echo "?")
    if grep -q -- "-fork=1: fuzzing in separate" "$log"; then
        # Fork mode: "#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: a/b/c time: Ts ..."
        line=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1)
        runs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<< "$line")
        elapsed=$(sed -n 's/.* time: \([0-9]*\)s.*/\1/p' <<< "$line")
        speed=$([ -n "$runs" ] && [ "${elapsed:-0}" -gt 0 ] && echo $((runs / elapsed)))
    else
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
        # The last status line: "#N DONE cov: C ft: F corp: ...", or the last before a crash.
        line=$(grep -E '^#[0-9]+' "$log" | grep ' cov: ' | tail -1)
        [ -z "$runs" ] && runs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<< "$line")
    fi
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$line")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$line")
    corpus=$(find "$CORPUS/$name" -type f | wc -l)
    crashes=$(find "$ARTIFACTS/$name" -maxdepth 1 -type f -newer "$LOGS/$name.start" -name 'crash-*' | sort)
    others=$(find "$ARTIFACTS/$name" -maxdepth 1 -type f -newer "$LOGS/$name.start" \
             \( -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
    slow=$(find "$ARTIFACTS/$name" -maxdepth 1 -type f -newer "$LOGS/$name.start" -name 'slow-unit-*' | wc -l)
    result="nothing"
    if [ -n "$crashes$others" ] || [ "$status" != 0 ]; then
        found=1
        result="FOUND: $(echo "$crashes" | grep -c crash-) crash, $(echo "$others" | grep -c -E 'timeout-') timeout, $(echo "$others" | grep -c -E 'oom-') oom (exit $status)"
        if [ -n "$crashes" ]; then
            report+=$'\n'"$name crashes, by cause:"$'\n'
            report+=$(for file in $crashes; do echo "$(signature "$BIN/$name" "$file")|${file#"$HERE"/}"; done |
                      awk -F'|' '{ n[$1]++; if (!($1 in ex)) ex[$1] = $2 } END { for (s in n) printf "  %d× %s\n     e.g. Fuzz/%s\n", n[s], s, ex[s] }')
        fi
        [ -n "$others" ] && report+=$'\n'"$name timeouts/ooms:"$'\n'"$(echo "$others" | sed "s#^$HERE/#  Fuzz/#")"
    fi
    [ "$slow" -gt 0 ] && result="$result; $slow slow input(s) ≥ 2 s"
    printf '%-15s %12s %8s %7s %7s %8s  %s\n' "$name" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$result"
done
if [ "$found" = 1 ]; then
    echo "$report"
    echo
    echo "Re-run an input: SWIFT_BACKTRACE=enable=no Fuzz/.build/release/<fuzzer> <file>"
    exit 1
fi
