"""The web map in a real browser: Debian's Chromium, headless, driven by
Selenium through Debian's chromedriver (nothing is downloaded). The page must
show land, sea and event circles, tell what a click hits, and follow a filter."""
import datetime
import http.server
import io
import math
import pathlib
import threading
import time
import urllib.parse

import pytest
import requests
from PIL import Image
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SAMPLE, headless_chromium

LAND = (0x4B, 0x55, 0x63)
SEA = (0x1E, 0x2A, 0x38)


@pytest.fixture(scope="module")
def browser():
    browser = headless_chromium("--window-size=1200,800", "--lang=en-GB")
    yield browser
    browser.quit()


def open_page(browser, server, fragment=""):
    browser.get("about:blank")
    browser.get(f"{server.url}/{fragment}")
    wait(browser, "document.body.dataset.ready === 'true'")
    wait_for_tiles(browser)


def wait(browser, condition, seconds=20):
    try:
        WebDriverWait(browser, seconds).until(lambda b: b.execute_script(f"return {condition};"))
    except TimeoutException:
        logs = "\n".join(str(entry) for entry in browser.get_log("browser"))
        pytest.fail(f"timed out waiting for {condition}\nbrowser log:\n{logs}")


def wait_for_tiles(browser):
    # Every tile image of both layers loaded, and none still loading.
    wait(browser, "document.querySelectorAll('img.leaflet-tile').length > 0 && "
                  "[...document.querySelectorAll('img.leaflet-tile')].every(i => i.complete && i.naturalWidth > 0) && "
                  "document.querySelectorAll('.leaflet-tile-container img:not(.leaflet-tile-loaded)').length === 0")
    time.sleep(0.4)  # Leaflet's fade-in


def screenshot(browser):
    return Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")


def near(pixel, colour, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def census(image):
    """Pixels of land, of sea, and of event circles (a warm fill at 0.6 over either)."""
    land = sea = events = 0
    data = image.tobytes()
    for offset in range(0, len(data), 3):
        pixel = data[offset:offset + 3]
        if near(pixel, LAND):
            land += 1
        elif near(pixel, SEA):
            sea += 1
        elif pixel[0] > 170 and pixel[0] - pixel[2] > 90:
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


def test_land_sea_and_events_appear(sample_server, browser):
    open_page(browser, sample_server)
    image = screenshot(browser)
    image.save(pathlib.Path(__file__).parent.parent.parent / ".build" / "web-map-test.png")
    land, sea, events = census(image)
    total = image.width * image.height
    assert land > 0.10 * total, f"land {land / total:.1%} of the page"
    assert sea > 0.25 * total, f"sea {sea / total:.1%} of the page"
    assert events > 2000, f"{events} event pixels"
    assert count_shown(browser) == matched(sample_server)
    assert browser.find_element(By.ID, "count").text == f"{matched(sample_server)} events"


def isolated_event(server):
    """The largest event with no other within 3°: a click on it can hit nothing else."""
    features = requests.get(f"{server.url}/collections/quakes/items", params={"limit": 10000},
                            timeout=30).json()["features"]
    points = [(f, *f["geometry"]["coordinates"]) for f in features if f["properties"]["mag"] is not None]
    for feature, lon, lat in sorted(points, key=lambda p: -p[0]["properties"]["mag"]):
        if all(other is feature or math.hypot(lon - olon, lat - olat) > 3 for other, olon, olat in points):
            return feature
    pytest.fail("no isolated event in the feed")


def test_a_click_shows_the_event(sample_server, browser):
    event = isolated_event(sample_server)
    lon, lat = event["geometry"]["coordinates"]
    # The event at the centre of the map: the view comes from the link.
    open_page(browser, sample_server, f"#map=5/{lat:.5f}/{lon:.5f}")
    box = browser.find_element(By.ID, "map").rect
    browser.execute_script(
        "const r = document.getElementById('map').getBoundingClientRect();"
        "const at = {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true};"
        "const map = document.getElementById('map');"
        "for (const type of ['mousedown', 'mouseup', 'click']) map.dispatchEvent(new MouseEvent(type, at));")
    assert box["width"] > 0
    # innerText, not Selenium's .text: the popup fades in, and text at opacity 0 counts as hidden.
    popup_text = "document.querySelector('.leaflet-popup-content')?.innerText ?? ''"
    wait(browser, f"({popup_text}).length > 0")
    text = browser.execute_script(f"return {popup_text};")
    properties = event["properties"]
    assert properties["place"] in text
    assert f"M {properties['mag']:.1f}" in text
    assert event["id"] in text
    assert properties["time"][:19].replace("T", " ") in text
    assert "Local time" in text and "Depth" in text


def test_a_filter_changes_what_is_shown(sample_server, browser):
    open_page(browser, sample_server)
    _, _, before = census(screenshot(browser))
    box = browser.find_element(By.ID, "filter")
    box.clear()
    box.send_keys("mag >= 4.5", Keys.ENTER)
    wanted = matched(sample_server, filter="mag >= 4.5")
    assert 0 < wanted < matched(sample_server)
    wait(browser, f"document.getElementById('count').dataset.matched === '{wanted}'")
    wait_for_tiles(browser)
    _, _, after = census(screenshot(browser))
    assert after < before, (before, after)
    assert "filter=mag+%3E%3D+4.5" in browser.current_url
    # A filter the server refuses is shown, and what is shown stays as it was.
    box = browser.find_element(By.ID, "filter")
    box.clear()
    box.send_keys("mag >>= 3", Keys.ENTER)
    wait(browser, "!document.getElementById('problem').hidden")
    assert "filter" in browser.find_element(By.ID, "problem").text
    assert count_shown(browser) == wanted


def test_the_view_lives_in_the_link(sample_server, browser):
    fragment = "#map=4/35.0000/-118.0000&filter=" + urllib.parse.quote("mag >= 1 AND depth < 10") + "&window=week"
    open_page(browser, sample_server, fragment)
    assert browser.find_element(By.ID, "filter").get_attribute("value") == "mag >= 1 AND depth < 10"
    assert browser.find_element(By.ID, "window").get_attribute("value") == "week"
    assert "#map=4/35.0000/-118.0000" in browser.current_url
    collection = requests.get(f"{sample_server.url}/collections/quakes", timeout=10).json()
    newest = datetime.datetime.fromisoformat(collection["extent"]["temporal"]["interval"][0][1].replace("Z", "+00:00"))
    start = (newest - datetime.timedelta(days=7)).isoformat(timespec="milliseconds")
    wanted = matched(sample_server, filter="mag >= 1 AND depth < 10", datetime=f"{start}/..")
    assert wanted > 0, "the week window of the sample should hold some of these events"
    assert count_shown(browser) == wanted
    # The hour window of the same catalogue shows fewer.
    browser.find_element(By.CSS_SELECTOR, "#window option[value='hour']").click()
    hour = (newest - datetime.timedelta(hours=1)).isoformat(timespec="milliseconds")
    wanted = matched(sample_server, filter="mag >= 1 AND depth < 10", datetime=f"{hour}/..")
    wait(browser, f"document.getElementById('count').dataset.matched === '{wanted}'")
    assert "window=hour" in browser.current_url


class Feed(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def test_the_page_follows_a_changing_catalogue(start_server, browser, tmp_path):
    rows = SAMPLE.read_text().splitlines()
    feed = tmp_path / "feed.csv"
    feed.write_text("\n".join(rows[:101]) + "\n")
    handler = lambda *arguments: Feed(*arguments, directory=str(tmp_path))
    origin = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    try:
        server = start_server("--url", f"http://127.0.0.1:{origin.server_port}/feed.csv", "--refresh", "1s",
                              "--no-cache")
        open_page(browser, server)
        first = matched(server)
        assert count_shown(browser) == first
        feed.write_text("\n".join(rows[:201]) + "\n")
        # The server fetches the feed again within a second; the page checks every few seconds.
        deadline = time.monotonic() + 20
        while matched(server) == first and time.monotonic() < deadline:
            time.sleep(0.2)
        second = matched(server)
        assert second > first + 90
        wait(browser, f"document.getElementById('count').dataset.matched === '{second}'", seconds=30)
        wait_for_tiles(browser)
        # The event tiles were asked for again, with the new catalogue's version.
        version = requests.get(f"{server.url}/healthz", timeout=10).json()["version"]
        sources = browser.execute_script("return [...document.querySelectorAll('img.leaflet-tile')].map(i => i.src)")
        assert any(f"v={version}" in source for source in sources)
    finally:
        origin.shutdown()


def ingest(feed, catalogue, environment=None):
    import os
    import subprocess
    from conftest import BIN
    done = subprocess.run([str(BIN / "quakemap"), "ingest", str(feed), "--catalogue", catalogue, "--quiet"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, **(environment or {})})
    assert done.returncode == 0, done.stderr


def test_the_page_shows_an_ingest_without_a_reload(start_server, browser, tmp_path):
    # The catalogue first holds the older half of the sample's newest 200 events; then an ingest adds the newer half.
    rows = SAMPLE.read_text().splitlines()
    older, both = tmp_path / "older.csv", tmp_path / "both.csv"
    older.write_text("\n".join([rows[0]] + rows[101:201]) + "\n")
    both.write_text("\n".join(rows[:201]) + "\n")
    catalogue = str(tmp_path / "quakes.sqlite")
    ingest(older, catalogue)
    server = start_server("--catalogue", catalogue, "--refresh", "1s")
    open_page(browser, server)
    assert count_shown(browser) == matched(server)
    first = requests.get(f"{server.url}/version", timeout=10).json()["version"]
    assert browser.find_element(By.ID, "updated").text.startswith("Updated ")
    # What is new: the events after the newest the catalogue held (the sample is not strictly in time order).
    newest = max(row.split(",")[0] for row in rows[101:201])
    arrived = sum(1 for row in rows[1:101] if row.split(",")[0] > newest and row.split(",")[4])
    assert arrived > 90
    ingest(both, catalogue)
    start = time.monotonic()
    # The server reads the catalogue's state every second.
    while (total := matched(server)) < 190 and time.monotonic() - start < 5:
        time.sleep(0.1)
    assert total > 190
    # Within 10 s of the ingest, without a reload: the new count, the new events ringed, the time of the change.
    wait(browser, f"document.getElementById('count').dataset.matched === '{total}' && "
                  f"document.getElementById('updated').dataset.fresh === '{arrived}'", seconds=10)
    assert time.monotonic() - start <= 10
    assert browser.execute_script("return document.querySelectorAll('path.fresh').length") == arrived
    assert f"{arrived} new since you opened this page" in browser.find_element(By.ID, "updated").text
    wait_for_tiles(browser)
    version = requests.get(f"{server.url}/version", timeout=10).json()["version"]
    assert version != first
    sources = browser.execute_script("return [...document.querySelectorAll('img.leaflet-tile')].map(i => i.src)")
    assert any(f"v={version}" in source for source in sources)
    screenshot(browser).save(tmp_path / "after-ingest.png")
    if pathlib.Path("/tmp/quakemap-look").is_dir():
        screenshot(browser).save("/tmp/quakemap-look/after-ingest.png")
