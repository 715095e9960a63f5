#!/usr/bin/env python3
"""Writes a large SYNTHETIC earthquake catalogue for the benchmarks (`make bench`, the readers), in one of
the formats quakemap reads: the USGS CSV and GeoJSON summary layouts, the FDSN event
text format, or QuakeML 1.2 as FDSN event services (USGS's) write it.

The events look like a real global catalogue, not a replayed sample: 45 % along the
plate boundaries, 30 % in the dense clusters of local networks and the rest anywhere,
at continuous positions (four decimals, as USGS writes them, so every circle has its own
sub-pixel offset), magnitudes from Gutenberg–Richter (b = 1, from magnitude 0, so most
are small), depths mostly shallow with intermediate and deep tails, newest first, going
back in time one event every 40 s or so on average: mostly independent arrivals, some in
bursts seconds apart (aftershock sequences), a few after gaps of hours (a network's
outage), and 1 % at exactly the time of the one before (ties). With the quirks of real
feeds: 2 % of events without a magnitude and 3 % with a negative one (local networks),
depths above sea level, places with commas (quoted), apostrophes, a backtick, an
ampersand and UTF-8, types other than earthquake, and in QuakeML a second origin (the
preferred one not first) or no preferred ids (the reader falls back to the first). The
CSV is one the C baseline (baseline/baseline.c) reads as quakemap does: it finds the
columns by name, skips the rows without a magnitude and draws the others, the negative
ones as the smallest circle. Deterministic: the same arguments give the same bytes.

usage: make_big_catalog.py FORMAT OUT SIZE
  FORMAT  csv | geojson | text | quakeml
  SIZE    bytes (1e9) or events with an 'r' suffix (5000r)
"""
import datetime
import json
import math
import os
import random
import sys
import zlib
from xml.sax.saxutils import escape, quoteattr

# Local networks' dense clusters: (latitude, longitude, spread in degrees, network).
CLUSTERS = [
    (61.0, -150.0, 2.5, "ak"), (52.0, -175.0, 3.0, "ak"), (35.5, -118.0, 1.5, "ci"), (38.5, -122.5, 1.2, "nc"),
    (19.3, -155.4, 0.5, "hv"), (38.5, -118.0, 1.5, "nn"), (47.0, -122.0, 1.2, "uw"), (39.5, -111.5, 1.0, "uu"),
    (18.0, -66.5, 0.8, "pr"), (44.5, -111.0, 1.0, "mb"), (36.5, -89.5, 0.8, "nm"), (35.8, -97.5, 0.8, "ok"),
    (31.6, -104.0, 0.8, "tx"),
]
# Plate boundaries, roughly: (latitude, longitude) vertices; events fall along them.
BOUNDARIES = [
    [(60, -150), (55, -160), (52, -175), (51, 175), (53, 160), (50, 156), (45, 150), (40, 143), (35, 141),
     (30, 141), (20, 145), (12, 144)],                                                     # Aleutians to Marianas
    [(33, 131), (26, 127), (23, 121), (15, 120), (7, 126), (2, 128)],                      # Ryukyu, Philippines
    [(20, 94), (10, 93), (3, 96), (-5, 102), (-9, 112), (-9, 120), (-7, 130), (-3, 135)],  # Sunda arc
    [(-3, 143), (-6, 150), (-9, 158), (-14, 167), (-20, 169), (-17, 178), (-20, -175), (-30, -177),
     (-40, 176), (-46, 167)],                                                              # New Guinea to New Zealand
    [(60, -145), (57, -137), (49, -129), (40, -125), (32, -116), (23, -108), (16, -98), (13, -90), (9, -84),
     (5, -78), (-5, -81), (-15, -76), (-25, -71), (-35, -73), (-45, -75), (-55, -70)],    # the Americas' west
    [(15, -61), (18, -65), (19, -72), (19, -78), (16, -87)],                               # Caribbean
    [(-55, -65), (-60, -45), (-57, -27), (-54, -35)],                                      # Scotia arc
    [(36, -10), (37, 5), (38, 15), (40, 20), (38, 27), (39, 40), (35, 50), (28, 57), (30, 68), (36, 71),
     (30, 82), (28, 88), (27, 96), (22, 96), (20, 94)],                                    # Alpide belt
    [(72, -5), (64, -20), (52, -31), (35, -36), (15, -46), (0, -20), (-15, -13), (-35, -17), (-50, -5)],  # Mid-Atlantic
    [(12, 45), (13, 58), (0, 67), (-20, 68), (-30, 75), (-40, 80), (-50, 120), (-55, 150), (-60, 170),
     (-60, -150), (-55, -120), (-35, -110), (-10, -108), (10, -104), (20, -107)],          # Indian and Pacific ridges
    [(15, 40), (0, 36), (-15, 35)],                                                        # East African rift
]


def segments():
    """The boundaries' segments with longitudes unwrapped (no jump across 180°) and their lengths."""
    result = []
    for line in BOUNDARIES:
        points = [line[0]]
        for lat, lon in line[1:]:
            previous = points[-1][1]
            lon += 360 * round((previous - lon) / 360)
            points.append((lat, lon))
        for (lat0, lon0), (lat1, lon1) in zip(points, points[1:]):
            length = math.hypot(lat1 - lat0, (lon1 - lon0) * math.cos(math.radians((lat0 + lat1) / 2)))
            result.append((lat0, lon0, lat1, lon1, length))
    return result


SEGMENTS = segments()
SEGMENT_WEIGHTS = [segment[4] for segment in SEGMENTS]
TOWNS = [
    "Banning, CA", "Anza, CA", "Ridgecrest, CA", "Petrolia, CA", "Pāhala, Hawaii", "Honoka'a, Hawaii",
    "Guánica, Puerto Rico", "Tonopah, Nevada", "Magna, Utah", "Kuril'sk, Russia", "`Ohonua, Tonga",
    "L'Épiphanie, Canada", "Ñuñoa, Santiago, Chile", "Suchilapan del Río, Mexico", "Cantwell, Alaska",
    "Redoubt Volcano, Alaska", "Kainantu, Papua New Guinea", "Hualien City, Taiwan", "Namie, Japan",
    "Rasht, Iran", "Kirakira, Solomon Islands", "Port-Vila, Vanuatu", "Challis, Idaho",
    "Saint Kitts & Nevis", "Yellowstone National Park, Wyoming", "Pawnee, Oklahoma",
]
REGIONS = ["Mid-Atlantic Ridge", "Banda Sea", "Southern East Pacific Rise", "Mid-Indian Ridge", "South Sandwich Islands region",
           "Kermadec Islands region", "Drake Passage", "Nevada"]
DIRECTIONS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
TYPES = [("earthquake", 0.975), ("quarry blast", 0.01), ("explosion", 0.006), ("ice quake", 0.005),
         ("other event", 0.002), ("chemical explosion", 0.002)]
NEWEST = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def events(seed=19):
    """Endless events, newest first, as dicts."""
    rng = random.Random(seed)
    millis = int(NEWEST.timestamp() * 1000)
    for index in range(10 ** 12):
        gap = rng.random()
        if gap < 0.01:
            pass                                        # a tie: the same millisecond as the one before
        elif gap < 0.15:
            millis -= int(rng.expovariate(1 / 4_000)) + 1          # a burst: an aftershock sequence
        elif gap < 0.1505:
            millis -= rng.randint(3_600_000, 6 * 3_600_000)         # an outage: hours without events
        else:
            millis -= int(rng.expovariate(1 / 40_000)) + 1
        where = rng.random()
        if where < 0.45:
            lat0, lon0, lat1, lon1, _ = rng.choices(SEGMENTS, SEGMENT_WEIGHTS)[0]
            along = rng.random()
            lat = max(-89.9, min(89.9, lat0 + along * (lat1 - lat0) + rng.gauss(0, 1.0)))
            lon = (lon0 + along * (lon1 - lon0) + rng.gauss(0, 1.0) + 180) % 360 - 180
            net = "us"
        elif where < 0.75:
            lat0, lon0, spread, net = CLUSTERS[rng.randrange(len(CLUSTERS))]
            lat = max(-89.9, min(89.9, rng.gauss(lat0, spread)))
            lon = (rng.gauss(lon0, spread) + 180) % 360 - 180
        else:
            lat, lon, net = math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180), "us"
        r = rng.random()
        if r < 0.01:
            depth = -rng.uniform(0, 3.5)            # above sea level: volcanoes, mountains
        elif r < 0.78:
            depth = rng.expovariate(1 / 12)
        elif r < 0.95:
            depth = rng.uniform(70, 300)
        else:
            depth = rng.uniform(300, 700)
        mag = min(9.1, -math.log10(1 - rng.random()))  # Gutenberg–Richter, b = 1, from 0
        quirk = rng.random()
        if quirk < 0.03:
            mag = -rng.uniform(0.01, 1.6)              # local networks read below 0
        mag_type = ("ml" if rng.random() < 0.7 else "md") if mag < 2.5 else \
            ("ml" if rng.random() < 0.6 else "mb_lg") if mag < 4.5 else rng.choice(["mb", "mww", "mwr"])
        if 0.03 <= quirk < 0.05:
            mag, mag_type = None, None                 # no magnitude yet
        t = rng.random()
        kind = next((name for name, share in TYPES if (t := t - share) < 0), "earthquake")
        if net == "us" and rng.random() < 0.3:
            place = rng.choice(REGIONS)
        else:
            place = f"{rng.randint(1, 200)} km {rng.choice(DIRECTIONS)} of {rng.choice(TOWNS)}"
        code = f"{index:08d}" if net != "us" else f"7000{index:06x}"
        yield dict(id=net + code, net=net, code=code, ms=millis, lat=round(lat, 4), lon=round(lon, 4),
                   depth=round(depth, 2), mag=None if mag is None else round(mag, 2), magType=mag_type,
                   place=place, type=kind, updated=millis + rng.randint(60_000, 86_400_000 * 3),
                   second_origin=rng.random() < 0.05, no_preferred=rng.random() < 0.02)


def iso(ms, z="Z"):
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + z


def text(value):
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


CSV_HEADER = ("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
              "horizontalError,depthError,magError,magNst,status,locationSource,magSource\n")


def quality(e):
    """The location-quality columns as real networks give them: counts, gaps and errors that
    vary event to event, and whole groups left empty (Alaska's rows have no nst, gap or dmin;
    a third of events no magnitude error), drawn from the id so the positions' sequence stays."""
    h = zlib.crc32(e["id"].encode())
    def pick(shift, low, high, digits):
        return round(low + (high - low) * ((h >> shift) & 0x3FF) / 1023, digits)
    located = e["net"] != "ak"
    nst = str(5 + (h & 0x7F)) if located else ""
    gap = str(int(pick(3, 15, 340, 0))) if located else ""
    dmin = repr(pick(7, 0.002, 8.5, 5)) if located else ""
    rms = repr(pick(11, 0.01, 1.4, 4))
    horizontal = repr(pick(13, 0.08, 15, 2)) if h & 0x100 else ""
    depth_error = repr(pick(17, 0.1, 31.6, 3))
    mag_error = repr(pick(19, 0.01, 0.5, 3)) if h % 3 else ""
    mag_nst = str(1 + ((h >> 21) & 0xFF)) if h % 3 else ""
    status = "automatic" if h % 5 == 0 else "reviewed"
    return nst, gap, dmin, rms, horizontal, depth_error, mag_error, mag_nst, status


def csv_row(e):
    place = f'"{e["place"]}"' if "," in e["place"] else e["place"]
    nst, gap, dmin, rms, horizontal, depth_error, mag_error, mag_nst, status = quality(e)
    return (f'{iso(e["ms"])},{e["lat"]},{e["lon"]},{e["depth"]},{text(e["mag"])},{text(e["magType"])},'
            f'{nst},{gap},{dmin},{rms},{e["net"]},{e["id"]},{iso(e["updated"])},{place},{e["type"]},'
            f'{horizontal},{depth_error},{mag_error},{mag_nst},{status},{e["net"]},{e["net"]}\n')


def geojson_row(e, first):
    feature = {"type": "Feature", "properties": {
        "mag": e["mag"], "place": e["place"], "time": e["ms"], "updated": e["updated"], "tz": None,
        "url": f"https://earthquake.usgs.gov/earthquakes/eventpage/{e['id']}", "felt": None, "cdi": None,
        "mmi": None, "alert": None, "status": "reviewed", "tsunami": 0, "sig": 0, "net": e["net"],
        "code": e["code"], "ids": f",{e['id']},", "sources": f",{e['net']},", "types": ",origin,phase-data,",
        "nst": None, "dmin": None, "rms": 0.12, "gap": None, "magType": e["magType"], "type": e["type"],
        "title": f"M {text(e['mag']) or '?'} - {e['place']}"},
        "geometry": {"type": "Point", "coordinates": [e["lon"], e["lat"], e["depth"]]}, "id": e["id"]}
    return ("" if first else ",\n") + json.dumps(feature, ensure_ascii=False, separators=(",", ":"))


TEXT_HEADER = ("#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|"
               "MagType|Magnitude|MagAuthor|EventLocationName|EventType\n")


def text_row(e):
    return (f'{e["id"]}|{iso(e["ms"], "")}|{e["lat"]}|{e["lon"]}|{e["depth"]}|{e["net"]}|{e["net"]}|{e["net"]}|'
            f'{e["id"]}|{text(e["magType"])}|{text(e["mag"])}|{e["net"]}|{e["place"]}|{e["type"]}\n')


QUAKEML_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2" '
                'xmlns:catalog="http://anss.org/xmlns/catalog/0.1" xmlns:anss="http://anss.org/xmlns/event/0.1">'
                '<eventParameters publicID="quakeml:earthquake.usgs.gov/fdsnws/event/1/query">\n')
QUAKEML_TAIL = "</eventParameters></q:quakeml>\n"


def quakeml_origin(e, suffix, ms, lat, lon, depth):
    oid = f'quakeml:earthquake.usgs.gov/product/origin/{e["id"]}/{e["net"]}/{e["updated"]}/product.xml{suffix}'
    return oid, (
        f'<origin catalog:datasource="{e["net"]}" catalog:dataid="{e["id"]}" catalog:eventsource="{e["net"]}" '
        f'catalog:eventid="{e["code"]}" publicID="{oid}">'
        f'<originUncertainty><horizontalUncertainty>300</horizontalUncertainty>'
        f'<preferredDescription>horizontal uncertainty</preferredDescription></originUncertainty>'
        f'<time><value>{iso(ms)}</value></time><longitude><value>{lon}</value></longitude>'
        f'<latitude><value>{lat}</value></latitude><depth><value>{round(depth * 1000)}</value>'
        f'<uncertainty>500</uncertainty></depth><depthType>from location</depthType>'
        f'<quality><usedPhaseCount>14</usedPhaseCount><usedStationCount>12</usedStationCount>'
        f'<standardError>0.12</standardError></quality><evaluationMode>manual</evaluationMode>'
        f'<creationInfo><agencyID>{e["net"]}</agencyID><creationTime>{iso(e["updated"])}</creationTime>'
        f'<version>2</version></creationInfo></origin>')


def quakeml_row(e):
    oid, origin = quakeml_origin(e, "#origin", e["ms"], e["lat"], e["lon"], e["depth"])
    origins = origin
    if e["second_origin"] and not e["no_preferred"]:  # an earlier solution, listed first, not preferred
        _, early = quakeml_origin(e, "#early", e["ms"] + 740, round(e["lat"] + 0.03, 4), round(e["lon"] - 0.02, 4),
                                  e["depth"] + 1.5)
        origins = early + origin
    # With no preferred ids (2 % of events) the reader takes the first origin and magnitude.
    preferred = "" if e["no_preferred"] else f"<preferredOriginID>{oid}</preferredOriginID>"
    magnitude = ""
    if e["mag"] is not None:
        mid = oid.replace("#origin", "#magnitude")
        if not e["no_preferred"]:
            preferred += f"<preferredMagnitudeID>{mid}</preferredMagnitudeID>"
        magnitude = (f'<magnitude catalog:datasource="{e["net"]}" catalog:dataid="{e["id"]}" '
                     f'catalog:eventsource="{e["net"]}" catalog:eventid="{e["code"]}" publicID="{mid}">'
                     f'<mag><value>{e["mag"]}</value><uncertainty>0.15</uncertainty></mag>'
                     f'<type>{e["magType"]}</type><stationCount>12</stationCount><originID>{oid}</originID>'
                     f'<methodID>smi:{e["net"]}.anss.org/magnitude/{e["magType"]}</methodID>'
                     f'<creationInfo><agencyID>{e["net"]}</agencyID>'
                     f'<creationTime>{iso(e["updated"])}</creationTime></creationInfo></magnitude>')
    return (f'<event catalog:datasource="{e["net"]}" catalog:eventsource="{e["net"]}" catalog:eventid="{e["code"]}" '
            f'publicID={quoteattr("quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=" + e["id"] + "&format=quakeml")}>'
            f'<description><type>earthquake name</type><text>{escape(e["place"])}</text></description>'
            f'{origins}{magnitude}{preferred}<type>{e["type"]}</type>'
            f'<creationInfo><agencyID>{e["net"]}</agencyID><creationTime>{iso(e["updated"])}</creationTime>'
            f'</creationInfo></event>\n')


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("csv", "geojson", "text", "quakeml"):
        sys.exit(__doc__)
    kind, out, size = sys.argv[1:]
    rows_wanted = int(float(size[:-1])) if size.endswith("r") else None
    bytes_wanted = None if rows_wanted is not None else int(float(size))
    head, tail, row = {
        "csv": (CSV_HEADER, "", csv_row),
        "geojson": ('{"type":"FeatureCollection","metadata":{"generated":%d,"title":"Synthetic catalogue",'
                    '"status":200,"api":"1.10.3"},"features":[\n' % int(NEWEST.timestamp() * 1000), "]}\n", None),
        "text": (TEXT_HEADER, "", text_row),
        "quakeml": (QUAKEML_HEAD, QUAKEML_TAIL, quakeml_row),
    }[kind]
    written, count, chunk = len(head.encode()), 0, []
    with open(out, "w", encoding="utf-8", newline="") as f:
        f.write(head)
        for event in events():
            if rows_wanted is not None and count >= rows_wanted:
                break
            if bytes_wanted is not None and written >= bytes_wanted:
                break
            line = geojson_row(event, count == 0) if row is None else row(event)
            chunk.append(line)
            written += len(line.encode("utf-8"))
            count += 1
            if len(chunk) >= 4096:
                f.write("".join(chunk))
                chunk.clear()
        f.write("".join(chunk))
        f.write(tail)
    print(f"{out}: {count} events, {os.path.getsize(out)} bytes")


main()
