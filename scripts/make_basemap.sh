#!/usr/bin/env bash
# Rebuild quakemap's bundled land basemap from a PyPI package.
#
#   scripts/make_basemap.sh            (from any directory)
#
# Source: Natural Earth 1:110m admin-0 countries (public domain), as shipped in the
# PyPI wheel geopandas==0.14.4 at geopandas/datasets/naturalearth_lowres/.
# The countries are dissolved into land polygons by scripts/make_land.py.
#
# Writes:
#   Data/basemap/land_110m.geojson
#   Sources/QuakeKit/Basemap/EmbeddedLand+110m.swift   (the same text as a Swift string)
#
# Needs: python3 with venv and pip, and access to PyPI. Nothing is installed outside
# a temporary directory, which is removed on exit.
# Environment: PYTHON (default python3) picks the interpreter for the venv.
set -euo pipefail

GEOPANDAS_VERSION=0.14.4
PYSHP_VERSION=3.1.6
SHAPELY_VERSION=2.2.0
SHP_MEMBER=geopandas/datasets/naturalearth_lowres/naturalearth_lowres
SHP_SHA256=1f689e60b357e1e98702d5d9f774e95e77fc6b324487cadf57eb9317d533ce12

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT_GEOJSON="$ROOT/Data/basemap/land_110m.geojson"
OUT_SWIFT="$ROOT/Sources/QuakeKit/Basemap/EmbeddedLand+110m.swift"
PYTHON="${PYTHON:-python3}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/quakemap-basemap.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

say() { printf 'make_basemap: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

say "creating venv in $WORK/venv"
"$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
PIP=("$VPY" -m pip --disable-pip-version-check --no-input --quiet)

say "installing pyshp==$PYSHP_VERSION shapely==$SHAPELY_VERSION"
"${PIP[@]}" install "pyshp==$PYSHP_VERSION" "shapely==$SHAPELY_VERSION"

say "downloading geopandas==$GEOPANDAS_VERSION wheel (data only, not installed)"
"${PIP[@]}" download --no-deps --only-binary=:all: --dest "$WORK/wheel" \
    "geopandas==$GEOPANDAS_VERSION"

WHEEL="$(ls "$WORK"/wheel/geopandas-"$GEOPANDAS_VERSION"-*.whl 2>/dev/null | head -n 1 || true)"
[[ -n "$WHEEL" ]] || die "no geopandas $GEOPANDAS_VERSION wheel was downloaded"

say "extracting $SHP_MEMBER.{shp,shx,dbf,prj} from $(basename "$WHEEL")"
"$VPY" - "$WHEEL" "$WORK/src" "$SHP_MEMBER" <<'PY'
import os, sys, zipfile
wheel, dest, stem = sys.argv[1:4]
os.makedirs(dest, exist_ok=True)
with zipfile.ZipFile(wheel) as zf:
    names = set(zf.namelist())
    for ext in (".shp", ".shx", ".dbf", ".prj"):
        member = stem + ext
        if member not in names:
            sys.exit("missing from wheel: " + member)
        with zf.open(member) as src, open(os.path.join(dest, os.path.basename(member)), "wb") as dst:
            dst.write(src.read())
PY

SHP="$WORK/src/$(basename "$SHP_MEMBER").shp"
GOT_SHA256="$("$VPY" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$SHP")"
if [[ "$GOT_SHA256" != "$SHP_SHA256" ]]; then
    die "sha256 mismatch for $(basename "$SHP"): expected $SHP_SHA256, got $GOT_SHA256"
fi
say "source .shp sha256 OK ($SHP_SHA256)"

say "converting"
"$VPY" "$ROOT/scripts/make_land.py" --digits 3 --swift "$OUT_SWIFT" "$SHP" "$OUT_GEOJSON"

say "wrote ${OUT_GEOJSON#"$ROOT"/} and ${OUT_SWIFT#"$ROOT"/}"
