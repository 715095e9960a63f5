"""Python's `json`, a reader nobody here wrote, against quakemap's GeoJSON reading.

quakemap reads each feature in place from its bytes, and leaves what that reader declines
(products, odd values, anything that is not JSON) to Foundation's JSONSerialization; the
Swift tests hold the two paths to each other. Here both are held to Python: every shared USGS
GeoJSON feed, and a generated one written by `json.dumps` four ways (compact, indented,
every non-ASCII character escaped, numbers given as strings), must list as the events Python
reads from them: the same ids, times, positions, depths, magnitudes, types and places.
"""
import csv
import datetime
import json
import math
import random
import subprocess

import pytest

from conftest import BIN, SHARED

FEEDS = ["all_week_2014-04.geojson", "4.5_week_2020-10.geojson"]


def quakemap_events(path):
    executable = BIN / "quakemap"
    result = subprocess.run([str(executable), "list", str(path), "--limit", "0", "--format", "csv"],
                            capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    events = {}
    for r in csv.DictReader(result.stdout.decode("utf-8").splitlines()):
        moment = datetime.datetime.fromisoformat(r["time"].removesuffix("Z")).replace(tzinfo=datetime.timezone.utc)
        events[r["id"]] = dict(ms=round(moment.timestamp() * 1000), lat=float(r["latitude"]), lon=float(r["longitude"]),
                               depth=float(r["depth"]) if r["depth"] else None,
                               mag=float(r["mag"]) if r["mag"] else None, magType=r["magType"] or None,
                               place=r["place"], type=r["type"])
    return events


def python_events(document):
    """The events of a parsed FeatureCollection as quakemap lists them (ids as given; blank text is none;
    an event without a magnitude is counted, not listed)."""
    def text(value):
        return value.strip() if isinstance(value, str) and value.strip() else None

    def num(value):
        return None if value is None or (isinstance(value, str) and not value.strip()) else float(value)
    events = {}
    for feature in document["features"]:
        p, c = feature["properties"], feature["geometry"]["coordinates"]
        if num(p.get("mag")) is None:
            continue
        time = p["time"]
        if isinstance(time, str):
            moment = datetime.datetime.fromisoformat(time.removesuffix("Z")).replace(tzinfo=datetime.timezone.utc)
            time = round(moment.timestamp() * 1000)
        events[feature["id"]] = dict(ms=time, lat=num(c[1]), lon=num(c[0]),
                                     depth=num(c[2]) if len(c) > 2 else None, mag=num(p.get("mag")),
                                     magType=text(p.get("magType")), place=text(p.get("place")) or "",
                                     type=text(p.get("type")) or "earthquake")
    return events


def assert_same(expected, got, what):
    assert sorted(got) == sorted(expected), f"{what}: ids differ: {sorted(set(expected) ^ set(got))[:5]}"
    problems = []
    for key, want in expected.items():
        have = got[key]
        for field in want:
            a, b = want[field], have[field]
            same = (math.isclose(a, b, rel_tol=0, abs_tol=1e-9) if isinstance(a, float) and b is not None
                    else a == b)
            if not same:
                problems.append(f"{key} {field}: {a!r} ≠ {b!r}")
    assert not problems, f"{what}: {len(problems)} differences, the first: " + "; ".join(problems[:6])


@pytest.mark.parametrize("name", FEEDS)
def test_shared_feeds_read_as_python_reads_them(name):
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared USGS feeds are beside the project in CI")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert len(document["features"]) > 50
    assert_same(python_events(document), quakemap_events(path), name)


def generated_collection(count=3000, seed=20261128):
    """Features with the quirks of real feeds: places in many scripts, quotes and backslashes,
    null magnitudes and depths, two-element coordinates, extra properties of every JSON type."""
    rng = random.Random(seed)
    places = ["10 km SSW of Ōfunato, Japan", 'near "Le Chenit", Suisse', "Ισθμός Κορίνθου", "南海トラフ",
              "back\\slash / slash", "Kaikōura 🌋 coast", "tab\tin a place", "  padded  "]
    features = []
    for index in range(count):
        time = 1_600_000_000_000 + index * 61_237 + rng.randrange(1000)
        mag = None if index % 37 == 0 else round(rng.uniform(-1, 8.5), rng.choice([1, 2, 3]))
        coordinates = [round(rng.uniform(-180, 180), rng.choice([3, 4, 5])), round(rng.uniform(-90, 90), 4)]
        if index % 41:
            coordinates.append(None if index % 53 == 0 else round(rng.uniform(-3, 700), 2))
        features.append({
            "type": "Feature",
            "properties": {"mag": mag, "place": rng.choice(places), "time": time, "updated": time + 60_000,
                           "tz": None, "felt": rng.choice([None, 3]), "tsunami": 0, "sig": rng.randrange(1000),
                           "net": "us", "code": f"{index:08d}", "nst": None, "dmin": rng.uniform(0, 20),
                           "alert": rng.choice([None, "green"]), "flag": rng.choice([True, False]),
                           "extra": {"nested": [1, [2.5e-3, {"x": None}]]},
                           "magType": rng.choice(["mb", "ml", "Mww", ""]),
                           "type": rng.choice(["earthquake", "quarry blast", "explosion"])},
            "geometry": {"type": "Point", "coordinates": coordinates},
            "id": f"gen{index:06d}",
        })
    return {"type": "FeatureCollection", "metadata": {"generated": 1_700_000_000_000, "title": "generated"},
            "features": features}


def as_strings(document):
    """The same document with every value the event reads given as a string, as some services write
    (a time as ISO 8601 text: a string is judged as the same text in a CSV)."""
    copy = json.loads(json.dumps(document))
    for feature in copy["features"]:
        p = feature["properties"]
        for key in ("time", "updated"):
            moment = datetime.datetime.fromtimestamp(p[key] / 1000, tz=datetime.timezone.utc)
            p[key] = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{p[key] % 1000:03d}Z"
        if p["mag"] is not None:
            p["mag"] = repr(p["mag"])
        feature["geometry"]["coordinates"] = [None if c is None else repr(c) for c in feature["geometry"]["coordinates"]]
    return copy


@pytest.mark.parametrize("style", ["compact", "indented", "ascii-escaped", "numbers-as-strings"])
def test_generated_feed_reads_as_python_reads_it(style, tmp_path):
    document = generated_collection()
    if style == "numbers-as-strings":
        document = as_strings(document)
    text = json.dumps(document, ensure_ascii=(style == "ascii-escaped"), indent=2 if style == "indented" else None,
                      separators=None if style == "indented" else (",", ":"))
    path = tmp_path / f"{style}.geojson"
    path.write_text(text, encoding="utf-8")
    assert_same(python_events(json.loads(text)), quakemap_events(path), style)
