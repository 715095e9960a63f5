"""Places no one would type, written by `quakemap list` and read back by readers nobody here
wrote: Python's `csv` and `json`, and ObsPy (QuakeML, also parsed by lxml, which refuses a
document that is not well-formed XML). Each place must come back text for text. FDSN text
has no quoting, so there `|` and line breaks are replaced (docs/formats.md); the test checks
that every event is still one line of the right number of fields.
"""
import csv
import io
import json
import subprocess

import pytest

from conftest import BIN

PLACES = [
    "CR\rinside", "LF\ninside", "CR LF\r\ninside", 'a "quoted" word', "comma, then more",
    "bar | between", "<tag> & ampersand", "tab\tinside", "line\u2028separator", "emoji 🌋 Pāhala",
    'all of them: "x", y | <z> & \r\n\t\u2028 🌋 end',
]


def feed():
    out = io.StringIO()
    writer = csv.writer(out)  # CR LF line ends: fields with a lone CR are quoted too
    writer.writerow(["time", "latitude", "longitude", "depth", "mag", "magType", "net", "id", "updated", "place", "type"])
    for index, place in enumerate(PLACES):
        writer.writerow([f"2026-11-21T10:{index:02d}:00.000Z", 10 + index, 20 + index, 5, 4.5, "mb", "us",
                         f"us{index}", "2026-11-21T11:00:00.000Z", place, "earthquake"])
    return out.getvalue()


def listed(fmt):
    done = subprocess.run([str(BIN / "quakemap"), "list", "-", "--limit", "0", "--quiet", "--format", fmt],
                          input=feed().encode(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode("utf-8")


def by_id(pairs):
    return {identifier: place for identifier, place in pairs}


EXPECTED = {f"us{index}": place for index, place in enumerate(PLACES)}


def test_the_feed_itself_round_trips_through_python_csv():
    rows = list(csv.DictReader(io.StringIO(feed(), newline="")))
    assert [row["place"] for row in rows] == PLACES


def test_csv_places_read_back_by_python_csv():
    rows = list(csv.DictReader(io.StringIO(listed("csv"), newline="")))
    assert len(rows) == len(PLACES)
    assert by_id((row["id"], row["place"]) for row in rows) == EXPECTED


def test_json_places_read_back_by_python_json():
    objects = json.loads(listed("json"))
    assert by_id((item["id"], item["place"]) for item in objects) == EXPECTED


def test_geojson_places_read_back_by_python_json():
    collection = json.loads(listed("geojson"))
    assert collection["metadata"]["count"] == len(PLACES)
    assert by_id((item["id"], item["properties"]["place"]) for item in collection["features"]) == EXPECTED


def test_fdsn_text_keeps_one_event_a_line():
    lines = listed("text").split("\n")
    assert lines[-1] == ""
    assert len(lines[1:-1]) == len(PLACES)
    for line in lines[1:-1]:
        assert len(line.split("|")) == 14, repr(line)


def test_quakeml_places_read_back_by_lxml_and_obspy(tmp_path):
    obspy = pytest.importorskip("obspy", reason="ObsPy is installed by `make test` (Tests/Interop/requirements.txt)")
    from lxml import etree
    path = tmp_path / "hostile.xml"
    path.write_text(listed("quakeml"), encoding="utf-8")
    etree.parse(str(path))  # raises on a document that is not well-formed
    catalog = obspy.read_events(str(path))
    places = {}
    for event in catalog:
        identifier = str(event.resource_id).rsplit("/", 1)[-1].rsplit("=", 1)[-1]
        places[identifier] = next(d.text for d in event.event_descriptions)
    assert sorted(places.values()) == sorted(PLACES)
