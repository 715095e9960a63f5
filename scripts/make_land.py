#!/usr/bin/env python3
"""Turn a polygon shapefile (countries, or land) into one dissolved "land" layer.

Part of quakemap; normally run by scripts/make_basemap.sh, which provides a venv
with pinned `pyshp` and `shapely`.

Steps:
  1. read every polygon shape with pyshp from the .shp and .shx alone (no .dbf is
     needed, and Natural Earth's 10m land ships none) and build shapely geometries
     (invalid inputs are repaired with make_valid),
  2. merge them all into one geometry with shapely.ops.unary_union,
  3. with --min-area A: drop the merged polygons whose area is below A deg²,
  4. with --simplify T: shapely simplify(T, preserve_topology=True) on what is left
     (without these two options nothing is dropped or simplified),
  5. snap the result to a 10**-DIGITS degree grid with shapely.set_precision,
     which keeps the output valid,
  6. orient every polygon RFC 7946 style (exterior counter-clockwise, holes clockwise),
  7. sort polygons by area, largest first (ties broken by their coordinates so the
     order never depends on GEOS internals),
  8. write a GeoJSON FeatureCollection with one Polygon Feature per line.

Output layout (Data/basemap/README.md documents it; keep it stable):

    {"type":"FeatureCollection","features":[
    {"type":"Feature","properties":{},"geometry":{...}},
    ...
    {"type":"Feature","properties":{},"geometry":{...}}
    ]}

Numbers are written with at most DIGITS decimals and no trailing zeros; whole numbers
have no decimal point (-180, not -180.0); negative zero is written as 0.

scripts/embed_basemap.py then compiles the GeoJSON into the C arrays QuakeKit builds in
(scripts/make_basemap.sh runs both).
"""

import argparse
import hashlib
import json
import os
import sys
import tempfile
from contextlib import ExitStack

import shapefile  # pyshp
import shapely
from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.geometry.polygon import orient
from shapely.ops import unary_union

def polygons_of(geom):
    """Flatten any geometry into a list of its non-empty Polygon parts."""
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon):
        return [p for p in geom.geoms if not p.is_empty]
    if hasattr(geom, "geoms"):  # GeometryCollection from make_valid
        out = []
        for g in geom.geoms:
            out.extend(polygons_of(g))
        return out
    return []  # points / lines carry no area


def load_shapes(path):
    """Read the polygons of PATH (.shp) and the .shx beside it; any .dbf is ignored.

    pyshp is handed the open .shp and .shx files explicitly, so it never looks for a
    .dbf (the attributes are not used, and some sources ship none).
    """
    stem = os.path.splitext(path)[0]
    shx = next((stem + e for e in (".shx", ".SHX") if os.path.exists(stem + e)), None)
    if shx is None:
        sys.exit("make_land: no .shx beside " + path)
    geoms, nverts, nshapes = [], 0, 0
    with ExitStack() as stack:
        shp_file = stack.enter_context(open(path, "rb"))
        shx_file = stack.enter_context(open(shx, "rb"))
        reader = stack.enter_context(shapefile.Reader(shp=shp_file, shx=shx_file))
        for shp in reader.shapes():
            if shp.shapeType == shapefile.NULL:
                continue
            nshapes += 1
            nverts += len(shp.points)
            g = shape(shp.__geo_interface__)
            if not g.is_valid:
                g = shapely.make_valid(g)
            geoms.extend(polygons_of(g))
    return geoms, nshapes, nverts


def fmt(value, digits):
    text = "%.*f" % (digits, value)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text


def ring_text(ring, digits):
    coords = list(ring.coords)
    if coords[0] != coords[-1]:
        coords.append(coords[0])
    return "[" + ",".join(
        "[%s,%s]" % (fmt(x, digits), fmt(y, digits)) for x, y in coords
    ) + "]"


def feature_line(poly, digits):
    rings = [ring_text(poly.exterior, digits)]
    rings += [ring_text(r, digits) for r in poly.interiors]
    return (
        '{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":['
        + ",".join(rings)
        + "]}}"
    )


def write_atomic(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shp", help="input polygon shapefile (.shp; .shx beside it, no .dbf needed)")
    ap.add_argument("geojson", help="output GeoJSON path")
    ap.add_argument("--digits", type=int, default=3, help="decimals to keep (default 3)")
    ap.add_argument("--min-area", type=float, default=0.0, metavar="DEG2",
                    help="after the union, drop polygons whose area is below DEG2 square "
                         "degrees (default 0: keep all)")
    ap.add_argument("--simplify", type=float, default=0.0, metavar="DEG",
                    help="simplify with this tolerance in degrees, preserving topology "
                         "(default 0: no simplification)")
    args = ap.parse_args(argv)
    digits = args.digits

    geoms, in_shapes, in_verts = load_shapes(args.shp)
    print("input : %d shapes, %d polygon parts, %d vertices"
          % (in_shapes, len(geoms), in_verts))

    land = unary_union(geoms)
    if args.min_area > 0:
        merged = polygons_of(land)
        kept = [p for p in merged if p.area >= args.min_area]
        print("union : %d polygons, %d of them below %g deg² dropped"
              % (len(merged), len(merged) - len(kept), args.min_area))
        land = MultiPolygon(kept)
    if args.simplify > 0:
        land = land.simplify(args.simplify, preserve_topology=True)
    land = shapely.set_precision(land, 10.0 ** -digits)
    parts = [orient(p, sign=1.0) for p in polygons_of(land)]
    if not all(p.is_valid for p in parts):
        sys.exit("make_land: a polygon is invalid after snapping to the grid")

    lines = [feature_line(p, digits) for p in parts]
    order = sorted(range(len(parts)), key=lambda i: (-parts[i].area, lines[i]))
    lines = [lines[i] for i in order]
    parts = [parts[i] for i in order]

    text = (
        '{"type":"FeatureCollection","features":[\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )

    # Self-check: the text parses and every ring is closed, with the right orientation.
    doc = json.loads(text)
    nholes = nverts = 0
    for feat in doc["features"]:
        rings = feat["geometry"]["coordinates"]
        for k, ring in enumerate(rings):
            assert ring[0] == ring[-1] and len(ring) >= 4, "ring not closed"
            ccw = shapely.LinearRing(ring).is_ccw
            assert ccw == (k == 0), "ring orientation is wrong"
            nverts += len(ring)
        nholes += len(rings) - 1
    nrings = len(doc["features"]) + nholes
    minx, miny, maxx, maxy = MultiPolygon(parts).bounds

    write_atomic(args.geojson, text)
    print(
        "output: %d polygons, %d holes, %d vertices (%d without closing points), "
        "bounds [%s, %s, %s, %s], %d bytes, sha256 %s"
        % (len(doc["features"]), nholes, nverts, nverts - nrings,
           fmt(minx, digits), fmt(miny, digits), fmt(maxx, digits), fmt(maxy, digits),
           len(text.encode("utf-8")), hashlib.sha256(text.encode("utf-8")).hexdigest())
    )


if __name__ == "__main__":
    main()
