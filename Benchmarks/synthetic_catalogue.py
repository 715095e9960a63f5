"""A synthetic earthquake catalogue with aftershock sequences, written as a USGS-style CSV.

One generator for the declustering tests (Tests/Interop/test_declustering.py) and the benchmark
(Benchmarks/stats-decluster.sh), deterministic for a seed:

- background events: a Poisson process in time, uniform over a few real-looking seismic regions
  (one astride the antimeridian), depths 0–35 km (deeper in subduction regions);
- Gutenberg–Richter magnitudes with b = 1 above 2.0 (capped at 8.6), rounded to 0.1, or to 0.01
  for one network's local magnitudes; magnitude types ml/md below 4, mb to 5.5, mww above;
- each background event's aftershocks (one generation): a Poisson number whose mean makes the
  largest expected aftershock Båth's M − 1.2 (10^(M − 1.2 − Mmin) for b = 1), Omori–Utsu times
  (p = 1.1, c = 0.01 days, up to 1000 days), Gutenberg–Richter magnitudes below the mainshock's,
  and epicentres scattered about the mainshock over a rupture-sized distance, 10^(0.5 M − 1.8) km.

Run as a script to write a file: `python synthetic_catalogue.py OUT.csv --events 1000000 --seed 1`.
"""
import argparse
import math

import numpy as np

# (name, south, north, west, east, weight, deep): west > east crosses the antimeridian.
REGIONS = [
    ("California", 32.0, 40.0, -124.0, -115.0, 0.30, False),
    ("Japan", 30.0, 44.0, 130.0, 146.0, 0.25, True),
    ("Chile", -40.0, -18.0, -76.0, -68.0, 0.15, True),
    ("Tonga-Fiji", -25.0, -14.0, 175.0, -172.0, 0.15, True),
    ("Italy", 37.0, 46.0, 7.0, 18.0, 0.10, False),
    ("Alaska", 56.0, 64.0, -160.0, -145.0, 0.05, True),
]
NETWORKS = {"California": "ci", "Japan": "jm", "Chile": "us", "Tonga-Fiji": "us", "Italy": "iv", "Alaska": "ak"}
MINIMUM = 2.0
EPOCH = np.datetime64("2000-01-01T00:00:00", "ms")
HEADER = ("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
          "horizontalError,depthError,magError,magNst,status,locationSource,magSource")


def gutenberg_richter(rng, count, minimum, b=1.0, maximum=8.6):
    """Magnitudes above `minimum` of slope b, truncated at `maximum`."""
    u = rng.random(count)
    span = 1.0 - 10.0 ** (-b * (maximum - minimum))
    return minimum - np.log10(1.0 - u * span) / b


def omori_days(rng, count, p=1.1, c=0.01, horizon=1000.0):
    """Delays after the mainshock, in days, from the Omori–Utsu rate (t + c)^−p up to `horizon`."""
    u = rng.random(count)
    a = c ** (1 - p)
    b = (horizon + c) ** (1 - p)
    return (a + u * (b - a)) ** (1 / (1 - p)) - c


def generate(events, seed=1, years=None):
    """Arrays (ms since 1970, latitude, longitude, depth, magnitude, region index) of about
    `events` events, sorted by time; `years` defaults to 100 000 events a year."""
    years = years or max(1.0, events / 100_000)
    # About half the events are aftershocks: start with half as background, more if short.
    background = max(1, events // 2)
    while True:
        drawn = _draw(events, seed, years, background)
        if drawn[0].size >= events:
            return drawn
        background = int(background * events / max(drawn[0].size, 1) * 1.05) + 1


def _draw(events, seed, years, background):
    rng = np.random.default_rng(seed)
    weights = np.array([r[5] for r in REGIONS])
    region = rng.choice(len(REGIONS), size=background, p=weights / weights.sum())
    south = np.array([r[1] for r in REGIONS])[region]
    north = np.array([r[2] for r in REGIONS])[region]
    west = np.array([r[3] for r in REGIONS])[region]
    east = np.array([r[4] for r in REGIONS])[region]
    width = np.where(east > west, east - west, east + 360 - west)
    latitude = south + (north - south) * rng.random(background)
    longitude = west + width * rng.random(background)
    deep = np.array([r[6] for r in REGIONS])[region]
    depth = np.where(deep & (rng.random(background) < 0.3), rng.uniform(35, 300, background), rng.uniform(0, 35, background))
    magnitude = gutenberg_richter(rng, background, MINIMUM)
    days = rng.random(background) * years * 365.25

    # One great earthquake would otherwise be most of a small catalogue.
    counts = np.minimum(rng.poisson(10.0 ** (magnitude - 1.2 - MINIMUM)), max(50, events // 20))
    parent = np.repeat(np.arange(background), counts)
    total = parent.size
    pm = magnitude[parent]
    after_magnitude = np.minimum(gutenberg_richter(rng, total, MINIMUM), pm - 0.1)
    after_magnitude = np.maximum(after_magnitude, MINIMUM)
    after_days = days[parent] + omori_days(rng, total)
    scale = 10.0 ** (0.5 * pm - 1.8)  # km
    distance = rng.exponential(scale)
    azimuth = rng.random(total) * 2 * np.pi
    dlat = distance * np.cos(azimuth) / 111.2
    dlon = distance * np.sin(azimuth) / (111.2 * np.maximum(np.cos(np.radians(latitude[parent])), 0.05))

    all_latitude = np.clip(np.concatenate([latitude, latitude[parent] + dlat]), -89.9, 89.9)
    all_longitude = np.concatenate([longitude, longitude[parent] + dlon])
    all_longitude = (all_longitude + 180.0) % 360.0 - 180.0
    all_depth = np.concatenate([depth, np.clip(depth[parent] + rng.normal(0, 3, total), 0, 700)])
    all_magnitude = np.concatenate([magnitude, after_magnitude])
    all_days = np.concatenate([days, after_days])
    all_region = np.concatenate([region, region[parent]])
    order = np.argsort(all_days, kind="stable")[:events]
    ms = (EPOCH.astype("int64") + np.round(all_days[order] * 86_400_000)).astype("int64")
    return ms, all_latitude[order], all_longitude[order], all_depth[order], all_magnitude[order], all_region[order]


def write_csv(path, events, seed=1, years=None):
    """Writes the catalogue as a USGS CSV, most recent first (as USGS lists them)."""
    ms, latitude, longitude, depth, magnitude, region = generate(events, seed, years)
    network = np.array([NETWORKS[r[0]] for r in REGIONS])[region]
    # ci's local magnitudes keep two decimals; the rest are rounded to tenths.
    local = magnitude < 4.0
    hundredths = (network == "ci") & local
    rounded = np.where(hundredths, np.round(magnitude, 2), np.round(magnitude, 1))
    mag_type = np.where(local, np.where(network == "ci", "ml", "md"), np.where(magnitude < 5.5, "mb", "mww"))
    times = np.datetime_as_string(ms.astype("datetime64[ms]"), unit="ms")
    order = np.argsort(-ms, kind="stable")
    names = [r[0] for r in REGIONS]
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEADER + "\n")
        lines = []
        for i in order:
            decimals = 2 if hundredths[i] else 1
            lines.append(
                f"{times[i]}Z,{latitude[i]:.4f},{longitude[i]:.4f},{depth[i]:.2f},{rounded[i]:.{decimals}f},"
                f"{mag_type[i]},,,,,{network[i]},{network[i]}{i:08d},{times[i]}Z,"
                f"\"synthetic, {names[region[i]]}\",earthquake,,,,,reviewed,{network[i]},{network[i]}\n")
            if len(lines) >= 100_000:
                out.writelines(lines)
                lines.clear()
        out.writelines(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=float, default=None)
    arguments = parser.parse_args()
    write_csv(arguments.output, arguments.events, arguments.seed, arguments.years)


if __name__ == "__main__":
    main()
