"""SeismoStats 1.0.1's Gardner–Knopoff declustering (GardnerKnopoffType1) against `quakemap decluster`:
the same mainshocks, event for event, with each of the three windows (Gardner–Knopoff,
Uhrhammer, Grünthal), on every shared USGS feed (../shared/data/usgs; skipped where absent) and on
synthetic catalogues with aftershock sequences (Benchmarks/synthetic_catalogue.py, fixed seeds).

SeismoStats is given exactly the events quakemap declustered: quakemap lists them (time, latitude,
longitude, mag) with its verdict, and the list is read back here, so reading, repeated ids and
events without a magnitude (never selected) are settled once, by quakemap.

SeismoStats compares each mainshock with every event: 20,000 synthetic events take it about 45 s
with one window. To keep the file near a minute, the 20,000-event catalogue is declustered with the
Gardner–Knopoff window only, and a 5,000-event one with the other two; the feeds longer than
FEED_ROWS rows are cut to their FEED_ROWS most recent rows (a contiguous stretch, so sequences stay
whole; QUAKEMAP_DECLUSTER_FULL=1 takes them whole: the feed tests then take 39 s instead of 15 s, and
agree as well).
"""
import csv
import io
import os
import pathlib
import sys

import pytest

np = pytest.importorskip("numpy", reason="installed with SeismoStats by `make test`")
pd = pytest.importorskip("pandas", reason="installed with SeismoStats by `make test`")
pytest.importorskip("seismostats", reason="SeismoStats is installed by `make test` (Tests/Interop/requirements.txt)")
from seismostats.analysis.declustering import (GardnerKnopoffType1, GardnerKnopoffWindow,  # noqa: E402
                                               GruenthalWindow, UhrhammerWindow)

from conftest import ROOT, SHARED, quakemap  # noqa: E402
from test_obspy import FEEDS  # noqa: E402

sys.path.insert(0, str(ROOT / "Benchmarks"))
import synthetic_catalogue  # noqa: E402

WINDOWS = {"gk": GardnerKnopoffWindow, "gk-uhrhammer": UhrhammerWindow, "gk-gruenthal": GruenthalWindow}
FEED_ROWS = 0 if os.environ.get("QUAKEMAP_DECLUSTER_FULL") == "1" else 3000


def declustered(path, method, *options):
    """quakemap's verdict: a DataFrame of the events (time, latitude, longitude, magnitude) and
    its mainshock flags and cluster ids, in quakemap's order."""
    text = quakemap("decluster", path, "--method", method, *options, "-q",
                    "--columns", "id,time,latitude,longitude,mag,clusterId,mainshock")
    rows = list(csv.DictReader(io.StringIO(text)))
    catalog = pd.DataFrame({
        "time": pd.to_datetime([row["time"] for row in rows], utc=True).tz_localize(None),
        "latitude": [float(row["latitude"]) for row in rows],
        "longitude": [float(row["longitude"]) for row in rows],
        "magnitude": [float(row["mag"]) for row in rows],
    })
    flags = np.array([row["mainshock"] == "1" for row in rows])
    clusters = np.array([int(row["clusterId"]) for row in rows])
    return catalog, flags, clusters, [row["id"] for row in rows]


def assert_agrees(path, method, fs_time_prop=1.0, options=()):
    catalog, ours, clusters, ids = declustered(path, method, *options)
    assert len(catalog) > 0, f"quakemap declustered no events of {path}"
    theirs = GardnerKnopoffType1(WINDOWS[method](), fs_time_prop=fs_time_prop)(catalog)
    differing = [ids[i] for i in np.flatnonzero(ours != theirs)]
    assert not differing, (f"{path.name} {method}: {len(differing)} of {len(ids)} events differ "
                           f"(mainshocks: quakemap {ours.sum()}, SeismoStats {theirs.sum()}), e.g. {differing[:5]}")
    # Every cluster has exactly one mainshock: its founder.
    assert len(set(clusters[ours])) == ours.sum() == len(set(clusters))


def recent(path, folder):
    """The feed itself, or its FEED_ROWS most recent rows (USGS lists the most recent first)."""
    if not FEED_ROWS or path.suffix != ".csv":
        return path
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if len(lines) - 1 <= FEED_ROWS:
        return path
    copy = folder / f"recent-{path.name}"
    copy.write_text("".join(lines[:FEED_ROWS + 1]), encoding="utf-8")
    return copy


@pytest.mark.parametrize("method", WINDOWS)
@pytest.mark.parametrize("name", FEEDS)
def test_feeds_agree_with_seismostats(name, method, tmp_path):
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared USGS feeds are beside the project in CI")
    # Grünthal's windows are NaN below M −0.036 (√ of a negative), and SeismoStats then fails
    # (pd.Timedelta(days=nan)); quakemap lets such an event found a cluster of itself alone.
    options = ("--min-mag", "0") if method == "gk-gruenthal" else ()
    assert_agrees(recent(path, tmp_path), method, options=options)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    folder = tmp_path_factory.mktemp("synthetic")

    def make(events, seed):
        path = folder / f"synthetic-{events}-{seed}.csv"
        if not path.exists():
            synthetic_catalogue.write_csv(path, events, seed=seed)
        return path
    return make


@pytest.mark.parametrize("method,events", [("gk", 20_000), ("gk-uhrhammer", 5_000), ("gk-gruenthal", 5_000)])
def test_synthetic_catalogue_agrees_with_seismostats(synthetic, method, events):
    assert_agrees(synthetic(events, 20260), method)


def test_foreshock_fraction_agrees_with_seismostats(synthetic):
    assert_agrees(synthetic(3_000, 7), "gk", fs_time_prop=0.3, options=("--foreshock-fraction", "0.3"))


def test_the_synthetic_catalogue_is_clustered(synthetic):
    """The generator makes sequences: a good share of its events are not mainshocks."""
    catalog, flags, _, _ = declustered(synthetic(5_000, 20260), "gk")
    assert len(catalog) == 5_000
    assert 0.2 < 1 - flags.mean() < 0.8
