"""ObsPy's FDSN client, which nobody here wrote, against quakemap-server's FDSN event service
(/fdsnws/event/1/), and quakemap's own FDSN client mirroring a quakemap server.

1. `obspy.clients.fdsn.Client(base_url=…)` reads the service's WADL, catalogs and
   contributors; `get_events` with each parameter of FDSN 1.2 gives the events the items
   (OGC API – Features, with a CQL2 filter) give for the same question, with every field
   ObsPy reads; `filename=` writes each format; `count` counts; bad parameters and an
   answer past the cap get the specification's errors.
2. `quakemap list --fdsn URL --fdsn-format xml` and `quakemap ingest --sync` from the server
   give back exactly the events the server reads (every field of the 22 USGS columns).

The feed: the bundled sample day as FDSN text, with a Catalog column added to some events
(the USGS CSV has none), so that `catalog` has something to find.
"""
import csv
import io
import json
import math
import pathlib
import urllib.parse

import pytest

obspy = pytest.importorskip("obspy", reason="ObsPy is installed by `make test` (Tests/Interop/requirements.txt)")
requests = pytest.importorskip("requests", reason="requests is installed by `make test`")
from obspy import UTCDateTime, read_events  # noqa: E402
from obspy.clients.fdsn import Client  # noqa: E402
from obspy.clients.fdsn.header import FDSNBadRequestException, FDSNNoDataException, FDSNRequestTooLargeException  # noqa: E402
from obspy.geodetics import locations2degrees  # noqa: E402

from conftest import SAMPLE, Server, quakemap  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def feed(tmp_path_factory):
    """The sample as a USGS CSV with a catalog for every third event (FDSN text keeps only its columns)."""
    folder = tmp_path_factory.mktemp("fdsn")
    listed = quakemap("list", SAMPLE, "--limit", "0", "--format", "csv", "--columns", "usgs,catalog")
    rows = list(csv.DictReader(io.StringIO(listed)))
    for index, row in enumerate(rows):
        row["catalog"] = ["NEIC PDE", "", "ISC"][index % 3]
    path = folder / "feed.csv"
    with path.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.fixture(scope="module")
def server(feed):
    running = Server(feed)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def capped(feed):
    """The same feed, at most 150 events an answer."""
    running = Server(feed, "--fdsn-max-events", "150")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(server):
    return Client(base_url=server.url, timeout=60)


@pytest.fixture(scope="module")
def items(server):
    """Every event the items give, by id."""
    page = requests.get(f"{server.url}/collections/quakes/items", params={"limit": 10000}, timeout=60).json()
    return {feature["id"]: feature for feature in page["features"]}


def item_ids(server, cql):
    page = requests.get(f"{server.url}/collections/quakes/items", params={"limit": 10000, "filter": cql}, timeout=60).json()
    return [feature["id"] for feature in page["features"]]


def event_id(event):
    return urllib.parse.parse_qs(urllib.parse.urlparse(str(event.resource_id)).query)["eventid"][0]


def obspy_ids(client, **parameters):
    try:
        return [event_id(event) for event in client.get_events(**parameters)]
    except FDSNNoDataException:
        return []


def test_obspy_discovers_the_service(client):
    assert "event" in client.services
    parameters = client.services["event"]
    for name in ["starttime", "endtime", "minlatitude", "maxradius", "magnitudetype", "eventtype", "catalog",
                 "contributor", "updatedafter", "orderby", "limit", "offset", "eventid", "includearrivals"]:
        assert name in parameters, name
    assert client.services["available_event_catalogs"] == {"NEIC PDE", "ISC"}
    assert "ci" in client.services["available_event_contributors"]


# Each FDSN question and the CQL2 filter of the items that asks the same.
QUESTIONS = [
    ({"starttime": UTCDateTime("2026-11-21T12:00:00"), "endtime": UTCDateTime("2026-11-21T18:00:00.5")},
     "time >= TIMESTAMP('2026-11-21T12:00:00Z') AND time <= TIMESTAMP('2026-11-21T18:00:00.500Z')"),
    ({"minlatitude": 32, "maxlatitude": 42, "minlongitude": -125, "maxlongitude": -114},
     "S_INTERSECTS(geometry, BBOX(-125, 32, -114, 42))"),
    ({"minlongitude": 170, "maxlongitude": 200}, "S_INTERSECTS(geometry, BBOX(170, -90, -160, 90))"),
    ({"mindepth": 10, "maxdepth": 40}, "depth >= 10 AND depth <= 40"),
    ({"minmagnitude": 2.5, "maxmagnitude": 4.4}, "mag >= 2.5 AND mag <= 4.4"),
    ({"magnitudetype": "md"}, "magType = 'md'"),
    ({"eventtype": "earthquake"}, "type = 'earthquake'"),
    ({"eventtype": "quarry*,explosion"}, "type IN ('quarry blast', 'explosion')"),
    ({"catalog": "ISC"}, "catalog = 'ISC'"),
    ({"contributor": "nc"}, "net = 'nc'"),
    ({"updatedafter": UTCDateTime("2026-11-21T20:00:00")}, "updated >= TIMESTAMP('2026-11-21T20:00:00Z')"),
    ({"minmagnitude": 1, "includeallorigins": True, "includeallmagnitudes": True, "includearrivals": True}, "mag >= 1"),
]


@pytest.mark.parametrize("parameters, cql", QUESTIONS, ids=[",".join(q[0]) for q in QUESTIONS])
def test_each_parameter_gives_the_items_answer(server, client, parameters, cql):
    expected = item_ids(server, cql)
    assert expected, f"the sample should have events for {cql}"
    assert obspy_ids(client, **parameters) == expected


def test_the_circle_is_measured_on_the_sphere(client, items):
    found = obspy_ids(client, latitude=37, longitude=-119, minradius=1, maxradius=4)
    expected = [i for i, f in items.items()
                if 1 <= locations2degrees(37, -119, *reversed(f["geometry"]["coordinates"])) <= 4]
    assert found == expected and len(found) > 10


def test_every_order_and_page(client, items):
    everything = list(items.values())

    def key(order):
        time = lambda f: f["properties"]["time"]  # noqa: E731 (ISO 8601 UTC sorts as text)
        mag = lambda f: f["properties"]["mag"]  # noqa: E731
        return {"time": (lambda f: time(f), True), "time-asc": (lambda f: time(f), False),
                "magnitude": (lambda f: (mag(f), time(f)), True),
                "magnitude-asc": (lambda f: (mag(f), [-ord(c) for c in time(f)]), False)}[order]

    for order in ["time", "time-asc", "magnitude", "magnitude-asc"]:
        function, descending = key(order)
        ordered = [f["id"] for f in sorted(everything, key=function, reverse=descending)]
        assert obspy_ids(client, orderby=order, limit=7, offset=5) == ordered[4:11], order


def test_obspy_reads_every_field_it_knows(client, items):
    catalog = client.get_events(contributor="ci", limit=40)
    assert len(catalog) == 40
    for event in catalog:
        feature = items[event_id(event)]
        p = feature["properties"]
        origin, magnitude = event.preferred_origin(), event.preferred_magnitude()
        assert origin.time == UTCDateTime(p["time"])
        assert (origin.longitude, origin.latitude) == tuple(feature["geometry"]["coordinates"][:2])
        assert math.isclose(origin.depth, p["depth"] * 1000, abs_tol=1e-6)
        assert magnitude.mag == p["mag"] and magnitude.magnitude_type == p["magType"]
        assert event.event_descriptions[0].text == p["place"]
        assert event.creation_info.creation_time == UTCDateTime(p["updated"])
        assert event.creation_info.agency_id == p["net"]
        for name, value in [("nst", origin.quality.used_station_count), ("gap", origin.quality.azimuthal_gap),
                            ("rms", origin.quality.standard_error), ("dmin", origin.quality.minimum_distance),
                            ("magNst", magnitude.station_count)]:
            assert value == p.get(name), name
        if "horizontalError" in p:
            assert math.isclose(origin.origin_uncertainty.horizontal_uncertainty, p["horizontalError"] * 1000)
        if "magError" in p:
            assert magnitude.mag_errors.uncertainty == p["magError"]
        assert origin.evaluation_mode == ("automatic" if p["status"] == "automatic" else "manual")


def test_one_event_by_id(server, client, items):
    some = list(items)[17]
    assert obspy_ids(client, eventid=some) == [some]
    reply = requests.get(f"{server.url}/fdsnws/event/1/query", params={"eventid": "nosuchid", "nodata": 404}, timeout=30)
    assert reply.status_code == 404


def test_each_format_to_a_file(client, items, tmp_path):
    expected = [i for i, f in items.items() if f["properties"]["mag"] >= 2]
    for format in ["xml", "text", "geojson"]:
        path = tmp_path / f"events.{format}"
        client.get_events(minmagnitude=2, format=format, filename=str(path))
        if format == "xml":
            assert [event_id(e) for e in read_events(str(path))] == expected
        elif format == "text":
            lines = path.read_text().splitlines()
            assert lines[0].startswith("#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|")
            assert [line.split("|")[0] for line in lines[1:]] == expected
            assert len(read_events(str(path))) == len(expected)  # ObsPy's FDSN text reader
        else:
            assert [f["id"] for f in json.loads(path.read_text())["features"]] == expected


def test_count_and_errors(server, capped, client, items):
    base = f"{server.url}/fdsnws/event/1"
    assert requests.get(f"{base}/count", params={"minmag": 2}, timeout=30).text.strip() == \
        str(sum(1 for f in items.values() if f["properties"]["mag"] >= 2))
    assert requests.get(f"{base}/version", timeout=30).text.strip() == "1.2.0"
    with pytest.raises(FDSNBadRequestException):
        client.get_events(minmagnitude=2, orderby="depth")
    reply = requests.get(f"{base}/query", params={"minlat": "north"}, timeout=30)
    assert reply.status_code == 400 and reply.headers["content-type"].startswith("text/plain")
    assert reply.text.startswith("Error 400: Bad Request\n\n") and "minlatitude" in reply.text
    for section in ["Usage details are available from", "Request:", "Request Submitted:", "Service version:"]:
        assert section in reply.text
    assert requests.get(f"{base}/query", params={"nonsense": 1}, timeout=30).status_code == 400
    assert requests.get(f"{base}/query", params={"minmag": 9}, timeout=30).status_code == 204
    # More than the server's cap (150 here): refused, never cut short; a limit within it is answered.
    small = Client(base_url=capped.url, timeout=60)
    with pytest.raises(FDSNRequestTooLargeException):
        small.get_events()
    assert len(obspy_ids(small, limit=150)) == 150
    assert len(obspy_ids(small, minmagnitude=2.5)) == sum(1 for f in items.values() if f["properties"]["mag"] >= 2.5)


def test_quakemap_mirrors_a_quakemap_server(capped, feed, tmp_path):
    fdsn = f"{capped.url}/fdsnws/event/1/"
    window = ["--since", "2026-11-20", "--until", "2026-11-22"]
    # The service holds at most 150 an answer: the client splits the window as it does for any service.
    mirrored = quakemap("list", "--fdsn", fdsn, "--fdsn-format", "xml", *window, "--limit", "0", "--format", "csv")
    # Every field of the 22 USGS columns, of every event served (those with a magnitude).
    source = quakemap("list", feed, "--limit", "0", "--format", "csv", "--min-mag=-10")
    assert len(source.splitlines()) > 400
    assert sorted(mirrored.splitlines()) == sorted(source.splitlines())
    catalogue = tmp_path / "mirror.sqlite"
    quakemap("ingest", "--fdsn", fdsn, *window, "--sync", "--catalogue", catalogue)
    copied = quakemap("list", "--catalogue", catalogue, "--limit", "0", "--format", "csv")
    assert sorted(copied.splitlines()) == sorted(source.splitlines())
