"""An outside program (Tests/Outside: a package depending on quakemap by path, so it sees
only the public API) runs the DocC articles' code and every entry point on the sample;
what it writes is read back here by Pillow, Python's csv and json, ElementTree and poppler.

`make test` copies the articles' code in (scripts/article_examples.py) and builds it
into .build-outside before running this file."""
import csv
import json
import pathlib
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest
from PIL import Image

from conftest import ROOT, SAMPLE

PROGRAM = ROOT / ".build-outside" / "debug" / "ArticleExamples"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    if not PROGRAM.exists():
        pytest.fail(f"{PROGRAM} is missing: `make test` builds it (swift build --package-path Tests/Outside)")
    folder = tmp_path_factory.mktemp("outside")
    run = subprocess.run([str(PROGRAM), str(SAMPLE), str(folder)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return folder, json.loads((folder / "results.json").read_text())


def pdf_pages(path):
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def test_the_nightly_map_and_the_one_event_map(made):
    folder, results = made
    assert results["nightly.rows"] == "420"
    with Image.open(folder / "nightly.png") as image:
        assert image.size == (2048, 1024)
    with Image.open(folder / "one-event.png") as image:
        rgba = image.convert("RGBA")
        assert rgba.size == (720, 360)
        # Fiji: x = (178.1 + 180) / 360 · 720 = 716.2, y = (90 + 17.7) / 180 · 360 = 215.4
        assert rgba.getpixel((716, 215))[3] > 0
        assert rgba.getpixel((360, 180))[3] == 0


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="pdfinfo (poppler-utils) is missing")
def test_reports_and_pages_are_pdfs_poppler_reads(made):
    folder, _ = made
    assert pdf_pages(folder / "weekly.pdf") == 1
    assert pdf_pages(folder / "charts.pdf") == 1
    assert pdf_pages(folder / "monthly.pdf") == 3   # overview, region, the profile's cross-section


def test_charts_in_svg(made):
    folder, _ = made
    for name in ("section.svg", "cumulative.svg"):
        assert ElementTree.parse(folder / name).getroot().tag == "{http://www.w3.org/2000/svg}svg"


def test_the_animation_has_every_frame(made):
    folder, results = made
    with Image.open(folder / "month.png") as image:
        assert image.format == "PNG" and image.n_frames == 100    # 10 s at 10 frames a second
        assert image.size == (1024, 512)
    assert results["animation.frames"] == "4"


def test_tiles_in_a_folder_and_in_memory(made):
    folder, results = made
    pngs = sorted((folder / "tiles").rglob("*.png"))
    assert len(pngs) == int(results["tiles.folder"]) > 0
    assert json.loads((folder / "tiles" / "tilejson.json").read_text())["maxzoom"] == 5
    with Image.open(pngs[0]) as tile:
        assert tile.size == (512, 512)
    assert int(results["tiles.memory"]) > 0
    for tile in folder.glob("tile-*.png"):
        with Image.open(tile) as image:
            assert image.size == (256, 256)
    # The vector tiles, decoded by mapbox-vector-tile: every event of the sample counted once at zoom 0.
    import mapbox_vector_tile
    world = mapbox_vector_tile.decode((folder / "vector-0-0-0.pbf").read_bytes(), default_options={"y_coord_down": True})
    own = [feature for feature in world["quakes"]["features"] if 0 <= feature["geometry"]["coordinates"][0] < 4096]
    assert any(feature["properties"].get("cluster") for feature in own)
    assert sum(feature["properties"].get("point_count", 1) for feature in own) == 417


def test_the_exported_list_is_the_selection(made):
    folder, results = made
    with open(folder / "california.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == int(results["california.count"]) > 0
    for row in rows:
        assert -125 <= float(row["longitude"]) <= -114 and 32 <= float(row["latitude"]) <= 42
        assert float(row["mag"]) >= 1
    times = [row["time"] for row in rows]
    assert times == sorted(times, reverse=True)
    # The schema's fields: chosen columns, filtered on by CQL2.
    with open(folder / "well-located.csv", newline="", encoding="utf-8") as file:
        located = list(csv.DictReader(file))
    assert len(located) == int(results["wellLocated.count"]) > 0
    assert list(located[0]) == ["time", "latitude", "longitude", "mag", "gap", "horizontalError", "nst"]
    assert all(float(row["gap"]) < 180 and float(row["horizontalError"]) < 5 for row in located)
    latest = json.loads((folder / "latest.geojson").read_text())
    assert latest["type"] == "FeatureCollection" and len(latest["features"]) == 5


def test_a_map_of_map_events_and_a_refused_size(made):
    folder, results = made
    with Image.open(folder / "map-events.png") as image:
        assert image.width == 800
    assert "32767" in results["refused.width"]
