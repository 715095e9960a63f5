"""Vector tiles read by decoders nobody here wrote: the PyPI `mapbox-vector-tile` package and
GDAL's MVT and MBTiles drivers decode quakemap's tiles, the PyPI `pmtiles` package reads its
PMTiles archive. No event is left out: in every tile, the single points and the clusters'
`point_count`s add up to exactly the events whose position lies in the tile (neighbours'
features drawn in the buffer lie outside the tile's 0…4096 and are not counted).
"""
import collections
import csv
import gzip
import json
import math
import pathlib
import sqlite3
import subprocess

import mapbox_vector_tile
import pytest
import requests
from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import zxy_to_tileid

from conftest import SHARED, quakemap

FEED = SHARED / "all_month_2022-03.csv"
ZOOMS = range(0, 9)
EXTENT = 4096
# Small enough that the month's crowded tiles (California, Alaska, Hawaii) cluster to zoom 6 or so.
BUDGET = 300


def mercator(latitude, longitude):
    """Web Mercator as fractions of the world, x east and y down, latitudes clamped at ±85.0511°."""
    latitude = max(min(latitude, 85.0511287798066), -85.0511287798066)
    x = (longitude + 180) / 360
    y = (1 - math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2)) / math.pi) / 2
    return min(max(x, 0), 1 - 1e-12), min(max(y, 0), 1 - 1e-12)


@pytest.fixture(scope="module")
def events():
    """The month's events with a magnitude (each id once), by Python's csv: id → (x, y, mag)."""
    if not FEED.exists():
        pytest.skip(f"{FEED} is absent: the shared USGS feeds are beside the project in CI")
    with open(FEED, newline="", encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle) if row["mag"]]
    found = {row["id"]: (*mercator(float(row["latitude"]), float(row["longitude"])), float(row["mag"])) for row in rows}
    assert len(found) == len(rows), "the month has each id once"
    return found


@pytest.fixture(scope="module")
def pyramid(events, tmp_path_factory):
    """The month as vector tiles z0–z8, in a folder, an MBTiles file and a PMTiles archive."""
    work = tmp_path_factory.mktemp("vector")
    outputs = {"folder": work / "tiles", "mbtiles": work / "quakes.mbtiles", "pmtiles": work / "quakes.pmtiles"}
    for output in outputs.values():
        quakemap("tiles", FEED, "--encoding", "mvt", "--zoom", "0-8", "--tile-limit", BUDGET, "-o", output)
    return outputs


def decode(data):
    return mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})


def own(features):
    """The features of the tile itself (the buffer's copies lie outside 0…4096)."""
    return [feature for feature in features
            if 0 <= feature["geometry"]["coordinates"][0] < EXTENT and 0 <= feature["geometry"]["coordinates"][1] < EXTENT]


def expected_counts(events, zoom):
    counts = collections.Counter()
    for x, y, _ in events.values():
        counts[(int(x * 2 ** zoom), int(y * 2 ** zoom))] += 1
    return counts


def folder_tiles(folder):
    tiles = {}
    for path in folder.glob("*/*/*.pbf"):
        z, x, y = int(path.parts[-3]), int(path.parts[-2]), int(path.stem)
        tiles[(z, x, y)] = path.read_bytes()
    return tiles


def test_every_event_is_in_its_tile_once(events, pyramid):
    tiles = folder_tiles(pyramid["folder"])
    assert tiles, "no tile written"
    clustered = 0
    for zoom in ZOOMS:
        expected = expected_counts(events, zoom)
        found = collections.Counter()
        for (z, x, y), data in tiles.items():
            if z != zoom:
                continue
            layer = decode(data)["quakes"]
            assert layer["extent"] == EXTENT
            for feature in own(layer["features"]):
                properties = feature["properties"]
                if properties.get("cluster"):
                    clustered += 1
                    assert properties["point_count"] >= 2
                    assert properties["expansion_zoom"] > zoom
                    found[(x, y)] += properties["point_count"]
                    continue
                found[(x, y)] += 1
                # A single event lies within one tile unit of its Web Mercator position.
                ex, ey, magnitude = events[properties["id"]]
                px, py = feature["geometry"]["coordinates"]
                assert abs(px - (ex * 2 ** zoom - x) * EXTENT) <= 1 and abs(py - (ey * 2 ** zoom - y) * EXTENT) <= 1, properties["id"]
                assert properties["mag"] == pytest.approx(magnitude)
        assert found == expected, f"zoom {zoom}: tiles whose counts differ from the events in them"
    assert clustered > 0, "the budget should have made clusters at low zooms"


def test_largest_first_and_popup_properties(pyramid):
    layer = decode((pyramid["folder"] / "8" / "43" / "98.pbf").read_bytes() if (pyramid["folder"] / "8" / "43" / "98.pbf").exists()
                   else next(pyramid["folder"].glob("8/*/*.pbf")).read_bytes())["quakes"]
    features = own(layer["features"])
    ranks = [feature["properties"].get("mag", feature["properties"].get("max_mag")) for feature in features]
    assert ranks == sorted(ranks, reverse=True)
    single = next(feature["properties"] for feature in features if not feature["properties"].get("cluster"))
    for key in ("id", "mag", "magType", "time", "updated", "depth", "place", "type", "status", "net"):
        assert key in single, key


def test_pmtiles_archive_holds_the_folders_tiles(pyramid):
    folder = folder_tiles(pyramid["folder"])
    with open(pyramid["pmtiles"], "rb") as handle:
        reader = Reader(MmapSource(handle))
        header = reader.header()
        assert header["clustered"] and header["tile_type"].value == 1 and header["tile_compression"].value == 2
        assert (header["min_zoom"], header["max_zoom"]) == (0, 8)
        archived = {(z, x, y): gzip.decompress(data) for (z, x, y), data in all_tiles(reader.get_bytes)}
        metadata = reader.metadata()
    assert archived == folder
    assert metadata["vector_layers"][0]["id"] == "quakes"
    assert header["addressed_tiles_count"] == len(folder)
    # The archive's order is the format's own tile ids.
    assert zxy_to_tileid(8, 43, 98) > zxy_to_tileid(7, 127, 127)


def test_mbtiles_is_mbtiles_1_3_for_vector_tiles(pyramid):
    folder = folder_tiles(pyramid["folder"])
    with sqlite3.connect(pyramid["mbtiles"]) as database:
        metadata = dict(database.execute("SELECT name, value FROM metadata"))
        rows = database.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").fetchall()
    assert metadata["format"] == "pbf"
    assert json.loads(metadata["json"])["vector_layers"][0]["id"] == "quakes"
    stored = {(z, x, (1 << z) - 1 - row): gzip.decompress(data) for z, x, row, data in rows}
    assert stored == folder


def ogr_features(*arguments):
    """GDAL's features as GeoJSON (EPSG:3857 as GDAL reads them), by ogr2ogr."""
    result = subprocess.run(["ogr2ogr", "-f", "GeoJSON", "/vsistdout/", *map(str, arguments)],
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return json.loads(result.stdout)["features"]


WORLD = 20037508.342789244


def test_gdal_reads_the_tiles(events, pyramid):
    """GDAL's MVT driver on each tile of zooms 0–3 and on a spread of zoom 8's: its features inside
    the tile (in EPSG:3857) add up to the events there, each single event within one tile unit."""
    tiles = sorted(pyramid["folder"].glob("[0-3]/*/*.pbf")) + sorted(pyramid["folder"].glob("8/*/*.pbf"))[::40]
    for path in tiles:
        zoom, column, row = int(path.parts[-3]), int(path.parts[-2]), int(path.stem)
        side = 2 * WORLD / 2 ** zoom
        west, north = -WORLD + column * side, WORLD - row * side
        inside = [feature for feature in ogr_features(path)
                  if west <= feature["geometry"]["coordinates"][0] < west + side
                  and north - side < feature["geometry"]["coordinates"][1] <= north]
        expected = sum(1 for x, y, _ in events.values() if (int(x * 2 ** zoom), int(y * 2 ** zoom)) == (column, row))
        assert sum(feature["properties"].get("point_count") or 1 for feature in inside) == expected, path
        unit = side / EXTENT
        for feature in inside:
            if feature["properties"].get("cluster"):
                continue
            x, y, _ = events[feature["properties"]["id"]]
            gx, gy = feature["geometry"]["coordinates"][:2]
            assert abs(gx - (x * 2 - 1) * WORLD) <= 1.5 * unit and abs(gy - (1 - y * 2) * WORLD) <= 1.5 * unit, path


def test_gdal_reads_the_mbtiles_file(events, pyramid):
    """GDAL's MBTiles driver: the layer and its fields from the `json` metadata, every zoom."""
    result = subprocess.run(["ogrinfo", "-ro", "-so", str(pyramid["mbtiles"]), "quakes"], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    summary = result.stdout.decode()
    assert "ZOOM_LEVEL=8" in summary
    for field in ("id: String", "mag: Real", "time: Real", "place: String", "point_count: Real"):
        assert field in summary, field
    features = ogr_features(pyramid["mbtiles"], "-oo", "ZOOM_LEVEL=0")
    assert sum(feature["properties"].get("point_count") or 1 for feature in own_by_world(features)) == len(events)


def own_by_world(features):
    """At zoom 0 the buffer's copies lie beyond the antimeridian."""
    return [feature for feature in features if -WORLD <= feature["geometry"]["coordinates"][0] < WORLD]


def served_features(url, **parameters):
    answer = requests.get(url, params=parameters, headers={"Accept-Encoding": "gzip"}, timeout=60)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"] == "application/vnd.mapbox-vector-tile"
    # requests undoes the gzip the server applied.
    assert answer.headers.get("Content-Encoding") == "gzip"
    return own(decode(answer.content).get("quakes", {"features": []})["features"])


def multiset(features):
    return collections.Counter(json.dumps([feature["geometry"]["coordinates"], feature["properties"]], sort_keys=True)
                               for feature in features)


def test_server_tiles_on_a_file_and_a_catalogue_agree(events, pyramid, start_server, tmp_path):
    catalogue = tmp_path / "month.sqlite"
    quakemap("ingest", FEED, "--catalogue", catalogue)
    servers = [start_server(FEED, "--tile-limit", BUDGET), start_server("--catalogue", catalogue, "--tile-limit", BUDGET)]
    documents = requests.get(f"{servers[0].url}/collections/quakes/tiles/WebMercatorQuad", timeout=10).json()
    template = next(link["href"] for link in documents["links"] if link["rel"] == "item")
    folder = folder_tiles(pyramid["folder"])
    for z, x, y in [(0, 0, 0), (2, 0, 1), (4, 2, 6), (6, 10, 24)]:
        path = template.replace("{tileMatrix}", str(z)).replace("{tileRow}", str(y)).replace("{tileCol}", str(x))
        path = path.replace(servers[0].url, "")
        expected = multiset(own(decode(folder[(z, x, y)])["quakes"]["features"])) if (z, x, y) in folder else collections.Counter()
        for server in servers:
            assert multiset(served_features(server.url + path)) == expected, (server.url, z, x, y)
    # A filter applies to tiles as to items: the counts add up to the events it admits.
    strong = sum(1 for _, _, magnitude in events.values() if magnitude >= 4.5)
    for server in servers:
        features = served_features(f"{server.url}/collections/quakes/tiles/WebMercatorQuad/0/0/0", filter="mag >= 4.5")
        assert sum(feature["properties"].get("point_count", 1) for feature in features) == strong


def test_basemap_tiles_hold_the_land_and_the_plates(sample_server):
    """The server's land and plate boundaries as vector tiles, decoded with mapbox-vector-tile (which
    tells exterior rings from holes by their winding, as MVT 2.1 says) and tested with shapely:
    Africa's interior is land, the mid-Pacific is not. (Rings clipped to the buffer or rounded to
    tile units may touch themselves, as in any MVT: shapely's make_valid mends them first.)"""
    from shapely import make_valid
    from shapely.geometry import Point, shape

    tilejson = requests.get(f"{sample_server.url}/tiles/basemap/tilejson.json", timeout=10).json()
    assert {layer["id"] for layer in tilejson["vector_layers"]} == {"land", "plates"}
    template = tilejson["tiles"][0]

    def layers(z, x, y):
        answer = requests.get(template.format(z=z, x=x, y=y), timeout=30)
        assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/vnd.mapbox-vector-tile"
        return decode(answer.content)

    def at(latitude, longitude, zoom):
        x, y = mercator(latitude, longitude)
        column, row = int(x * 2 ** zoom), int(y * 2 ** zoom)
        return (column, row), Point((x * 2 ** zoom - column) * EXTENT, (y * 2 ** zoom - row) * EXTENT)

    for zoom in (0, 3, 6):
        (column, row), africa = at(5, 20, zoom)
        land = [make_valid(shape(feature["geometry"])) for feature in layers(zoom, column, row)["land"]["features"]]
        assert any(polygon.contains(africa) for polygon in land), f"zoom {zoom}: central Africa is not land"
        (column, row), pacific = at(0, -150, zoom)
        sea = layers(zoom, column, row).get("land", {"features": []})["features"]
        assert not any(make_valid(shape(feature["geometry"])).contains(pacific) for feature in sea), f"zoom {zoom}: the mid-Pacific is land"
    # Japan's trench: subduction zones with their overriding plate.
    (column, row), _ = at(38, 143, 4)
    plates = layers(4, column, row)["plates"]["features"]
    assert any(feature["properties"]["subduction"] and feature["properties"].get("overriding") for feature in plates)
    assert all(feature["geometry"]["type"] in ("LineString", "MultiLineString") for feature in plates)
