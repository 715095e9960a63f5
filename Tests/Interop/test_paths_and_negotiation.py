"""What `/` answers to browsers and to JSON clients, and that no request
path reaches the file system: the web map's files come from a fixed list."""
import http.client
import json

import pytest

from conftest import ROOT

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


def get(server, target, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    # skip_host and the raw target: sent exactly as written, '..' and escapes untouched.
    connection.putrequest("GET", target, skip_accept_encoding=True)
    for name, value in {"Host": f"127.0.0.1:{server.port}", **(headers or {})}.items():
        connection.putheader(name, value)
    connection.endheaders()
    reply = connection.getresponse()
    body = reply.read()
    connection.close()
    return reply.status, {k.lower(): v for k, v in reply.getheaders()}, body


@pytest.mark.parametrize("accept, html", [
    (BROWSER_ACCEPT, True),
    ("text/html", True),
    ("*/*", False),
    (None, False),
    ("application/json", False),
    ("application/json, text/html;q=0.9", False),
    ("text/html;q=0.5, application/json", False),
    ("text/*, application/json;q=0.5", True),
])
def test_landing_negotiates_on_accept(sample_server, accept, html):
    status, headers, body = get(sample_server, "/", {"Accept": accept} if accept else {})
    assert status == 200
    assert "accept" in headers["vary"].lower()
    if html:
        assert headers["content-type"].startswith("text/html")
        assert b'src="web/maplibre/maplibre-gl.js"' in body and b'src="web/quakemap.js"' in body
    else:
        assert headers["content-type"].startswith("application/json")
        assert any(link["rel"] == "service-desc" for link in json.loads(body)["links"])


def test_f_overrides_accept(sample_server):
    status, headers, _ = get(sample_server, "/?f=html", {"Accept": "application/json"})
    assert status == 200 and headers["content-type"].startswith("text/html")
    status, headers, _ = get(sample_server, "/?f=json", {"Accept": BROWSER_ACCEPT})
    assert status == 200 and headers["content-type"].startswith("application/json")
    status, _, body = get(sample_server, "/?f=xml")
    assert status == 400 and json.loads(body)["parameter"] == "f"


def test_the_page_links_to_the_api(sample_server):
    _, headers, body = get(sample_server, "/?f=html")
    for link in [b'href="./?f=json"', b'href="api"', b'href="collections/quakes"']:
        assert link in body
    assert "default-src 'self'" in headers["content-security-policy"]


@pytest.mark.parametrize("path, kind", [
    ("/web/quakemap.js", "text/javascript"), ("/web/quakemap.css", "text/css"), ("/web/pmtiles.js", "text/javascript"),
    ("/web/maplibre/maplibre-gl.js", "text/javascript"), ("/web/maplibre/maplibre-gl.css", "text/css"),
    ("/web/maplibre/LICENSE.txt", "text/plain"),
    ("/web/config.json", "application/json"), ("/tiles/land/0/0/0.png", "image/png"),
])
def test_listed_files_are_served_with_tags(sample_server, path, kind):
    status, headers, body = get(sample_server, path)
    assert status == 200 and headers["content-type"].startswith(kind) and body
    if "etag" in headers:
        again, _, _ = get(sample_server, path, {"If-None-Match": headers["etag"]})
        assert again == 304


def test_maplibre_is_the_committed_file(sample_server):
    # The file scripts/fetch_maplibre.sh checked against its sha256, served byte for byte.
    committed = (ROOT / "Sources" / "QuakeServer" / "Web" / "maplibre" / "maplibre-gl.js").read_bytes()
    _, _, body = get(sample_server, "/web/maplibre/maplibre-gl.js")
    assert body == committed


TRAVERSALS = [
    "/etc/passwd", "//etc/passwd", "/web//etc/passwd", "/web/../../../../etc/passwd",
    "/web/maplibre/../../../../../etc/passwd", "/web/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/web/maplibre/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/web/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/web/maplibre/..%5c..%5c..%5cetc%5cpasswd", "/web/%2fetc%2fpasswd", "/web/maplibre/%2fetc%2fpasswd",
    "/web/maplibre/maplibre-gl.js/..%2f..%2f..%2f..%2fetc%2fpasswd", "/web/maplibre/maplibre-gl.min.js",
    "/web/maplibre/maplibre-gl.js.map", "/web/maplibre/", "/web/", "/web/Web/index.html", "/web/index.html",
    "/web/maplibre/../../../../../../etc/passwd",
    "/tiles/land/..%2f..%2f..%2fetc/0/0.png", "/tiles/land/0/0/..%2f..%2fetc%2fpasswd",
    "/tiles/0/0/..%2f..%2f..%2fetc%2fpasswd", "/tiles/%2e%2e/%2e%2e/passwd.png",
    "/collections/quakes/items/..%2f..%2f..%2f..%2fetc%2fpasswd", "/collections/..%2f..%2fetc%2fpasswd/items",
    "/collections/quakes/items/%2Fetc%2Fpasswd", "/api/../../etc/passwd", "/map.png/../../etc/passwd",
    "/healthz/..%2f..%2fetc%2fpasswd", "/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/web/index.html%00.png",
    "/conformance/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_no_path_reaches_the_file_system(sample_server, target):
    status, _, body = get(sample_server, target)
    assert status in (400, 404), (status, body[:200])
    assert b"root:" not in body
    assert b"maplibregl" not in body  # no file off the list, not even one next to a listed one
