#!/usr/bin/env bash
# `make interop`: quakemap's tiles and server read by a client nobody here wrote,
# GDAL (Debian's gdal-bin): the OGC API – Features driver lists the collection
# and reads the same features with a bbox and with a CQL2 filter as the server's
# own answer, and the MBTiles driver reads the MBTiles file. Prints each command
# and its output; exits non-zero on any disagreement.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/interop}
FEED=${FEED:-Data/synthetic_all_day.csv}
mkdir -p "$WORK"

if ! command -v ogrinfo >/dev/null || ! command -v gdalinfo >/dev/null; then
    echo "Installing gdal-bin (Debian package)…"
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gdal-bin
fi
swift build --product quakemap >/dev/null
BIN=$(swift build --show-bin-path)
source scripts/lib/server.sh

show() { echo; echo "\$ $*"; "$@"; }
fail() { echo "interop: $*" >&2; exit 1; }

# MBTiles: written by quakemap, read by GDAL's MBTiles driver.
show "$BIN/quakemap" tiles "$FEED" --zoom 0-4 -o "$WORK/quakes.mbtiles"
show gdalinfo "$WORK/quakes.mbtiles" | tee "$WORK/gdalinfo.txt" | grep -E "^Driver|^Size|Overviews|PNG|ZOOM_LEVEL|name=|format=" || true
grep -q "^Driver: MBTiles/MBTiles" "$WORK/gdalinfo.txt" || fail "GDAL did not open the MBTiles file"
grep -q "^Size is 4096, 4096" "$WORK/gdalinfo.txt" || fail "GDAL sees another size than zoom 4 (16 × 256 px)"

# The server on a free port, with its access log kept.
start_server "$FEED" "$WORK/server.log"
ROOT=http://127.0.0.1:$PORT

show ogrinfo -ro OAPIF:$ROOT/
ogrinfo -ro OAPIF:$ROOT/ | grep -q "quakes (title: Earthquakes) (Point)" || fail "GDAL does not list the collection"
show ogrinfo -ro -so -oo PAGE_SIZE=1000 OAPIF:$ROOT/ quakes

# compare LABEL GDAL-DATASET QUERY [OGR OPTIONS…]: GDAL's features against the server's own answer to QUERY.
compare() {
    local label=$1 dataset=$2 query=$3
    shift 3
    echo
    echo "\$ ogr2ogr -f GeoJSON $WORK/$label.geojson $dataset quakes $*"
    ogr2ogr -f GeoJSON "$WORK/$label.geojson" "$dataset" quakes -oo PAGE_SIZE=1000 "$@"
    curl -sf "$ROOT/collections/quakes/items?limit=10000&$query" >"$WORK/$label-server.json"
    python3 - "$WORK/$label.geojson" "$WORK/$label-server.json" "$label" <<'PY'
import json, sys
gdal = json.load(open(sys.argv[1]))["features"]
server = json.load(open(sys.argv[2]))
ids = lambda features: sorted(f["properties"].get("id") or f.get("id") for f in features)
theirs, ours = ids(gdal), ids(server["features"])
print(f"{sys.argv[3]}: GDAL read {len(theirs)} features; the server matched {server['numberMatched']}; same ids: {theirs == ours}")
if theirs != ours or not ours:
    sys.exit(1)
PY
}
compare bbox OAPIF:$ROOT/ "bbox=-125,32,-114,42" -spat -125 32 -114 42 || fail "GDAL read other features with a bbox"
compare cql2 "OAPIF:$ROOT/?filter=mag%20%3E%3D%202.5" "filter=mag%20%3E%3D%202.5" || fail "GDAL read other features with a CQL2 filter"

echo
echo "The server's access log (GDAL's requests):"
grep -E "GET /" "$WORK/server.log" | sed 's/^/  /' | head -20
echo
echo "interop: GDAL $(gdalinfo --version | cut -d, -f1 | cut -d' ' -f2) read the MBTiles file and the OGC API – Features service"
