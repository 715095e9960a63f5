"""SeismoStats, the statistical seismology toolbox nobody here wrote, against `quakemap bmap`:
every node of a b-value grid is estimated again here from its own events (its nearest N by
great-circle distance, found with numpy) with SeismoStats's maximum curvature and Aki–Utsu
estimator, and must agree to 1e-6; a synthetic catalogue with b = 0.8 in its western half and
1.2 in its eastern is drawn with the colours changing at the boundary (Pillow reads the pixels).
"""
import csv
import math

import pytest

np = pytest.importorskip("numpy", reason="installed with SeismoStats by `make test`")
pytest.importorskip("seismostats", reason="SeismoStats is installed by `make test` (Tests/Interop/requirements.txt)")
from PIL import Image  # noqa: E402
from seismostats.analysis import UtsuBValueEstimator, estimate_mc_maxc  # noqa: E402
from seismostats.utils import bin_to_precision  # noqa: E402

from conftest import SHARED, quakemap  # noqa: E402
from test_obspy import feed_rows  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:No magnitudes in the lowest magnitude bin")

EARTH_RADIUS = 6371.0  # km, as quakemap's BValueGrid.earthRadius
HEADER = ("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
          "horizontalError,depthError,magError,magNst,status,locationSource,magSource\n")


def split_catalogue(path, count=6000, seed=11):
    """Events over 121–115° W, 33–37° N; b 0.8 west of 118° W and 1.2 east of it, Mc 1.0, 0.01 precision."""
    rng = np.random.default_rng(seed)
    lon = rng.uniform(-121, -115, count)
    lat = rng.uniform(33, 37, count)
    b = np.where(lon < -118, 0.8, 1.2)
    mags = np.round(0.95 + rng.exponential(1 / (b * math.log(10))), 2)
    seconds = np.sort(rng.uniform(0, 3 * 365 * 86400, count)).astype("int64")
    start = np.datetime64("2021-01-01T00:00:00")
    with open(path, "w") as out:
        out.write(HEADER)
        for i in range(count):
            t = f"{start + np.timedelta64(int(seconds[i]), 's')}.000Z"
            out.write(f"{t},{lat[i]:.4f},{lon[i]:.4f},8.00,{mags[i]:.2f},ml,,,,,ci,ci{i:06d},{t},"
                      f"somewhere,earthquake,,,,,reviewed,ci,ci\n")
    return lat.round(4), lon.round(4), mags


def haversine(lat, lon, lat0, lon0):
    p, p0 = np.radians(lat), math.radians(lat0)
    h = np.sin((p - p0) / 2) ** 2 + np.cos(p) * math.cos(p0) * np.sin(np.radians(lon - lon0) / 2) ** 2
    return 2 * EARTH_RADIUS * np.arcsin(np.minimum(1, np.sqrt(h)))


def read_nodes(path):
    with open(path) as handle:
        return list(csv.DictReader(handle))


def check_nodes(nodes, lat, lon, mags, nearest, reach, fixed_mc=None, minimum=50):
    """Each node's count, radius, Mc, n ≥ Mc, b and σ(b) from its own nearest events, by SeismoStats."""
    checked = estimated = 0
    for node in nodes:
        distances = haversine(lat, lon, float(node["latitude"]), float(node["longitude"]))
        order = np.argsort(distances, kind="stable")
        within = order[distances[order] <= reach][:nearest]
        assert int(node["events"]) == len(within), node
        if len(within) == 0:
            continue
        # A tie at the N-th distance could be broken either way: such a node proves nothing.
        if len(within) == nearest and len(order) > nearest and \
                abs(distances[order[nearest]] - distances[order[nearest - 1]]) < 1e-9:
            continue
        assert float(node["radius_km"]) == pytest.approx(distances[within[-1]], rel=1e-9)
        binned = bin_to_precision(mags[within], 0.1)
        if fixed_mc is None:
            mc, _ = estimate_mc_maxc(binned, fmd_bin=0.1, correction_factor=0.2)
        else:
            mc = fixed_mc
        mc = float(bin_to_precision(np.array([mc]), 0.1)[0])
        above = binned[binned >= mc - 0.05]
        checked += 1
        if len(above) < minimum:
            assert node["b"] == "", f"{node}: {len(above)} events ≥ Mc, under {minimum}: the node stays clear"
            continue
        estimator = UtsuBValueEstimator()
        b = estimator.calculate(binned, mc=mc, delta_m=0.1)
        assert float(node["mc"]) == pytest.approx(mc, abs=1e-9), node
        assert int(node["events_above_mc"]) == estimator.n, node
        assert float(node["b"]) == pytest.approx(b, rel=1e-6), node
        assert float(node["b_sigma"]) == pytest.approx(estimator.std, rel=1e-6), node
        estimated += 1
    return checked, estimated


def test_every_node_of_a_split_catalogue_agrees_with_seismostats(tmp_path):
    lat, lon, mags = split_catalogue(tmp_path / "split.csv")
    quakemap("bmap", tmp_path / "split.csv", "--region=-121,33,-115,37", "--spacing", "0.5", "--nearest", "150",
             "--grid", tmp_path / "nodes.csv", "--width", "300", "-o", tmp_path / "b.png", "--quiet")
    nodes = read_nodes(tmp_path / "nodes.csv")
    assert len(nodes) == 13 * 9
    reach = min(5 * 0.5 * math.pi / 180 * EARTH_RADIUS, 200)  # five spacings, at most 200 km
    checked, estimated = check_nodes(nodes, lat, lon, mags, 150, reach)
    assert checked >= 110 and estimated >= 100, (checked, estimated)


def test_a_fixed_mc_and_a_radius_agree_too(tmp_path):
    lat, lon, mags = split_catalogue(tmp_path / "split.csv", count=3000, seed=5)
    quakemap("bmap", tmp_path / "split.csv", "--region=-121,33,-115,37", "--spacing", "1", "--radius", "40",
             "--mc", "1.0", "--min-events", "30", "--grid", tmp_path / "nodes.csv", "-o", tmp_path / "b.svg", "--quiet")
    nodes = read_nodes(tmp_path / "nodes.csv")
    assert len(nodes) == 7 * 5
    checked, estimated = check_nodes(nodes, lat, lon, mags, len(lat), 40.0, fixed_mc=1.0, minimum=30)
    assert estimated >= 25, (checked, estimated)
    assert (tmp_path / "b.svg").read_text().startswith("<?xml")


def test_a_real_month_agrees_with_seismostats(tmp_path):
    path = SHARED / "all_month_2020-06.csv"
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared/data/usgs is beside the checkout in CI)")
    latest = {}
    for row in feed_rows(path):
        latest[row["id"]] = row
    rows = [r for r in latest.values() if r["mag"] is not None
            and 32 <= r["lat"] <= 42 and -125 <= r["lon"] <= -114]
    lat = np.array([r["lat"] for r in rows])
    lon = np.array([r["lon"] for r in rows])
    mags = np.array([r["mag"] for r in rows])
    quakemap("bmap", path, "--region=-125,32,-114,42", "--spacing", "1", "--nearest", "100",
             "--grid", tmp_path / "nodes.csv", "-o", tmp_path / "b.png", "--quiet")
    nodes = read_nodes(tmp_path / "nodes.csv")
    assert len(nodes) == 12 * 11
    checked, estimated = check_nodes(nodes, lat, lon, mags, 100, 200.0)
    assert estimated >= 20, (checked, estimated)


def test_the_boundary_is_drawn_where_it_is(tmp_path):
    split_catalogue(tmp_path / "split.csv", count=20000, seed=3)
    quakemap("bmap", tmp_path / "split.csv", "--region=-121,33,-115,37", "--spacing", "0.25", "--mc", "1.0",
             "--width", "600", "--no-legend", "--basemap", "none", "--plates", "none", "-o", tmp_path / "b.png", "--quiet")
    image = Image.open(tmp_path / "b.png").convert("RGB")
    assert image.size == (600, 400)
    # Along each row, a column is warm (b below 1: red above blue) or cool; the change of
    # majority from warm to cool must fall within a node spacing (25 px) of 118° W (x = 300).
    warm = np.zeros(image.width)
    pixels = np.asarray(image, dtype=float)
    for y in range(20, 380, 10):
        warm += pixels[y, :, 0] > pixels[y, :, 2]
    majority = warm > (len(range(20, 380, 10)) / 2)
    assert majority[:250].all() and not majority[350:].any(), "warm west, cool east"
    edge = int(np.argmin(majority))
    assert abs(edge - 300) <= 25, f"the colours change at x = {edge}, not near 300 (118° W)"
