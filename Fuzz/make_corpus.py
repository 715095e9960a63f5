#!/usr/bin/env python3
"""Write the seed corpora of QuakeKit's fuzzers.

    python3 Fuzz/make_corpus.py OUT_DIR

writes OUT_DIR/fuzz-csv, OUT_DIR/fuzz-geojson, OUT_DIR/fuzz-fdsntext, OUT_DIR/fuzz-quakeml,
OUT_DIR/fuzz-cql and OUT_DIR/fuzz-arguments, one small file per seed, named by content kind.
Everything is made here (Python standard library only) or taken from the
project's own synthetic feed, Data/synthetic_all_day.csv: no real feed is
copied. Running it again rewrites the same files with the same bytes, so it
can write into a working corpus that the fuzzers have grown.
"""

import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYNTHETIC = os.path.join(HERE, "..", "Data", "synthetic_all_day.csv")


def csv_seeds():
    seeds = {}
    with open(SYNTHETIC, "rb") as handle:
        lines = handle.read().split(b"\n")
    header, rows = lines[0], [line for line in lines[1:] if line]
    # Today's 22-column layout, from the project's synthetic feed.
    seeds["synthetic-5-rows"] = b"\n".join([header] + rows[:5]) + b"\n"
    seeds["synthetic-1-row-crlf"] = header + b"\r\n" + rows[0] + b"\r\n"
    quoted = [row for row in rows if b'"' in row][:2]
    seeds["synthetic-quoted-places"] = b"\n".join([header] + quoted)  # no final line break
    no_mag = [row.replace(b",0.7,ml,", b",,ml,", 1) for row in rows[1:2]]
    seeds["synthetic-empty-mag"] = b"\n".join([header] + no_mag) + b"\n"
    seeds["synthetic-header-only"] = header + b"\n"
    # A UTF-8 byte order mark, then the minimal header.
    seeds["bom-minimal"] = (
        b"\xef\xbb\xbftime,latitude,longitude,depth,mag\n"
        b"2024-05-01T12:00:00.000Z,35.7,-117.5,10.2,4.5\n"
    )
    # The older 15-column layout.
    seeds["fifteen-columns"] = (
        b"time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type\n"
        b"2012-12-31T23:50:01.000Z,61.2,-150.1,35.4,1.9,Ml,,,,0.6,ak,ak10620377,"
        b"2013-01-01T00:10:03.020Z,\"40km W of Anchorage, Alaska\",earthquake\n"
    )
    # The pre-2013 eqs7day layout: Src/Eqid ids, an English Datetime, CRLF.
    seeds["pre-2013-crlf"] = (
        b"Src,Eqid,Version,Datetime,Lat,Lon,Magnitude,Depth,NST,Region\r\n"
        b"nn,00338129,1,\"Saturday, May 21, 2011 09:06:50 UTC\",38.5,-119.4,1.2,7.0, 9,\"central Nevada, USA\"\r\n"
        b"ci,15000001,0,\"Friday, May 20, 2011 23:59:59 UTC\",34.1,-117.2,2.4,12.1,30,\"Southern California\"\r\n"
    )
    # Date + TimeUTC columns.
    seeds["date-timeutc"] = (
        b"Date,TimeUTC,Latitude,Longitude,Magnitude,Depth\n"
        b"2010/11/02,06:39:55.6,38.8203,-122.8103,1.3,2.1\n"
        b"2010-11-02,23:59:60,-12.5,179.99,4.0,33\n"
    )
    # Quoted fields: doubled quotes, commas, LF and CRLF inside, a lone CR as a record end.
    seeds["quoted-multiline"] = (
        b"time,latitude,longitude,depth,mag,place,type\n"
        b"2024-05-01T12:00:00Z,1.5,2.5,3,4.1,\"He said \"\"here\"\", 3 km N\nof town\",earthquake\n"
        b"2024-05-01 12:00,-1.5,-2.5,,2,\"line one\r\nline two\",\"quarry blast\"\r"
        b"2024-05-01T12:00:00+05:30,0,180,-1,,\"\",\n"
    )
    # Rows a lenient reader rejects: bad numbers, out of range, wrong field count, bad times.
    seeds["rejections"] = (
        b"time,latitude,longitude,depth,mag,updated,status\n"
        b"2024-05-01T12:00:00Z,91,0,1,1,,reviewed\n"
        b"2024-05-01T12:00:00Z,0,-180.5,1,1,,\n"
        b"2024-13-01T12:00:00Z,0,0,1,1,,\n"
        b"2024-02-30T12:00:00Z,0,0,nan,1,,\n"
        b"2024-05-01T12:00:00Z,0,0,1,1e999,,\n"
        b"2024-05-01T12:00:00Z,0,0,1\n"
        b"not a time,0,0,1,1,,\n"
        b"2024-05-01T12:00:00Z, 1.25 ,\t-2.5\t,0x10,+3.,2024-05-01T12:00:01.5-0800,automatic\n"
        b"\n\n"
        b"2024-05-01T24:00:00Z,0,0,1,1,,\n"
        b"2024-05-01T12:00:00Z,0,0,12345678901234567890.5,1.000000000000000000001,,\n"
    )
    # English times with and without weekday and zone.
    seeds["english-times"] = (
        b"datetime,lat,lon,magnitude,depth,region\n"
        b"\"May 21, 2011 09:06:50\",1,1,1,1,a\n"
        b"\"Tuesday, February 29, 2000 00:00:00 GMT\",1,1,1,1,b\n"
        b"\"dec 31 1999 23:59:59.999 z\",1,1,1,1,c\n"
    )
    return seeds


FDSN_HEADER = (b"#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|"
               b"MagType|Magnitude|MagAuthor|EventLocationName")


def fdsntext_seeds():
    """The FDSN event text format, its rows made from the synthetic feed's."""
    with open(SYNTHETIC, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))[:6]

    def line(row, event_type=True, blanks=False):
        fields = [row["id"], row["time"].rstrip("Z"), row["latitude"], row["longitude"], row["depth"], row["net"],
                  row["net"], row["net"], row["id"], row["magType"], row["mag"], row["net"], row["place"]]
        if event_type:
            fields.append(row["type"])
        separator = " | " if blanks else "|"
        return separator.join(fields).encode()

    header = FDSN_HEADER + b"|EventType"
    seeds = {}
    seeds["synthetic-5-rows"] = b"\n".join([header] + [line(row) for row in rows[:5]]) + b"\n"
    seeds["synthetic-13-columns-crlf"] = b"\r\n".join([FDSN_HEADER] + [line(row, False) for row in rows[:2]]) + b"\r\n"
    blank_header = b" | ".join(header.split(b"|"))
    seeds["blanks-around-separators"] = b"\n".join([blank_header] + [line(row, blanks=True) for row in rows[:3]])
    seeds["header-only"] = header + b"\n"
    seeds["bom-lone-cr"] = b"\xef\xbb\xbf" + b"\r".join([header, line(rows[0]), line(rows[1])]) + b"\r"
    seeds["extra-columns"] = (header + b"|Quality|Region code\n" + line(rows[0]) + b"|A|17\n")
    seeds["reordered-lower-case"] = (
        b"#magnitude|eventlocationname|eventid|latitude|longitude|time|depth/km|magtype|contributor|eventtype\n"
        b"4.6|Somewhere far|us0001|10.5|-20.25|2020-06-30T23:51:22.060449|12.3|mb|us|earthquake\n"
        b"|||0|0|2020-06-30T23:51:22||||\n"
    )
    seeds["rejections"] = header + b"\n" + b"\n".join([
        b"a|2024-05-01T12:00:00|91|0|1|x|x|x|a|ml|1|x|p|earthquake",
        b"b|2024-05-01T12:00:00|0|-180.5|1|x|x|x|b|ml|1|x|p|",
        b"c|2024-13-01T12:00:00|0|0|1|x|x|x|c|ml|1|x|p|quarry blast",
        b"d|2024-05-01T12:00:00.1234567|0|0|nan|x|x|x|d|ml|1e999|x|p|",
        b"e|2024-05-01T12:00:00Z|0|0|1",
        b"f|not a time|0|0|1|x|x|x|f|ml|1|x|p|explosion",
        b"g | 2024-05-01T12:00:00.5 | \t1.25\t | -2.5 | 0x10 | | | | | | +3. | | a place | ",
        b"",
        b"h|2024-05-01T24:00:00|0|0|9000|x|x|x|h|ml|11|x|p|earthquake",
    ]) + b"\n"
    seeds["a-comma-csv-behind-a-hash"] = b"#time,latitude,longitude\n2024-05-01T12:00:00Z,1,2\n"
    return seeds


def geojson_seeds():
    def feature(fid, mag, lon, lat, depth, time=1714564800000, **extra):
        properties = {
            "mag": mag, "place": "12 km NNE of Example, CA", "time": time,
            "updated": time + 120000 if isinstance(time, int) else None,
            "type": "earthquake", "magType": "ml", "net": fid[:2], "code": fid[2:], "status": "reviewed",
        }
        properties.update(extra)
        return {"type": "Feature", "properties": properties,
                "geometry": {"type": "Point", "coordinates": [lon, lat, depth]}, "id": fid}

    collection = {
        "type": "FeatureCollection",
        "metadata": {"generated": 1714565000000, "url": "https://example.invalid/all_day.geojson",
                     "title": "Synthetic feed", "status": 200, "api": "1.10.3", "count": 4},
        "features": [
            feature("ci40000001", 4.5, -117.5, 35.7, 10.2),
            feature("us70000002", None, 179.9, -33.5, None, type="explosion", magType=None),
            feature("ak00000003", -0.4, -150.1, 61.2, -1.5, status="automatic", place=None),
            feature("hv00000004", 2.1, -155.2, 19.4, 2.0, time="2024-05-01T11:00:00.123Z"),
        ],
        "bbox": [-180, -33.5, -1.5, 179.9, 61.2, 10.2],
    }
    seeds = {}
    seeds["summary-4-features"] = json.dumps(collection, indent=1).encode()
    seeds["summary-compact"] = json.dumps(collection, separators=(",", ":")).encode()
    odd = {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {"time": 0, "mag": "4"}, "geometry": {"coordinates": [0, 0]}},
            {"type": "Feature", "properties": {"time": None}, "geometry": None},
            {"type": "Feature", "properties": {"time": 1e300, "mag": 1}, "geometry": {"coordinates": [180, -90, 700]}},
            {"type": "Feature", "properties": {"time": 1, "mag": True}, "geometry": {"coordinates": [-181, 0]}},
            {"type": "Point", "coordinates": [1, 2]},
            [],
        ],
    }
    seeds["odd-features"] = json.dumps(odd).encode()
    seeds["empty-features"] = b'{"type":"FeatureCollection","features":[]}'
    seeds["no-features"] = b'{"type":"FeatureCollection","metadata":{"generated":null}}'
    # What the harness prefixes itself: just the features, unterminated.
    one = feature("nc00000005", 1.2, -122.8, 38.8, 2.1)
    seeds["features-tail"] = json.dumps(one).encode() + b"]}"
    seeds["unicode-escapes"] = (
        '{"type":"FeatureCollection","features":[{"type":"Feature","id":"x\\u0000y",'
        '"properties":{"time":1700000000000,"mag":3.2e0,"place":"R\\u00edo \\u00d1uble \\ud83c\\udf0b"},'
        '"geometry":{"type":"Point","coordinates":[-72.1,-36.9,-0.0]}}]}'
    ).encode()
    return seeds


CQL = [
    "mag >= 5",
    "mag > 4.5 AND depth < 70",
    "mag >= 2.5 OR type = 'explosion'",
    "NOT (mag < 3)",
    "mag BETWEEN 3 AND 6",
    "depth NOT BETWEEN -5 AND 10.5",
    "net IN ('us', 'ci', 'ak')",
    "magType NOT IN ('ml', 'md')",
    "place LIKE '%Ridgecrest%'",
    "place NOT LIKE 'Río\\_%'",
    "place LIKE '_2 km%'",
    "status IS NULL",
    "mag IS NOT NULL AND depth IS NULL",
    "time >= TIMESTAMP('2024-05-01T00:00:00Z')",
    "time < DATE('2024-05-02') AND time > TIMESTAMP('2024-04-30T12:00:00.5+05:30')",
    "CASEI(place) LIKE CASEI('%CALIFORNIA%')",
    "ACCENTI(place) = ACCENTI('Rio Nuble, Chile')",
    "ACCENTI(CASEI(place)) LIKE '%ñuble%'",
    "mag * 2 + 1 > depth / 10 - 3",
    "(mag + depth) % 7 = 0",
    "-mag < -(depth * 0.5)",
    "latitude >= -10 AND longitude <= 180",
    "S_INTERSECTS(geometry, BBOX(120,-60,-60,60))",
    "S_WITHIN(geometry, BBOX(-180,-90,180,90))",
    "S_DISJOINT(geometry, ENVELOPE(-10,-10,0,10,10,0))",
    "S_INTERSECTS(geometry, POINT(180 -90))",
    "S_INTERSECTS(POINT(-117.5 35.7), geom)",
    "TRUE",
    "NOT FALSE AND TRUE = TRUE",
    "(mag > 1 OR depth > 1) AND (type <> 'earthquake' OR \"net\" = 'us')",
    "((((mag > 1))))",
    "id = 'us7000abcd' OR id LIKE 'ci%'",
    "type = 'quarry blast' AND status = 'reviewed'",
    "mag != 4.5e0 AND depth <= 1E+3",
    "\"magType\" = 'mww'",
    "mag > 1 AND NOT NOT (depth BETWEEN 0 AND 700 OR depth IS NULL)",
    "time BETWEEN DATE('1900-01-01') AND DATE('2100-01-01')",
    "place = 'it''s'",
]

ARGUMENTS = [
    b"120,-60,-60,60\n24h",
    b"-180,-90,180,90\n2024-05-01",
    b"-125.5, 32, -114 ,42.1\n2024-05-01T12:00Z",
    b"170,-50,-170,50\n90m",
    b"0,0,1,1\n7d",
    b"-10,-10,10,10\n2w",
    b"1e1,-1e1,2E1,+2e1\n30s",
    b"180,-90,-180,90\n2024-05-01T12:00:00.123+05:30",
    b"0,0,0,0\n2024-02-29",
    b"0x10,0,1,1\n1.5h",
    b"10,20,30\nSaturday, May 21, 2011 09:06:50 UTC",
    b"nan,0,1,1\ninf s",
    b"-179.999999,-89.9999,179.999999,89.9999\n 2024-05-01 12:00 ",
]


QUAKEML_OPEN = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<q:quakeml xmlns="http://quakeml.org/xmlns/bed/1.2" xmlns:catalog="http://anss.org/xmlns/catalog/0.1" '
    b'xmlns:q="http://quakeml.org/xmlns/quakeml/1.2">\n<eventParameters publicID="smi:f/p">\n'
)
QUAKEML_CLOSE = b"</eventParameters>\n</q:quakeml>\n"


def quakeml_event(code=b"1", lat=b"35.7", lon=b"-117.5", depth=b"10200", mag=b"4.5", preferred=True, extra=b""):
    """A USGS-style event (made here, not taken from a feed)."""
    origin = b"smi:f/origin/" + code
    magnitude = b"smi:f/magnitude/" + code
    prefs = (b"<preferredOriginID>" + origin + b"</preferredOriginID><preferredMagnitudeID>" + magnitude
             + b"</preferredMagnitudeID>") if preferred else b""
    return (
        b'<event catalog:eventsource="us" catalog:eventid="' + code + b'" publicID="quakeml:x/query?eventid=us' + code
        + b'&amp;format=quakeml">\n<description><type>earthquake name</type><text>3 km N of Town</text></description>\n'
        + b'<origin publicID="' + origin + b'"><time><value>2024-05-01T12:00:00.123Z</value></time>'
        + b"<latitude><value>" + lat + b"</value></latitude><longitude><value>" + lon + b"</value></longitude>"
        + b"<depth><value>" + depth + b"</value></depth></origin>\n"
        + b'<magnitude publicID="' + magnitude + b'"><mag><value>' + mag + b"</value></mag><type>ml</type></magnitude>\n"
        + prefs + extra + b"<type>earthquake</type><creationInfo><creationTime>2024-05-02T00:00:00Z</creationTime>"
        + b"</creationInfo></event>\n"
    )


def quakeml_seeds():
    seeds = {}
    seeds["usgs-two"] = QUAKEML_OPEN + quakeml_event(b"1") + quakeml_event(b"2", mag=b"") + QUAKEML_CLOSE
    seeds["no-preference"] = QUAKEML_OPEN + quakeml_event(b"3", preferred=False) + QUAKEML_CLOSE
    seeds["rejections"] = (QUAKEML_OPEN + quakeml_event(b"4", lat=b"95") + quakeml_event(b"5", depth=b"1e9")
                           + quakeml_event(b"6", mag=b"nan") + b'<event publicID="smi:f/e7"/>\n' + QUAKEML_CLOSE)
    seeds["emsc-style"] = QUAKEML_OPEN + (
        b'<event publicID="smi:www.emsc-csem.org/event/20240501_0000001">'
        b"<preferredOriginID>smi:o/2</preferredOriginID><type>earthquake</type>"
        b"<description><text>GREECE</text><type>region name</type></description>"
        b"<description><text>SOUTHERN GREECE</text><type>Flinn-Engdahl region</type></description>"
        b'<origin publicID="smi:o/1"><time><value>2024-05-01T08:00:00Z</value></time>'
        b"<latitude><value>1</value></latitude><longitude><value>1</value></longitude></origin>"
        b'<origin publicID="smi:o/2"><time><value>2024-05-01T08:12:34.5</value></time>'
        b"<latitude><value>36.9</value></latitude><longitude><value>22.1</value></longitude></origin>"
        b'<magnitude publicID="smi:m/1"><mag><value>3.9</value></mag><type>mb</type></magnitude></event>\n'
    ) + QUAKEML_CLOSE
    seeds["escapes-cdata"] = QUAKEML_OPEN + quakeml_event(
        b"8", extra=b"<description><text><![CDATA[A & B]]> &amp; &#233;&#x1F30B;</text><type>region name</type></description>"
    ) + QUAKEML_CLOSE
    seeds["empty"] = QUAKEML_OPEN + QUAKEML_CLOSE
    seeds["truncated"] = (QUAKEML_OPEN + quakeml_event(b"9"))[:-40]
    seeds["doctype"] = b'<?xml version="1.0"?>\n<!DOCTYPE q [<!ENTITY a "b">]>\n<q:quakeml/>'
    seeds["latin1"] = (b'<?xml version="1.0" encoding="ISO-8859-1"?>\n' + QUAKEML_OPEN.split(b"\n", 1)[1]
                       + quakeml_event(b"10").replace(b"Town", b"Cura\xe7ao") + QUAKEML_CLOSE)
    # Without the document's start: the harness puts one and an open event in front.
    seeds["bare-event-body"] = (b'<origin publicID="smi:f/o"><time><value>2024-05-01T12:00:00Z</value></time>'
                                b"<latitude><value>1</value></latitude><longitude><value>2</value></longitude></origin>"
                                b"</event></eventParameters></q:quakeml>")
    return seeds


def write(folder, name, seeds):
    path = os.path.join(folder, name)
    os.makedirs(path, exist_ok=True)
    for key, data in seeds.items():
        with open(os.path.join(path, "seed-" + key), "wb") as handle:
            handle.write(data)
    return len(seeds)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py OUT_DIR")
    out = sys.argv[1]
    counts = {
        "fuzz-csv": write(out, "fuzz-csv", csv_seeds()),
        "fuzz-geojson": write(out, "fuzz-geojson", geojson_seeds()),
        "fuzz-quakeml": write(out, "fuzz-quakeml", quakeml_seeds()),
        "fuzz-fdsntext": write(out, "fuzz-fdsntext", fdsntext_seeds()),
        "fuzz-cql": write(out, "fuzz-cql", {"%02d" % index: text.encode() for index, text in enumerate(CQL)}),
        "fuzz-arguments": write(out, "fuzz-arguments", {"%02d" % index: data for index, data in enumerate(ARGUMENTS)}),
    }
    print("seeds: " + ", ".join("%s %d" % item for item in counts.items()))


if __name__ == "__main__":
    main()
