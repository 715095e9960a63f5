"""Query strings as real clients send them: curl --data-urlencode, Python
requests with params=, and OWSLib all encode a space as '+', and a '+' of
the text (an RFC 3339 offset) as %2B. Each answer is held to what the
server's whole collection, filtered here in Python, says it must be."""
import datetime
import http.client
import json
import subprocess

import pytest
import requests
from owslib.ogcapi.features import Features

FILTER = "mag >= 2.5 AND depth < 70"


def everything(server):
    """Every feature of the collection, in the server's order (newest first), page by page."""
    features, url = [], f"{server.url}/collections/quakes/items?limit=10000"
    while url:
        reply = requests.get(url, timeout=60)
        reply.raise_for_status()
        collection = reply.json()
        features += collection["features"]
        url = next((link["href"] for link in collection["links"] if link["rel"] == "next"), None)
    assert len(features) == collection["numberMatched"]
    return features


def ids(features):
    return [feature["id"] for feature in features]


def expected(server, keep):
    return ids([feature for feature in everything(server) if keep(feature)])


def shallow_and_large(feature):
    properties = feature["properties"]
    depth = properties.get("depth")
    return properties["mag"] is not None and properties["mag"] >= 2.5 and depth is not None and depth < 70


def in_box(west, south, east, north):
    def keep(feature):
        longitude, latitude = feature["geometry"]["coordinates"][:2]
        return west <= longitude <= east and south <= latitude <= north
    return keep


def test_requests_params_encode_spaces_as_plus(sample_server):
    prepared = requests.Request("GET", f"{sample_server.url}/collections/quakes/items",
                                params={"filter": FILTER, "filter-lang": "cql2-text", "limit": 10000}).prepare()
    assert "filter=mag+%3E%3D+2.5+AND+depth+%3C+70" in prepared.url, prepared.url
    reply = requests.Session().send(prepared, timeout=30)
    assert reply.status_code == 200, reply.text
    got = ids(reply.json()["features"])
    assert got, "the filter should keep some of the sample's events"
    assert got == expected(sample_server, shallow_and_large)


def test_requests_plus_in_a_time_offset_is_kept(sample_server):
    features = everything(sample_server)
    times = sorted(feature["properties"]["time"] for feature in features)
    middle = datetime.datetime.fromisoformat(times[len(times) // 2].replace("Z", "+00:00"))
    # The same instant written with a +02:00 offset: requests sends the '+' as %2B.
    shifted = middle.astimezone(datetime.timezone(datetime.timedelta(hours=2))).isoformat(timespec="milliseconds")
    assert "+02:00" in shifted
    reply = requests.get(f"{sample_server.url}/collections/quakes/items",
                         params={"datetime": f"{shifted}/..", "limit": 10000}, timeout=30)
    assert reply.status_code == 200, reply.text
    later = [f["id"] for f in features
             if datetime.datetime.fromisoformat(f["properties"]["time"].replace("Z", "+00:00")) >= middle]
    assert ids(reply.json()["features"]) == later


def test_curl_data_urlencode(sample_server):
    result = subprocess.run(
        ["curl", "-sS", "--fail-with-body", "--get", "--data-urlencode", f"filter={FILTER}",
         "--data-urlencode", "limit=10000", "--data-urlencode", "bbox=-180,-90,0,90",
         f"{sample_server.url}/collections/quakes/items"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    got = ids(json.loads(result.stdout)["features"])
    west = in_box(-180, -90, 0, 90)
    assert got == expected(sample_server, lambda feature: shallow_and_large(feature) and west(feature))
    assert got


def test_curl_like_with_percent_and_spaces(sample_server):
    # A LIKE pattern: its % is sent as %25, its spaces as '+' by an HTML form.
    result = subprocess.run(
        ["curl", "-sS", "--fail-with-body", "--get", "--data-urlencode", "filter=place LIKE '%of %'",
         "--data-urlencode", "limit=10000", f"{sample_server.url}/collections/quakes/items"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    got = ids(json.loads(result.stdout)["features"])
    assert got == expected(sample_server, lambda feature: "of " in (feature["properties"]["place"] or ""))
    assert got


def test_owslib_features(sample_server):
    service = Features(sample_server.url + "/")
    collections = service.collections()
    assert [collection["id"] for collection in collections["collections"]] == ["quakes"]
    assert service.collection("quakes")["id"] == "quakes"
    everything_ = service.collection_items("quakes", limit=10000)
    assert everything_["numberMatched"] == len(everything(sample_server))
    box = [-180, -60, -60, 60]
    page = service.collection_items("quakes", bbox=box, limit=10000, filter=FILTER, **{"filter-lang": "cql2-text"})
    keep = in_box(*box)
    assert ids(page["features"]) == expected(sample_server, lambda feature: shallow_and_large(feature) and keep(feature))
    assert page["features"]
    small = service.collection_items("quakes", bbox=box, limit=5, filter=FILTER, **{"filter-lang": "cql2-text"})
    assert ids(small["features"]) == ids(page["features"])[:5]
    assert any(link["rel"] == "next" for link in small["links"])


def raw_get(server, target, headers=None):
    """A request sent byte for byte as written (no client re-encoding)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", target, headers=headers or {})
    reply = connection.getresponse()
    body = reply.read()
    connection.close()
    return reply.status, dict(reply.getheaders()), body


@pytest.mark.parametrize("target, parameter", [
    ("/collections/quakes/items?filter=mag%zz3", "filter"),
    ("/collections/quakes/items?filter=mag%3", "filter"),
    ("/collections/quakes/items?limit=5&bbox=%FF,0,1,1", "bbox"),
    ("/tiles/0/0/0.png?filter=%", "filter"),
    ("/map.png?datetime=2020%2", "datetime"),
])
def test_bad_escapes_are_400_naming_the_parameter(sample_server, target, parameter):
    status, headers, body = raw_get(sample_server, target)
    assert status == 400, body
    problem = json.loads(body)
    assert problem["parameter"] == parameter
    assert parameter in problem["detail"]


def test_plus_and_percent_2b_are_told_apart(sample_server):
    # '+' is a space, so '2.5+AND' is two words; %2B is a plus sign, so '+2.5' is a signed number.
    spaced = raw_get(sample_server, "/collections/quakes/items?limit=10000&filter=mag+%3E%3D+2.5+AND+depth+%3C+70")
    signed = raw_get(sample_server, "/collections/quakes/items?limit=10000&filter=mag%3E%3D%2B2.5%20AND%20depth%3C70")
    assert spaced[0] == 200 and signed[0] == 200, (spaced[2], signed[2])
    assert ids(json.loads(spaced[2])["features"]) == ids(json.loads(signed[2])["features"])
    assert ids(json.loads(spaced[2])["features"]) == expected(sample_server, shallow_and_large)


def test_utf8_escapes(sample_server):
    status, _, body = raw_get(sample_server, "/collections/quakes/items?filter=place%20%3D%20%27S%C3%A3o%20Paulo%27")
    assert status == 200, body
    assert json.loads(body)["numberMatched"] == 0


def test_cors_on_answers_and_errors(sample_server):
    origin = {"Origin": "https://example.org"}
    for target in ["/collections/quakes/items?limit=1", "/tiles/0/0/0.png", "/conformance", "/healthz"]:
        status, headers, _ = raw_get(sample_server, target, origin)
        assert status == 200
        assert headers.get("Access-Control-Allow-Origin") == "*", target
    status, headers, _ = raw_get(sample_server, "/collections/quakes/items?limit=0", origin)
    assert status == 400 and headers.get("Access-Control-Allow-Origin") == "*"


def test_cors_preflight(sample_server):
    connection = http.client.HTTPConnection("127.0.0.1", sample_server.port, timeout=10)
    connection.request("OPTIONS", "/collections/quakes/items?limit=1", headers={
        "Origin": "https://example.org", "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match"})
    reply = connection.getresponse()
    reply.read()
    assert reply.status == 204
    assert reply.getheader("Access-Control-Allow-Origin") == "*"
    assert "GET" in reply.getheader("Access-Control-Allow-Methods")
    assert "if-none-match" in reply.getheader("Access-Control-Allow-Headers").lower()
    assert int(reply.getheader("Access-Control-Max-Age")) > 0
    connection.close()


def test_month_bbox_and_filter_with_requests(month_server):
    box = (-125, 32, -114, 42)
    reply = requests.get(f"{month_server.url}/collections/quakes/items", timeout=60,
                         params={"bbox": ",".join(map(str, box)), "filter": "mag >= 2 AND type = 'earthquake'",
                                 "limit": 10000})
    assert reply.status_code == 200, reply.text
    keep = in_box(*box)
    want = expected(month_server, lambda f: keep(f) and f["properties"]["mag"] is not None
                    and f["properties"]["mag"] >= 2 and f["properties"]["type"] == "earthquake")
    assert ids(reply.json()["features"]) == want
    assert len(want) > 50
