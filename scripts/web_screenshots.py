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
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

IDLE = ("const done = arguments[0], map = window.quakemap.map;"
        "map.once('idle', () => done()); map.triggerRepaint();")


def main(url, folder):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # WebGL drawn by SwiftShader: MapLibre needs it, and there is no GPU here.
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--use-angle=swiftshader",
                     "--enable-unsafe-swiftshader", "--window-size=1200,700", "--force-device-scale-factor=1", "--lang=en-GB"]:
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    wait = WebDriverWait(browser, 30)

    def show(fragment):
        browser.get("about:blank")
        browser.get(f"{url}/{fragment}")
        wait.until(lambda b: b.execute_script("return document.body.dataset.ready === 'true'"))
        browser.execute_async_script(IDLE)
        time.sleep(0.3)

    show("#map=1.6/15/-10")
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
    browser.execute_async_script(IDLE)
    x, y = browser.execute_script("const p = window.quakemap.map.project([arguments[0], arguments[1]]); return [p.x, p.y];",
                                  lon, lat)
    canvas = browser.find_element(By.CSS_SELECTOR, "#map canvas")
    ActionChains(browser).move_to_element_with_offset(
        canvas, int(x - canvas.size["width"] / 2), int(y - canvas.size["height"] / 2)).click().perform()
    wait.until(lambda b: b.execute_script("return document.querySelector('.maplibregl-popup-content') !== null"))
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
