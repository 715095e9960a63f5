"""Stalled clients cannot starve the others: connections that send half a
request head and stop are closed after --idle-timeout, /healthz keeps
answering while thousands of them are held, and the connection cap is
logged when reached."""
import resource
import selectors
import socket
import time

import requests

from conftest import SAMPLE

HALF_A_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Ag"


def raise_descriptor_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(wanted, soft)), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def stall(port, count):
    """`count` connections, each with half a request head sent."""
    stalled = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(HALF_A_HEAD)
        stalled.append(connection)
    return stalled


def closed_by_server(connections, within):
    """How many of `connections` the server closes (EOF or reset) within `within` seconds."""
    selector = selectors.DefaultSelector()
    for connection in connections:
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ)
    closed, deadline = 0, time.monotonic() + within
    while closed < len(connections) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.2):
            try:
                data = key.fileobj.recv(4096)
            except (ConnectionResetError, BrokenPipeError):
                data = b""
            if not data:
                closed += 1
                selector.unregister(key.fileobj)
    selector.close()
    return closed


def healthz_seconds(server):
    start = time.monotonic()
    reply = requests.get(f"{server.url}/healthz", timeout=10)
    assert reply.status_code == 200
    return time.monotonic() - start


def test_thousands_of_half_heads(start_server):
    count = 3000
    assert raise_descriptor_limit(count + 200) >= count + 200, "the test needs more descriptors than the limit allows"
    server = start_server(SAMPLE, "--idle-timeout", "3")
    stalled = stall(server.port, count)
    try:
        started = time.monotonic()
        # While all of them are held, a real client is answered at once, again and again.
        slowest = max(healthz_seconds(server) for _ in range(5))
        assert slowest < 1.0, f"/healthz took {slowest:.2f} s with {count} stalled connections"
        assert time.monotonic() - started < 2.5, "the checks ran past the idle timeout"
        closed = closed_by_server(stalled, within=10)
        assert closed == count, f"only {closed} of {count} stalled connections were closed"
        assert healthz_seconds(server) < 1.0
    finally:
        for connection in stalled:
            connection.close()


def test_idle_keep_alive_is_closed(start_server):
    server = start_server(SAMPLE, "--idle-timeout", "1")
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    time.sleep(0.3)
    first = connection.recv(65536)
    assert first.startswith(b"HTTP/1.1 200"), first
    assert closed_by_server([connection], within=5) == 1
    connection.close()


def test_the_cap_is_logged_and_waiting_connections_are_served(start_server):
    server = start_server(SAMPLE, "--idle-timeout", "1", "--max-connections", "50")
    stalled = stall(server.port, 80)
    try:
        # Accepted once the stalled ones before it are closed.
        assert healthz_seconds(server) < 6
        assert "the cap (--max-connections 50)" in server.log()
        assert closed_by_server(stalled, within=10) == 80
    finally:
        for connection in stalled:
            connection.close()
