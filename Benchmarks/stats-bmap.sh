#!/usr/bin/env bash
# `make bench-stats`, its b-value map part: `quakemap bmap` at 0.1° over California (11,211 nodes)
# from 1 M events, the nearest 200 each, Mc per node by maximum curvature (release build):
# wall seconds and peak resident memory of RUNS runs, and the node table's sanity (nodes estimated).
# The input (generated once, cached in $WORK): 1 M events over 125–114° W, 32–42° N, 70 % in 400
# clumps of a few km to tens of km (faults and sequences), 30 % scattered; magnitudes of b ≈ 1 above a
# completeness that differs from clump to clump (0.8–1.4), 0.01 precision, md and ml, a few without a
# magnitude; 20 years.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/bench}
RUNS=${RUNS:-2}
PY=${PYTHON:-python3}
mkdir -p "$WORK/stats"
OUT=$(cd "$WORK/stats" && pwd)
INPUT=$OUT/california-1m.csv
if [ ! -s "$INPUT" ]; then
    echo "generating $INPUT (1 M events)…"
    "$PY" - "$INPUT" <<'PYTHON'
import sys
import numpy as np
rng = np.random.default_rng(2026)
n = 1_000_000
centres = rng.uniform([-124.5, 32.5], [-114.5, 41.5], (400, 2))
size = rng.exponential(0.12, 400)
completeness = rng.uniform(0.8, 1.4, 400)
which = rng.integers(0, 400, n)
radius = rng.exponential(size[which])
angle = rng.uniform(0, 2 * np.pi, n)
lon = centres[which, 0] + radius * np.cos(angle)
lat = centres[which, 1] + radius * np.sin(angle)
mc = completeness[which]
scattered = rng.random(n) < 0.3
lon[scattered] = rng.uniform(-125, -114, scattered.sum())
lat[scattered] = rng.uniform(32, 42, scattered.sum())
mc[scattered] = 1.5
# Below Mc a catalogue thins out rather than stopping: a fraction of the smaller events is missed.
mags = mc - 0.5 + rng.exponential(1 / np.log(10), n)
kept = (mags >= mc) | (rng.random(n) < np.exp((mags - mc) * 4))
lon, lat, mags = lon[kept][:n], lat[kept][:n], mags[kept][:n]
m = len(mags)
seconds = np.sort(rng.uniform(0, 20 * 365.25 * 86400, m)).astype("int64")
times = (np.datetime64("2005-01-01T00:00:00") + seconds.astype("timedelta64[s]")).astype(str)
types = np.where(rng.random(m) < 0.6, "md", "ml")
depth = rng.gamma(2.0, 4.0, m)
missing = rng.random(m) < 0.001
with open(sys.argv[1], "w") as out:
    out.write("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
              "horizontalError,depthError,magError,magNst,status,locationSource,magSource\n")
    for i in range(m):
        mag = "" if missing[i] else f"{mags[i]:.2f}"
        out.write(f"{times[i]}.000Z,{lat[i]:.4f},{lon[i]:.4f},{depth[i]:.2f},{mag},{types[i]},,,,,ci,ci{i:07d},"
                  f"{times[i]}.000Z,somewhere in California,earthquake,,,,,reviewed,ci,ci\n")
print(f"{m} events")
PYTHON
fi
echo "building (release)…"
RELEASE=$(cat scripts/release-flags)
swift build $RELEASE --product quakemap >"$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt" >&2; exit 1; }
BIN=$(swift build $RELEASE --show-bin-path)
echo
echo "| run | b-value map, 0.1° over California, 1 M events, nearest 200 | peak memory | nodes estimated | target |"
echo "|---|---|---|---|---|"
for run in $(seq 1 "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$OUT/bmap-time.txt" "$BIN/quakemap" bmap "$INPUT" --region=-125,32,-114,42 --spacing 0.1 \
        --nearest 200 --grid "$OUT/bmap-nodes.csv" -o "$OUT/bmap.png" --quiet
    read -r seconds kib <"$OUT/bmap-time.txt"
    nodes=$(($(wc -l <"$OUT/bmap-nodes.csv") - 1))
    estimated=$(awk -F, 'NR > 1 && $7 != "" { n++ } END { print n + 0 }' "$OUT/bmap-nodes.csv")
    echo "| $run | ${seconds} s | $((kib / 1024)) MiB | $estimated of $nodes | ≤ 30 s |"
done
