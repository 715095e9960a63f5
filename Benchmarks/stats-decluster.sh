#!/usr/bin/env bash
# Declustering's figures: `quakemap decluster` (release build) with Gardner–Knopoff on 1,000,000
# synthetic events with aftershock sequences (Benchmarks/synthetic_catalogue.py, seed 1, cached in
# $WORK), each window, and nearest neighbour on 100,000; SeismoStats 1.0.1's GardnerKnopoffType1
# on SIZE events (default 20,000: it compares each mainshock with every event, so 1 M is out of
# reach) beside quakemap on the same SIZE events: the ratio is measured at that size, not
# extrapolated. Wall seconds (best of RUNS, default 2) and peak resident MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
SIZE=${SIZE:-20000}
PYTHON=${PYTHON:-$(ls -d ~/.cache/quakemap/venv-*/bin/python 2>/dev/null | head -1)}
mkdir -p "$WORK"

echo "building (release)…" >&2
swift build $(cat scripts/release-flags) --product quakemap >"$WORK/build.txt" 2>&1 \
    || { cat "$WORK/build.txt" >&2; echo "stats-decluster: the build failed" >&2; exit 1; }
BIN=$PWD/.build/release/quakemap

catalogue() {  # catalogue EVENTS: the cached synthetic CSV's path
    local path=$WORK/synthetic-$1.csv
    if [ ! -s "$path" ]; then
        echo "generating $1 events…" >&2
        "$PYTHON" Benchmarks/synthetic_catalogue.py "$path.tmp" --events "$1" --seed 1 && mv "$path.tmp" "$path"
    fi
    echo "$path"
}

# best LABEL COMMAND…: the best wall time of RUNS runs and its peak MiB, as "seconds MiB".
best() {
    local best_s="" best_m="" i
    for ((i = 0; i < RUNS; i++)); do
        /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>/dev/null
        read -r s kb <"$WORK/time.txt"
        if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; best_m=$((kb / 1024)); fi
    done
    echo "$best_s $best_m"
}

ONE=$(catalogue 1000000)
HUNDRED=$(catalogue 100000)
SMALL=$(catalogue "$SIZE")

printf '%-44s %10s %9s %11s\n' "job" "seconds" "peak MiB" "mainshocks"
row() {  # row LABEL FILE METHOD
    local result mainshocks
    result=$(best "$BIN" decluster "$2" --method "$3" --columns mainshock -q)
    mainshocks=$(grep -c '^1$' "$WORK/out.txt" || true)
    printf '%-44s %10s %9s %11s\n' "$1" ${result} "$mainshocks"
}
row "quakemap decluster gk, 1,000,000" "$ONE" gk
row "quakemap decluster gk-uhrhammer, 1,000,000" "$ONE" gk-uhrhammer
row "quakemap decluster gk-gruenthal, 1,000,000" "$ONE" gk-gruenthal
row "quakemap decluster nearest-neighbour, 100,000" "$HUNDRED" nearest-neighbour
row "quakemap decluster gk, $SIZE" "$SMALL" gk
OURS=$(best "$BIN" decluster "$SMALL" --method gk --columns mainshock -q | cut -d' ' -f1)

# SeismoStats on the same events, its declustering alone timed (reading the CSV is not counted).
THEIRS=$("$PYTHON" - "$SMALL" <<'PY'
import sys, time
import pandas as pd
from seismostats.analysis.declustering import GardnerKnopoffType1, GardnerKnopoffWindow
frame = pd.read_csv(sys.argv[1])
frame = frame[frame["mag"].notna()]
catalog = pd.DataFrame({"time": pd.to_datetime(frame["time"], utc=True).dt.tz_localize(None),
                        "magnitude": frame["mag"].to_numpy(), "latitude": frame["latitude"].to_numpy(),
                        "longitude": frame["longitude"].to_numpy()})
start = time.perf_counter()
flags = GardnerKnopoffType1(GardnerKnopoffWindow())(catalog)
print(f"{time.perf_counter() - start:.2f} {int(flags.sum())}")
PY
)
printf '%-44s %10s %9s %11s\n' "SeismoStats GardnerKnopoffType1 gk, $SIZE" "${THEIRS% *}" "" "${THEIRS#* }"
awk -v ours="$OURS" -v theirs="${THEIRS% *}" -v size="$SIZE" \
    'BEGIN { printf "quakemap is %.0f× faster than SeismoStats at %d events (whole command against the declustering call alone)\n", theirs / ours, size }'
