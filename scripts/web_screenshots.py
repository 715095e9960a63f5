#!/usr/bin/env python3
"""`make examples`: screenshots of quakemap-server's web map for the README,
taken with Debian's headless Chromium (through Selenium, from the test venv).

Usage: web_screenshots.py SERVER_EXECUTABLE FEED OUTPUT_FOLDER
"""
import re
import subprocess
import sys
import tempfile
import time

import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

TILES_LOADED = ("document.querySelectorAll('img.leaflet-tile').length > 0 && "
                "[...document.querySelectorAll('img.leaflet-tile')].every(i => i.complete && i.naturalWidth > 0)")


def main(url, folder):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1200,700", "--force-device-scale-factor=1", "--lang=en-GB"]:
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    wait = WebDriverWait(browser, 30)

    def show(fragment):
        browser.get("about:blank")
        browser.get(f"{url}/{fragment}")
        wait.until(lambda b: b.execute_script("return document.body.dataset.ready === 'true'"))
        wait.until(lambda b: b.execute_script(f"return {TILES_LOADED}"))
        time.sleep(0.6)

    show("#map=2/15/-10")
    browser.save_screenshot(f"{folder}/web-map.png")

    # A filter typed into the box, and the largest matching event clicked.
    features = requests.get(f"{url}/collections/quakes/items",
                            params={"filter": "mag >= 4.5", "limit": 10000}, timeout=30).json()["features"]
    largest = max(features, key=lambda f: f["properties"]["mag"])
    lon, lat = largest["geometry"]["coordinates"]
    show(f"#map=4/{lat:.3f}/{lon + 12:.3f}")
    box = browser.find_element(By.ID, "filter")
    box.clear()
    box.send_keys("mag >= 4.5", Keys.ENTER)
    wait.until(lambda b: b.find_element(By.ID, "count").get_attribute("data-matched") == str(len(features)))
    wait.until(lambda b: b.execute_script(f"return {TILES_LOADED}"))
    browser.execute_script(
        "const map = document.getElementById('map'), r = map.getBoundingClientRect();"
        "const [x, y] = [r.left + r.width / 2 - arguments[0], r.top + r.height / 2];"
        "for (const type of ['mousedown', 'mouseup', 'click'])"
        "  map.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true}));",
        12 / 360 * 256 * 2 ** 4)
    wait.until(lambda b: b.execute_script("return document.querySelector('.leaflet-popup-content') !== null"))
    time.sleep(0.6)
    browser.save_screenshot(f"{folder}/web-map-popup.png")
    browser.quit()


def serve(executable, feed):
    """Starts the server on a free port; returns the process and its URL."""
    log = tempfile.TemporaryFile(mode="w+")
    process = subprocess.Popen([executable, feed, "--port", "0"], stderr=log, stdout=subprocess.DEVNULL)
    for _ in range(300):
        log.seek(0)
        found = re.search(r"on (http://127\.0\.0\.1:\d+)/", log.read())
        if found:
            return process, found.group(1)
        time.sleep(0.1)
    process.kill()
    sys.exit("the server did not start")


if __name__ == "__main__":
    executable, feed, folder = sys.argv[1:]
    server, url = serve(executable, feed)
    try:
        main(url, folder)
    finally:
        server.terminate()
