#!/usr/bin/env python3
"""Writes a large SYNTHETIC feed for benchmarks: the project's own synthetic sample
(Data/synthetic_all_day.csv) replayed day after day, going back in time, with new ids.
It keeps the sample's mix: quoted places with commas, UTF-8, empty and negative
magnitudes. Deterministic: the same size always gives the same bytes.

usage: make_big_feed.py OUT.csv SIZE   (SIZE in bytes, e.g. 1e9, or rows with an 'r' suffix, e.g. 1000000r)
"""
import csv, datetime, io, os, sys

def main():
    out, size = sys.argv[1], sys.argv[2]
    rows_wanted = int(float(size[:-1])) if size.endswith("r") else None
    bytes_wanted = None if rows_wanted else int(float(size))
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Data", "synthetic_all_day.csv")
    with open(sample, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    col = {name: i for i, name in enumerate(header)}
    fmt = "%Y-%m-%dT%H:%M:%S.%f"
    def shift(text, days):
        t = datetime.datetime.strptime(text[:-1], fmt) - datetime.timedelta(days=days)
        return t.strftime(fmt)[:-3] + "Z"
    written = rows_done = 0
    with open(out, "w", newline="", encoding="utf-8") as f:
        f.write(",".join(header) + "\n")
        day = 0
        while True:
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            for row in rows:
                if rows_wanted is not None and rows_done >= rows_wanted:
                    break
                copy = list(row)
                copy[col["time"]] = shift(row[col["time"]], day)
                copy[col["updated"]] = shift(row[col["updated"]], day)
                copy[col["id"]] = "%s%d" % (row[col["id"]], day)
                writer.writerow(copy)
                rows_done += 1
            chunk = buffer.getvalue()
            f.write(chunk)
            written += len(chunk.encode("utf-8"))
            day += 1
            if rows_wanted is not None and rows_done >= rows_wanted:
                break
            if bytes_wanted is not None and written >= bytes_wanted:
                break
    print("%s: %d rows, %d bytes" % (out, rows_done, os.path.getsize(out)))

main()
