#!/usr/bin/env python3
"""The client of the SSE part of `make bench-servers` (Benchmarks/sse.sh): holds CLIENTS connections to a
server's /collections/quakes/changes, runs an ingest, and measures when each client has had EXPECT
`create` frames, the server's resident memory throughout, and its CPU with the clients idle.

    sse_client.py URL --pid PID [--clients 5000] [--processes 2] [--expect 100] [--idle 60]
                  [--baseline 20] [--verify 20] [--json OUT.json] [--label TEXT] -- INGEST COMMAND…

In order:
  1. the server alone for --baseline seconds: its CPU (the catalogue's polls) and resident memory (idle);
  2. CLIENTS connections, split over --processes processes (asyncio streams, --connecting at once each);
     each must answer 200 with Content-Type text/event-stream, Cache-Control no-store, X-Accel-Buffering no;
  3. INGEST COMMAND runs (its start and its exit, the commit, are the clocks' origins); every client
     counts its frames until it has had EXPECT creates (the time of that read is its time), or
     --timeout seconds after the commit;
  4. the clients idle for --idle seconds: the server's CPU, and the heartbeats the clients received.
The server's VmRSS and utime + stime (/proc/PID) are read every 50 ms throughout.

Frames are counted on the raw bytes (`\\nevent: create` and the like, across reads: a frame split over
two reads counts once); the first --verify clients also keep their bytes and parse them properly after
the run (chunked transfer coding, SSE fields, each create's JSON Feature, ids and stamps), which checks
the counting: a server writing a frame in chunks split inside its `event:` line would be miscounted,
and that check says so. Prints a Markdown table; --json writes every figure.
"""
import argparse
import asyncio
import json
import math
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from multiprocessing.connection import wait as wait_for_connections

TICKS = os.sysconf("SC_CLK_TCK")
# Each read is scanned with the 16 bytes before it: a frame's `event:` line split over two reads is
# seen once. The stream's first frame follows the header's "\r\n", hence the newline.
TAIL = 16
START_TAIL = b"\0" * (TAIL - 1) + b"\n"
EVENT, CREATE, UPDATE = b"\nevent: ", b"\nevent: create", b"\nevent: update"
RELOAD, HEARTBEAT = b"\nevent: reload", b"\nevent: heartbeat"
# A match must end in the new read (start at TAIL - len + 1 or later): one wholly in the tail was counted before.
FROM = {pattern: TAIL - len(pattern) + 1 for pattern in (EVENT, CREATE, UPDATE, RELOAD, HEARTBEAT)}
REQUIRED_HEADERS = {"content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no"}


class Client:
    __slots__ = ("index", "error", "headers", "chunked", "connected_at", "creates", "first_at", "expected_at", "updates",
                 "reloads", "heartbeats", "bytes", "create_reads", "raw", "writer")

    def __init__(self, index, verify):
        self.index, self.error, self.headers, self.chunked = index, None, [], False
        self.connected_at = self.first_at = self.expected_at = None
        self.creates = self.updates = self.reloads = self.bytes = self.create_reads = 0
        self.heartbeats = []  # (time of the read, heartbeats in it)
        self.raw = [] if verify else None
        self.writer = None

    def record(self):
        return {"index": self.index, "error": self.error, "headers": self.headers, "connected_at": self.connected_at,
                "creates": self.creates, "first_at": self.first_at, "expected_at": self.expected_at, "updates": self.updates,
                "reloads": self.reloads, "heartbeats": self.heartbeats, "bytes": self.bytes,
                "create_reads": self.create_reads,
                "verified": verify_stream(b"".join(self.raw), self.chunked) if self.raw is not None else None}


class Worker:
    """One process's share of the clients, on one event loop; told what to do through a pipe."""

    def __init__(self, conn, arguments, indices):
        self.conn, self.arguments, self.indices = conn, arguments, indices
        self.clients = []
        self.waiting = 0  # connected clients short of EXPECT creates
        self.delivery = False  # set once the parent says the ingest started: "delivered" is then reported

    async def main(self):
        loop = asyncio.get_running_loop()
        self.messages = asyncio.Queue()
        loop.add_reader(self.conn.fileno(), lambda: self.messages.put_nowait(self.conn.recv()))
        url = urllib.parse.urlsplit(self.arguments.url)
        host, port = url.hostname, url.port or 80
        request = (f"GET {url.path or '/'}{'?' + url.query if url.query else ''} HTTP/1.1\r\nHost: {url.netloc}\r\n"
                   f"Accept: text/event-stream\r\nUser-Agent: quakemap-sse-bench\r\n\r\n").encode()
        assert await self.messages.get() == "connect"
        gate = asyncio.Semaphore(self.arguments.connecting)
        connected = [asyncio.get_running_loop().create_future() for _ in self.indices]
        tasks = []
        for slot, index in enumerate(self.indices):
            client = Client(index, index < self.arguments.verify)
            self.clients.append(client)
            tasks.append(asyncio.create_task(self.run(client, host, port, request, gate, connected[slot])))
        await asyncio.gather(*connected)
        self.conn.send(("connected", sum(c.error is None for c in self.clients)))
        while True:
            message = await self.messages.get()
            if message == "delivery":
                self.delivery = True
                self.report_if_delivered()
            elif message == "finish":
                break
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in self.clients:
            if client.writer is not None:
                client.writer.transport.abort()
        self.conn.send(("records", [client.record() for client in self.clients]))

    def report_if_delivered(self):
        if self.delivery and self.waiting == 0:
            self.delivery = False
            self.conn.send(("delivered", time.time()))

    async def run(self, client, host, port, request, gate, connected):
        timeout = self.arguments.connect_timeout
        try:
            async with gate:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=1 << 20), timeout)
                client.writer = writer
                writer.write(request)
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except Exception as error:  # refused, reset, timed out: a failed connection, counted
            client.error = f"connect: {type(error).__name__}: {error}"[:200]
            connected.set_result(False)
            return
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if len(status) < 2 or status[1] != "200":
            client.error = f"status: {lines[0]}"
            connected.set_result(False)
            return
        for name, wanted in REQUIRED_HEADERS.items():
            value = headers.get(name)
            if value is None or not value.lower().startswith(wanted):
                client.headers.append(f"{name}: {value!r}")
        client.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        client.connected_at = time.time()
        self.waiting += 1
        connected.set_result(True)
        try:
            await self.stream(client, reader)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            client.error = f"read: {type(error).__name__}: {error}"[:200]
        if client.error is None:
            client.error = "closed by the server"
        if client.expected_at is None:  # it will never get there
            self.waiting -= 1
            self.report_if_delivered()

    async def stream(self, client, reader):
        read, expect, raw = reader.read, self.arguments.expect, client.raw
        tail = START_TAIL
        while True:
            chunk = await read(1 << 20)
            if not chunk:
                return
            if raw is not None:
                raw.append(chunk)
            client.bytes += len(chunk)
            scanned = tail + chunk
            tail = scanned[-TAIL:]
            events = scanned.count(EVENT, FROM[EVENT])
            if not events:
                continue
            creates = scanned.count(CREATE, FROM[CREATE])
            if creates != events:
                beats = scanned.count(HEARTBEAT, FROM[HEARTBEAT])
                if beats:
                    client.heartbeats.append((time.time(), beats))
                client.updates += scanned.count(UPDATE, FROM[UPDATE])
                client.reloads += scanned.count(RELOAD, FROM[RELOAD])
            if creates:
                client.create_reads += 1
                before = client.creates
                client.creates += creates
                if before == 0:
                    client.first_at = time.time()
                if before < expect <= client.creates:
                    client.expected_at = time.time()
                    self.waiting -= 1
                    self.report_if_delivered()


def worker_main(conn, arguments, indices):
    raise_descriptor_limit(len(indices) + 64)
    asyncio.run(Worker(conn, arguments, indices).main())


def raise_descriptor_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            sys.exit(f"sse_client: {needed} descriptors needed, the hard limit is {hard} (more --processes, or ulimit -Hn)")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def dechunk(raw):
    """The body of a chunked stream, up to its last whole chunk (the run cuts it anywhere)."""
    body, at = bytearray(), 0
    while True:
        end = raw.find(b"\r\n", at)
        if end < 0:
            break
        size = int(raw[at:end].split(b";")[0], 16)
        if size == 0 or end + 2 + size + 2 > len(raw):
            break
        body += raw[end + 2:end + 2 + size]
        at = end + 2 + size + 2
    return bytes(body)


def verify_stream(raw, chunked):
    """The stream parsed as SSE (whole frames only): events by type, and what is wrong with them."""
    body = dechunk(raw) if chunked else raw
    counts, problems, features, stamp = {}, [], set(), None
    for frame in body.replace(b"\r\n", b"\n").split(b"\n\n")[:-1]:
        kind, data, ident = "message", [], None
        for line in frame.split(b"\n"):
            if not line or line.startswith(b":"):
                continue
            name, _, value = line.partition(b":")
            value = value[1:] if value.startswith(b" ") else value
            if name == b"event":
                kind = value.decode()
            elif name == b"data":
                data.append(value)
            elif name == b"id":
                ident = value.decode()
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("create", "update", "reload"):
            if ident is None or ":" not in ident or not ident.rsplit(":", 1)[1].isdigit():
                problems.append(f"{kind} with id {ident!r}")
            else:
                now = int(ident.rsplit(":", 1)[1])
                if stamp is not None and now <= stamp:
                    problems.append(f"stamp {now} after {stamp}")
                stamp = now
        if kind in ("create", "update"):
            try:
                feature = json.loads(b"\n".join(data))
                if feature.get("type") != "Feature" or "id" not in feature:
                    problems.append(f"{kind}: not a Feature with an id")
                elif kind == "create":
                    if feature["id"] in features:
                        problems.append(f"create of {feature['id']} twice")
                    features.add(feature["id"])
            except ValueError as error:
                problems.append(f"{kind}: data is not JSON ({error})")
    return {"counts": counts, "problems": problems[:5]}


class Sampler(threading.Thread):
    """The server's VmRSS (KiB) and CPU ticks, and the workers' CPU ticks, every `period` seconds."""

    def __init__(self, pid, workers, period=0.05):
        super().__init__(daemon=True)
        self.pid, self.workers, self.period = pid, workers, period
        # (time, server VmRSS KiB, server ticks, workers' ticks, the machine's ticks, server system ticks, workers' system ticks)
        self.samples = []
        self.stopping = threading.Event()

    @staticmethod
    def times(pid):
        """utime and stime, in ticks."""
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            return int(fields[11]), int(fields[12])
        except (OSError, IndexError):
            return 0, 0

    def rss(self):
        try:
            for line in open(f"/proc/{self.pid}/status"):
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    @staticmethod
    def machine():
        """The machine's ticks (/proc/stat): user + nice, system, interrupts (hard and soft: loopback TCP's
        receiving, charged to no process), idle + iowait."""
        fields = [int(x) for x in open("/proc/stat").readline().split()[1:8]]
        return fields[0] + fields[1], fields[2], fields[5] + fields[6], fields[3] + fields[4]

    def sample(self):
        server = self.times(self.pid)
        workers = [self.times(w) for w in self.workers]
        self.samples.append((time.time(), self.rss(), sum(server), sum(map(sum, workers)), self.machine(),
                             server[1], sum(w[1] for w in workers)))

    def run(self):
        next_at = time.monotonic()
        while not self.stopping.is_set():
            self.sample()
            next_at += self.period
            self.stopping.wait(max(0.0, next_at - time.monotonic()))

    def last(self):
        return self.samples[-1]

    def between(self, start, end):
        return [s for s in self.samples if start <= s[0] <= end]

    def hwm(self):
        try:
            for line in open(f"/proc/{self.pid}/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0


def percentile(values, fraction):
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)] if ordered else None


def idle_cpu(samples, beats, margin=0.1):
    """CPU over the window, and split: the intervals within `margin` s of a heartbeat's arrival (the
    bursts) and the rest (what the server spends beyond heartbeats), as % of a core."""
    total_time = samples[-1][0] - samples[0][0]
    total = (samples[-1][2] - samples[0][2]) / TICKS
    beats = sorted(beats)
    quiet_time = quiet_cpu = 0.0
    j = 0
    for (t0, _, c0, *_), (t1, _, c1, *_) in zip(samples, samples[1:]):
        while j < len(beats) and beats[j] < t0 - margin:
            j += 1
        near = j < len(beats) and beats[j] <= t1 + margin
        if not near:
            quiet_time += t1 - t0
            quiet_cpu += (c1 - c0) / TICKS
    beyond = quiet_cpu / quiet_time * 100 if quiet_time > 0 else None
    burst_time = total_time - quiet_time
    burst_cpu = total - quiet_cpu - (beyond or 0) / 100 * burst_time  # over the quiet rate
    machine = [(b - a) / TICKS for a, b in zip(samples[0][4], samples[-1][4])]
    others = machine[0] + machine[1] - total - (samples[-1][3] - samples[0][3]) / TICKS
    return {"seconds": round(total_time, 2), "cpu_seconds": round(total, 3),
            "other_processes_cores": round(max(0.0, others) / total_time, 2) if total_time > 0 else None,
            "percent_of_a_core": round(total / total_time * 100, 3) if total_time > 0 else None,
            "beyond_heartbeats_percent": None if beyond is None else round(beyond, 3),
            "quiet_seconds": round(quiet_time, 2), "heartbeat_burst_seconds": round(burst_time, 2),
            "heartbeat_cpu_seconds": round(burst_cpu, 3)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="http://127.0.0.1:PORT/collections/quakes/changes")
    parser.add_argument("--pid", type=int, required=True, help="the server's process: memory and CPU")
    parser.add_argument("--clients", type=int, default=5000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--connecting", type=int, default=64, help="connections being opened at once, a process")
    parser.add_argument("--connect-timeout", type=float, default=30)
    parser.add_argument("--expect", type=int, default=100, help="creates each client must get")
    parser.add_argument("--timeout", type=float, default=30, help="seconds after the commit to wait for them")
    parser.add_argument("--baseline", type=float, default=20, help="seconds of the server alone, before connecting")
    parser.add_argument("--idle", type=float, default=60, help="seconds of the clients idle, after the delivery")
    parser.add_argument("--settle", type=float, default=2, help="seconds between the delivery and the idle window")
    parser.add_argument("--verify", type=int, default=20, help="clients whose streams are parsed in full afterwards")
    parser.add_argument("--json", help="write every figure here")
    parser.add_argument("--label", default="")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("no ingest command (after --)")
    arguments = parser.parse_args(argv[:argv.index("--")])
    ingest = argv[argv.index("--") + 1:]

    ctx = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for k in range(arguments.processes):
        mine, theirs = ctx.Pipe()
        indices = list(range(k, arguments.clients, arguments.processes))
        process = ctx.Process(target=worker_main, args=(theirs, arguments, indices), daemon=True)
        process.start()
        theirs.close()
        pipes.append(mine)
        processes.append(process)
    sampler = Sampler(arguments.pid, [p.pid for p in processes])
    sampler.start()
    result = {"label": arguments.label, "clients": arguments.clients, "processes": arguments.processes,
              "expect": arguments.expect, "descriptor_limit": resource.getrlimit(resource.RLIMIT_NOFILE)}

    def receive(kind, deadline):
        """Each worker's next message of `kind` (a dict by worker), waiting until `deadline` (time.time())."""
        got = {}
        while len(got) < len(pipes):
            left = deadline - time.time()
            if left <= 0:
                break
            for conn in wait_for_connections([p for p in pipes if p not in got], left):
                message = conn.recv()
                if message[0] == kind:
                    got[conn] = message[1]
        return got

    try:
        # 1. The server alone.
        start = time.time()
        time.sleep(arguments.baseline)
        alone = sampler.between(start, time.time())
        result["baseline"] = idle_cpu(alone, [])
        result["rss_idle_mib"] = round(alone[-1][1] / 1024, 1)

        # 2. The connections.
        connect_start = time.time()
        for conn in pipes:
            conn.send("connect")
        connected = receive("connected", connect_start + arguments.connect_timeout * (1 + arguments.clients / 1000))
        result["connect_seconds"] = round(time.time() - connect_start, 2)
        result["connected"] = sum(connected.values())
        time.sleep(1)
        result["rss_connected_mib"] = round(sampler.last()[1] / 1024, 1)

        # 3. The ingest, and the delivery.
        for conn in pipes:
            conn.send("delivery")
        ingest_start = time.time()
        outcome = subprocess.run(ingest, stdout=subprocess.DEVNULL)
        commit = time.time()
        result["ingest_status"] = outcome.returncode
        result["ingest_seconds"] = round(commit - ingest_start, 3)
        delivered = receive("delivered", commit + arguments.timeout)
        delivered_at = max(delivered.values()) if len(delivered) == len(pipes) else time.time()
        span = sampler.between(ingest_start, delivered_at)
        if len(span) >= 2:
            machine = [(b - a) / TICKS for a, b in zip(span[0][4], span[-1][4])]
            result["delivery_cpu"] = {
                "server_seconds": round((span[-1][2] - span[0][2]) / TICKS, 3),
                "clients_seconds": round((span[-1][3] - span[0][3]) / TICKS, 3),
                "server_system_seconds": round((span[-1][5] - span[0][5]) / TICKS, 3),
                "clients_system_seconds": round((span[-1][6] - span[0][6]) / TICKS, 3),
                "wall_seconds": round(span[-1][0] - span[0][0], 3),
                "machine_user_seconds": round(machine[0], 3), "machine_system_seconds": round(machine[1], 3),
                "machine_interrupt_seconds": round(machine[2], 3), "machine_idle_seconds": round(machine[3], 3)}

        # 4. The clients idle.
        time.sleep(arguments.settle)
        idle_start = time.time()
        time.sleep(arguments.idle)
        idle_end = time.time()
        window = sampler.between(idle_start, idle_end)
        result["rss_peak_mib"] = round(max(s[1] for s in sampler.samples) / 1024, 1)
        result["vmhwm_mib"] = round(sampler.hwm() / 1024, 1)
        for conn in pipes:
            conn.send("finish")
        records = [record for part in receive("records", time.time() + 120).values() for record in part]
    finally:
        sampler.stopping.set()
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()

    failures = {}
    for record in records:
        if record["error"] and record["connected_at"] is None:
            reason = record["error"].split(":")[0] + ": " + record["error"].split(":")[1].strip()
            failures[reason] = failures.get(reason, 0) + 1
    ok = [r for r in records if r["connected_at"] is not None]
    got = [r for r in ok if r["expected_at"] is not None]
    beats = [t for r in ok for t, n in r["heartbeats"] for _ in range(n)]
    in_window = [t for t in beats if idle_start <= t <= idle_end]
    from_commit = [r["expected_at"] - commit for r in got]
    first = [r["first_at"] - commit for r in ok if r["first_at"] is not None]
    result.update({
        "records": len(records), "failed_to_connect": len(records) - len(ok), "failures": failures,
        # Connected, then closed or broken before the end of the idle window.
        "dropped": sum(1 for r in ok if r["error"]),
        "dropped_reasons": sorted({r["error"] for r in ok if r["error"]})[:5],
        "header_problems": sorted({h for r in ok for h in r["headers"]}),
        "clients_with_header_problems": sum(1 for r in ok if r["headers"]),
        "got_all": len(got), "short": len(ok) - len(got),
        "got_reload": sum(1 for r in ok if r["reloads"]), "got_update": sum(1 for r in ok if r["updates"]),
        "creates_over_expect": sum(1 for r in ok if r["creates"] > arguments.expect),
        "bytes_a_client_median": statistics.median([r["bytes"] for r in ok]) if ok else None,
        # Reads that brought creates, a client: about 1 when the bytes waited for the client (it was
        # behind the server), up to EXPECT when they trickled in (the server was behind).
        "create_reads_a_client": {"p50": percentile([r["create_reads"] for r in got], 0.5),
                                  "max": max((r["create_reads"] for r in got), default=None)},
        "last_from_commit": round(max(from_commit), 3) if got else None,
        "last_from_start": round(max(from_commit) + commit - ingest_start, 3) if got else None,
        "from_commit": {"p50": percentile(from_commit, 0.5), "p99": percentile(from_commit, 0.99),
                        "max": max(from_commit) if got else None, "min": min(from_commit) if got else None},
        # When the first create reached a client: the server's reaction (NOTIFY, the read, the encoding) without the sending.
        "first_create_from_commit": {"min": round(min(first), 3) if first else None,
                                     "p50": round(percentile(first, 0.5), 3) if first else None,
                                     "max": round(max(first), 3) if first else None},
        "creates_before_the_ingest": sum(1 for r in ok if r["first_at"] is not None and r["first_at"] < ingest_start),
        "heartbeats_in_window": len(in_window),
        "heartbeats_a_client_in_window": round(len(in_window) / len(ok), 2) if ok else None,
        "idle": idle_cpu(window, in_window),
    })
    for key in ("p50", "p99", "max", "min"):
        if result["from_commit"][key] is not None:
            result["from_commit"][key] = round(result["from_commit"][key], 3)
    verified = [r["verified"] for r in ok if r["verified"]]
    mismatched = [r["index"] for r in ok if r["verified"] and (
        r["verified"]["counts"].get("create", 0) != r["creates"] or r["verified"]["counts"].get("reload", 0) != r["reloads"])]
    result["verify"] = {"clients": len(verified), "counts_mismatched": mismatched,
                        "problems": sorted({p for v in verified for p in v["problems"]})[:10],
                        "counts": verified[0]["counts"] if verified else None}
    if arguments.json:
        with open(arguments.json, "w") as f:
            json.dump(result, f, indent=1)
    print_table(result, arguments)


def print_table(r, a):
    def mark(ok):
        return "✓" if ok else "✗"

    f = r["from_commit"]
    idle = r["idle"]
    all_ok = r["failed_to_connect"] == 0 and r["got_reload"] == 0 and r["short"] == 0 and r["dropped"] == 0
    in_time = r["last_from_commit"] is not None and r["last_from_commit"] <= 2 and r["short"] == 0
    grown = r["rss_peak_mib"] - r["rss_idle_mib"]
    print(f"| {r['label'] or 'SSE'}: {a.clients} clients, an ingest of {a.expect} new events | measured | target |")
    print("|---|---|---|")
    failures = ", ".join(f"{n} {why}" for why, n in sorted(r["failures"].items())) or "none"
    print(f"| connected in {r['connect_seconds']} s (failures) | {r['connected']} of {a.clients} ({failures}) | all {mark(r['failed_to_connect'] == 0)} |")
    if r["clients_with_header_problems"]:
        print(f"| answers missing a header | {r['clients_with_header_problems']}: {', '.join(r['header_problems'])} | none ✗ |")
    print(f"| clients with all {a.expect} / short / got a reload / dropped | {r['got_all']} / {r['short']} / {r['got_reload']} / {r['dropped']} "
          f"| all / 0 / 0 / 0 {mark(all_ok)} |")
    if r["creates_before_the_ingest"] or r["creates_over_expect"] or r["got_update"]:
        print(f"| clients with creates before the ingest / more than {a.expect} creates / updates | "
              f"{r['creates_before_the_ingest']} / {r['creates_over_expect']} / {r['got_update']} | 0 / 0 / 0 ✗ |")
    print(f"| the ingest (quakemap ingest, start to exit{'' if r['ingest_status'] == 0 else ', FAILED ' + str(r['ingest_status'])}) | {r['ingest_seconds']:.2f} s | |")
    if r["last_from_commit"] is not None:
        print(f"| the last client has all {a.expect}: from the commit / from the ingest's start | "
              f"{r['last_from_commit']:.2f} s / {r['last_from_start']:.2f} s | ≤ 2 s {mark(in_time)} |")
        print(f"| a client has all {a.expect}, from the commit: p50 / p99 / max | {f['p50']:.2f} / {f['p99']:.2f} / {f['max']:.2f} s | |")
        g, reads = r["first_create_from_commit"], r["create_reads_a_client"]
        print(f"| a client's first create, from the commit: first client / p50 / last client (reads a client for the "
              f"{a.expect}: p50, max) | {g['min']:.2f} / {g['p50']:.2f} / {g['max']:.2f} s ({reads['p50']}, {reads['max']}) | |")
    if "delivery_cpu" in r:
        d = r["delivery_cpu"]
        others = d["machine_user_seconds"] + d["machine_system_seconds"] - d["server_seconds"] - d["clients_seconds"]
        print(f"| CPU from the ingest's start to the last client: server / clients ({a.processes} processes) (of which "
              f"system) / other processes (the ingest, PostgreSQL, …) / interrupts / idle, of {os.cpu_count()} cores | "
              f"{d['server_seconds']:.2f} ({d['server_system_seconds']:.2f}) / {d['clients_seconds']:.2f} "
              f"({d['clients_system_seconds']:.2f}) / {max(0, others):.2f} / {d['machine_interrupt_seconds']:.2f} / "
              f"{d['machine_idle_seconds']:.2f} s in {d['wall_seconds']:.2f} s | |")
    each = (r["rss_connected_mib"] - r["rss_idle_mib"]) * 1024 / r["connected"] if r["connected"] else 0
    print(f"| resident memory: idle / {r['connected']} connected ({each:.0f} KiB each) / peak (VmHWM) | {r['rss_idle_mib']:.0f} / "
          f"{r['rss_connected_mib']:.0f} / {r['rss_peak_mib']:.0f} MiB ({r['vmhwm_mib']:.0f}) | |")
    print(f"| peak − idle | {grown:.0f} MiB | ≤ 256 MiB {mark(grown <= 256)} |")
    beyond = idle["beyond_heartbeats_percent"]
    print(f"| CPU with the {r['connected']} clients idle, {idle['seconds']:.0f} s: all / beyond heartbeats | "
          f"{idle['percent_of_a_core']:.2f} % / {'n/a' if beyond is None else f'{beyond:.2f} %'} of a core | "
          f"≤ 1 % beyond heartbeats {mark(beyond is not None and beyond <= 1)} |")
    per = f"{idle['heartbeat_cpu_seconds'] * 1e6 / r['heartbeats_in_window']:.0f} µs each" if r["heartbeats_in_window"] else "n/a"
    print(f"| heartbeats received in the window | {r['heartbeats_in_window']} ({r['heartbeats_a_client_in_window']} a client; "
          f"{idle['heartbeat_cpu_seconds']:.3f} s of CPU in their bursts, {per}) | |")
    print(f"| CPU of the server alone (no clients), {r['baseline']['seconds']:.0f} s | {r['baseline']['percent_of_a_core']:.2f} % of a core | |")
    print(f"| other processes' CPU meanwhile: alone / idle window (a busy machine blurs the figures) | "
          f"{r['baseline']['other_processes_cores']:.2f} / {idle['other_processes_cores']:.2f} cores | |")
    v = r["verify"]
    if v["clients"]:
        fine = not v["counts_mismatched"] and not v["problems"]
        wrong = "; ".join(v["problems"] + ([f"counts differ: clients {v['counts_mismatched']}"] if v["counts_mismatched"] else []))
        print(f"| {v['clients']} streams parsed in full (SSE, JSON) agree with the counts | "
              f"{'yes' if fine else 'NO: ' + wrong} | {mark(fine)} |")


if __name__ == "__main__":
    main()
