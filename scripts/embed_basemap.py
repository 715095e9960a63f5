#!/usr/bin/env python3
"""Compile Data/basemap/*.geojson into the C byte arrays that QuakeKit builds in.

Part of quakemap; run by scripts/make_basemap.sh after it writes the GeoJSON, or alone
(after editing a GeoJSON file by hand). Python's standard library only.

    scripts/embed_basemap.py            regenerate Sources/CBasemapData/land_*.c
    scripts/embed_basemap.py --check    exit 1 if they differ from what would be written

The GeoJSON stays the one source of truth (it is what `--basemap PATH` reads and what
Data/basemap/README.md describes); the .c files are derived from it, and a test holds
the decoded arrays equal to `Basemap(geoJSON:)` of the files.

Format (decoded by Sources/QuakeGeo/Basemap/EmbeddedLand.swift):

    "QMLAND1"                              7 bytes: magic and version
    varint polygons
      per polygon: varint rings
        per ring:  varint points
          per point: zig-zag varint Δlongitude, zig-zag varint Δlatitude

Coordinates are whole milli-degrees (Int32); each delta is from the previous point in
the array (the first from 0, 0). Varints are unsigned LEB128: 7 bits a byte, low bits
first, the high bit set on every byte but the last. The decoder turns milli-degrees m
into `Double(m) / 1000`, which is the same Double as the GeoJSON's decimal text: this
script checks that for every number and refuses a file where it does not hold.
"""

import argparse
import hashlib
import json
import math
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAGIC = b"QMLAND1"

# (GeoJSON file, C file, C function, what the comment calls it)
LAYERS = [
    ("Data/basemap/land_110m.geojson", "Sources/CBasemapData/land_110m.c", "qm_land_110m",
     "Natural Earth 1:110m land (public domain)"),
    ("Data/basemap/land_10m_simplified.geojson", "Sources/CBasemapData/land_10m.c", "qm_land_10m",
     "Natural Earth 1:10m land, simplified to 0.05° (public domain)"),
]


def polygons(obj, source):
    """The polygons of a GeoJSON object, read the way Basemap(geoJSON:) reads them."""
    kind = obj.get("type") if isinstance(obj, dict) else None
    if kind == "FeatureCollection":
        return [p for feature in obj.get("features") or [] for p in polygons(feature, source)]
    if kind == "Feature":
        geometry = obj.get("geometry")
        return polygons(geometry, source) if geometry is not None else []
    if kind == "Polygon":
        return [obj["coordinates"]]
    if kind == "MultiPolygon":
        return list(obj["coordinates"])
    if kind is None:
        sys.exit("embed_basemap: %s: an object without a \"type\"" % source)
    return []


def milli(value, source):
    """Whole milli-degrees that decode (m / 1000) to exactly `value`, or exit."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        sys.exit("embed_basemap: %s: %r is not a number" % (source, value))
    m = int(round(value * 1000))
    back = m / 1000  # IEEE division, as Swift's Double(m) / 1000
    if not -2**31 <= m < 2**31 or back != value or math.copysign(1, back) != math.copysign(1, value):
        sys.exit("embed_basemap: %s: %r is not a whole number of milli-degrees" % (source, value))
    return m


def varint(out, n):
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)


def zigzag(n):
    """Small magnitudes to small numbers: 0, -1, 1, -2, … → 0, 1, 2, 3, …"""
    return n << 1 if n >= 0 else ((-n) << 1) - 1


def encode(land, source):
    out = bytearray(MAGIC)
    varint(out, len(land))
    x = y = 0
    for rings in land:
        varint(out, len(rings))
        for ring in rings:
            varint(out, len(ring))
            for position in ring:
                if len(position) < 2:
                    sys.exit("embed_basemap: %s: a position without two numbers" % source)
                mx, my = milli(position[0], source), milli(position[1], source)
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

    def signed():
        n = read()
        return (n >> 1) ^ -(n & 1)

    land, x, y = [], 0, 0
    for _ in range(read()):
        rings = []
        for _ in range(read()):
            ring = []
            for _ in range(read()):
                x += signed()
                y += signed()
                ring.append([x / 1000, y / 1000])
            rings.append(ring)
        land.append(rings)
    assert offset == len(data), "trailing bytes"
    return land


def c_source(data, geojson_path, geojson_bytes, land, function, what):
    rings = sum(len(p) for p in land)
    points = sum(len(r) for p in land for r in p)
    lines = [
        "// Generated by scripts/embed_basemap.py from %s: %s." % (geojson_path, what),
        "// Do not edit: run `scripts/embed_basemap.py` to regenerate (scripts/make_basemap.sh does).",
        "// %d polygons, %d rings, %d points in %d bytes; source sha256 %s."
        % (len(land), rings, points, len(data), hashlib.sha256(geojson_bytes).hexdigest()),
        "// The format is described in scripts/embed_basemap.py.",
        "",
        '#include "basemap_data.h"',
        "",
        "static const uint8_t bytes[%d] = {" % len(data),
    ]
    numbers = [str(b) for b in data]
    line = ""
    for number in numbers:
        if len(line) + len(number) + 1 > 100:
            lines.append(line)
            line = ""
        line += number + ","
    lines.append(line)
    lines += [
        "};",
        "",
        "const uint8_t *%s(size_t *count) {" % function,
        "    *count = sizeof bytes;",
        "    return bytes;",
        "}",
        "",
    ]
    return "\n".join(lines)


def write_atomic(path, text):
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a .c file is not what the GeoJSON gives")
    args = ap.parse_args(argv)
    stale = []
    for geojson_path, c_path, function, what in LAYERS:
        with open(os.path.join(ROOT, geojson_path), "rb") as f:
            raw = f.read()
        land = polygons(json.loads(raw), geojson_path)
        data = encode(land, geojson_path)
        if decode(data) != land:
            sys.exit("embed_basemap: %s does not survive the round trip" % geojson_path)
        text = c_source(data, geojson_path, raw, land, function, what)
        target = os.path.join(ROOT, c_path)
        if args.check:
            try:
                with open(target, encoding="utf-8") as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if current != text:
                stale.append(c_path)
            continue
        write_atomic(target, text)
        print("embed_basemap: %s → %s (%d polygons, %d bytes)"
              % (geojson_path, c_path, len(land), len(data)), file=sys.stderr)
    if stale:
        print("embed_basemap: out of date: %s (run scripts/embed_basemap.py)" % ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
