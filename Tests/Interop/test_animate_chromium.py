"""Chromium, headless (Debian's, driven by Selenium through Debian's chromedriver; nothing
is downloaded), plays `quakemap animate`'s animated PNG: the image decodes at its size,
and two screenshots some frames apart differ (the clock and the events move on), while
Chromium shows the first frame of a one-frame animation unchanged."""
import io
import subprocess
import time

import pytest
from PIL import Image, ImageChops
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BIN, SAMPLE, headless_chromium


@pytest.fixture(scope="module")
def browser():
    browser = headless_chromium("--window-size=700,400", "--allow-file-access-from-files")
    yield browser
    browser.quit()


def show(browser, folder, arguments):
    """Writes the animation with `arguments`, opens a page showing it, waits for it to decode."""
    result = subprocess.run([str(BIN / "quakemap"), "animate", str(SAMPLE), "--width", "600", "--quiet",
                             "-o", str(folder / "animation.png"), *arguments], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    page = folder / "index.html"
    page.write_text('<!doctype html><body style="margin:0"><img id="a" src="animation.png"></body>')
    browser.get(page.as_uri())
    WebDriverWait(browser, 20).until(lambda b: b.execute_script(
        "const i = document.getElementById('a'); return i.complete && i.naturalWidth > 0;"))
    return browser.execute_script("const i = document.getElementById('a'); return [i.naturalWidth, i.naturalHeight];")


def screenshot(browser):
    return Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB").crop((0, 0, 600, 300))


def test_chromium_plays_the_animation(browser, tmp_path):
    assert show(browser, tmp_path, ["--duration", "4", "--fps", "10"]) == [600, 300]
    first = screenshot(browser)
    time.sleep(0.8)
    later = screenshot(browser)
    assert ImageChops.difference(first, later).getbbox() is not None, "two moments 0.8 s apart look the same"


def test_a_one_frame_animation_stands_still(browser, tmp_path):
    # A --since after the sample's last event: no events, one frame.
    assert show(browser, tmp_path, ["--since", "2100-01-01"]) == [600, 300]
    first = screenshot(browser)
    time.sleep(0.8)
    assert ImageChops.difference(first, screenshot(browser)).getbbox() is None
