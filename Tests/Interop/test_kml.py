"""quakemap's KML and KMZ read by tools nobody here wrote: the command line's KML, the server's
items as KML and its network link are valid against the OGC KML 2.2 schema (the copy, with the
Atom and xAL schemas it imports, that the pykml wheel ships; xmllint without the network); GDAL's
LIBKML driver reads every placemark of the bundled sample day with its time, place and
coordinates; and Python's zipfile opens the KMZ to doc.kml, its first entry, deflated.
"""
import csv
import datetime
import importlib.util
import io
import os
import pathlib
import shutil
import subprocess
import urllib.request
import xml.etree.ElementTree as ElementTree
import zipfile

import pytest

from conftest import BIN, SAMPLE, quakemap

KML = "{http://www.opengis.net/kml/2.2}"


def schema():
    """ogckml22.xsd inside the installed pykml package (found without importing it)."""
    spec = importlib.util.find_spec("pykml")
    assert spec and spec.submodule_search_locations, "pykml is not installed: make test-deps"
    path = pathlib.Path(list(spec.submodule_search_locations)[0]) / "schemas" / "ogckml22.xsd"
    assert path.exists(), f"pykml ships no {path}"
    return path


def assert_valid(path):
    xmllint = shutil.which("xmllint")
    assert xmllint, "xmllint is missing (Debian's libxml2-utils): make test-deps"
    result = subprocess.run([xmllint, "--nonet", "--noout", "--schema", str(schema()), str(path)],
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode(errors="replace")[:2000]


def listed_bytes(*arguments):
    """quakemap list's standard output as bytes (KMZ is binary)."""
    result = subprocess.run([str(BIN / "quakemap"), "list", str(SAMPLE), "--quiet", *arguments],
                            capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """Every event of the sample day as CSV (what the KML must hold) and as KML, by magnitude and by day."""
    folder = tmp_path_factory.mktemp("kml")
    rows = list(csv.DictReader(io.StringIO(quakemap("list", SAMPLE, "--limit", "0", "--quiet"))))
    files = {}
    for folders in ("magnitude", "day"):
        files[folders] = folder / f"{folders}.kml"
        files[folders].write_bytes(listed_bytes("--format", "kml", "--limit", "0", "--kml-folders", folders))
    return folder, rows, files


def test_the_command_lines_kml_is_valid_kml_22(sample):
    _, rows, files = sample
    assert len(rows) > 100
    for path in files.values():
        assert_valid(path)


def test_gdal_reads_every_placemark_with_its_time_place_and_position(sample):
    folder, rows, files = sample
    formats = subprocess.run(["ogrinfo", "--formats"], capture_output=True, text=True, timeout=60).stdout
    assert "LIBKML" in formats, "GDAL was built without LIBKML"
    expected = {row["id"]: row for row in rows}
    for grouping, path in files.items():
        out = folder / f"csv-{grouping}"
        result = subprocess.run(["ogr2ogr", "-f", "CSV", str(out), str(path), "-lco", "GEOMETRY=AS_XYZ"],
                                capture_output=True, text=True, timeout=120, env={**os.environ, "OGR_SKIP": "KML"})
        assert result.returncode == 0, result.stderr
        read = {}
        for layer in sorted(out.glob("*.csv")):
            for feature in csv.DictReader(layer.open(encoding="utf-8")):
                assert feature["id"] not in read, f"{feature['id']} twice"
                read[feature["id"]] = feature
        assert read.keys() == expected.keys(), grouping
        for id, feature in read.items():
            row = expected[id]
            # The TimeStamp, as GDAL's DateTime (2026/11/21 23:40:39.180+00), and the time field as written.
            stamp = datetime.datetime.strptime(feature["timestamp"].replace("+00", ""), "%Y/%m/%d %H:%M:%S.%f")
            origin = datetime.datetime.strptime(row["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
            assert stamp == origin, id
            assert feature["time"] == row["time"] and feature["place"] == row["place"], id
            # The fields as written; the geometry as GDAL's CSV writes it, to 15 digits.
            assert feature["longitude"] == row["longitude"] and feature["latitude"] == row["latitude"], id
            assert float(feature["X"]) == pytest.approx(float(row["longitude"]), abs=1e-9), id
            assert float(feature["Y"]) == pytest.approx(float(row["latitude"]), abs=1e-9), id
            if row["depth"]:
                assert float(feature["Z"]) == pytest.approx(-1000 * float(row["depth"]), abs=0.5), id
            assert feature["altitudeMode"] == "clampToGround"


def test_the_kmz_is_doc_kml_deflated_first(sample, tmp_path):
    kmz = tmp_path / "sample.kmz"
    kmz.write_bytes(listed_bytes("--format", "kmz", "--limit", "0"))
    with zipfile.ZipFile(kmz) as archive:
        first = archive.infolist()[0]
        assert first.filename == "doc.kml" and first.compress_type == zipfile.ZIP_DEFLATED
        assert archive.testzip() is None
        assert archive.read(first) == sample[2]["magnitude"].read_bytes()
    # GDAL opens the KMZ itself too.
    result = subprocess.run(["ogrinfo", "-ro", "-al", "-so", str(kmz)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "using driver `LIBKML'" in result.stdout, result.stdout + result.stderr
    counts = [int(line.split(":")[1]) for line in result.stdout.splitlines() if line.startswith("Feature Count:")]
    assert sum(counts) == len(sample[1])


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.headers.get("Content-Type"), response.read()


def test_the_servers_kml_pages_and_network_link_are_valid(sample_server, tmp_path):
    items = f"{sample_server.url}/collections/quakes/items"
    kind, page = get(f"{items}?f=kml&limit=40&filter=mag%3E%3D1")
    assert kind == "application/vnd.google-earth.kml+xml"
    (tmp_path / "page.kml").write_bytes(page)
    assert_valid(tmp_path / "page.kml")
    names = placemark_names(page)
    assert len(names) == 40

    kind, link = get(f"{items}?f=kml-network-link&filter=mag%3E%3D1&limit=40&refresh=120")
    assert kind == "application/vnd.google-earth.kml+xml"
    (tmp_path / "link.kml").write_bytes(link)
    assert_valid(tmp_path / "link.kml")
    document = ElementTree.fromstring(link)
    assert document.findtext(f"{KML}NetworkLink/{KML}Link/{KML}refreshMode") == "onInterval"
    assert document.findtext(f"{KML}NetworkLink/{KML}Link/{KML}refreshInterval") == "120"
    # The link loads the same events (its own atom:link self aside).
    kind, again = get(document.findtext(f"{KML}NetworkLink/{KML}Link/{KML}href"))
    assert kind == "application/vnd.google-earth.kml+xml" and placemark_names(again) == names

    kind, kmz = get(f"{items}?f=kmz&limit=40&filter=mag%3E%3D1")
    assert kind == "application/vnd.google-earth.kmz"
    with zipfile.ZipFile(io.BytesIO(kmz)) as archive:
        assert archive.namelist()[0] == "doc.kml" and placemark_names(archive.read("doc.kml")) == names


def placemark_names(kml):
    return [placemark.findtext(f"{KML}name") for placemark in ElementTree.fromstring(kml).iter(f"{KML}Placemark")]
