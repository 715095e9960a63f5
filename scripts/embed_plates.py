#!/usr/bin/env python3
"""Compile Peter Bird's PB2002 plate boundaries into the C byte array that QuakeKit builds in.

Part of quakemap (`make plates`). Python's standard library only.

    scripts/embed_plates.py [DIR]           regenerate Sources/CPlateData/pb2002.c
    scripts/embed_plates.py --check [DIR]   exit 1 if it differs from what would be written

DIR holds PB2002_boundaries.json and PB2002_plates.json (the GeoJSON conversion by Hugo
Ahlenius, Nordpil, of Bird 2003); by default ../shared/data/plates beside the checkout.
The generated .c file is committed, so a build never needs DIR. Data/plates/README.md
describes the data, its licence and its credit.

Subduction polarity. Bird (2003) names every boundary segment by the plate on its left,
a separator, and the plate on its right, as seen walking in the digitised direction;
the separator is "-" except on subduction zones, where "/" says the plate on the left
overrides and "\\" says the plate on the right does (the stroke leans down under the
overriding plate, like the slab under it: TO/PA at Tonga, NZ\\SA at the Peru-Chile
Trench, PA\\OK at the Japan Trench). This script reads the side from the name AND
checks it from the geometry: for each step of a subduction line it tests which plate
polygon of PB2002_plates.json holds a point a little to its left and to its right,
and refuses the data (exit 2) if the name's plates are not where the name puts them.

Format (decoded by Sources/QuakeGeo/Basemap/PlateBoundaries.swift):

    "QMPLATE1"                              8 bytes: magic and version
    varint boundaries
      per boundary:
        varint length, UTF-8 name           Bird's name, e.g. "NZ\\SA"
        varint length, UTF-8 plate A        the plate on the left (PlateA)
        varint length, UTF-8 plate B        the plate on the right (PlateB)
        byte kind                           0 other, 1 subduction with the overriding
                                            plate on the left, 2 ... on the right
        varint points
          per point: zig-zag varint Δlongitude, zig-zag varint Δlatitude

Coordinates are whole milli-degrees (rounded; about 100 m, far below a pixel of any
map this draws); each delta is from the previous point in the array (the first from
0, 0). Varints are unsigned LEB128, as in scripts/embed_basemap.py.
"""

import argparse
import hashlib
import json
import math
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SOURCE = os.path.join(os.path.dirname(ROOT), "shared", "data", "plates")
C_PATH = "Sources/CPlateData/pb2002.c"
MAGIC = b"QMPLATE1"
OTHER, LEFT, RIGHT = 0, 1, 2
# How far beside a subduction step the geometry check looks, in degrees of arc: the
# nearer distances only where the farther one lands in a third plate (the tiny Molucca
# Sea and Birds Head plates).
PROBES = (0.25, 0.1, 0.04)


def fail(message, code=2):
    print("embed_plates: " + message, file=sys.stderr)
    sys.exit(code)


def milli(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        fail("%s: %r is not a number" % (where, value))
    return int(round(value * 1000))


def varint(out, n):
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)


def zigzag(n):
    return n << 1 if n >= 0 else ((-n) << 1) - 1


def text(out, s):
    raw = s.encode("utf-8")
    varint(out, len(raw))
    out.extend(raw)


def read_boundaries(path):
    with open(path, "rb") as f:
        raw = f.read()
    features = json.loads(raw).get("features") or []
    boundaries = []
    for index, feature in enumerate(features):
        props, geometry = feature.get("properties") or {}, feature.get("geometry") or {}
        where = "%s: feature %d" % (os.path.basename(path), index)
        if geometry.get("type") != "LineString":
            fail("%s: a %s, not a LineString" % (where, geometry.get("type")))
        name, a, b = props.get("Name"), props.get("PlateA"), props.get("PlateB")
        if not all(isinstance(v, str) and v for v in (name, a, b)):
            fail("%s: Name, PlateA and PlateB must be text" % where)
        points = [(milli(p[0], where), milli(p[1], where)) for p in geometry["coordinates"]]
        if len(points) < 2:
            fail("%s (%s): fewer than two points" % (where, name))
        for x, y in points:
            if abs(x) > 180_000 or abs(y) > 90_000:
                fail("%s (%s): a position outside the globe" % (where, name))
        boundaries.append({"name": name, "a": a, "b": b, "subduction": props.get("Type") == "subduction",
                           "points": points, "coordinates": geometry["coordinates"]})
    return raw, boundaries


def side_from_name(boundary):
    """The overriding plate's side as Bird's name says, or exit if the name is not "A?B"."""
    name, a, b = boundary["name"], boundary["a"], boundary["b"]
    if len(name) != len(a) + 1 + len(b) or not name.startswith(a) or not name.endswith(b):
        fail("%s: the name is not PlateA, a separator, PlateB (%s, %s)" % (name, a, b))
    separator = name[len(a)]
    if boundary["subduction"]:
        if separator == "/":
            return LEFT
        if separator == "\\":
            return RIGHT
        fail("%s: a subduction zone whose name has %r, not / or \\" % (name, separator))
    if separator != "-":
        fail("%s: %r in the name of a boundary that is not a subduction zone" % (name, separator))
    return OTHER


def read_plates(path):
    """{code: [(west, east, south, north, ring)]} of the plate outlines."""
    with open(path, "rb") as f:
        features = json.load(f).get("features") or []
    plates = {}
    for feature in features:
        code, geometry = feature["properties"]["Code"], feature["geometry"]
        polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
        for ring in (ring for polygon in polygons for ring in polygon):
            lons, lats = [p[0] for p in ring], [p[1] for p in ring]
            plates.setdefault(code, []).append((min(lons), max(lons), min(lats), max(lats), ring))
    return plates


def inside(rings, lon, lat):
    """Even-odd test in the longitude/latitude plane (PB2002's outlines are cut at ±180°
    and closed along the pole where they hold one, so the plane test holds)."""
    hit = False
    for west, east, south, north, ring in rings:
        if not (west <= lon <= east and south <= lat <= north):
            continue
        j = len(ring) - 1
        for i in range(len(ring)):
            (xi, yi), (xj, yj) = ring[i][:2], ring[j][:2]
            if (yi > lat) != (yj > lat) and lon < (xj - xi) * (lat - yi) / (yj - yi) + xi:
                hit = not hit
            j = i
    return hit


def plate_at(plates, lon, lat):
    lon = (lon + 180) % 360 - 180
    found = [code for code, rings in plates.items() if inside(rings, lon, lat)]
    return found[0] if len(found) == 1 else None


def wrapped(longitude):
    """The longitude in −180…180."""
    return (longitude + 180) % 360 - 180


def plates_beside(boundary, plates):
    """For each step of the line: (plate on its left, plate on its right), None where a
    probe point is in no plate or in a third one at every probe distance."""
    found = []
    coordinates = boundary["coordinates"]
    for (x0, y0), (x1, y1) in zip(coordinates, coordinates[1:]):
        # A step beside ±180° is taken the short way round, so its middle is beside it too.
        if abs(x1 - x0) > 180:
            x1 += -360 if x1 > x0 else 360
        mid_lon, mid_lat = (x0 + x1) / 2, (y0 + y1) / 2
        scale = math.cos(math.radians(mid_lat))
        east, north = (x1 - x0) * scale, y1 - y0
        length = math.hypot(east, north)
        if length == 0:
            continue
        named = {boundary["a"], boundary["b"]}
        best = (None, None)
        for probe in PROBES:
            # The left normal of (east, north) is (−north, east).
            d_east, d_north = -north / length * probe, east / length * probe
            left = plate_at(plates, wrapped(mid_lon + d_east / scale), mid_lat + d_north)
            right = plate_at(plates, wrapped(mid_lon - d_east / scale), mid_lat - d_north)
            best = (left, right)
            if {left, right} == named:
                break
        found.append(best)
    return found


def check_polarity(boundary, plates):
    """(problem or None, note or None): a problem where the geometry puts the overriding
    plate on the other side (or never finds it), a note where the subducting side shows
    a plate other than the named one."""
    overriding, other = (boundary["a"], boundary["b"]) if boundary["kind"] == LEFT else (boundary["b"], boundary["a"])
    own = 0 if boundary["kind"] == LEFT else 1
    steps = plates_beside(boundary, plates)
    confirmed = sum(1 for pair in steps if pair[own] == overriding)
    contradicted = sum(1 for pair in steps if pair[1 - own] == overriding)
    strangers = sorted({pair[1 - own] or "no plate" for pair in steps if pair[own] == overriding
                        and pair[1 - own] != other})
    where = "%s from %s to %s" % (boundary["name"], boundary["coordinates"][0], boundary["coordinates"][-1])
    side = "left" if own == 0 else "right"
    problem = note = None
    if contradicted or not confirmed:
        problem = "%s: the name puts the overriding plate %s on the %s; the plate outlines put it there in %d " \
                  "of %d steps and on the other side in %d" % (where, overriding, side, confirmed, len(steps),
                                                               contradicted)
    elif strangers:
        note = "%s: overriding %s confirmed on the %s in %d of %d steps, but the subducting side is in %s, " \
               "not %s" % (where, overriding, side, confirmed, len(steps), ", ".join(strangers), other)
    return problem, note, confirmed, len(steps)


def encode(boundaries):
    out = bytearray(MAGIC)
    varint(out, len(boundaries))
    x = y = 0
    for boundary in boundaries:
        text(out, boundary["name"])
        text(out, boundary["a"])
        text(out, boundary["b"])
        out.append(boundary["kind"])
        varint(out, len(boundary["points"]))
        for mx, my in boundary["points"]:
            varint(out, zigzag(mx - x))
            varint(out, zigzag(my - y))
            x, y = mx, my
    return bytes(out)


def decode(data):
    """The inverse of encode, as the Swift decoder does it: the self-check."""
    assert data[:len(MAGIC)] == MAGIC
    offset = len(MAGIC)

    def read():
        nonlocal offset
        value = shift = 0
        while True:
            byte = data[offset]
            offset += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    def string():
        nonlocal offset
        n = read()
        offset += n
        return data[offset - n:offset].decode("utf-8")

    def signed():
        n = read()
        return (n >> 1) ^ -(n & 1)

    result, x, y = [], 0, 0
    for _ in range(read()):
        name, a, b = string(), string(), string()
        kind = data[offset]
        offset += 1
        points = []
        for _ in range(read()):
            x += signed()
            y += signed()
            points.append((x, y))
        result.append((name, a, b, kind, points))
    assert offset == len(data), "trailing bytes"
    return result


def c_source(data, boundaries, sources):
    subduction = sum(1 for b in boundaries if b["kind"] != OTHER)
    points = sum(len(b["points"]) for b in boundaries)
    lines = [
        "// Generated by scripts/embed_plates.py from PB2002_boundaries.json (Bird 2003, doi:10.1029/2001GC000252;",
        "// GeoJSON by Hugo Ahlenius, Nordpil; ODC-By 1.0, see Data/plates/README.md).",
        "// Do not edit: run `make plates` to regenerate.",
        "// %d boundaries (%d subduction zones), %d points in %d bytes." % (len(boundaries), subduction, points, len(data)),
    ]
    lines += ["// %s sha256 %s." % (name, digest) for name, digest in sources]
    lines += [
        "// The format is described in scripts/embed_plates.py.",
        "",
        '#include "plate_data.h"',
        "",
        "static const uint8_t bytes[%d] = {" % len(data),
    ]
    line = ""
    for number in (str(b) for b in data):
        if len(line) + len(number) + 1 > 100:
            lines.append(line)
            line = ""
        line += number + ","
    lines.append(line)
    lines += [
        "};",
        "",
        "const uint8_t *qm_plates_pb2002(size_t *count) {",
        "    *count = sizeof bytes;",
        "    return bytes;",
        "}",
        "",
    ]
    return "\n".join(lines)


def write_atomic(path, content):
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(content)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?", default=DEFAULT_SOURCE,
                    help="the folder with PB2002_boundaries.json and PB2002_plates.json (default %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if %s is not what the data gives" % C_PATH)
    ap.add_argument("--verbose", action="store_true", help="print each subduction zone's polarity check")
    args = ap.parse_args(argv)

    boundaries_path = os.path.join(args.source, "PB2002_boundaries.json")
    plates_path = os.path.join(args.source, "PB2002_plates.json")
    for path in (boundaries_path, plates_path):
        if not os.path.isfile(path):
            fail("%s: no such file (give the folder of the PB2002 GeoJSON files)" % path)
    raw, boundaries = read_boundaries(boundaries_path)
    plates = read_plates(plates_path)

    problems, notes = [], []
    for boundary in boundaries:
        boundary["kind"] = side_from_name(boundary)
        if boundary["kind"] == OTHER:
            continue
        problem, note, confirmed, steps = check_polarity(boundary, plates)
        if args.verbose:
            overriding = boundary["a"] if boundary["kind"] == LEFT else boundary["b"]
            print("%-6s overriding %s on the %s: confirmed in %d of %d steps"
                  % (boundary["name"], overriding, "left" if boundary["kind"] == LEFT else "right", confirmed,
                     steps), file=sys.stderr)
        if problem:
            problems.append(problem)
        if note:
            notes.append(note)
    for note in notes:
        print("embed_plates: note: " + note, file=sys.stderr)
    if problems:
        fail("the name and the plate outlines disagree on the overriding side of %d subduction zone(s):\n  %s"
             % (len(problems), "\n  ".join(problems)))

    data = encode(boundaries)
    decoded = decode(data)
    if [(n, a, b, k, p) for n, a, b, k, p in decoded] != \
            [(x["name"], x["a"], x["b"], x["kind"], x["points"]) for x in boundaries]:
        fail("the encoding does not survive the round trip")
    with open(plates_path, "rb") as f:
        plates_digest = hashlib.sha256(f.read()).hexdigest()
    content = c_source(data, boundaries, [("PB2002_boundaries.json", hashlib.sha256(raw).hexdigest()),
                                          ("PB2002_plates.json (polarity check)", plates_digest)])
    target = os.path.join(ROOT, C_PATH)
    if args.check:
        try:
            with open(target, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != content:
            print("embed_plates: out of date: %s (run make plates)" % C_PATH, file=sys.stderr)
            return 1
        return 0
    write_atomic(target, content)
    subduction = sum(1 for b in boundaries if b["kind"] != OTHER)
    print("embed_plates: %s → %s (%d boundaries, %d subduction zones with polarity checked, %d bytes)"
          % (boundaries_path, C_PATH, len(boundaries), subduction, len(data)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
