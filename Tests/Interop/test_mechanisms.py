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
