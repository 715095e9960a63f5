"""The client of `make bench-servers`'s FDSN part (Benchmarks/fdsn.sh): asks a running
quakemap-server the same question through its FDSN event service and through its items, and
measures the server's CPU an event (user + system of its process, /proc), and one answer of
every event as FDSN text: events a second at the client, and the server's resident memory
sampled while it streams.

    python3 fdsn_client.py PORT PID START END REPEATS

Prints one line of JSON.
"""
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse

PORT, PID, START, END, REPEATS = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds():
    fields = open(f"/proc/{PID}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def resident_mib():
    for line in open(f"/proc/{PID}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def get(connection, path, sink):
    """GETs `path`, handing the body to `sink` chunk by chunk; the status."""
    connection.request("GET", path)
    response = connection.getresponse()
    while True:
        chunk = response.read(1 << 16)
        if not chunk:
            break
        sink(chunk)
    return response.status


def fdsn(connection, format):
    query = urllib.parse.urlencode({"starttime": START, "endtime": END, "format": format})
    counted = [0, b""]
    marker = b"\n" if format == "text" else b"<event "

    def sink(chunk):
        # Markers split across chunks: count over the seam too.
        joined = counted[1] + chunk
        counted[0] += joined.count(marker) - counted[1].count(marker)
        counted[1] = chunk[-8:]
    status = get(connection, f"/fdsnws/event/1/query?{query}", sink)
    assert status == 200, status
    return counted[0] - (1 if format == "text" else 0)  # the header line


def items(connection):
    interval = f"{START}Z/{END}Z"
    path = "/collections/quakes/items?" + urllib.parse.urlencode({"datetime": interval, "limit": 10000})
    events = 0
    while path:
        body = bytearray()
        assert get(connection, path, body.extend) == 200
        page = json.loads(body)
        events += len(page["features"])
        path = next((urllib.parse.urlsplit(link["href"])._replace(scheme="", netloc="").geturl()
                     for link in page["links"] if link["rel"] == "next"), None)
    return events


def measure(job):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=600)
    job(connection)  # once untimed: the page cache and the server's first-request costs
    before, start, events = cpu_seconds(), time.monotonic(), 0
    for _ in range(REPEATS):
        events += job(connection)
    cpu, wall = cpu_seconds() - before, time.monotonic() - start
    connection.close()
    return {"events": events // REPEATS, "cpu_us_per_event": round(cpu / events * 1e6, 3),
            "events_per_s": round(events / wall)}


def everything():
    """Every event as FDSN text in one request, memory sampled meanwhile."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=600)
    baseline, peak, running = resident_mib(), [resident_mib()], [True]

    def sample():
        while running[0]:
            peak[0] = max(peak[0], resident_mib())
            time.sleep(0.02)
    sampler = threading.Thread(target=sample)
    sampler.start()
    lines, size = [0], [0]

    def sink(chunk):
        lines[0] += chunk.count(b"\n")
        size[0] += len(chunk)
    start = time.monotonic()
    status = get(connection, "/fdsnws/event/1/query?" + urllib.parse.urlencode({"starttime": "1900-01-01", "format": "text"}), sink)
    wall = time.monotonic() - start
    running[0] = False
    sampler.join()
    assert status == 200, status
    return {"events": lines[0] - 1, "seconds": round(wall, 2), "events_per_s": round((lines[0] - 1) / wall),
            "mib": round(size[0] / 2**20), "rss_before_mib": round(baseline), "rss_peak_mib": round(peak[0]),
            "rss_growth_mib": round(peak[0] - baseline)}


result = {"items": measure(items), "fdsn_text": measure(lambda c: fdsn(c, "text")),
          "fdsn_xml": measure(lambda c: fdsn(c, "xml"))}
for name in ["fdsn_text", "fdsn_xml"]:
    result[name]["vs_items"] = round(result[name]["cpu_us_per_event"] / result["items"]["cpu_us_per_event"], 2)
result["everything_text"] = everything()
print(json.dumps(result))
