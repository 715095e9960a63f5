"""The web map in a real browser: Debian's Chromium, headless, its WebGL drawn by SwiftShader,
driven by Selenium through Debian's chromedriver (nothing is downloaded). The page must draw
land, plate boundaries and the events from vector tiles, cluster what a tile holds too many of,
zoom into a cluster and show an event's fields on a click, follow a filter and the link, hear of
an ingest by push (no polling), and show the same events from a static PMTiles site under nginx."""
import io
import math
import re
import subprocess
import time
import urllib.parse
import datetime

import pytest
import requests
from PIL import Image
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BIN, ROOT, SAMPLE, Nginx, headless_chromium, quakemap

LAND = (0x4B, 0x55, 0x63)
SEA = (0x1E, 0x2A, 0x38)
STATIC_CONFIGURATION = ROOT / "docs" / "deploy" / "nginx-static.conf"


@pytest.fixture(scope="module")
def browser():
    browser = headless_chromium("--window-size=1200,800", "--lang=en-GB", webgl=True)
    yield browser
    browser.quit()


def open_page(browser, url, fragment=""):
    browser.get("about:blank")
    browser.get(f"{url}/{fragment}")
    wait(browser, "document.body.dataset.ready === 'true'")
    settle(browser)


def wait(browser, condition, seconds=20):
    try:
        WebDriverWait(browser, seconds, poll_frequency=0.05).until(lambda b: b.execute_script(f"return {condition};"))
    except TimeoutException:
        logs = "\n".join(str(entry) for entry in browser.get_log("browser"))
        pytest.fail(f"timed out waiting for {condition}\nbrowser log:\n{logs}")


def settle(browser):
    """Every tile loaded and drawn: MapLibre is idle."""
    wait(browser, "window.quakemap.map.loaded() && window.quakemap.map.areTilesLoaded()")
    browser.execute_async_script("const done = arguments[0]; const map = window.quakemap.map;"
                                 "map.once('idle', () => done()); map.triggerRepaint();")


def screenshot(browser):
    return Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")


def near(pixel, colour, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def warm(pixel):
    """An event's fill: yellow to red at 0.6 over land or sea."""
    return pixel[0] > 150 and pixel[0] - pixel[2] > 80


def census(image):
    """Pixels of land, of sea, and of event circles."""
    land = sea = events = 0
    data = image.tobytes()
    for offset in range(0, len(data), 3):
        pixel = data[offset:offset + 3]
        if near(pixel, LAND):
            land += 1
        elif near(pixel, SEA):
            sea += 1
        elif warm(pixel):
            events += 1
    return land, sea, events


def matched(server, **parameters):
    reply = requests.get(f"{server.url}/collections/quakes/items", params={"limit": 1, **parameters}, timeout=30)
    reply.raise_for_status()
    counted = requests.get(f"{server.url}/count", params=parameters, timeout=30).json()["numberMatched"]
    assert counted == reply.json()["numberMatched"]
    return counted


def count_shown(browser):
    return int(browser.find_element(By.ID, "count").get_attribute("data-matched"))


def pixel_of(browser, lon, lat):
    """Where a place is on the page, in CSS pixels from the map's top left."""
    return browser.execute_script("const p = window.quakemap.map.project([arguments[0], arguments[1]]); return [p.x, p.y];", lon, lat)


def click_at(browser, x, y):
    canvas = browser.find_element(By.CSS_SELECTOR, "#map canvas")
    size = canvas.size
    ActionChains(browser).move_to_element_with_offset(canvas, int(x - size["width"] / 2), int(y - size["height"] / 2)).click().perform()


def rendered_ids(browser):
    return set(browser.execute_script(
        "return window.quakemap.map.queryRenderedFeatures({layers: ['events']}).map(f => f.properties.id);"))


def test_land_plates_and_events_appear(sample_server, browser):
    open_page(browser, sample_server.url)
    image = screenshot(browser)
    image.save(ROOT / ".build" / "web-map-test.png")
    land, sea, events = census(image)
    total = image.width * image.height
    assert land > 0.10 * total, f"land {land / total:.1%} of the page"
    assert sea > 0.25 * total, f"sea {sea / total:.1%} of the page"
    assert events > 2000, f"{events} event pixels"
    # The plate boundaries: their colour (#d9a066) in the mid-Atlantic, where there are no events.
    x, y = pixel_of(browser, -30, 0)
    box = image.crop((int(x) - 60, int(y) - 60, int(x) + 60, int(y) + 60)).tobytes()
    plates = sum(1 for i in range(0, len(box), 3) if box[i] > 120 and 60 < box[i + 2] < 130 and box[i] - box[i + 2] > 40)
    assert plates > 20, f"{plates} plate-boundary pixels near the mid-Atlantic ridge"
    # The largest events are where they are: a warm pixel at each of their places.
    features = requests.get(f"{sample_server.url}/collections/quakes/items", params={"limit": 10000}, timeout=30).json()["features"]
    largest = sorted((f for f in features if f["properties"]["mag"] is not None), key=lambda f: -f["properties"]["mag"])[:5]
    for feature in largest:
        lon, lat = feature["geometry"]["coordinates"]
        x, y = pixel_of(browser, lon, lat)
        if 0 <= x < image.width and 0 <= y < image.height:
            assert warm(image.getpixel((int(x), int(y)))), (feature["id"], image.getpixel((int(x), int(y))))
    assert count_shown(browser) == matched(sample_server)
    assert browser.find_element(By.ID, "count").text == f"{matched(sample_server)} events"
    assert browser.find_element(By.ID, "updated").text.startswith("Live · last heard ")


def test_clusters_show_their_counts_and_a_click_zooms_in(start_server, browser):
    # A budget of 25 events a tile: California's swarm is clustered at zoom 3.
    server = start_server(SAMPLE, "--tile-limit", "25")
    open_page(browser, server.url, "#map=3/35/-120")
    clusters = browser.execute_script(
        "return window.quakemap.map.queryRenderedFeatures({layers: ['clusters']})"
        ".map(f => ({count: f.properties.point_count, zoom: f.properties.expansion_zoom, at: f.geometry.coordinates}));")
    assert len(clusters) >= 3, clusters
    image = screenshot(browser)
    # Each cluster has its white ring and its count drawn on it.
    for cluster in clusters:
        x, y = pixel_of(browser, *cluster["at"])
        if not (20 <= x < image.width - 20 and 20 <= y < image.height - 20):
            continue
        patch = image.crop((int(x) - 8, int(y) - 8, int(x) + 9, int(y) + 9)).tobytes()
        white = sum(1 for i in range(0, len(patch), 3) if min(patch[i:i + 3]) > 225)
        assert white >= 6, f"no count or ring drawn on the cluster of {cluster['count']} at {cluster['at']}"
    largest = max(clusters, key=lambda c: c["count"])
    x, y = pixel_of(browser, *largest["at"])
    click_at(browser, x, y)
    wait(browser, f"Math.abs(window.quakemap.map.getZoom() - {largest['zoom']}) < 0.01 && !window.quakemap.map.isMoving()")
    assert f"#map={largest['zoom']}/" in browser.current_url


def isolated_event(server):
    """The largest event with no other within 3°: a click on it can hit nothing else."""
    features = requests.get(f"{server.url}/collections/quakes/items", params={"limit": 10000},
                            timeout=30).json()["features"]
    points = [(f, *f["geometry"]["coordinates"]) for f in features if f["properties"]["mag"] is not None]
    for feature, lon, lat in sorted(points, key=lambda p: -p[0]["properties"]["mag"]):
        if all(other is feature or math.hypot(lon - olon, lat - olat) > 3 for other, olon, olat in points):
            return feature
    pytest.fail("no isolated event in the feed")


def test_a_click_shows_the_fields_of_the_event(sample_server, browser):
    event = isolated_event(sample_server)
    lon, lat = event["geometry"]["coordinates"]
    # The event at the centre of the map: the view comes from the link.
    open_page(browser, sample_server.url, f"#map=5/{lat:.5f}/{lon:.5f}")
    x, y = pixel_of(browser, lon, lat)
    click_at(browser, x, y)
    popup_text = "document.querySelector('.maplibregl-popup-content')?.innerText ?? ''"
    wait(browser, f"({popup_text}).length > 0")
    text = browser.execute_script(f"return {popup_text};")
    properties = event["properties"]
    assert properties["place"] in text
    assert f"M {properties['mag']:.1f} {properties['magType']}" in text
    assert event["id"] in text
    assert properties["time"][:19].replace("T", " ") + " UTC" in text
    assert f"{properties['depth']:.1f} km" in text
    assert f"Network\n{properties['net']}" in text or f"Network\t{properties['net']}" in text
    for label in ["Local time", "Status", "Updated", "Type"]:
        assert label in text


def test_a_filter_changes_what_is_shown(sample_server, browser):
    open_page(browser, sample_server.url)
    _, _, before = census(screenshot(browser))
    box = browser.find_element(By.ID, "filter")
    box.clear()
    box.send_keys("mag >= 4.5", Keys.ENTER)
    wanted = matched(sample_server, filter="mag >= 4.5")
    assert 0 < wanted < matched(sample_server)
    wait(browser, f"document.getElementById('count').dataset.matched === '{wanted}'")
    settle(browser)
    _, _, after = census(screenshot(browser))
    assert after < before, (before, after)
    assert min(feature for feature in browser.execute_script(
        "return window.quakemap.map.queryRenderedFeatures({layers: ['events']}).map(f => f.properties.mag);")) >= 4.5
    assert "filter=mag+%3E%3D+4.5" in browser.current_url
    # A filter the server refuses is shown, and what is shown stays as it was.
    box = browser.find_element(By.ID, "filter")
    box.clear()
    box.send_keys("mag >>= 3", Keys.ENTER)
    wait(browser, "!document.getElementById('problem').hidden")
    assert "filter" in browser.find_element(By.ID, "problem").text
    assert count_shown(browser) == wanted


def test_the_view_lives_in_the_link(sample_server, browser):
    fragment = "#map=4/35.0000/-118.0000&filter=" + urllib.parse.quote("mag >= 1 AND depth < 10") + "&window=week&color=depth"
    open_page(browser, sample_server.url, fragment)
    assert browser.find_element(By.ID, "filter").get_attribute("value") == "mag >= 1 AND depth < 10"
    assert browser.find_element(By.ID, "window").get_attribute("value") == "week"
    assert browser.find_element(By.ID, "color").get_attribute("value") == "depth"
    assert "#map=4/35.0000/-118.0000" in browser.current_url
    collection = requests.get(f"{sample_server.url}/collections/quakes", timeout=10).json()
    newest = datetime.datetime.fromisoformat(collection["extent"]["temporal"]["interval"][0][1].replace("Z", "+00:00"))
    start = (newest - datetime.timedelta(days=7)).isoformat(timespec="milliseconds")
    wanted = matched(sample_server, filter="mag >= 1 AND depth < 10", datetime=f"{start}/..")
    assert wanted > 0, "the week window of the sample should hold some of these events"
    assert count_shown(browser) == wanted
    # Coloured by depth: these events are all shallower than 33 km, the depth bands' red.
    image = screenshot(browser)
    shown = requests.get(f"{sample_server.url}/collections/quakes/items", timeout=10, params={
        "filter": "mag >= 1 AND depth < 10", "datetime": f"{start}/..", "limit": 1000}).json()["features"]
    reds = checked = 0
    for feature in sorted(shown, key=lambda f: -f["properties"]["mag"])[:10]:
        x, y = pixel_of(browser, *feature["geometry"]["coordinates"])
        if 0 <= x < image.width and 0 <= y < image.height:
            r, g, b = image.getpixel((int(x), int(y)))
            checked += 1
            reds += r > 140 and r - b > 60 and g < 110
    assert checked >= 3 and reds >= checked - 1, f"{reds} of {checked} events drawn in the depth bands' red"
    # The hour window of the same catalogue shows fewer.
    browser.find_element(By.CSS_SELECTOR, "#window option[value='hour']").click()
    hour = (newest - datetime.timedelta(hours=1)).isoformat(timespec="milliseconds")
    wanted = matched(sample_server, filter="mag >= 1 AND depth < 10", datetime=f"{hour}/..")
    wait(browser, f"document.getElementById('count').dataset.matched === '{wanted}'")
    assert "window=hour" in browser.current_url


def ingest(feed, catalogue):
    done = subprocess.run([str(BIN / "quakemap"), "ingest", str(feed), "--catalogue", catalogue, "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_an_ingest_reaches_the_page_by_push_within_5_s(start_server, browser, tmp_path):
    # The catalogue first holds the older half of the sample's newest 200 events; then an ingest adds the newer half.
    rows = SAMPLE.read_text().splitlines()
    older, both = tmp_path / "older.csv", tmp_path / "both.csv"
    older.write_text("\n".join([rows[0]] + rows[101:201]) + "\n")
    both.write_text("\n".join(rows[:201]) + "\n")
    catalogue = str(tmp_path / "quakes.sqlite")
    ingest(older, catalogue)
    # A slow poll of the catalogue (SQLite announces nothing): the push, not a poll by the page, must bring it.
    server = start_server("--catalogue", catalogue, "--refresh", "1s")
    open_page(browser, server.url)
    first = count_shown(browser)
    assert first == matched(server)
    arrived = [row.split(",")[11] for row in rows[1:101] if row.split(",")[4]]
    ingest(both, catalogue)
    start = time.monotonic()
    wait(browser, f"document.getElementById('updated').dataset.fresh === '{len(arrived)}'", seconds=5)
    wait(browser, f"document.getElementById('count').dataset.matched === '{first + len(arrived)}'", seconds=5 - (time.monotonic() - start))
    assert time.monotonic() - start <= 5
    assert matched(server) == first + len(arrived)
    assert f"{len(arrived)} new since you opened this page" in browser.find_element(By.ID, "updated").text
    settle(browser)
    # The new events are drawn, ringed.
    ringed = set(browser.execute_script(
        "return window.quakemap.map.queryRenderedFeatures({layers: ['fresh']}).map(f => f.properties.id);"))
    shown = rendered_ids(browser)
    assert ringed <= set(arrived)
    # Every new event well inside the page is ringed.
    width, height = browser.execute_script("const c = window.quakemap.map.getCanvas(); return [c.clientWidth, c.clientHeight];")
    inside = set()
    for row in rows[1:101]:
        cells = row.split(",")
        if cells[4]:
            x, y = pixel_of(browser, float(cells[2]), float(cells[1]))
            if 10 <= x < width - 10 and 10 <= y < height - 10:
                inside.add(cells[11])
    assert len(inside) > 50 and inside <= ringed, inside - ringed
    # (A ring reaches a few pixels further than its circle: at the page's edge it may show alone.)
    assert len(ringed & shown) >= 0.9 * len(ringed)
    # No request asked for /version: the page was told.
    log = server.log()
    assert "GET /collections/quakes/changes 200" in log
    assert not re.search(r"GET /version", log), "the page polled /version"
    stamp = browser.find_element(By.ID, "updated").get_attribute("data-stamp")
    assert re.search(r"GET /collections/quakes/tiles/WebMercatorQuad/\d+/\d+/\d+\?f=mvt&v=" + re.escape(urllib.parse.quote(stamp, safe="")), log), \
        "the tiles were not asked for again after the change"


def test_a_refreshed_feed_reaches_the_page(start_server, browser, tmp_path):
    import http.server
    import threading
    rows = SAMPLE.read_text().splitlines()
    feed = tmp_path / "feed.csv"
    feed.write_text("\n".join(rows[:101]) + "\n")

    class Feed(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

    origin = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Feed(*a, directory=str(tmp_path)))
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    try:
        server = start_server("--url", f"http://127.0.0.1:{origin.server_port}/feed.csv", "--refresh", "1s", "--no-cache")
        open_page(browser, server.url)
        first = matched(server)
        assert count_shown(browser) == first
        feed.write_text("\n".join(rows[:201]) + "\n")
        deadline = time.monotonic() + 20
        while matched(server) == first and time.monotonic() < deadline:
            time.sleep(0.2)
        second = matched(server)
        assert second > first + 90
        wait(browser, f"document.getElementById('count').dataset.matched === '{second}'", seconds=10)
    finally:
        origin.shutdown()



def test_the_static_site_under_nginx_shows_the_same_events_as_the_server(sample_server, browser, tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([str(BIN / "quakemap-server"), "--write-site", str(site)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    quakemap("tiles", SAMPLE, "--encoding", "mvt", "--container", "pmtiles", "--zoom", "0-6", "-o", site / "quakes.pmtiles", "--quiet")
    nginx = Nginx(tmp_path, STATIC_CONFIGURATION.read_text().replace("root /srv/quakemap;", f"root {site};"), log=True)
    try:
        view = "#map=2/20/-100"
        open_page(browser, nginx.url, view)
        static_ids = rendered_ids(browser)
        assert "no server" in browser.find_element(By.ID, "updated").text
        assert not browser.find_element(By.ID, "filter").is_displayed()
        land, _, events = census(screenshot(browser))
        open_page(browser, sample_server.url, view)
        assert static_ids == rendered_ids(browser)
        assert len(static_ids) > 100
        assert land > 0 and events > 500
        # Read by range requests (206), never whole.
        log = (tmp_path / "access.log").read_text()
        assert re.search(r'"GET /quakes\.pmtiles HTTP/1\.1" 206 ', log)
        assert not re.search(r'"GET /quakes\.pmtiles HTTP/1\.1" 200 ', log)
    finally:
        nginx.stop()


def test_the_page_asks_for_nothing_outside_the_server(sample_server, browser):
    # Every script, style and tile from the server itself (offline: no glyph or tile CDN), and the
    # page's policy lets MapLibre start its workers from blob: URLs and nothing more.
    reply = requests.get(sample_server.url + "/", headers={"Accept": "text/html"}, timeout=10)
    policy = reply.headers["Content-Security-Policy"]
    assert "worker-src blob:" in policy and "default-src 'self'" in policy
    assert "*" not in policy and "http" not in policy
    open_page(browser, sample_server.url)
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    assert resources and all(name.startswith(sample_server.url) or name.startswith("blob:") for name in resources), resources


def test_the_static_configuration_in_docs_deploy_md_is_the_file_the_tests_run():
    # docs/deploy.md shows the file without its comments: the two must not drift apart.
    blocks = re.findall(r"```nginx\n(.*?)```", (ROOT / "docs" / "deploy.md").read_text(), re.S)
    run = "\n".join(line for line in STATIC_CONFIGURATION.read_text().splitlines() if not line.strip().startswith("#"))

    def lines(text):
        return [line.rstrip() for line in text.splitlines() if line.strip()]

    assert lines(run) in [lines(block) for block in blocks]
