#!/usr/bin/env bash
# `make bench` (after run.sh), or alone with `make bench-readers`: each reader's throughput
# and peak memory, `quakemap list --limit 300` on a big synthetic catalogue in each format
# (Benchmarks/make_big_catalog.py: the same events in CSV, GeoJSON, FDSN text and QuakeML),
# with two references: `xmllint --stream --noout` (libxml2's own streaming reader, Debian's
# libxml2-utils, installed here when missing) on the same QuakeML file, and ObsPy reading
# a smaller file of the same events (events/s; ObsPy from the tests' virtual environment, which
# `make test-deps` fills; skipped with a note where it is missing).
# Times are medians of RUNS runs, timed to the microsecond; memory is the largest resident
# set over the runs in MiB (/usr/bin/time's kilobytes / 1024). Sizes are in MB (10^6 bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-3}
READER_BYTES=${READER_BYTES:-2e8}   # the CSV and FDSN text files
GEOJSON_BYTES=${GEOJSON_BYTES:-2e8} # the GeoJSON file, where its 150 MB/s and 64 MiB are checked
BIG_BYTES=${BIG_BYTES:-1e9}         # the QuakeML file: 1 GB, where the 64 MiB promise is checked
SMALL_EVENTS=${SMALL_EVENTS:-5000}  # the files ObsPy reads
PYTHON=${PYTHON:-python3}  # make passes the tests' virtual environment's
mkdir -p "$WORK"

if ! command -v xmllint >/dev/null; then
    echo "Installing libxml2-utils (Debian package, for xmllint)…"
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libxml2-utils
fi
echo "building quakemap (release, as make map does)…"
swift build $(cat scripts/release-flags) --product quakemap >"$WORK/readers-build.txt" 2>&1 \
    || { cat "$WORK/readers-build.txt" >&2; echo "bench: the quakemap build failed" >&2; exit 1; }
BIN=.build/release/quakemap

# catalogue FORMAT SIZE: the file's path, generated once (deterministic) for that size and
# again when the generator changes (FILE.sum keeps its checksum); FILE.events holds the
# number of events in it.
GENERATOR_SUM=$(cksum <Benchmarks/make_big_catalog.py)
catalogue() {
    local file="$WORK/catalogue-$2.$1"
    if [ ! -f "$file.events" ] || [ "$(cat "$file.sum" 2>/dev/null)" != "$GENERATOR_SUM" ]; then
        python3 Benchmarks/make_big_catalog.py "$1" "$file" "$2" | tee /dev/stderr \
            | sed -n 's/.*: \([0-9]*\) events.*/\1/p' >"$file.events"
        echo "$GENERATOR_SUM" >"$file.sum"
    fi
    echo "$file"
}

# measure RUNS COMMAND…: "median-seconds peak-MiB" (a failing command stops the bench).
measure() {
    local runs=$1; shift
    local times=() peak=0 start end kb
    for _ in $(seq "$runs"); do
        start=$EPOCHREALTIME
        if ! /usr/bin/time -f "%M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt"; then
            cat "$WORK/stderr.txt" >&2; echo "bench: failed: $*" >&2; exit 1
        fi
        end=$EPOCHREALTIME
        times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}')")
        kb=$(tail -1 "$WORK/time.txt"); (( kb > peak )) && peak=$kb
    done
    echo "$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {m = int((NR + 1) / 2); printf "%.3f", NR % 2 ? a[m] : (a[m] + a[m + 1]) / 2}') $((peak / 1024))"
}
megabytes() { awk -v b="$(stat -c %s "$1")" 'BEGIN {printf "%.0f", b / 1e6}'; }
rate() { awk -v b="$(stat -c %s "$1")" -v s="$2" 'BEGIN {printf "%.0f", b / 1e6 / s}'; }
events() { cat "$1.events"; }
row() { printf '| %-34s | %8s | %9s | %8s | %9s | %8s |\n' "$@"; }

echo
echo "## Readers: quakemap list --limit 300 (median of $RUNS; peak resident memory in MiB)"
row "reader (file)" "MB" "events" "time s" "MB/s" "peak MiB"
echo "|---|---|---|---|---|---|"
for format in csv geojson text quakeml; do
    size=$READER_BYTES
    [ "$format" = quakeml ] && size=$BIG_BYTES
    [ "$format" = geojson ] && size=$GEOJSON_BYTES
    file=$(catalogue "$format" "$size")
    read -r seconds mib < <(measure "$RUNS" "$BIN" list "$file" --limit 300 --format csv)
    label=$format; [ "$format" = text ] && label="FDSN text"; [ "$format" = quakeml ] && label="QuakeML"
    [ "$format" = csv ] && label="CSV"; [ "$format" = geojson ] && label="GeoJSON"
    row "$label" "$(megabytes "$file")" "$(events "$file")" "$seconds" "$(rate "$file" "$seconds")" "$mib"
    [ "$format" = quakeml ] && QUAKEML=$file && QUAKEML_MIB=$mib
    [ "$format" = geojson ] && GEOJSON=$file && GEOJSON_MIB=$mib && GEOJSON_RATE=$(rate "$file" "$seconds")
done
read -r seconds mib < <(measure "$RUNS" xmllint --stream --noout "$QUAKEML")
row "xmllint --stream --noout (QuakeML)" "$(megabytes "$QUAKEML")" "" "$seconds" "$(rate "$QUAKEML" "$seconds")" "$mib"
if (( QUAKEML_MIB < 64 )); then verdict="✓"; else verdict="✗"; fi
echo "QuakeML, $(megabytes "$QUAKEML") MB with --limit 300: peak $QUAKEML_MIB MiB (target < 64 MiB $verdict)"
if (( GEOJSON_MIB <= 64 && GEOJSON_RATE >= 150 )); then verdict="✓"; else verdict="✗"; fi
echo "GeoJSON, $(megabytes "$GEOJSON") MB with --limit 300: $GEOJSON_RATE MB/s, peak $GEOJSON_MIB MiB (targets ≥ 150 MB/s, ≤ 64 MiB $verdict)"

# The same events in four formats: each reader must list them alike (a check, not a timing).
reference=""
for format in csv geojson text quakeml; do
    listed=$("$BIN" list "$(catalogue "$format" "${SMALL_EVENTS}r")" --limit 0 --format csv --quiet | cksum)
    [ -z "$reference" ] && reference=$listed
    [ "$listed" = "$reference" ] || { echo "bench: the $format reader lists other events than the CSV reader" >&2; exit 1; }
done
echo "The four readers list the same events from the same $SMALL_EVENTS-event catalogue ✓"

echo
echo "## ObsPy reading $SMALL_EVENTS events (obspy.read_events, import excluded) against quakemap list --limit 0 on the same file"
if "$PYTHON" -c "import obspy" 2>/dev/null; then
    row "reader (file)" "MB" "events" "time s" "events/s" "peak MiB"
    echo "|---|---|---|---|---|---|"
    for format in quakeml text; do
        file=$(catalogue "$format" "${SMALL_EVENTS}r")
        obspy_format=QUAKEML; [ "$format" = text ] && obspy_format=EVENTTXT
        label="QuakeML"; [ "$format" = text ] && label="FDSN text"
        # ObsPy's own clock around read_events alone, so its import (about a second) is left out.
        read -r seconds count < <("$PYTHON" -c '
import sys, time, warnings
from obspy import read_events
warnings.simplefilter("ignore")
start = time.perf_counter()
catalog = read_events(sys.argv[1], format=sys.argv[2])
print("%.3f" % (time.perf_counter() - start), len(catalog))' "$file" "$obspy_format")
        row "ObsPy, $label" "$(megabytes "$file")" "$count" "$seconds" "$(awk -v n="$count" -v s="$seconds" 'BEGIN {printf "%.0f", n / s}')" ""
        read -r qs qmib < <(measure "$RUNS" "$BIN" list "$file" --limit 0 --format csv)
        row "quakemap, $label" "$(megabytes "$file")" "$(events "$file")" "$qs" "$(awk -v n="$(events "$file")" -v s="$qs" 'BEGIN {printf "%.0f", n / s}')" "$qmib"
    done
else
    echo "skipped: $PYTHON has no ObsPy (make test-deps installs it from Tests/Interop/requirements.txt)"
fi
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(swift --version 2>&1 | head -1), $(xmllint --version 2>&1 | head -1)"
