"""Every field a feed carries survives quakemap, checked by readers nobody here wrote.

- USGS CSV through `quakemap list` is USGS CSV again: Python's `csv` reads the same rows, field
  by field (numbers compared as floats), for every shared CSV feed.
- CQL2 on the schema's fields (`gap`, `horizontalError`, `alert`, `tsunami`, …) selects the events
  pygeofilter's own evaluator selects from the same rows.
- The server's items (OGC layout) read back by quakemap give the same events, depths included.
"""
import csv
import io
import json
import urllib.request

import pytest
from pygeofilter.backends.native.evaluate import NativeEvaluator
from pygeofilter.parsers.cql2_text import parse as parse_cql2

from conftest import SHARED, quakemap

USGS_COLUMNS = ("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
                "horizontalError,depthError,magError,magNst,status,locationSource,magSource").split(",")
NUMBERS = {"latitude", "longitude", "depth", "mag", "nst", "gap", "dmin", "rms", "horizontalError",
           "depthError", "magError", "magNst"}
CSV_FEEDS = ["all_month_2022-03.csv", "all_month_2020-06.csv", "significant_month_2024-05.csv",
             "4.5_week_2020-04.csv", "all_month_2015-12_15col.csv"]

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/usgs is not beside the repository")


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def typed(row):
    """A CSV row's values as a seismologist's script types them: numbers as floats, empty as None."""
    return {name: (None if value == "" else float(value) if name in NUMBERS else value) for name, value in row.items()}


def latest_by_id(source_rows):
    """The row quakemap keeps of each id: the latest `updated` (file order among equals)."""
    kept = {}
    for row in source_rows:
        previous = kept.get(row["id"])
        if previous is None or row["updated"] >= previous["updated"]:
            kept[row["id"]] = row
    return kept


@needs_shared
@pytest.mark.parametrize("name", CSV_FEEDS)
def test_usgs_csv_through_a_filter_is_usgs_csv(name):
    path = SHARED / name
    source = rows(path.read_text(encoding="utf-8-sig"))
    listed = rows(quakemap("list", path, "--limit", "0"))
    assert list(listed[0].keys()) == USGS_COLUMNS
    # An event without a magnitude is never selected (it cannot be drawn): the rest are listed.
    expected = {i: row for i, row in latest_by_id(source).items() if row["mag"].strip()}
    assert len(listed) == len(expected)
    for row in listed:
        original = expected[row["id"]]
        for column, value in original.items():
            column = column.strip()
            if column == "time" or column == "updated":
                # quakemap writes times to the millisecond, with Z, as today's feeds do.
                assert value[:19] == row[column][:19], (row["id"], column)
            elif column in NUMBERS:
                assert (None if value == "" else float(value)) == (None if row[column] == "" else float(row[column])), \
                    (row["id"], column, value, row[column])
            else:
                assert value.strip() == row[column], (row["id"], column)
        # Columns the feed does not have are empty.
        for column in set(USGS_COLUMNS) - {c.strip() for c in original}:
            assert row[column] == "", (row["id"], column)

    # A filter keeps the USGS layout: the output of a filter reads as USGS CSV.
    strong = rows(quakemap("list", path, "--limit", "0", "--min-mag", "4"))
    assert {row["id"] for row in strong} == {i for i, row in expected.items() if row["mag"] and float(row["mag"]) >= 4}


CSV_FILTERS = [
    "gap IS NOT NULL AND gap < 180 AND horizontalError IS NOT NULL AND horizontalError < 5",
    "magNst IS NOT NULL AND magNst >= 10",
    "(rms IS NOT NULL AND rms < 0.2) OR (dmin IS NOT NULL AND dmin > 1)",
    "locationSource = 'ak' AND magType = 'ml'",
    "magError IS NULL OR (depthError IS NOT NULL AND depthError > 10)",
    "nst IS NOT NULL AND nst BETWEEN 10 AND 20",
]


GEOJSON_FILTERS = [
    "alert IS NOT NULL AND alert = 'green'",
    "tsunami = 1",
    "felt IS NOT NULL AND felt > 10 AND sig IS NOT NULL AND sig > 400",
    "cdi IS NOT NULL AND cdi >= 3",
]


def csv_rows(path):
    return [typed(row) for row in latest_by_id(rows(path.read_text(encoding="utf-8-sig"))).values()]


def geojson_rows(path):
    return [dict(feature["properties"], id=feature["id"]) for feature in json.loads(path.read_text())["features"]]


@needs_shared
@pytest.mark.parametrize("name, read, cql",
                         [("all_month_2022-03.csv", csv_rows, cql) for cql in CSV_FILTERS]
                         + [("4.5_week_2020-10.geojson", geojson_rows, cql) for cql in GEOJSON_FILTERS])
def test_cql2_on_schema_fields_agrees_with_pygeofilter(name, read, cql):
    """The events quakemap's --where keeps are those pygeofilter's evaluator keeps of the same rows
    (typed as a script would type them: numbers as floats, empty as None)."""
    path = SHARED / name
    matches = NativeEvaluator(use_getattr=False).evaluate(parse_cql2(cql))
    expected = {row["id"] for row in read(path) if row["mag"] is not None and matches(row)}
    listed = rows(quakemap("list", path, "--limit", "0", "--where", cql, "--columns", "id"))
    assert {row["id"] for row in listed} == expected
    assert expected, "a filter that selects nothing checks nothing"


@needs_shared
def test_geojson_properties_survive_a_listing():
    path = SHARED / "4.5_week_2020-10.geojson"
    features = {f["id"]: f for f in json.loads(path.read_text())["features"]}
    listed = json.loads(quakemap("list", path, "--limit", "0", "--format", "geojson"))["features"]
    assert len(listed) == len(features)
    for feature in listed:
        original = features[feature["id"]]
        assert feature["geometry"]["coordinates"] == original["geometry"]["coordinates"]
        for key, value in original["properties"].items():
            if value is None:
                continue
            assert feature["properties"][key] == value, (feature["id"], key)


@needs_shared
def test_server_items_read_back_with_every_field(start_server, tmp_path):
    path = SHARED / "all_month_2022-03.csv"
    server = start_server(path)
    with urllib.request.urlopen(f"{server.url}/collections/quakes/items?limit=200") as response:
        page = response.read()
    items = tmp_path / "items.geojson"
    items.write_bytes(page)
    document = json.loads(page)
    assert "depth" in document["features"][0]["properties"]
    back = rows(quakemap("list", items, "--limit", "0", "--columns", "all"))
    direct = {row["id"]: row for row in rows(quakemap("list", path, "--limit", "0", "--columns", "all"))}
    assert len(back) == len(document["features"]) == 200
    for row in back:
        assert row["depth"] != "" or direct[row["id"]]["depth"] == ""
        assert row == direct[row["id"]], row["id"]


# What each list format carries of the schema (the rest it has no place for).
CARRIED = {
    "csv": None,  # every field, with --columns all
    "json": None,
    "geojson": None,
    "quakeml": ("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,"
                "depthError,magError,magNst,status,locationSource,magSource,latitudeError,longitudeError,timeError,"
                "usedPhaseCount,associatedPhaseCount,associatedStationCount,author"),
    "text": "id,time,latitude,longitude,depth,locationSource,catalog,net,contributorId,magType,mag,magSource,place,type",
}
ALL_FEEDS = CSV_FEEDS + ["4.5_week_2020-10.geojson", "all_week_2014-04.geojson", "eqs7day-M1_2011-05.txt"]


@needs_shared
@pytest.mark.parametrize("name", ALL_FEEDS)
@pytest.mark.parametrize("form", sorted(CARRIED))
def test_every_format_is_a_fixed_point_with_every_field(name, form, tmp_path):
    """read → list in a format → read → list: the same bytes, and the same values of every field the
    format carries as the feed itself gave."""
    path = SHARED / name
    columns = ["--columns", "all"] if form in ("csv", "json") else []
    first = quakemap("list", path, "--limit", "0", "--format", form, *columns)
    written = tmp_path / f"first.{form}"
    written.write_text(first, encoding="utf-8")
    if form == "json":
        # JSON lists are not read back (no reader takes them); Python's json reads every field.
        objects = json.loads(first)
        direct = rows(quakemap("list", path, "--limit", "0", "--columns", "all"))
        assert len(objects) == len(direct)
        for obj, row in zip(objects, direct):
            for key, value in obj.items():
                assert ("" if value is None else value) == (typed_like(row[key], value)), (row["id"], key)
        return
    second = quakemap("list", written, "--limit", "0", "--format", form, *columns)
    assert second == first
    carried = CARRIED[form]
    fields = ["--columns", carried or "all"]
    back = rows(quakemap("list", written, "--limit", "0", *fields))
    direct = rows(quakemap("list", path, "--limit", "0", *fields))
    if form == "quakeml":
        # QuakeML's evaluation words are lower case (an older feed's AUTOMATIC reads back automatic),
        # and its event types a closed list (`quarry` is written as QuakeML's `quarry blast`).
        for old, new in zip(direct, back):
            old["status"] = old["status"].lower()
            if old["type"] != new["type"]:
                assert old["type"] != "earthquake" and new["type"] in ("quarry blast", "other event"), (old, new)
                old["type"] = new["type"]
    assert back == direct


def typed_like(text, value):
    """A CSV cell as the JSON value's type, for comparison."""
    if isinstance(value, bool) or value is None:
        return text
    if isinstance(value, (int, float)):
        return "" if text == "" else float(text) if isinstance(value, float) else int(text)
    return text
