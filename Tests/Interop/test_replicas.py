"""Several quakemap-server replicas on one PostgreSQL + PostGIS catalogue, behind Debian's nginx
running the configuration docs/deploy.md documents (docs/deploy/nginx-quakemap.conf), and one
replica reading a hot standby of the database (scripts/with_postgres.sh streams to it). All of it
on 127.0.0.1, started here and stopped after: the same answers everywhere, an ingest reaching every
replica, a replica killed under load without a failed request, ETags that follow the catalogue."""
import concurrent.futures
import http.client
import os
import pathlib
import re
import signal
import socket
import subprocess
import tempfile
import threading
import urllib.parse
import time
import uuid

import pytest
import requests

from conftest import BIN, ROOT, SAMPLE, Nginx, Server, free_port

ADMIN = os.environ.get("QUAKEMAP_TEST_POSTGRES_ADMIN")
STANDBY_PORT = os.environ.get("QUAKEMAP_TEST_POSTGRES_STANDBY_PORT")
CONFIGURATION = ROOT / "docs" / "deploy" / "nginx-quakemap.conf"

if not ADMIN or not STANDBY_PORT:
    if os.environ.get("CI"):
        pytest.fail("CI runs make test, which starts PostgreSQL and its standby (scripts/with_postgres.sh): it did not",
                    pytrace=False)
    pytest.skip("no PostgreSQL server beside the tests (make test starts one)", allow_module_level=True)



def psql(database, sql, port=None):
    folder, primary = ADMIN.rsplit(":", 1)
    done = subprocess.run(["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", port or primary,
                           "-U", "postgres", "-d", database, "-c", sql], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def ingest(feed, url):
    done = subprocess.run([str(BIN / "quakemap"), "ingest", str(feed), "--catalogue", url, "--quiet"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PGPASSWORD": os.environ["QUAKEMAP_TEST_POSTGRES_WRITER_PASSWORD"]})
    assert done.returncode == 0, done.stderr


def synthetic_feed(path, count, start):
    """`count` new events (ids made up here), one a second after `start`, scattered over the world."""
    header = SAMPLE.read_text().splitlines()[0]
    rows = [header]
    for index in range(count):
        moment = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + index)) + ".000Z"
        latitude, longitude = (index * 37) % 160 - 80, (index * 71) % 360 - 180
        rows.append(f"{moment},{latitude},{longitude},10,{2 + index % 40 / 10},ml,,,,,zz,zz{index:05d},{moment},"
                    f"\"Made-up place {index}\",earthquake,,,,,automatic,zz,zz")
    path.write_text("\n".join(rows) + "\n")


def replicas_nginx(folder, upstreams):
    """nginx with docs/deploy/nginx-quakemap.conf, its upstreams and cache folder replaced by the test's."""
    text = CONFIGURATION.read_text()
    servers = "\n".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port in upstreams)
    text, replaced = re.subn(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", servers + "\n", text)
    assert replaced == 1, "the upstream block of the documented configuration changed: update this test"
    return Nginx(folder, text.replace("/var/cache/nginx/quakemap", str(folder / "cache")))


@pytest.fixture(scope="module")
def cluster():
    name = "r_" + uuid.uuid4().hex[:16]
    psql("postgres", f"CREATE DATABASE {name} OWNER quakemap_writer")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="quakemap-replicas-"))
    servers, proxy = [], None
    try:
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", ADMIN.rsplit(":", 1)[0], "-p", ADMIN.rsplit(":", 1)[1],
                        "-U", "postgres", "-d", name, "-f", str(ROOT / "scripts" / "catalogue_database.sql")], check=True,
                       capture_output=True)
        port = ADMIN.rsplit(":", 1)[1]
        writer = f"postgresql://quakemap_writer@127.0.0.1:{port}/{name}"
        ingest(SAMPLE, writer)
        # The standby has the catalogue once its WAL has arrived.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if psql(name, "SELECT count(*) FROM catalogue_state", port=STANDBY_PORT) == "1":
                    break
            except AssertionError:
                pass
            time.sleep(0.2)
        os.environ["PGPASSWORD"] = os.environ["QUAKEMAP_TEST_POSTGRES_READER_PASSWORD"]
        primary = f"postgresql://quakemap_reader@127.0.0.1:{port}/{name}"
        standby = f"postgresql://quakemap_reader@127.0.0.1:{STANDBY_PORT}/{name}"
        servers = [Server("--catalogue", primary, "--refresh", "1s"), Server("--catalogue", primary, "--refresh", "1s"),
                   Server("--catalogue", standby, "--refresh", "1s")]
        proxy = replicas_nginx(folder, [servers[0].port, servers[1].port])
        yield {"name": name, "writer": writer, "replicas": servers, "nginx": proxy, "folder": folder}
    finally:
        os.environ.pop("PGPASSWORD", None)
        if proxy:
            proxy.stop()
        for server in servers:
            server.stop()
        psql("postgres", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def document(url, path, **headers):
    """The answer with the base URL and the time stamp taken out: what must not differ between servers."""
    reply = requests.get(url + path, headers=headers, timeout=30)
    text = reply.text.replace(url, "BASE")
    return reply.status_code, re.sub(r'"timeStamp":"[^"]*"', "", text)


QUERIES = [
    "/collections/quakes/items?limit=50",
    "/collections/quakes/items?bbox=-130,30,-110,45&limit=20",
    "/collections/quakes/items?filter=mag%20%3E%3D%202.5%20AND%20depth%20%3C%2020&limit=30",
    "/collections/quakes/items?filter=S_INTERSECTS(geometry,POLYGON((-125%2030,-110%2030,-117%2045,-125%2030)))",
    "/collections/quakes/items?filter=place%20LIKE%20%27%25%3B%25%27",
    "/collections/quakes/items?offset=100000000&limit=5",
    "/collections/quakes/items?filter=mag%20%3E%3D%20%27x%27",
    "/collections/quakes",
    "/count?filter=mag%20%3E%202",
]


def test_every_replica_and_the_standby_answer_alike_through_nginx_and_directly(cluster):
    replicas, proxy = cluster["replicas"], cluster["nginx"]
    versions = {requests.get(r.url + "/healthz", timeout=10).json()["version"] for r in replicas}
    assert len(versions) == 1
    for path in QUERIES:
        answers = [document(server.url, path) for server in [proxy, *replicas]]
        assert all(answer == answers[0] for answer in answers), path
        assert answers[0][0] in (200, 400), path
    ids = [f["id"] for f in requests.get(proxy.url + "/collections/quakes/items?limit=3", timeout=10).json()["features"]]
    for event in ids:
        answers = [document(server.url, f"/collections/quakes/items/{event}") for server in [proxy, *replicas]]
        assert all(answer == answers[0] for answer in answers)
    # A tile: the same picture from each (the PNG encoder is deterministic, so the bytes).
    tiles = {requests.get(server.url + "/tiles/2/1/1.png", timeout=30).content for server in [proxy, *replicas]}
    assert len(tiles) == 1
    # Metrics are each replica's own, scraped on its port: nginx refuses them.
    assert requests.get(proxy.url + "/metrics", timeout=10).status_code == 404
    assert all(requests.get(r.url + "/metrics", timeout=10).status_code == 200 for r in replicas)


def test_etags_follow_the_catalogue_and_an_ingest_reaches_every_replica(cluster, tmp_path):
    replicas, proxy = cluster["replicas"], cluster["nginx"]
    path = "/collections/quakes/items?limit=5"
    first = requests.get(proxy.url + path, timeout=10)
    tag = first.headers["ETag"]
    assert requests.get(proxy.url + path, headers={"If-None-Match": tag}, timeout=10).status_code == 304
    # Each replica behind nginx tags the same document alike, so a revalidation may go to either.
    assert {requests.get(r.url + path, headers={"Host": f"127.0.0.1:{proxy.port}"}, timeout=10).headers["ETag"]
            for r in replicas} == {tag}
    before = requests.get(replicas[0].url + "/healthz", timeout=10).json()["version"]
    feed = tmp_path / "new.csv"
    synthetic_feed(feed, 1000, time.time() - 3600)
    ingest(feed, cluster["writer"])
    start = time.monotonic()
    pending = set(range(len(replicas)))
    while pending and time.monotonic() - start < 5:
        for index in list(pending):
            health = requests.get(replicas[index].url + "/healthz", timeout=10).json()
            if health["version"] != before:
                pending.discard(index)
        time.sleep(0.05)
    assert not pending, f"replicas {sorted(pending)} did not serve the ingest within 5 s"
    after = {requests.get(r.url + "/healthz", timeout=10).json()["version"] for r in replicas}
    assert len(after) == 1
    # Each replica's metrics name the version it serves now, and that one only.
    for replica in replicas:
        info = [line for line in requests.get(replica.url + "/metrics", timeout=10).text.splitlines()
                if line.startswith("quakemap_catalogue_info{")]
        assert info == [f'quakemap_catalogue_info{{version="{next(iter(after))}",source="postgresql"}} 1.0'], info
    # Through nginx once its copy is no longer fresh (max-age=2): the new events, a new tag, no 304 for the old one.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        reply = requests.get(proxy.url + path, headers={"If-None-Match": tag}, timeout=10)
        if reply.status_code == 200:
            break
        time.sleep(0.2)
    assert reply.status_code == 200 and reply.headers["ETag"] != tag
    assert reply.json()["features"][0]["id"].startswith("zz")
    assert requests.get(proxy.url + "/count", params={"filter": "net = 'zz'"}, timeout=10).json()["numberMatched"] == 1000


def test_a_replica_killed_under_load_fails_no_request_through_nginx(cluster):
    replicas, proxy = cluster["replicas"], cluster["nginx"]
    victim = replicas[1]
    failures, answered = [], []
    stop = threading.Event()

    def client(seed):
        session = requests.Session()
        index = 0
        while not stop.is_set():
            index += 1
            # Distinct boxes: nothing comes from nginx's cache.
            west = -170 + (seed * 4001 + index * 7) % 30000 / 200
            path = f"/collections/quakes/items?bbox={west:.3f},-60,{west + 9.5:.3f},60&limit=20"
            try:
                reply = session.get(proxy.url + path, timeout=10)
                (answered if reply.status_code == 200 else failures).append(reply.status_code)
            except requests.RequestException as error:
                failures.append(str(error))

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for seed in range(8):
            pool.submit(client, seed)
        time.sleep(1.5)
        victim.process.send_signal(signal.SIGKILL)
        time.sleep(2.5)
        stop.set()
    assert answered, "no request was answered"
    assert not failures, f"{len(failures)} failed of {len(failures) + len(answered)}: {failures[:5]}"


def test_the_configuration_in_docs_deploy_md_is_the_file_the_tests_run():
    # docs/deploy.md shows the file without its comments: the two must not drift apart.
    shown = re.search(r"```nginx\n(.*?)```", (ROOT / "docs" / "deploy.md").read_text(), re.S).group(1)
    run = "\n".join(line for line in CONFIGURATION.read_text().splitlines() if not line.strip().startswith("#"))

    def lines(text):
        return [line.rstrip() for line in text.splitlines() if line.strip()]

    assert lines(shown) == lines(run)


class ChangeListener:
    """A client of the change stream, as a browser's EventSource is: it reads frames on a thread
    and, once stopped, may reconnect with the last id it heard."""

    def __init__(self, url, last_event_id=None):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        headers = {"Accept": "text/event-stream", **({"Last-Event-ID": last_event_id} if last_event_id else {})}
        self.connection.request("GET", parts.path, headers=headers)
        self.reply = self.connection.getresponse()
        assert self.reply.status == 200, self.reply.read()
        assert self.reply.getheader("Content-Type").startswith("text/event-stream")
        self.frames = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        frame, pending = {}, b""
        try:
            # What has arrived, as it arrives (the chunks of the stream, however nginx cut them).
            while chunk := self.reply.read1(65536):
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in (line.decode() for line in lines):
                    if line == "":
                        if "event" in frame:
                            self.frames.append(frame)
                        frame = {}
                    elif ":" in line and not line.startswith(":"):
                        name, value = line.split(":", 1)
                        frame[name] = value[1:] if value.startswith(" ") else value
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed by stop()

    def created(self):
        import json
        return [json.loads(frame["data"])["id"] for frame in self.frames if frame["event"] == "create"]

    def wait_for(self, count, seconds=10):
        deadline = time.monotonic() + seconds
        while len(self.created()) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.created()

    def last_id(self):
        return [frame["id"] for frame in self.frames if "id" in frame][-1]

    def stop(self):
        # Shut, not just closed: the reading thread's read returns at once.
        self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(10)
        self.connection.close()


def numbered_feed(path, prefix, count, start):
    """`count` new events with ids `prefix`00000…, one a second after `start`."""
    header = SAMPLE.read_text().splitlines()[0]
    rows = [header]
    for index in range(count):
        moment = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + index)) + ".000Z"
        rows.append(f"{moment},{index % 50},{index % 170},10,3.{index % 10},ml,,,,,zz,{prefix}{index:05d},{moment},"
                    f"\"Made-up place {index}\",earthquake,,,,,automatic,zz,zz")
    path.write_text("\n".join(rows) + "\n")
    return [f"{prefix}{index:05d}" for index in range(count)]


def test_a_client_of_the_changes_through_nginx_gets_what_it_missed_once(cluster, tmp_path):
    url = cluster["nginx"].url + "/collections/quakes/changes"
    start = time.time() - 6 * 3600
    listener = ChangeListener(url)
    try:
        first = numbered_feed(tmp_path / "a.csv", "sa", 5, start)
        ingest(tmp_path / "a.csv", cluster["writer"])
        assert listener.wait_for(5) == first
        last = listener.last_id()
    finally:
        listener.stop()
    # Gone while two ingests happen: it reconnects (to either replica) with the last id it heard.
    missed = numbered_feed(tmp_path / "b.csv", "sb", 7, start + 100)
    ingest(tmp_path / "b.csv", cluster["writer"])
    missed += numbered_feed(tmp_path / "c.csv", "sc", 4, start + 200)
    ingest(tmp_path / "c.csv", cluster["writer"])
    again = ChangeListener(url, last_event_id=last)
    try:
        assert again.wait_for(11) == missed, "exactly what it missed, once each, in order"
        assert all(frame["event"] in ("create", "heartbeat") for frame in again.frames)
        # And then what comes live, after what it missed.
        live = numbered_feed(tmp_path / "d.csv", "sd", 3, start + 300)
        ingest(tmp_path / "d.csv", cluster["writer"])
        assert again.wait_for(14) == missed + live
        stamps = [int(frame["id"].split(":")[1]) for frame in again.frames if "id" in frame]
        assert stamps == sorted(set(stamps))
    finally:
        again.stop()
    # An id from another catalogue is not taken for one of this one's: reload.
    stranger = ChangeListener(url, last_event_id="0123456789abcdef:3")
    try:
        deadline = time.monotonic() + 10
        while not stranger.frames and time.monotonic() < deadline:
            time.sleep(0.05)
        assert stranger.frames[0]["event"] == "reload"
    finally:
        stranger.stop()
