"""/metrics read as Prometheus reads it: prometheus_client's own parser of the text format.

The built quakemap-server over the bundled sample; each test starts its own, so that the
counters it checks move only by its own requests.
"""
import http.client
import json
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from conftest import SAMPLE


def get(url):
    """The status of a GET, its body read (errors too)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        error.read()
        return error.code


def scrape(server):
    """The metric families of one scrape, by name (a counter's without `_total`, as the parser names it)."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
        assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        text = response.read().decode("utf-8")
    return {family.name: family for family in text_string_to_metric_families(text)}


def value(families, family, sample, **labels):
    """The value of `sample` of `family` whose labels include `labels`; 0 when there is none yet."""
    for found in families[family].samples if family in families else []:
        if found.name == sample and all(found.labels.get(name) == wanted for name, wanted in labels.items()):
            return found.value
    return 0


def test_types_counters_and_histograms(start_server):
    server = start_server(SAMPLE)
    before = scrape(server)
    for _ in range(3):
        assert get(server.url + "/collections/quakes/items?limit=2") == 200
    assert get(server.url + "/collections/quakes/items?limit=-1") == 400
    assert get(server.url + "/no/such/path") == 404
    assert get(server.url + "/tiles/1/0/0.png") == 200
    after = scrape(server)

    types = {"quakemap_http_requests": "counter", "quakemap_http_request_duration_seconds": "histogram",
             "quakemap_renders_running": "gauge", "quakemap_renders_queued": "gauge",
             "quakemap_render_refusals": "counter", "quakemap_render_queue_wait_seconds": "histogram",
             "quakemap_catalogue_info": "gauge", "quakemap_catalogue_events": "gauge",
             "quakemap_catalogue_age_seconds": "gauge", "quakemap_change_stream_clients": "gauge"}
    assert {name: after[name].type for name in types} == types

    items = "/collections/{collection}/items"
    requests = "quakemap_http_requests_total"
    assert value(after, "quakemap_http_requests", requests, route=items, method="GET", status="200") \
        - value(before, "quakemap_http_requests", requests, route=items, method="GET", status="200") == 3
    assert value(after, "quakemap_http_requests", requests, route=items, method="GET", status="400") == 1
    assert value(after, "quakemap_http_requests", requests, route="unmatched", method="GET", status="404") == 1
    # Routes are patterns, never paths: no label names the tile asked for.
    routes = {sample.labels["route"] for sample in after["quakemap_http_requests"].samples}
    assert "/tiles/{z}/{x}/{y}" in routes and not any("0.png" in route for route in routes)
    # The tile was drawn through the render gate, which counted its wait.
    assert value(after, "quakemap_render_queue_wait_seconds", "quakemap_render_queue_wait_seconds_count") >= 1

    # Every histogram: buckets cumulative in le, +Inf equal to the count.
    for name in ("quakemap_http_request_duration_seconds", "quakemap_render_queue_wait_seconds"):
        series = {}
        for sample in after[name].samples:
            key = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
            series.setdefault(key, {"buckets": [], "count": None})
            if sample.name.endswith("_bucket"):
                series[key]["buckets"].append((float(sample.labels["le"]), sample.value))
            elif sample.name.endswith("_count"):
                series[key]["count"] = sample.value
        assert series, name
        for key, found in series.items():
            buckets = sorted(found["buckets"])
            counts = [count for _, count in buckets]
            assert counts == sorted(counts), f"{name}{key}: not cumulative: {buckets}"
            assert buckets[-1][0] == float("inf") and buckets[-1][1] == found["count"], f"{name}{key}"
    items_buckets = [s for s in after["quakemap_http_request_duration_seconds"].samples
                     if s.name.endswith("_bucket") and s.labels["route"] == items]
    assert [float(s.labels["le"]) for s in items_buckets][:2] == [0.005, 0.01]


def test_catalogue_age_grows_and_info_names_the_version(start_server):
    server = start_server(SAMPLE)
    with urllib.request.urlopen(server.url + "/version", timeout=30) as response:
        version = json.load(response)["version"]
    first = scrape(server)
    info = [sample.labels for sample in first["quakemap_catalogue_info"].samples]
    assert info == [{"version": version, "source": "feeds"}]
    assert value(first, "quakemap_catalogue_events", "quakemap_catalogue_events") == 417
    time.sleep(1.2)
    second = scrape(server)
    grown = value(second, "quakemap_catalogue_age_seconds", "quakemap_catalogue_age_seconds") \
        - value(first, "quakemap_catalogue_age_seconds", "quakemap_catalogue_age_seconds")
    assert 1.0 <= grown < 10


def test_change_stream_clients(start_server):
    server = start_server(SAMPLE, "--heartbeat", "1")
    assert value(scrape(server), "quakemap_change_stream_clients", "quakemap_change_stream_clients") == 0
    stream = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    stream.request("GET", "/collections/quakes/changes")
    response = stream.getresponse()
    assert response.status == 200
    assert value(scrape(server), "quakemap_change_stream_clients", "quakemap_change_stream_clients") == 1
    stream.close()
    # The server notices at its next write (a heartbeat a second).
    deadline = time.monotonic() + 5
    while value(scrape(server), "quakemap_change_stream_clients", "quakemap_change_stream_clients") != 0:
        assert time.monotonic() < deadline, "the client that left is still counted"
        time.sleep(0.2)


def test_metrics_off(start_server):
    server = start_server(SAMPLE, "--no-metrics")
    assert get(server.url + "/metrics") == 404
