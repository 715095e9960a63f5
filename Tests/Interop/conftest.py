"""Fixtures for the tests of quakemap-server with clients nobody here wrote.

The server is the built binary (QUAKEMAP_BIN, set by `make test`), started on
127.0.0.1 on a free port and stopped after its tests.
"""
import os
import pathlib
import re
import subprocess
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("QUAKEMAP_BIN") or ROOT / ".build" / "debug")
SAMPLE = ROOT / "Data" / "synthetic_all_day.csv"
SHARED = ROOT.parent / "shared" / "data" / "usgs"


def quakemap(*arguments):
    """Runs the built quakemap with `arguments`; its standard output, or the test fails with its errors."""
    executable = BIN / "quakemap"
    if not executable.exists():
        pytest.fail(f"{executable} is missing: build first (make test does)")
    result = subprocess.run([str(executable), *map(str, arguments)], capture_output=True, timeout=300)
    assert result.returncode == 0, f"quakemap {' '.join(map(str, arguments))}: exit {result.returncode}\n" \
                                   f"{result.stderr.decode(errors='replace')}"
    return result.stdout.decode("utf-8")


class Server:
    """A running quakemap-server; `url` is its root, `log()` what it wrote to stderr."""

    def __init__(self, *arguments):
        executable = BIN / "quakemap-server"
        if not executable.exists():
            pytest.fail(f"{executable} is missing: build first (make test does)")
        self._log = tempfile.NamedTemporaryFile(prefix="quakemap-server-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [str(executable), *map(str, arguments), "--host", "127.0.0.1", "--port", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(r"on http://127\.0\.0\.1:(\d+)/", self.log())
            if found:
                self.port = int(found.group(1))
                self.url = f"http://127.0.0.1:{self.port}"
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        pytest.fail(f"quakemap-server did not start:\n{self.log()}")

    def log(self):
        return pathlib.Path(self._log.name).read_text(errors="replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        os.unlink(self._log.name)


@pytest.fixture
def start_server():
    """Starts servers with the given arguments; all are stopped after the test."""
    servers = []

    def start(*arguments):
        server = Server(*arguments)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def sample_server():
    """The server over the bundled synthetic sample day (the project's own data)."""
    server = Server(SAMPLE)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def month_server():
    """The server over a real USGS month (../shared); skipped where it is absent."""
    feed = SHARED / "all_month_2020-06.csv"
    if not feed.exists():
        pytest.skip(f"{feed} is absent: the shared USGS feeds are beside the project in CI")
    server = Server(feed, "--now", "2020-07-01T00:00:00Z")
    yield server
    server.stop()


def headless_chromium(*arguments, webgl=False):
    """Debian's Chromium, headless, driven through Debian's chromedriver (Selenium Manager
    would look for a driver on the network), with `arguments` added; quit it when done.
    `webgl`: WebGL drawn on the CPU by SwiftShader (no GPU here), as the web map needs."""
    import shutil
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.fail("chromium and chromedriver are missing: make test-deps installs Debian's")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    graphics = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"] if webgl else ["--disable-gpu"]
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *graphics,
                     "--force-device-scale-factor=1", *arguments]:
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(driver), options=options)
    browser.set_page_load_timeout(30)
    return browser


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """Debian's nginx in `folder`, running `configuration` (one of docs/deploy's files, the text
    of its `server` and what goes beside it) with its `listen 127.0.0.1:8080` moved to a free
    port; `access.log` in `folder` when `log`. Stop it with `stop()`."""

    BINARY = pathlib.Path("/usr/sbin/nginx")

    def __init__(self, folder, configuration, log=False):
        import socket
        if not self.BINARY.exists():
            pytest.fail("nginx is missing: make test-deps installs Debian's")
        self.port = free_port()
        assert "listen 127.0.0.1:8080;" in configuration, "the documented configuration changed: update this test"
        (folder / "site.conf").write_text(configuration.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{self.port};"))
        user = "user root;" if os.geteuid() == 0 else ""
        access = f"access_log {folder}/access.log;" if log else "access_log off;"
        (folder / "nginx.conf").write_text(f"""
{user}
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    {access}
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
        checked = subprocess.run([str(self.BINARY), "-t", "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen([str(self.BINARY), "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        pytest.fail("nginx did not start: " + (folder / "error.log").read_text(errors="replace"))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

