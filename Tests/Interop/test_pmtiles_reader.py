"""The web page's PMTiles reader (Sources/QuakeServer/Web/pmtiles.js) in headless Chromium, against
the PyPI `pmtiles` package: from a static host, it must return the same (decompressed) bytes as the
Python reader for every tile the Python reader lists, nothing for tiles the archive does not hold,
and a TileJSON that agrees with the header. The archive is big enough to need leaf directories.
A host that honours Range is read a few hundred tiles at a time (one request each); every tile is
read from a host that ignores Range, where the reader downloads the archive once and slices it.
"""
import collections
import gzip
import hashlib
import http.server
import pathlib
import re
import shutil
import threading

import pytest
from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import zxy_to_tileid

from conftest import ROOT, SAMPLE, headless_chromium, quakemap

READER = ROOT / "Sources" / "QuakeServer" / "Web" / "pmtiles.js"
ZOOMS = "0-22"  # the sample day's 417 events at z0–z22: ~7000 tiles, more than the root holds
CHECKED = 400   # tiles read with range requests: spread over the whole archive, so every leaf is read

PAGE = """<!doctype html><meta charset="utf-8"><title>pmtiles.js</title>
<script src="pmtiles.js"></script>
<script>
async function digest(bytes) {
  if (bytes === null) return null;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}
</script>
"""


class RangeFiles(http.server.SimpleHTTPRequestHandler):
    """A static host that honours one `Range: bytes=a-b`, as object stores and CDNs do; under
    /plain/ it ignores Range and sends the whole file, as some simple hosts do. `answered` counts
    the answers by path and kind ("range" or "whole")."""

    answered = collections.Counter()

    def do_GET(self):
        plain = self.path.startswith("/plain/")
        path = pathlib.Path(self.translate_path(self.path.removeprefix("/plain")))
        wanted = re.fullmatch(r"bytes=(\d+)-(\d+)", self.headers.get("Range", ""))
        if plain or not wanted or not path.is_file():
            RangeFiles.answered[self.path, "whole"] += 1
            self.path = self.path.removeprefix("/plain")
            return super().do_GET()
        RangeFiles.answered[self.path, "range"] += 1
        size = path.stat().st_size
        start, end = int(wanted[1]), min(int(wanted[2]), size - 1)
        with open(path, "rb") as handle:
            handle.seek(start)
            body = handle.read(end - start + 1)
        self.send_response(206)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A folder with the reader, a page, the sample day as a PMTiles archive and a file that is not
    one, served on a free port; its root URL."""
    folder = tmp_path_factory.mktemp("pmtiles-site")
    quakemap("tiles", SAMPLE, "--encoding", "mvt", "--zoom", ZOOMS, "-o", folder / "quakes.pmtiles")
    shutil.copy(READER, folder / "pmtiles.js")
    (folder / "index.html").write_text(PAGE)
    (folder / "not.pmtiles").write_bytes(b"MBTiles?" + bytes(200))
    handler = lambda *arguments: RangeFiles(*arguments, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield {"folder": folder, "url": f"http://127.0.0.1:{server.server_port}"}
    server.shutdown()


@pytest.fixture(scope="module")
def archive(site):
    """What the Python reader finds in the archive: its header and every tile's SHA-256, gunzipped."""
    with open(site["folder"] / "quakes.pmtiles", "rb") as handle:
        reader = Reader(MmapSource(handle))
        header = reader.header()
        tiles = {zxy: hashlib.sha256(gzip.decompress(data)).hexdigest() for zxy, data in all_tiles(reader.get_bytes)}
    return header, tiles


@pytest.fixture(scope="module")
def page(site):
    browser = headless_chromium()
    browser.set_script_timeout(30)
    browser.get(f"{site['url']}/index.html")
    yield browser
    browser.quit()


def run(page, body, *arguments):
    """Runs an async function body in the page; its result, or the test fails with its error."""
    result = page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"(async (...args) => {{ {body} }})(...Array.from(arguments).slice(0, -1))"
        ".then((value) => done({ value }), (error) => done({ error: String(error) }));", *arguments)
    assert "error" not in result, result["error"]
    return result["value"]


def sample(tiles):
    """CHECKED tiles spread evenly along the archive's order, and the last."""
    ordered = sorted(tiles, key=lambda zxy: zxy_to_tileid(*zxy))
    step = max(1, len(ordered) // CHECKED)
    return ordered[::step] + ordered[-1:]


def absent(tiles, maximum):
    """Tiles the archive does not hold: in the corners at the top zoom, and past it."""
    side = 2 ** maximum
    candidates = [(maximum, 0, 0), (maximum, side - 1, side - 1), (maximum, 0, side - 1), (maximum, side - 1, 0),
                  (maximum + 1, 0, 0), (maximum + 3, 5, 7)]
    return [zxy for zxy in candidates if zxy not in tiles]


def test_the_archive_needs_leaf_directories(archive):
    header, tiles = archive
    assert header["leaf_directory_length"] > 0, f"{len(tiles)} tiles fit the root: the test needs leaves"


def test_tiles_by_range_requests_match_the_python_reader(page, archive):
    header, tiles = archive
    checked, missing = sample(tiles), absent(tiles, header["max_zoom"])
    assert len(missing) >= 4
    found = run(page, """
        const [checked, missing] = args;
        const source = QuakePMTiles.archive("quakes.pmtiles");
        const digests = await Promise.all(checked.map(([z, x, y]) => source.tile(z, x, y).then(digest)));
        const absent = await Promise.all(missing.map(([z, x, y]) => source.tile(z, x, y)));
        const viaProtocol = await Promise.all([...checked.slice(0, 20), ...missing].map(([z, x, y]) =>
            QuakePMTiles.protocol({ url: `pmtiles://quakes.pmtiles/${z}/${x}/${y}` }, new AbortController())
                .then((r) => digest(r.data))));
        return { digests, absent, viaProtocol };
    """, checked, missing)
    wrong = [(zxy, got) for zxy, got in zip(checked, found["digests"]) if got != tiles[zxy]]
    assert not wrong, f"{len(wrong)} of {len(checked)} tiles differ, first {wrong[:3]}"
    # One request for the header and root, one per leaf and per distinct tile; never the whole file.
    assert RangeFiles.answered["/quakes.pmtiles", "whole"] == 0
    assert RangeFiles.answered["/quakes.pmtiles", "range"] > len(checked) // 2
    assert found["absent"] == [None] * len(missing)
    # By the protocol, absent tiles are empty (MapLibre draws nothing), present ones the same bytes.
    empty = hashlib.sha256(b"").hexdigest()
    assert found["viaProtocol"] == [tiles[zxy] for zxy in checked[:20]] + [empty] * len(missing)


def test_every_tile_from_a_host_without_range(page, site, archive):
    _, tiles = archive
    every = sorted(tiles)
    found = run(page, """
        const [every, plain] = args;
        const source = QuakePMTiles.archive(plain);
        return Promise.all(every.map(([z, x, y]) => source.tile(z, x, y).then(digest)));
    """, every, f"{site['url']}/plain/quakes.pmtiles")
    wrong = [(zxy, got) for zxy, got in zip(every, found) if got != tiles[zxy]]
    assert not wrong, f"{len(wrong)} of {len(every)} tiles differ, first {wrong[:3]}"
    assert RangeFiles.answered["/plain/quakes.pmtiles", "whole"] == 1, "the archive is downloaded once"


def test_tilejson_agrees_with_the_header(page, site, archive):
    header, _ = archive
    for written in ["quakes.pmtiles", f"{site['url']}/quakes.pmtiles"]:
        tilejson = run(page, "return (await QuakePMTiles.protocol({ url: args[0] }, new AbortController())).data;",
                       f"pmtiles://{written}")
        assert (tilejson["minzoom"], tilejson["maxzoom"]) == (header["min_zoom"], header["max_zoom"])
        assert tilejson["tiles"] == [f"pmtiles://{written}/{{z}}/{{x}}/{{y}}"]
        expected = [header["min_lon_e7"], header["min_lat_e7"], header["max_lon_e7"], header["max_lat_e7"]]
        assert [round(value * 1e7) for value in tilejson["bounds"]] == expected
        assert tilejson["vector_layers"][0]["id"] == "quakes"


def test_tile_ids_agree_at_every_zoom(page):
    tiles = [(z, (2 ** z - 1) * k // 7, (2 ** z - 1) * (7 - k) // 7) for z in range(0, 27) for k in range(8)]
    ids = run(page, "return args[0].map(([z, x, y]) => QuakePMTiles.tileID(z, x, y));", tiles)
    assert ids == [zxy_to_tileid(*zxy) for zxy in tiles]


def test_errors_say_what_failed(page, site):
    errors = run(page, """
        const failure = (promise) => promise.then(() => "no error", (error) => String(error.message));
        return [await failure(QuakePMTiles.archive("not.pmtiles").header()),
                await failure(QuakePMTiles.archive("absent.pmtiles").tile(0, 0, 0))];
    """)
    assert errors[0] == f"{site['url']}/not.pmtiles: not a PMTiles v3 archive"
    assert errors[1].startswith(f"{site['url']}/absent.pmtiles: HTTP 404")
