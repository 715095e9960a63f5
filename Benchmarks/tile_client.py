"""The client of `make bench-tiles`: asks a tile server for a list of tiles from several threads
and reports tiles/s; `--count` decodes each (untimed) and reports how many features the fullest
tile held and how many tiles hold exactly the server's cut (tipg's 10,000).

    tile_client.py URL_TEMPLATE TILES_FILE [--threads 8] [--count CUT] [--pid PID]

URL_TEMPLATE has {z}, {x} and {y}; TILES_FILE has one `z x y` a line. With --pid, the CPU seconds
that process used during the run are printed too (user + system, /proc), and a tile's share.
"""
import argparse
import concurrent.futures
import gzip
import json
import os
import time

import mapbox_vector_tile
import requests


def cpu_seconds(pid):
    if not pid:
        return 0.0
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("template")
    parser.add_argument("tiles")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--count", type=int)
    parser.add_argument("--pid", type=int)
    arguments = parser.parse_args()
    tiles = [tuple(map(int, line.split())) for line in open(arguments.tiles) if line.strip()]
    local = __import__("threading").local()

    def fetch(tile):
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        z, x, y = tile
        answer = session.get(arguments.template.format(z=z, x=x, y=y), headers={"Accept-Encoding": "gzip"}, timeout=300)
        return tile, answer.status_code, answer.content

    before = cpu_seconds(arguments.pid)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(arguments.threads) as pool:
        answers = list(pool.map(fetch, tiles))
    elapsed = time.monotonic() - start
    used = cpu_seconds(arguments.pid) - before
    failed = [tile for tile, status, _ in answers if status not in (200, 204)]
    result = {"tiles": len(tiles), "seconds": round(elapsed, 2), "tiles_per_second": round(len(tiles) / elapsed, 1),
              "failed": len(failed), "bytes": sum(len(body) for _, _, body in answers)}
    if arguments.pid:
        result["server_cpu_ms_per_tile"] = round(used * 1000 / len(tiles), 3)
    if arguments.count is not None:
        fullest, cut, features = 0, 0, 0
        for _, status, body in answers:
            if status != 200 or not body:
                continue
            if body[:2] == b"\x1f\x8b":
                body = gzip.decompress(body)
            layers = mapbox_vector_tile.decode(body)
            held = sum(len(layer["features"]) for layer in layers.values())
            features += held
            fullest = max(fullest, held)
            cut += held >= arguments.count
        result.update({"features": features, "fullest_tile": fullest, "tiles_at_the_cut": cut})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
