"""quakemap-server's vector tiles against tipg's (PyPI: PostGIS ST_AsMVT on each request) on the
same PostGIS catalogue: at a zoom where no tile clusters (the sample's 417 events, zoom 2), every
tile holds the same events, at the same places, with the same properties. (The collection is the
events with a magnitude, as for every map and list: tipg is asked for those.)"""
import os
import subprocess
import sys
import time
import uuid

import mapbox_vector_tile
import pytest
import requests

from conftest import SAMPLE, Server
from test_replicas import ADMIN, free_port, ingest, psql
from test_vector_tiles import EXTENT, own

if not ADMIN:
    pytest.skip("no PostgreSQL server beside the tests (make test starts one)", allow_module_level=True)

# quakemap's property names and tipg's columns of the catalogue's table.
COLUMNS = {"id": "id", "mag": "magnitude", "magType": "magnitude_type", "time": "time_ms", "updated": "updated_ms",
           "depth": "depth", "place": "place", "type": "event_type", "status": "status", "net": "network"}


@pytest.fixture
def catalogue():
    name = "t_" + uuid.uuid4().hex[:16]
    psql("postgres", f"CREATE DATABASE {name} OWNER quakemap_writer")
    folder, port = ADMIN.rsplit(":", 1)
    tipg = None
    try:
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", port, "-U", "postgres", "-d", name,
                        "-f", "scripts/catalogue_database.sql"], check=True, capture_output=True)
        ingest(SAMPLE, f"postgresql://quakemap_writer@127.0.0.1:{port}/{name}")
        # tipg keeps its functions in pg_temp.
        psql(name, f"GRANT TEMPORARY ON DATABASE {name} TO quakemap_reader")
        password = os.environ["QUAKEMAP_TEST_POSTGRES_READER_PASSWORD"]
        tipg_port = free_port()
        tipg = subprocess.Popen([sys.executable, "-m", "uvicorn", "tipg.main:app", "--host", "127.0.0.1", "--port", str(tipg_port),
                                 "--log-level", "warning"],
                                env={**os.environ, "DATABASE_URL": f"postgresql://quakemap_reader:{password}@127.0.0.1:{port}/{name}",
                                     "TIPG_DB_SCHEMAS": '["public"]'},
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(f"http://127.0.0.1:{tipg_port}/collections/public.events", timeout=5).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            assert tipg.poll() is None, tipg.stderr.read().decode(errors="replace")
            time.sleep(0.2)
        os.environ["PGPASSWORD"] = password
        server = Server("--catalogue", f"postgresql://quakemap_reader@127.0.0.1:{port}/{name}")
        yield server, f"http://127.0.0.1:{tipg_port}"
        server.stop()
    finally:
        os.environ.pop("PGPASSWORD", None)
        if tipg:
            tipg.terminate()
            tipg.wait(10)
        psql("postgres", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def features(data):
    layers = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    return own(next(iter(layers.values()))["features"]) if layers else []


def test_the_same_events_with_the_same_properties_as_tipg(catalogue):
    server, tipg = catalogue
    zoom, compared = 2, 0
    for x in range(4):
        for y in range(4):
            ours = features(requests.get(f"{server.url}/collections/quakes/tiles/WebMercatorQuad/{zoom}/{y}/{x}", timeout=30).content)
            answer = requests.get(f"{tipg}/collections/public.events/tiles/WebMercatorQuad/{zoom}/{x}/{y}",
                                  params={"geom-column": "position", "properties": ",".join(COLUMNS.values()), "limit": 10000,
                                          "filter-lang": "cql2-text", "filter": "magnitude IS NOT NULL"},
                                  timeout=30)
            assert answer.status_code in (200, 204), answer.text
            theirs = features(answer.content)
            assert not any(feature["properties"].get("cluster") for feature in ours), "no tile of zoom 2 clusters"
            by_id = {feature["properties"]["id"]: feature for feature in theirs}
            assert sorted(by_id) == sorted(feature["properties"]["id"] for feature in ours), (x, y)
            for feature in ours:
                other = by_id[feature["properties"]["id"]]
                for name, column in COLUMNS.items():
                    mine, its = feature["properties"].get(name), other["properties"].get(column)
                    if isinstance(mine, float) or isinstance(its, float):
                        assert mine == pytest.approx(its), (name, mine, its)
                    else:
                        assert mine == its, (name, mine, its)
                # Each rounds the same position to the tile's 4,096 units.
                assert all(abs(a - b) <= 1 for a, b in zip(feature["geometry"]["coordinates"], other["geometry"]["coordinates"]))
                compared += 1
    assert compared == 417
