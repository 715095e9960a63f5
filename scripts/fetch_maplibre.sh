#!/usr/bin/env bash
# Fetch MapLibre GL JS, which the web map draws with, into Sources/QuakeServer/Web/maplibre/.
#
#   scripts/fetch_maplibre.sh          (a 1.4 MB download)
#   scripts/fetch_maplibre.sh --help
#
# Works from any directory. The files are committed: neither a build nor a test fetches them.
#
# Source: MapLibre GL JS 5.3.0 (BSD-3-Clause), as shipped in the PyPI wheel maplibre==0.3.6 under
# maplibre/srcjs/ (maplibre-gl.js, the minified UMD build, and maplibre-gl.css). The wheel is only
# downloaded for those two files, never installed; the wheel and each file are checked against
# their sha256. The wheel carries no copy of MapLibre's licence (only the header line naming it),
# so its text is written here as MapLibre publishes it with v5.3.0 (LICENSE.txt in its repository).
# The source map reference at the script's end is dropped: the map is not shipped, and a browser's
# developer tools would ask the server for it.
#
# Needs: python3 with pip, and access to PyPI. Nothing is installed; a temporary directory is
# removed on exit (also on error or Ctrl-C).
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
for arg in "$@"; do
    case "$arg" in
        -h|--help) usage; exit 0 ;;
        *) printf 'fetch_maplibre: unknown argument: %s (try --help)\n' "$arg" >&2; exit 2 ;;
    esac
done

WHEEL_VERSION=0.3.6
WHEEL_SHA256=eeafab617d4a1b71c0c174c71405f67c4b4e494fe1b27968d4d2359bc160e277
JS_SHA256=e380deae560bc5d182be4124a1b9cdd5086304b0cb82c92a5af23d018aa81015
CSS_SHA256=792ac997dcf6ae6f643eb4e2dee4630c85e7056526bd8fb85ffe83c67d6c41b4

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/Sources/QuakeServer/Web/maplibre"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/quakemap-maplibre.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf 'fetch_maplibre: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

say "downloading maplibre==$WHEEL_VERSION (data only, not installed)"
python3 -m pip --disable-pip-version-check --no-input --quiet download --no-deps --only-binary=:all: \
    --dest "$WORK/wheel" "maplibre==$WHEEL_VERSION"
wheel="$WORK/wheel/maplibre-$WHEEL_VERSION-py3-none-any.whl"
[[ -f "$wheel" ]] || die "no maplibre $WHEEL_VERSION wheel was downloaded"
[[ "$(sha "$wheel")" == "$WHEEL_SHA256" ]] || die "sha256 mismatch for $(basename "$wheel")"
python3 - "$wheel" "$WORK" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in ("maplibre-gl.js", "maplibre-gl.css"):
        with open(f"{sys.argv[2]}/{name}", "wb") as out:
            out.write(wheel.read(f"maplibre/srcjs/{name}"))
PY
[[ "$(sha "$WORK/maplibre-gl.js")" == "$JS_SHA256" ]] || die "sha256 mismatch for maplibre-gl.js"
[[ "$(sha "$WORK/maplibre-gl.css")" == "$CSS_SHA256" ]] || die "sha256 mismatch for maplibre-gl.css"
grep -q '^ \* MapLibre GL JS$' "$WORK/maplibre-gl.js" && grep -q 'maplibre-gl-js/blob/v5.3.0/LICENSE.txt' "$WORK/maplibre-gl.js" \
    || die "maplibre-gl.js is not MapLibre GL JS 5.3.0"
mkdir -p "$OUT"
sed '$ s|//# sourceMappingURL=maplibre-gl.js.map$||' "$WORK/maplibre-gl.js" > "$OUT/maplibre-gl.js"
cp "$WORK/maplibre-gl.css" "$OUT/maplibre-gl.css"
cat > "$OUT/LICENSE.txt" <<'LICENCE'
Copyright (c) 2023, MapLibre contributors

All rights reserved.

Redistribution and use in source and binary forms, with or without modification,
are permitted provided that the following conditions are met:

    * Redistributions of source code must retain the above copyright notice,
      this list of conditions and the following disclaimer.
    * Redistributions in binary form must reproduce the above copyright notice,
      this list of conditions and the following disclaimer in the documentation
      and/or other materials provided with the distribution.
    * Neither the name of MapLibre GL JS nor the names of its
      contributors may be used to endorse or promote products derived from this
      software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR
ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
(INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON
ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
(INCLUDING NEGLIGENCE OR OTHERWISE), ARISING IN ANY WAY OUT OF THE USE OF THIS
SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

-------------------------------------------------------------------------------

Contains code from mapbox-gl-js v1.13 and earlier

Version v1.13 of mapbox-gl-js and earlier are licensed under a BSD-3-Clause license

Copyright (c) 2020, Mapbox
LICENCE
say "wrote ${OUT#"$ROOT"/}: maplibre-gl.js, maplibre-gl.css, LICENSE.txt"
