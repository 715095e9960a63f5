"""ObsPy, a reader nobody here wrote, against quakemap's focal mechanisms.

1. ObsPy's own NDK test files, read from the installed package (not copied): `obspy.read_events`
   and `quakemap list --format json` must give the same events, centroids, Mwc, nodal planes,
   tensors and scalar moments, and refuse the same damaged records.
2. A GCMT NDK file written here of mechanisms that have tripped tools up (strike 0 and 360,
   rake ±180, vertical and near-vertical planes, equal P and T plunges, Mrr = 0, moments from
   1e16 to 1e26 N·m, explosion, implosion, pure CLVD): quakemap's principal axes, computed from
   the tensor, must equal ObsPy's `mt2axes` of the tensor ObsPy reads from the same file, to 0.01°.
"""
import json
import math
import pathlib
import subprocess

import pytest

obspy = pytest.importorskip("obspy", reason="ObsPy is installed by `make test` (Tests/Interop/requirements.txt)")
from obspy import read_events  # noqa: E402
from obspy.imaging.beachball import MomentTensor, aux_plane, mt2axes, mt2plane  # noqa: E402

from conftest import BIN  # noqa: E402

NDK_DATA = pathlib.Path(obspy.__file__).parent / "io" / "ndk" / "tests" / "data"
# Angles to this many degrees, as the issue asks of the axes and planes.
DEGREES = 0.01


def quakemap_json(path):
    result = subprocess.run([str(BIN / "quakemap"), "list", str(path), "--format", "json", "--limit", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return {event["id"]: event for event in json.loads(result.stdout)}, result.stderr


def cmt_name(event):
    # ObsPy names the event smi:local/ndk/<CMT name>/event.
    return str(event.resource_id).split("/")[-2]


def turn(a, b):
    """The smaller angle between two azimuths, degrees."""
    return abs((a - b + 180) % 360 - 180)


@pytest.mark.parametrize("name", ["multiple_events.ndk", "C200604092050A.ndk"])
def test_obspys_ndk_files_read_alike(name):
    ours, _ = quakemap_json(NDK_DATA / name)
    theirs = read_events(str(NDK_DATA / name))
    assert len(ours) == len(theirs) > 0
    for event in theirs:
        mine = ours[cmt_name(event)]
        origin = event.preferred_origin()
        assert abs(obspy.UTCDateTime(mine["time"]) - origin.time) < 0.001
        assert mine["latitude"] == pytest.approx(origin.latitude, abs=1e-9)
        assert mine["longitude"] == pytest.approx(origin.longitude, abs=1e-9)
        assert mine["depth"] * 1000 == pytest.approx(origin.depth, abs=1e-6)
        magnitude = event.preferred_magnitude()
        assert (mine["mag"], mine["magType"]) == (pytest.approx(magnitude.mag, abs=1e-9), magnitude.magnitude_type)
        mechanism = mine["mechanism"]
        focal = event.focal_mechanisms[0]
        planes = [focal.nodal_planes.nodal_plane_1, focal.nodal_planes.nodal_plane_2]
        for plane, given in zip(mechanism["nodalPlanes"], planes):
            assert (plane["strike"], plane["dip"], plane["rake"]) == (given.strike, given.dip, given.rake)
        tensor = focal.moment_tensor.tensor
        for key, value in [("mrr", tensor.m_rr), ("mtt", tensor.m_tt), ("mpp", tensor.m_pp),
                           ("mrt", tensor.m_rt), ("mrp", tensor.m_rp), ("mtp", tensor.m_tp)]:
            assert mechanism["tensor"][key] == pytest.approx(value, rel=1e-9)
        assert mechanism["scalarMoment"] == pytest.approx(focal.moment_tensor.scalar_moment, rel=1e-9)
        # The axes GCMT printed (whole degrees, from its unrounded tensor) against ours from the printed tensor.
        axes = focal.principal_axes
        for key, axis in [("t", axes.t_axis), ("p", axes.p_axis), ("n", axes.n_axis)]:
            assert abs(mechanism["axes"][key]["plunge"] - axis.plunge) <= 1.5
            if axis.plunge < 80:
                assert turn(mechanism["axes"][key]["azimuth"], axis.azimuth) <= 2.5, (cmt_name(event), key)


def test_damaged_records_are_refused_as_obspy_refuses_them():
    path = NDK_DATA / "faulty_multiple_events.ndk"
    with pytest.warns(UserWarning):
        theirs = read_events(str(path))
    ours, stderr = quakemap_json(path)
    assert sorted(ours) == sorted(cmt_name(event) for event in theirs)
    # One warning a damaged record, each with the file's line and the columns at fault.
    warnings = [line for line in stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 6, stderr
    assert all("columns" in line and f"{path}:" in line for line in warnings)


def dc_tensor(strike, dip, rake, moment):
    """Aki & Richards (box 4.4) in r, θ, φ: the double couple of `moment` on a plane."""
    s, d, r = (math.radians(x) for x in (strike, dip, rake))
    mxx = -moment * (math.sin(d) * math.cos(r) * math.sin(2 * s) + math.sin(2 * d) * math.sin(r) * math.sin(s) ** 2)
    mxy = moment * (math.sin(d) * math.cos(r) * math.cos(2 * s) + 0.5 * math.sin(2 * d) * math.sin(r) * math.sin(2 * s))
    mxz = -moment * (math.cos(d) * math.cos(r) * math.cos(s) + math.cos(2 * d) * math.sin(r) * math.sin(s))
    myy = moment * (math.sin(d) * math.cos(r) * math.sin(2 * s) - math.sin(2 * d) * math.sin(r) * math.cos(s) ** 2)
    myz = -moment * (math.cos(d) * math.cos(r) * math.sin(s) - math.cos(2 * d) * math.sin(r) * math.cos(s))
    mzz = moment * math.sin(2 * d) * math.sin(r)
    # x north, y east, z down → r up, θ south, φ east.
    return [mzz, mxx, myy, mxz, -myz, -mxy]


# (name, tensor in N·m): each a trap for some tool.
QUIRKS = [
    ("strike0", dc_tensor(0, 45, 90, 1e18)),
    ("strike360", dc_tensor(360, 30, 45, 1e18)),
    ("rakeplus180", dc_tensor(120, 60, 180, 3e17)),
    ("rakeminus180", dc_tensor(120, 60, -180, 3e17)),
    ("vertical", dc_tensor(30, 90, 0, 5e19)),            # Mrr = 0
    ("nearvertical", dc_tensor(77, 89.99, 12, 5e19)),
    ("equalplunges", dc_tensor(10, 90, 90, 2e18)),       # vertical dip-slip: P and T both plunge 45°
    ("gentle", dc_tensor(200, 1, 75, 2e18)),
    ("small", dc_tensor(300, 70, -60, 1.3e16)),
    ("huge", dc_tensor(15, 12, 95, 2.0e23)),          # 1960 Chile, Mw 9.5
    ("tiny", dc_tensor(250, 50, -120, 1.0e9)),        # 1e16 dyn·cm
    ("oblique", [1.1e20, -2.3e20, 1.2e20, 0.4e20, -3.1e20, 2.2e20]),
    ("explosion", [1e17, 1e17, 1e17, 0, 0, 0]),
    ("implosion", [-4e19, -4e19, -4e19, 0, 0, 0]),
    ("clvd", [2e18, -1e18, -1e18, 0, 0, 0]),
]


def ndk_record(index, name, tensor):
    """Five NDK lines for `tensor` (N·m), in the format's columns; dyn·cm with an exponent."""
    dyne = [value * 1e7 for value in tensor]
    largest = max(abs(value) for value in dyne)
    exponent = int(math.floor(math.log10(largest)))
    scaled = [value / 10 ** exponent for value in dyne]
    moment = math.sqrt(sum(v * v for v in scaled[:3]) / 2 + sum(v * v for v in scaled[3:]))
    try:
        plane = mt2plane(MomentTensor(scaled, exponent))
        np1 = (plane.strike % 360, plane.dip, plane.rake)
        np2 = aux_plane(*np1)
        if any(math.isnan(value) for value in np1 + np2):
            raise ValueError("no double couple")
    except Exception:
        # An explosion or implosion has no nodal planes; the record still needs two.
        np1 = np2 = (0.0, 45.0, 90.0)
    np1, np2 = [(round(s) % 360, min(90, round(d)), round(r)) for s, d, r in (np1, np2)]
    event = f"Q{index:02d}{name.upper()[:9]:<9}A"[:14]
    lines = [
        f"PDEW 2020/01/{index + 1:02d} 10:00:00.0  10.00  120.00  30.0 5.0 5.0 {name.upper():<24}",
        f"{event:<16} B:  0    0   0 S:  0    0   0 M: 10   20 125 CMT: 1 TRIHD:  1.0",
        "CENTROID:      0.0 0.1  10.00 0.01  120.00 0.01  30.0  0.1 FREE S-20200102000000",
        f"{exponent:2d}" + "".join(f"{value:7.3f}{0.001:6.3f}" for value in scaled),
        "V10" + "".join(f"{0.0:8.3f}{0:3d}{0:4d}" for _ in range(3)) + f"{moment:8.3f}"
        + "".join(f"{s:4d}{d:3d}{r:5d}" for s, d, r in (np1, np2)),
    ]
    assert all(len(line) <= 80 for line in lines), lines
    return "\n".join(lines) + "\n", event


def test_principal_axes_equal_obspys(tmp_path):
    path = tmp_path / "quirks.ndk"
    records = [ndk_record(index, name, tensor) for index, (name, tensor) in enumerate(QUIRKS)]
    path.write_text("".join(text for text, _ in records))
    ours, stderr = quakemap_json(path)
    theirs = {cmt_name(event): event for event in read_events(str(path))}
    assert sorted(ours) == sorted(theirs) == sorted(name for _, name in records), stderr
    for (_, name) in records:
        tensor = theirs[name].focal_mechanisms[0].moment_tensor.tensor
        components = [tensor.m_rr, tensor.m_tt, tensor.m_pp, tensor.m_rt, tensor.m_rp, tensor.m_tp]
        axes = dict(zip("tnp", mt2axes(MomentTensor(components, 0))))
        mine = ours[name]["mechanism"]["axes"]
        values = sorted(axis.val for axis in axes.values())
        scale = max(abs(value) for value in values)
        for key, axis in axes.items():
            assert mine[key]["value"] == pytest.approx(axis.val, abs=1e-9 * scale), (name, key)
            # An axis whose eigenvalue another shares has no direction of its own.
            if sum(abs(value - axis.val) <= 1e-9 * scale for value in values) > 1:
                continue
            assert abs(mine[key]["plunge"] - axis.dip) <= DEGREES, (name, key, mine[key], axis.dip)
            if axis.dip < 90 - DEGREES:
                difference = turn(mine[key]["azimuth"], axis.strike)
                # A horizontal axis points both ways.
                if axis.dip < DEGREES:
                    difference = min(difference, turn(mine[key]["azimuth"] + 180, axis.strike))
                assert difference <= DEGREES, (name, key, mine[key], axis.strike)
        magnitude = theirs[name].preferred_magnitude().mag
        assert ours[name]["mag"] == pytest.approx(magnitude, abs=1e-9)


def validate_quakeml(path):
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(str(pathlib.Path(obspy.__file__).parent / "io" / "quakeml" / "data"
                                             / "QuakeML-1.2.xsd")))
    document = etree.parse(str(path))
    assert schema.validate(document), schema.error_log


def test_quakeml_with_mechanisms_round_trips_through_obspy(tmp_path):
    source = NDK_DATA / "multiple_events.ndk"
    written = tmp_path / "mechanisms.xml"
    result = subprocess.run([str(BIN / "quakemap"), "list", str(source), "--format", "quakeml", "--limit", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    written.write_text(result.stdout)
    validate_quakeml(written)
    # ObsPy reads what quakemap wrote to the numbers ObsPy reads from the NDK file itself.
    theirs = {cmt_name(event): event for event in read_events(str(source))}
    read_back = read_events(str(written))
    assert len(read_back) == len(theirs)
    for event in read_back:
        name = str(event.resource_id).split("eventid=")[-1]
        original = theirs[name].focal_mechanisms[0]
        focal = event.preferred_focal_mechanism()
        for plane, given in [(focal.nodal_planes.nodal_plane_1, original.nodal_planes.nodal_plane_1),
                             (focal.nodal_planes.nodal_plane_2, original.nodal_planes.nodal_plane_2)]:
            assert (plane.strike, plane.dip, plane.rake) == (given.strike, given.dip, given.rake)
        for key in ["m_rr", "m_tt", "m_pp", "m_rt", "m_rp", "m_tp"]:
            assert getattr(focal.moment_tensor.tensor, key) == pytest.approx(getattr(original.moment_tensor.tensor, key), rel=1e-12)
        assert focal.moment_tensor.scalar_moment == pytest.approx(original.moment_tensor.scalar_moment, rel=1e-12)
    # …and quakemap reads ObsPy's QuakeML of the NDK file to the mechanisms it reads from the NDK file.
    obspys = tmp_path / "obspy.xml"
    read_events(str(source)).write(str(obspys), format="QUAKEML")
    from_ndk, _ = quakemap_json(source)
    from_obspy, _ = quakemap_json(obspys)
    by_name = {name.split("/")[-2] if "/" in name else name: event for name, event in from_obspy.items()}
    assert sorted(by_name) == sorted(from_ndk)
    for name, event in from_ndk.items():
        mine, other = event["mechanism"], by_name[name]["mechanism"]
        assert mine["nodalPlanes"] == other["nodalPlanes"]
        for key, value in mine["tensor"].items():
            assert other["tensor"][key] == pytest.approx(value, rel=1e-9, abs=1e-12)
        assert other["scalarMoment"] == pytest.approx(mine["scalarMoment"], rel=1e-12)


PLANES = [(0, 45, 90), (360, 30, 45), (359.999, 60, -180), (120, 60, 180), (30, 90, 0), (77, 89.99, 12), (10, 90, 90),
          (200, 1, 75), (200, 0.5, -10), (300, 70, -60), (15, 12, 95), (210, 33, 90), (90, 45, -90), (45, 75, 179.99),
          (135, 20, -179.99), (270, 90, -90), (0, 0.01, 0)]


def test_auxiliary_planes_and_axes_equal_obspys(tmp_path):
    from obspy.core.event import (Catalog, Event, FocalMechanism, Magnitude, NodalPlane, NodalPlanes, Origin)
    catalog = Catalog()
    for index, (strike, dip, rake) in enumerate(PLANES):
        origin = Origin(time=obspy.UTCDateTime(2020, 1, 1, index), latitude=10, longitude=120, depth=10000)
        magnitude = Magnitude(mag=6.0, magnitude_type="Mw")
        focal = FocalMechanism(nodal_planes=NodalPlanes(nodal_plane_1=NodalPlane(strike=strike, dip=dip, rake=rake)))
        event = Event(resource_id=f"smi:local/event?eventid=plane{index}", origins=[origin], magnitudes=[magnitude],
                      focal_mechanisms=[focal])
        event.preferred_origin_id, event.preferred_magnitude_id = origin.resource_id, magnitude.resource_id
        event.preferred_focal_mechanism_id = focal.resource_id
        catalog.append(event)
    path = tmp_path / "planes.xml"
    catalog.write(str(path), format="QUAKEML")
    ours, stderr = quakemap_json(path)
    assert len(ours) == len(PLANES), stderr
    obspy_misses = []
    for index, given in enumerate(PLANES):
        mechanism = ours[f"plane{index}"]["mechanism"]
        first, second = mechanism["nodalPlanes"]
        # Ours is the same double couple as the plane given: the truth, whatever anyone computes.
        assert same_double_couple(given, (second["strike"], second["dip"], second["rake"])), (given, second)
        expected = tuple(float(value) for value in aux_plane(*given))
        if not same_double_couple(given, expected):
            # ObsPy's is not (its aux_plane on a near-horizontal plane, whose auxiliary is vertical):
            # recorded, and only there.
            obspy_misses.append((given, expected, second))
            assert abs(expected[1] - 90) <= DEGREES, (given, expected)
            continue
        # Angles, or for a vertical plane its other name (strike + 180, rake negated), to 0.01°.
        same = (turn(second["strike"], expected[0]) <= DEGREES and abs(second["dip"] - expected[1]) <= DEGREES
                and turn(second["rake"], expected[2]) <= DEGREES)
        other_name = (abs(second["dip"] - 90) <= DEGREES and abs(expected[1] - 90) <= DEGREES
                      and turn(second["strike"], expected[0] + 180) <= DEGREES and turn(second["rake"], -expected[2]) <= DEGREES)
        assert same or other_name, (given, second, expected)
        # The axes of the plane, without a moment, against ObsPy's of its double couple.
        axes = dict(zip("tnp", mt2axes(MomentTensor(dc_tensor(*given, 1.0), 0))))
        for key in "tp":
            axis, mine = axes[key], mechanism["axes"][key]
            assert abs(mine["plunge"] - axis.dip) <= DEGREES, (given, key)
            if axis.dip < 90 - DEGREES:
                difference = turn(mine["azimuth"], axis.strike)
                if axis.dip < DEGREES:
                    difference = min(difference, turn(mine["azimuth"] + 180, axis.strike))
                assert difference <= DEGREES, (given, key, mine, axis.strike)
    # ObsPy 1.5.1 gives the opposite slip for the vertical auxiliary of (0, 0.01, 0): (270, 90, -90.01),
    # whose tensor is not the plane's; quakemap's (270, 90, 90.01) is.
    assert len(obspy_misses) <= 1, obspy_misses


def same_double_couple(a, b):
    """Whether two planes (strike, dip, rake) are one double couple: equal tensors."""
    return all(abs(x - y) <= 1e-6 for x, y in zip(dc_tensor(*a, 1.0), dc_tensor(*b, 1.0)))


def test_obspys_focal_mechanism_document_reads_alike(tmp_path):
    from obspy.core.event import Magnitude, Origin
    catalog = read_events(str(pathlib.Path(obspy.__file__).parent / "io" / "quakeml" / "tests" / "data"
                              / "quakeml_1.2_focalmechanism.xml"))
    # ObsPy's test document has no origin; an event needs one to be placed on a map.
    origin = Origin(time=obspy.UTCDateTime(2011, 1, 1), latitude=47.0, longitude=11.0, depth=5000)
    catalog[0].origins.append(origin)
    catalog[0].magnitudes.append(Magnitude(mag=5.9, magnitude_type="Mw"))
    path = tmp_path / "focal.xml"
    catalog.write(str(path), format="QUAKEML")
    ours, stderr = quakemap_json(path)
    (mine,) = ours.values()
    focal = catalog[0].focal_mechanisms[0]
    mechanism = mine["mechanism"]
    assert mechanism["preferredPlane"] == focal.nodal_planes.preferred_plane == 2
    planes = [focal.nodal_planes.nodal_plane_1, focal.nodal_planes.nodal_plane_2]
    assert mechanism["nodalPlanes"] == [{"strike": p.strike, "dip": p.dip, "rake": p.rake} for p in planes]
    tensor = focal.moment_tensor.tensor
    assert [mechanism["tensor"][key] for key in ["mrr", "mtt", "mpp", "mrt", "mrp", "mtp"]] == \
        [tensor.m_rr, tensor.m_tt, tensor.m_pp, tensor.m_rt, tensor.m_rp, tensor.m_tp]
    assert mechanism["scalarMoment"] == focal.moment_tensor.scalar_moment


def render_ball(tmp_path, name, tensor, drawing):
    """quakemap's ball of `tensor` alone, ~300 px wide at the centre of a 400-px map."""
    text, event = ndk_record(0, name, tensor)
    path = tmp_path / f"{name}.ndk"
    path.write_text(text)
    png = tmp_path / f"{name}-{drawing}.png"
    magnitude = json.loads(subprocess.run([str(BIN / "quakemap"), "list", str(path), "--format", "json"],
                                          capture_output=True, text=True, check=True).stdout)[0]["mag"]
    scale = 300 / (0.75 * magnitude ** 2)
    result = subprocess.run([str(BIN / "quakemap"), "render", str(path), "--symbol", "beachball", "--mechanism", drawing,
                             "--beachball-scale", f"{scale:.6f}", "--region", "110,0,130,20", "--width", "400",
                             "--basemap", "none", "--no-legend", "--plates", "none", "--min-diameter", "0", "-o", str(png)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return png


def obspy_ball(tmp_path, name, components, diameter, zerotrace):
    """ObsPy's ball of the tensor `components` (r, θ, φ), `diameter` pixels wide on white, red
    compressions: `plot_mt`, ObsPy's equal-area renderer, which `beach()` uses for every tensor but a
    pure double couple (those go to `plot_dc`, bb.m's elliptical approximation of the nodal lines)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from obspy.imaging.beachball import plot_mt
    size = int(round(diameter)) + 2
    figure = plt.figure(figsize=(size / 100, size / 100), dpi=100)
    axes = figure.add_axes([0, 0, 1, 1])
    axes.set_xlim(-size / 2, size / 2)
    axes.set_ylim(-size / 2, size / 2)
    axes.set_aspect("equal")
    axes.axis("off")
    t, n, p = mt2axes(MomentTensor(components, 0).normalized)
    colors, patches = plot_mt(t, n, p, size=max(100, size), plot_zerotrace=zerotrace, xy=(0, 0), width=diameter)
    collection = PatchCollection(patches, match_original=False)
    collection.set_facecolors(["red" if color == "b" else "white" for color in colors])
    collection.set_edgecolor("none")
    axes.add_collection(collection)
    png = tmp_path / f"{name}-obspy.png"
    figure.savefig(str(png), dpi=100, facecolor="white")
    plt.close(figure)
    return png


# Balls big enough to read: the generated catalogue's tiny event (Mw 0) is left to the axes test.
BALLS = [(name, tensor) for name, tensor in QUIRKS if name != "tiny"]
# Where ObsPy 1.5.1's drawing (plot_mt, equal-area) is not its own radiation pattern: its
# quadrants swapped where an axis is vertical or horizontal, or an IndexError.
OBSPY_DRAWS_WRONG = {("strike0", "full"), ("vertical", "dc"), ("vertical", "full"), ("nearvertical", "dc"),
                     ("clvd", "dc"), ("equalplunges", "full")}


def radiation_signs(components, xs, ys):
    """ObsPy's P radiation (obspy.core.event.source.farfield) at the directions under the unit
    disc's points (x east, y north; Lambert equal-area, lower hemisphere): True where compressional."""
    import numpy as np
    from obspy.core.event.source import farfield
    rr, tt, pp, rt, rp, tp = components
    # north, east, down: Mxx = Mθθ, Myy = Mφφ, Mzz = Mrr, Mxy = −Mθφ, Mxz = Mrθ, Myz = −Mrφ.
    mt = [tt, pp, rr, -tp, rt, -rp]
    r = np.minimum(np.hypot(xs, ys), 1.0)
    theta = 2 * np.arcsin(r / math.sqrt(2))
    azimuth = np.arctan2(xs, ys)
    points = np.vstack([np.sin(theta) * np.cos(azimuth), np.sin(theta) * np.sin(azimuth), np.cos(theta)])
    displacement = farfield(mt, points, "P")
    return (displacement * points).sum(axis=0) > 0


@pytest.mark.parametrize("drawing", ["dc", "full"])
@pytest.mark.parametrize("name,tensor", BALLS, ids=[name for name, _ in BALLS])
def test_beachballs_agree_with_obspy(tmp_path, name, tensor, drawing):
    import numpy as np
    from PIL import Image
    ours = np.asarray(Image.open(render_ball(tmp_path, name, tensor, drawing)).convert("RGBA")).astype(float)
    rows, columns = np.nonzero(ours[:, :, 3] > 250)
    top, bottom, left, right = rows.min(), rows.max(), columns.min(), columns.max()
    radius = ((bottom - top) + (right - left)) / 4 + 0.5
    centre_y, centre_x = (top + bottom) / 2, (left + right) / 2
    # What is drawn: the tensor the NDK record gives (isotropic part and all), or for `dc` the double
    # couple of its first nodal plane, as quakemap's `dc` draws it.
    text, _ = ndk_record(0, name, tensor)
    focal = read_events_from_text(tmp_path, text).focal_mechanisms[0]
    t = focal.moment_tensor.tensor
    components = [t.m_rr, t.m_tt, t.m_pp, t.m_rt, t.m_rp, t.m_tp]
    if drawing == "dc":
        plane = focal.nodal_planes.nodal_plane_1
        components = dc_tensor(plane.strike, plane.dip, plane.rake, 1.0)
    # Every other pixel inside the rim (the rims are drawn differently), unless either drawing has
    # an antialiased edge or a nodal line there.
    ys, xs = np.mgrid[int(top):int(bottom) + 1:2, int(left):int(right) + 1:2]
    dx, dy = xs + 0.5 - (centre_x + 0.5), ys + 0.5 - (centre_y + 0.5)
    inside = dx * dx + dy * dy <= (0.94 * radius) ** 2
    xs, ys, dx, dy = xs[inside], ys[inside], dx[inside], dy[inside]
    pixels = ours[ys, xs]
    mine_fill = (pixels[:, 0] > 200) & (pixels[:, 2] < 120)
    mine_known = mine_fill | (pixels[:, :3].min(axis=1) > 200)
    truth = radiation_signs(components, dx / radius, -dy / radius)
    agreement = (mine_fill == truth)[mine_known].mean()
    assert mine_known.mean() > 0.9
    # 99.9 % or more measured; the issue asks 97 %.
    assert agreement >= 0.99, (name, drawing, agreement)
    # ObsPy's own drawing of the same tensor, rasterised at the same size.
    try:
        theirs = np.asarray(Image.open(obspy_ball(tmp_path, name, components, 2 * radius, zerotrace=False))
                            .convert("RGB")).astype(float)
    except IndexError:
        assert (name, drawing) in OBSPY_DRAWS_WRONG
        return
    size = theirs.shape[0]
    tx = np.clip(np.round(size / 2 + dx - 0.5).astype(int), 0, size - 1)
    ty = np.clip(np.round(size / 2 + dy - 0.5).astype(int), 0, size - 1)
    their_pixels = theirs[ty, tx]
    their_fill = (their_pixels[:, 0] > 200) & (their_pixels[:, 1] < 120)
    their_known = their_fill | (their_pixels.min(axis=1) > 200)
    known = mine_known & their_known
    with_obspy = (mine_fill == their_fill)[known].mean()
    obspy_right = (their_fill == truth)[their_known].mean()
    if (name, drawing) in OBSPY_DRAWS_WRONG:
        assert obspy_right < 0.97, (name, drawing, obspy_right)
    else:
        assert obspy_right >= 0.97 and with_obspy >= 0.97, (name, drawing, with_obspy, obspy_right)


def read_events_from_text(tmp_path, text):
    path = tmp_path / "one.ndk"
    path.write_text(text)
    return read_events(str(path))[0]


def test_mechanism_columns_are_obspys_numbers():
    """`list --format mechanisms`, read with Python's csv module: the planes, M₀ and tensor ObsPy reads."""
    import csv
    import io
    path = NDK_DATA / "multiple_events.ndk"
    result = subprocess.run([str(BIN / "quakemap"), "list", str(path), "--format", "mechanisms", "--limit", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    theirs = read_events(str(path))
    assert len(rows) == len(theirs)
    for event in theirs:
        row = rows[cmt_name(event)]
        focal = event.focal_mechanisms[0]
        for index, plane in enumerate([focal.nodal_planes.nodal_plane_1, focal.nodal_planes.nodal_plane_2], start=1):
            assert (float(row[f"strike{index}"]), float(row[f"dip{index}"]), float(row[f"rake{index}"])) == \
                (plane.strike, plane.dip, plane.rake)
        tensor = focal.moment_tensor.tensor
        for key, value in [("mrr", tensor.m_rr), ("mtt", tensor.m_tt), ("mpp", tensor.m_pp),
                           ("mrt", tensor.m_rt), ("mrp", tensor.m_rp), ("mtp", tensor.m_tp)]:
            assert float(row[key]) == value
        assert float(row["scalarMoment"]) == focal.moment_tensor.scalar_moment
        assert round(float(row["mw"]), 2) == event.preferred_magnitude().mag


@pytest.mark.parametrize("convention", ["meca-a", "meca-c", "meca-m"])
def test_gmt_meca_text_reads_to_obspys_numbers(tmp_path, convention):
    """GMT meca text written from ObsPy's reading of its own NDK files (-Sa, -Sc, -Sm, the CMT name
    as the title): quakemap's mechanisms are ObsPy's planes, moments and tensors."""
    theirs = read_events(str(NDK_DATA / "multiple_events.ndk"))
    rows = []
    for event in theirs:
        origin, focal = event.preferred_origin(), event.focal_mechanisms[0]
        first, second = focal.nodal_planes.nodal_plane_1, focal.nodal_planes.nodal_plane_2
        where = f"{origin.longitude} {origin.latitude} {origin.depth / 1000}"
        moment = focal.moment_tensor.scalar_moment * 1e7  # N·m → dyn·cm
        exponent = math.floor(math.log10(moment))
        if convention == "meca-a":
            magnitude = event.preferred_magnitude().mag
            fields = f"{first.strike} {first.dip} {first.rake} {magnitude}"
        elif convention == "meca-c":
            fields = f"{first.strike} {first.dip} {first.rake} {second.strike} {second.dip} {second.rake} " \
                     f"{moment / 10 ** exponent!r} {exponent}"
        else:
            tensor = focal.moment_tensor.tensor
            values = [tensor.m_rr, tensor.m_tt, tensor.m_pp, tensor.m_rt, tensor.m_rp, tensor.m_tp]
            fields = " ".join(repr(value * 1e7 / 10 ** exponent) for value in values) + f" {exponent}"
        # GMT's plotting position sits between the fields and the title; quakemap reads past it.
        rows.append(f"{where} {fields} {origin.longitude + 1} {origin.latitude} {cmt_name(event)}")
    path = tmp_path / "focal.txt"
    path.write_text("# written from ObsPy's reading of multiple_events.ndk\n" + "\n".join(rows) + "\n")
    result = subprocess.run([str(BIN / "quakemap"), "list", str(path), "--input-format", convention, "--format", "json",
                             "--limit", "0"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    ours = {event["id"]: event for event in json.loads(result.stdout)}
    assert len(ours) == len(theirs) == len(rows)
    for event in theirs:
        mine, focal = ours[cmt_name(event)], event.focal_mechanisms[0]
        origin = event.preferred_origin()
        # The CMT name's minute is the time; the position is the row's, not GMT's plotting one.
        assert abs(obspy.UTCDateTime(mine["time"]) - origin.time) < 60
        assert (mine["longitude"], mine["latitude"]) == (pytest.approx(origin.longitude), pytest.approx(origin.latitude))
        mechanism = mine["mechanism"]
        given = [focal.nodal_planes.nodal_plane_1, focal.nodal_planes.nodal_plane_2]
        if convention == "meca-m":
            tensor = focal.moment_tensor.tensor
            for key, value in [("mrr", tensor.m_rr), ("mtt", tensor.m_tt), ("mpp", tensor.m_pp),
                               ("mrt", tensor.m_rt), ("mrp", tensor.m_rp), ("mtp", tensor.m_tp)]:
                assert mechanism["tensor"][key] == pytest.approx(value, rel=1e-9)
            # The planes from the tensor are ObsPy's mt2plane and aux_plane of the same tensor.
            values = [tensor.m_rr, tensor.m_tt, tensor.m_pp, tensor.m_rt, tensor.m_rp, tensor.m_tp]
            plane = mt2plane(MomentTensor(*values, 0))
            expected = [(plane.strike, plane.dip, plane.rake), aux_plane(plane.strike, plane.dip, plane.rake)]
            planes = [(p["strike"], p["dip"], p["rake"]) for p in mechanism["nodalPlanes"]]
            for strike, dip, rake in expected:
                assert any(turn(s, strike) <= DEGREES and abs(d - dip) <= DEGREES and turn(r, rake) <= DEGREES
                           for s, d, r in planes), (cmt_name(event), planes, expected)
        else:
            count = 1 if convention == "meca-a" else 2
            for plane, expected in zip(mechanism["nodalPlanes"], given[:count]):
                assert (plane["strike"], plane["dip"], plane["rake"]) == (expected.strike, expected.dip, expected.rake)
            if convention == "meca-c":
                assert mechanism["scalarMoment"] == pytest.approx(focal.moment_tensor.scalar_moment, rel=1e-12)
            else:
                # -Sa: the auxiliary plane quakemap works out is ObsPy's aux_plane.
                auxiliary = aux_plane(given[0].strike, given[0].dip, given[0].rake)
                second = mechanism["nodalPlanes"][1]
                assert turn(second["strike"], auxiliary[0]) <= DEGREES and abs(second["dip"] - auxiliary[1]) <= DEGREES


USGS_DETAIL = {
    # Written from the documented product properties of a ComCat detail document: strings, the older
    # "-slip" for a rake; of two moment tensors the higher preferredWeight is the event's.
    "type": "Feature", "id": "us7000abcd",
    "geometry": {"type": "Point", "coordinates": [142.37, 38.30, 29]},
    "properties": {
        "mag": 9.1, "magType": "mww", "time": 1299822166000, "updated": 1600000000000, "type": "earthquake",
        "place": "near the east coast of Honshu, Japan", "net": "us", "code": "7000abcd",
        "products": {"moment-tensor": [
            {"source": "us", "preferredWeight": 40, "properties": {
                "tensor-mrr": "1.0e22", "tensor-mtt": "-1.0e22", "tensor-mpp": "0", "tensor-mrt": "0",
                "tensor-mrp": "0", "tensor-mtp": "0", "scalar-moment": "1.0e22"}},
            {"source": "gcmt", "preferredWeight": 100, "properties": {
                "nodal-plane-1-strike": "203", "nodal-plane-1-dip": "10", "nodal-plane-1-slip": "88",
                "nodal-plane-2-strike": "25", "nodal-plane-2-dip": "80", "nodal-plane-2-slip": "90",
                "tensor-mrr": "1.730e22", "tensor-mtt": "-0.281e22", "tensor-mpp": "-1.450e22",
                "tensor-mrt": "2.120e22", "tensor-mrp": "4.550e22", "tensor-mtp": "-0.657e22",
                "scalar-moment": "5.31e22"}}]}},
}


def white_pixels(path):
    import numpy
    from PIL import Image
    pixels = numpy.asarray(Image.open(path).convert("RGBA"))
    return int(numpy.all(pixels == 255, axis=-1).sum())


@pytest.mark.parametrize("source", ["multiple_events.ndk", "C200604092050A.ndk", "quakeml", "usgs-detail"])
def test_every_mechanism_input_renders_as_beachballs(tmp_path, source):
    """ObsPy's NDK files and its focal-mechanism QuakeML, and a USGS detail document, drawn with
    --symbol beachball: every event a ball (white dilatational quadrants, which circles never have)."""
    if source.endswith(".ndk"):
        path, count = NDK_DATA / source, len(read_events(str(NDK_DATA / source)))
    elif source == "quakeml":
        from obspy.core.event import Magnitude, Origin
        catalog = read_events(str(pathlib.Path(obspy.__file__).parent / "io" / "quakeml" / "tests" / "data"
                                  / "quakeml_1.2_focalmechanism.xml"))
        catalog[0].origins.append(Origin(time=obspy.UTCDateTime(2011, 1, 1), latitude=47.0, longitude=11.0, depth=5000))
        catalog[0].magnitudes.append(Magnitude(mag=5.9, magnitude_type="Mw"))
        path, count = tmp_path / "focal.xml", 1
        catalog.write(str(path), format="QUAKEML")
    else:
        path, count = tmp_path / "detail.geojson", 1
        path.write_text(json.dumps(USGS_DETAIL))
    maps = {}
    for symbol in ["circle", "beachball"]:
        out = tmp_path / f"{symbol}.png"
        result = subprocess.run([str(BIN / "quakemap"), "render", str(path), "--symbol", symbol, "--width", "800",
                                 "--no-legend", "--labels", "0", "-o", str(out)], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert f"drew {count} " in result.stderr, result.stderr
        maps[symbol] = white_pixels(out)
    assert maps["circle"] == 0
    assert maps["beachball"] >= 20 * count, maps
