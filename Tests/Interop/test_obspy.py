"""ObsPy, a reader and writer nobody here wrote, against quakemap's QuakeML and FDSN
text support, on every shared USGS feed (../shared/data/usgs; skipped where absent).

1. From each feed (read here with Python's standard library) an ObsPy Catalog is
   built, written by ObsPy as QuakeML and as FDSN event text, and read by quakemap
   (`list --limit 0 --format csv`): the events must be the ones quakemap reads from
   the original feed, as far as each format carries them.
2. quakemap's own `list --format quakeml` and `--format text` of each feed are read by
   `obspy.read_events`, to the same events; the QuakeML also validates against the
   QuakeML 1.2 schema that ObsPy ships.

What a format cannot carry is left out of its comparison, each for a reason given where
it happens (see DIFFERENCES).

ObsPy builds and reads about 300–1,000 events a second (its QuakeML reader is the slowest),
so a feed longer than ROWS rows is thinned at test time, into the test's temporary folder:
every k-th row, and every row with an empty time, position, depth or magnitude field (the
quirky ones). QUAKEMAP_OBSPY_ALL=1 runs the feeds whole (about ten minutes on 2 cores).
"""
import csv
import datetime
import json
import math
import os
import pathlib
import urllib.parse

import pytest

obspy = pytest.importorskip("obspy", reason="ObsPy is installed by `make test` (Tests/Interop/requirements.txt)")
from obspy import UTCDateTime, read_events  # noqa: E402
from obspy.core.event import (Catalog, CreationInfo, Event, EventDescription, Magnitude,  # noqa: E402
                              Origin, ResourceIdentifier)
from obspy.core.event.header import EventType  # noqa: E402
import obspy.io.quakeml.core  # noqa: E402
from lxml import etree  # noqa: E402 (ObsPy's own dependency)

from conftest import SHARED, quakemap  # noqa: E402

# ObsPy's text writer warns for each event without a magnitude (the feeds have a few).
pytestmark = pytest.mark.filterwarnings("ignore:No magnitude found for event")

# Every feed of ../shared/data/usgs (PROVENANCE.md there): modern and 15-column CSV,
# both GeoJSON APIs, and the pre-2013 eqs7day text.
FEEDS = [
    "all_month_2020-06.csv", "all_month_2022-03.csv", "all_month_2015-12_15col.csv",
    "4.5_week_2020-04.csv", "significant_month_2024-05.csv",
    "all_week_2014-04.geojson", "4.5_week_2020-10.geojson", "eqs7day-M1_2011-05.txt",
]
ROWS = 0 if os.environ.get("QUAKEMAP_OBSPY_ALL") == "1" else 2000
CATALOG_NS = "http://anss.org/xmlns/catalog/0.1"  # USGS's attributes on <event> (eventsource, eventid)

# Documented differences, each applied below where it matters:
DIFFERENCES = {
    # ObsPy's text writer formats numbers with fixed decimals (obspy.io.csv FIELDS['eventtxt']).
    "text precision": "latitude/longitude to 6 decimals, depth to 3 (km), magnitude to 2",
    # ...and its time with '{time!s:.25}', which keeps 5 fraction digits and drops the 'Z'.
    "text time": "2020-06-11T15:27:42.88000 (UTC without Z)",
    # ObsPy's text writer ends each line with .replace('nan', '') for missing numbers; that
    # also cuts 'nan' out of places ('North Nenana' is written 'North Nea') and ids
    # ('us70009nan' is written 'us70009', in all_month_2020-06).
    "text nan": "places containing 'nan' are not compared in ObsPy's text; ids are expected without it",
    # ObsPy's text writer has no EventType column; quakemap reads a missing type as earthquake.
    "text type": "event type not carried by ObsPy's text writer (nor read by its text reader)",
    # The id ObsPy's text writer puts in EventID is the last '/' part of the resource id.
    "text id": "ObsPy's text gets resource ids smi:local/<id>",
    # ...and its EventLocationName is the 'region name' description only (not USGS's 'earthquake name').
    "text place": "ObsPy's text gets the places as 'region name' descriptions",
    # QuakeML's event type is a closed list; the 2014 GeoJSON's old 'quarry' and 'quarry_blast'
    # are not in it (ObsPy refuses them): ObsPy's file carries no type for those events, and
    # quakemap writes them as QuakeML's 'quarry blast' (any other unknown type as 'other event').
    "quakeml type": "types outside QuakeML's list are compared only as QuakeML spells them",
}


# --- the feeds, read with the standard library ---------------------------------------------

def epoch_ms(text):
    """Milliseconds since 1970 of an ISO 8601 UTC time, with or without Z, up to 6 fraction digits."""
    text = text.strip().removesuffix("Z")
    moment = datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.timezone.utc)
    return round(moment.timestamp() * 1000)


def number(text):
    return None if text is None or str(text).strip() == "" else float(text)


def feed_rows(path):
    """The feed's rows as dicts: id, source (the network an id starts with, or None), ms,
    lat, lon, depth (km), mag, magType, place, type, updated_ms."""
    if path.suffix == ".geojson":
        rows = []
        for feature in json.loads(path.read_text(encoding="utf-8"))["features"]:
            p, coordinates = feature["properties"], feature["geometry"]["coordinates"]
            rows.append(dict(id=feature["id"], source=p.get("net"), ms=p["time"], lat=coordinates[1],
                             lon=coordinates[0], depth=coordinates[2] if len(coordinates) > 2 else None,
                             mag=p["mag"], magType=p.get("magType") or None, place=p.get("place") or "",
                             type=p.get("type") or "earthquake", updated_ms=p.get("updated")))
        return rows
    with path.open(newline="", encoding="utf-8") as f:
        records = list(csv.DictReader(f))
    if records and "Eqid" in records[0]:  # the pre-2013 eqs7day layout
        fmt = "%A, %B %d, %Y %H:%M:%S UTC"
        return [dict(id=r["Src"] + r["Eqid"], source=r["Src"],
                     ms=round(datetime.datetime.strptime(r["Datetime"], fmt)
                              .replace(tzinfo=datetime.timezone.utc).timestamp() * 1000),
                     lat=float(r["Lat"]), lon=float(r["Lon"]), depth=number(r["Depth"]),
                     mag=number(r["Magnitude"]), magType=None, place=r["Region"], type="earthquake",
                     updated_ms=None) for r in records]
    return [dict(id=r["id"], source=r["net"], ms=epoch_ms(r["time"]), lat=float(r["latitude"]),
                 lon=float(r["longitude"]), depth=number(r["depth"]), mag=number(r["mag"]),
                 magType=r["magType"] or None, place=r["place"], type=r["type"] or "earthquake",
                 updated_ms=epoch_ms(r["updated"]) if r.get("updated") else None) for r in records]


def usgs_public_id(event_id):
    return f"quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid={event_id}&format=quakeml"


def obspy_catalog(rows):
    """An ObsPy Catalog of the rows. The ids take the three forms quakemap reads, in turn:
    USGS's catalog:eventsource + catalog:eventid attributes (with USGS's query public id),
    a public id with an eventid= query and no attributes, and smi:local/<id>. Places are
    USGS's 'earthquake name' and 'region name' in turn."""
    events = []
    for index, row in enumerate(rows):
        origin = Origin(time=UTCDateTime(ns=row["ms"] * 1_000_000), latitude=row["lat"], longitude=row["lon"],
                        depth=None if row["depth"] is None else row["depth"] * 1000)
        magnitudes = []
        if row["mag"] is not None:
            magnitudes.append(Magnitude(mag=row["mag"], magnitude_type=row["magType"],
                                        origin_id=origin.resource_id))
        style = index % 3
        if style == 0 and row["source"] and row["id"].startswith(row["source"]) and row["id"] != row["source"]:
            public_id = usgs_public_id(row["id"])
            extra = {"eventsource": {"value": row["source"], "namespace": CATALOG_NS, "type": "attribute"},
                     "eventid": {"value": row["id"][len(row["source"]):], "namespace": CATALOG_NS,
                                 "type": "attribute"}}
        elif style == 1:
            public_id, extra = usgs_public_id(row["id"]), None
        else:
            public_id, extra = f"smi:local/{row['id']}", None
        event = Event(resource_id=ResourceIdentifier(public_id), origins=[origin], magnitudes=magnitudes,
                      event_type=row["type"] if row["type"] in EventType else None,
                      event_descriptions=[EventDescription(row["place"], "earthquake name" if index % 2 == 0
                                                           else "region name")] if row["place"] else [])
        if row["updated_ms"] is not None:
            event.creation_info = CreationInfo(creation_time=UTCDateTime(ns=row["updated_ms"] * 1_000_000))
        event.preferred_origin_id = origin.resource_id
        if magnitudes:
            event.preferred_magnitude_id = magnitudes[0].resource_id
        if extra:
            event.extra = extra
        events.append(event)
    return Catalog(events=events)


# --- quakemap ---------------------------------------------------------------------------------



def quakemap_events(path):
    """What quakemap reads from a file, as its `list --format csv` says, most recent first."""
    events = []
    for r in csv.DictReader(quakemap("list", path, "--limit", "0", "--format", "csv").splitlines()):
        events.append(dict(id=r["id"], ms=epoch_ms(r["time"]), lat=float(r["latitude"]), lon=float(r["longitude"]),
                           depth=number(r["depth"]), mag=number(r["mag"]), magType=r["magType"] or None,
                           place=r["place"], type=r["type"]))
    return events


# --- comparison -------------------------------------------------------------------------------

def close(a, b, tolerance):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=0, abs_tol=tolerance)


def assert_same_events(expected, got, what, *, places=True, types=True, coordinate_tolerance=1e-9,
                       depth_tolerance=1e-9, mag_tolerance=1e-9, place_ok=lambda place: True,
                       type_ok=lambda event_type: True):
    """The same ids in the same order (most recent first), each field equal where compared."""
    assert [e["id"] for e in got] == [e["id"] for e in expected], \
        f"{what}: ids differ: only in the original {sorted({e['id'] for e in expected} - {e['id'] for e in got})[:5]}, " \
        f"only in {what} {sorted({e['id'] for e in got} - {e['id'] for e in expected})[:5]}"
    problems = []
    for want, have in zip(expected, got):
        def check(field, same):
            if not same:
                problems.append(f"{want['id']} {field}: {want[field]!r} ≠ {have[field]!r}")
        check("ms", want["ms"] == have["ms"])
        check("lat", close(want["lat"], have["lat"], coordinate_tolerance))
        check("lon", close(want["lon"], have["lon"], coordinate_tolerance))
        check("depth", close(want["depth"], have["depth"], depth_tolerance))
        check("mag", close(want["mag"], have["mag"], mag_tolerance))
        check("magType", want["magType"] == have["magType"])
        if places and place_ok(want["place"]):
            check("place", want["place"] == have["place"])
        if types and type_ok(want["type"]):
            check("type", want["type"] == have["type"])
    assert not problems, f"{what}: {len(problems)} differences, the first: " + "; ".join(problems[:8])


def thinned(path, folder):
    """The feed itself when it has at most ROWS rows (or ROWS is 0), else a copy in folder
    with every k-th row and every row with an empty field among time…mag (the CSV months)."""
    if not ROWS or path.suffix != ".csv":
        return path
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    if len(rows) <= ROWS:
        return path
    step = math.ceil(len(rows) / ROWS)
    quirky = [header.index(name) for name in ("time", "latitude", "longitude", "depth", "mag")]
    copy = folder / f"thinned-{path.name}"
    with copy.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(row for index, row in enumerate(rows)
                         if index % step == 0 or any(row[column] == "" for column in quirky))
    return copy


@pytest.fixture(params=FEEDS)
def feed(request, tmp_path):
    path = SHARED / request.param
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared USGS feeds are beside the project in CI")
    return thinned(path, tmp_path)


# --- 1. ObsPy writes, quakemap reads --------------------------------------------------------

def test_obspy_quakeml_read_by_quakemap(feed, tmp_path):
    original = quakemap_events(feed)
    assert original, f"quakemap read no events from {feed}"
    quakeml = tmp_path / "obspy.xml"
    obspy_catalog(feed_rows(feed)).write(str(quakeml), format="QUAKEML", nsmap={"catalog": CATALOG_NS})
    assert_same_events(original, quakemap_events(quakeml), "ObsPy's QuakeML",
                       type_ok=lambda event_type: event_type in EventType)  # DIFFERENCES['quakeml type']


def test_obspy_text_read_by_quakemap(feed, tmp_path):
    original = quakemap_events(feed)
    assert original, f"quakemap read no events from {feed}"
    rows = feed_rows(feed)
    catalog = obspy_catalog(rows)
    # DIFFERENCES['text id']: ObsPy's text writer keeps the last '/' part of the resource id;
    # and it writes the 'region name' description alone as EventLocationName.
    for event, row in zip(catalog, rows):
        event.resource_id = ResourceIdentifier(f"smi:local/{row['id']}")
        for description in event.event_descriptions:
            description.type = "region name"
    text = tmp_path / "obspy.txt"
    with text.open("w", encoding="utf-8") as f:
        catalog.write(f, format="EVENTTXT")
    header = text.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("#EventID | Time |"), header  # blanks around the names, as IRIS writes too
    expected = [dict(event, id=event["id"].replace("nan", "")) for event in original]  # DIFFERENCES['text nan']
    assert_same_events(expected, quakemap_events(text), "ObsPy's FDSN text",
                       types=False,  # DIFFERENCES['text type']
                       coordinate_tolerance=5e-7 + 1e-12, depth_tolerance=5e-4 + 1e-12,
                       mag_tolerance=5e-3 + 1e-12,  # DIFFERENCES['text precision']
                       place_ok=lambda place: "nan" not in place)  # DIFFERENCES['text nan']


# --- 2. quakemap writes, ObsPy reads --------------------------------------------------------

def obspy_id(event):
    """The event id as quakemap reads it: USGS's catalog attributes, else the public id's
    eventid= query parameter, else the last part of its path."""
    extra = getattr(event, "extra", None) or {}
    if "eventsource" in extra and "eventid" in extra:
        return extra["eventsource"]["value"] + extra["eventid"]["value"]
    public_id = str(event.resource_id)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(public_id).query)
    if "eventid" in query:
        return query["eventid"][0]
    return public_id.rstrip("/").split("/")[-1]


def from_obspy(event):
    origin = event.preferred_origin() or event.origins[0]
    magnitude = event.preferred_magnitude() or (event.magnitudes[0] if event.magnitudes else None)
    places = {str(d.type): d.text for d in event.event_descriptions}
    place = next((places[kind] for kind in ("earthquake name", "region name", "Flinn-Engdahl region")
                  if kind in places), "")
    return dict(id=obspy_id(event), ms=round(origin.time.ns / 1_000_000), lat=origin.latitude,
                lon=origin.longitude, depth=None if origin.depth is None else origin.depth / 1000,
                mag=None if magnitude is None else magnitude.mag,
                magType=None if magnitude is None else (magnitude.magnitude_type or None),
                place=place, type=str(event.event_type) if event.event_type else "earthquake")


def schema_problems(path):
    """What the QuakeML 1.2 XML schema that ObsPy ships says of the file. It matters: ObsPy
    drops an event whose type is not in QuakeML's list ("event will be ignored")."""
    schema = etree.XMLSchema(etree.parse(str(pathlib.Path(obspy.io.quakeml.core.__file__).parent
                                             / "data" / "QuakeML-1.2.xsd")))
    if schema.validate(etree.parse(str(path))):
        return []
    return [f"line {entry.line}: {entry.message[:160]}" for entry in schema.error_log]


def test_quakemap_quakeml_read_by_obspy(feed, tmp_path):
    original = quakemap_events(feed)
    assert original, f"quakemap read no events from {feed}"
    quakeml = tmp_path / "quakemap.xml"
    quakeml.write_text(quakemap("list", feed, "--limit", "0", "--format", "quakeml"), encoding="utf-8")
    problems = schema_problems(quakeml)
    assert not problems, f"quakemap's QuakeML is not valid QuakeML 1.2 ({len(problems)} problems): " + \
        "; ".join(problems[:5])
    catalog = read_events(str(quakeml))
    assert catalog.count() == len(original)
    assert_same_events(original, [from_obspy(e) for e in catalog], "quakemap's QuakeML read by ObsPy",
                       type_ok=lambda event_type: event_type in EventType)  # DIFFERENCES['quakeml type']


def test_quakemap_text_read_by_obspy(feed, tmp_path):
    original = quakemap_events(feed)
    assert original, f"quakemap read no events from {feed}"
    text = tmp_path / "quakemap.txt"
    text.write_text(quakemap("list", feed, "--limit", "0", "--format", "text"), encoding="utf-8")
    catalog = read_events(str(text), format="EVENTTXT")
    assert catalog.count() == len(original)
    assert_same_events(original, [from_obspy(e) for e in catalog], "quakemap's FDSN text read by ObsPy",
                       types=False)  # DIFFERENCES['text type']: ObsPy's text reader has no event type
