"""The synthetic GCMT NDK catalogue of scripts/make_mechanisms.py, read by ObsPy and by quakemap.

1. The generator is deterministic: the same arguments give the same bytes, to a file or to
   standard output; another seed gives another catalogue.
2. ObsPy (`obspy.read_events`, a reader nobody here wrote) reads every event without a warning,
   and the planes each record writes are the double couple of the tensor it writes: ObsPy's
   `mt2plane` of the tensor it reads, and that plane's auxiliary, give them back to the
   rounding of whole degrees. (ObsPy 1.5.1's `mt2plane` raises on a horizontal plane and its
   `aux_plane` slips the wrong way on the vertical auxiliary of pure strike-slip; both are
   counted, and the auxiliary is then taken from the normal and slip.)
3. quakemap's `list --format json` reads every event to ObsPy's numbers: nodal planes to 0.01°,
   tensor and scalar moment to 1e-6, centroid and Mwc.
4. The mechanisms are what the generator says of them: thrusts on subduction zones, normal faults
   on ridges, strike-slip on transforms, and by rake about 60/25/15 % thrust/normal/strike-slip;
   in known places (off Japan and Chile, the Mid-Atlantic Ridge, the San Andreas) the class
   expected there is the most common.
5. `quakemap render FILE --symbol beachball` draws them: a PNG with the balls' colours in it.
"""
import collections
import math
import subprocess
import sys
import warnings

import pytest

obspy = pytest.importorskip("obspy", reason="ObsPy is installed by `make test` (Tests/Interop/requirements.txt)")
from obspy import read_events  # noqa: E402
from obspy.imaging.beachball import MomentTensor, aux_plane, mt2plane  # noqa: E402

from conftest import BIN, ROOT  # noqa: E402
from test_mechanisms import cmt_name, quakemap_json, same_double_couple, turn  # noqa: E402

SCRIPT = ROOT / "scripts" / "make_mechanisms.py"
COUNT = 1500
SUBDUCTION = ("INTERPLATE", "INTRASLAB", "OUTER RISE")


def generate(*arguments):
    result = subprocess.run([sys.executable, str(SCRIPT), "--count", str(COUNT), *map(str, arguments)],
                            capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    folder = tmp_path_factory.mktemp("generated")
    first, second = folder / "first.ndk", folder / "second.ndk"
    generate("--out", first)
    generate("--out", second)
    return first, second


@pytest.fixture(scope="module")
def obspys(catalogue):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return read_events(str(catalogue[0]))


@pytest.fixture(scope="module")
def ours(catalogue):
    events, stderr = quakemap_json(catalogue[0])
    assert "warning:" not in stderr and f"{COUNT} events" in stderr, stderr
    return events


def rake_class(rake):
    if 45 < rake < 135:
        return "thrust"
    if -135 < rake < -45:
        return "normal"
    return "strike-slip"


def kind_of(place):
    """The kind of event the generator put in the region column ("SYN PA-OK INTERPLATE")."""
    for kind in SUBDUCTION + ("COLLISION", "RIDGE", "TRANSFORM"):
        if place.endswith(kind):
            return kind
    return "other"


def test_the_same_arguments_give_the_same_bytes(catalogue):
    first, second = catalogue
    assert first.read_bytes() == second.read_bytes()
    assert generate() == first.read_bytes()  # standard output, the default
    assert generate("--seed", 7) != first.read_bytes()


def test_every_record_is_five_lines_of_80_columns(catalogue):
    lines = catalogue[0].read_text(encoding="ascii").split("\n")
    assert lines[-1] == "" and len(lines) - 1 == 5 * COUNT
    assert all(len(line) == 80 for line in lines[:-1])
    names = [lines[5 * i + 1][:16].strip() for i in range(COUNT)]
    assert len(set(names)) == COUNT and all(len(name) == 14 and name.startswith("C2024") for name in names)


def test_obspy_reads_every_event_without_a_warning(obspys):
    assert len(obspys) == COUNT
    assert len({cmt_name(event) for event in obspys}) == COUNT


def vectors(strike, dip, rake):
    """Normal and slip of a plane (north, east, down), to compare planes whatever their names."""
    f, d, r = (math.radians(x) for x in (strike, dip, rake))
    normal = (-math.sin(d) * math.sin(f), math.sin(d) * math.cos(f), -math.cos(d))
    slip = (math.cos(r) * math.cos(f) + math.cos(d) * math.sin(r) * math.sin(f),
            math.cos(r) * math.sin(f) - math.cos(d) * math.sin(r) * math.cos(f), -math.sin(r) * math.sin(d))
    return normal, slip


def plane_gap(a, b):
    """The larger of the angles between two planes' normals and between their slips, degrees
    (a plane named (s, 90, r) and (s + 180, 90, −r) is the same plane)."""
    (n1, d1), (n2, d2) = vectors(*a), vectors(*b)
    if sum(x * y for x, y in zip(n1, n2)) < 0:
        n2, d2 = [-x for x in n2], [-x for x in d2]

    def angle(u, v):
        return math.degrees(math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(u, v))))))
    return max(angle(n1, n2), angle(d1, d2))


def plane_of(normal, slip):
    """(strike, dip, rake) of the plane with this normal and slip."""
    if normal[2] > 0:
        normal, slip = [-x for x in normal], [-x for x in slip]
    dip = math.degrees(math.acos(max(-1.0, min(1.0, -normal[2]))))
    strike = math.degrees(math.atan2(-normal[0], normal[1])) % 360
    along = (math.cos(math.radians(strike)), math.sin(math.radians(strike)), 0.0)
    up_dip = (normal[1] * along[2] - normal[2] * along[1], normal[2] * along[0] - normal[0] * along[2],
              normal[0] * along[1] - normal[1] * along[0])
    rake = math.degrees(math.atan2(sum(x * y for x, y in zip(slip, up_dip)), sum(x * y for x, y in zip(slip, along))))
    return strike, dip, rake


def test_the_planes_are_the_double_couple_of_the_tensor(obspys):
    horizontal, obspy_misses = [], []
    for event in obspys:
        focal = event.focal_mechanisms[0]
        written = [(p.strike, p.dip, p.rake) for p in (focal.nodal_planes.nodal_plane_1, focal.nodal_planes.nodal_plane_2)]
        t = focal.moment_tensor.tensor
        if min(dip for _, dip, _ in written) == 0:
            # A vertical dip-slip fault (P and T plunge alike): its auxiliary plane is horizontal,
            # where ObsPy 1.5.1's mt2plane divides by sin(dip) = 0 and raises.
            horizontal.append(cmt_name(event))
            continue
        plane = mt2plane(MomentTensor([t.m_rr, t.m_tt, t.m_pp, t.m_rt, t.m_rp, t.m_tp], 0))
        first = (float(plane.strike) % 360, float(plane.dip), float(plane.rake))
        normal, slip = vectors(*first)
        second = plane_of(slip, normal)
        obspys_second = tuple(float(x) for x in aux_plane(*first))
        if not same_double_couple(first, obspys_second):
            # ObsPy 1.5.1's aux_plane of a pure strike-slip plane that is not vertical gives its
            # vertical auxiliary the wrong sense of slip (another double couple), as
            # test_mechanisms.py records of (0, 0.01, 0): counted, and only there.
            obspy_misses.append(cmt_name(event))
            assert abs(obspys_second[1] - 90) <= 0.01 and min(turn(first[2], 0), turn(first[2], 180)) <= 0.5, \
                (cmt_name(event), first, obspys_second)
        else:
            assert plane_gap(second, obspys_second) <= 1e-4
        theirs = [first, second]
        if plane_gap(theirs[0], written[0]) > plane_gap(theirs[0], written[1]):
            theirs.reverse()
        for mine, other in zip(written, theirs):
            # Whole degrees of strike, dip and rake: each within 0.5°, normal and slip within ~0.9°.
            assert plane_gap(mine, other) <= 1.0, (cmt_name(event), written, theirs)
            if 10 <= mine[1] <= 80 and 10 <= other[1] <= 80:
                assert turn(mine[0], other[0]) <= 0.6 and abs(mine[1] - other[1]) <= 0.6 \
                    and turn(mine[2], other[2]) <= 0.6, (cmt_name(event), written, theirs)
    assert len(horizontal) <= 3, horizontal
    assert len(obspy_misses) <= 0.02 * COUNT, obspy_misses


def test_quakemap_reads_every_event_as_obspy_does(obspys, ours):
    assert len(ours) == COUNT
    for event in obspys:
        name = cmt_name(event)
        mine = ours[name]
        origin = event.preferred_origin()
        assert abs(obspy.UTCDateTime(mine["time"]) - origin.time) < 0.001, name
        assert mine["latitude"] == pytest.approx(origin.latitude, abs=1e-9)
        assert mine["longitude"] == pytest.approx(origin.longitude, abs=1e-9)
        assert mine["depth"] * 1000 == pytest.approx(origin.depth, abs=1e-6)
        assert mine["mag"] == pytest.approx(event.preferred_magnitude().mag, abs=1e-9)
        focal = event.focal_mechanisms[0]
        mechanism = mine["mechanism"]
        for plane, given in zip(mechanism["nodalPlanes"], [focal.nodal_planes.nodal_plane_1,
                                                           focal.nodal_planes.nodal_plane_2]):
            # quakemap reads a strike of 360 as 0 and a rake of −180 as 180.
            assert turn(plane["strike"], given.strike) <= 0.01, (name, plane, given)
            assert abs(plane["dip"] - given.dip) <= 0.01, (name, plane, given)
            assert turn(plane["rake"], given.rake) <= 0.01, (name, plane, given)
        tensor = focal.moment_tensor.tensor
        scale = max(abs(getattr(tensor, key)) for key in ("m_rr", "m_tt", "m_pp", "m_rt", "m_rp", "m_tp"))
        for key, value in [("mrr", tensor.m_rr), ("mtt", tensor.m_tt), ("mpp", tensor.m_pp),
                           ("mrt", tensor.m_rt), ("mrp", tensor.m_rp), ("mtp", tensor.m_tp)]:
            assert mechanism["tensor"][key] == pytest.approx(value, rel=1e-6, abs=1e-9 * scale), (name, key)
        assert mechanism["scalarMoment"] == pytest.approx(focal.moment_tensor.scalar_moment, rel=1e-6), name


def test_the_mechanisms_fit_their_boundaries(ours):
    by_kind = collections.defaultdict(collections.Counter)
    overall = collections.Counter()
    for event in ours.values():
        klass = rake_class(event["mechanism"]["nodalPlanes"][0]["rake"])
        by_kind[kind_of(event["place"])][klass] += 1
        overall[klass] += 1
    subduction = sum((by_kind[kind] for kind in SUBDUCTION), collections.Counter())
    assert subduction["thrust"] >= 0.8 * sum(subduction.values()), dict(subduction)
    assert by_kind["INTERPLATE"]["thrust"] >= 0.97 * sum(by_kind["INTERPLATE"].values()), dict(by_kind["INTERPLATE"])
    assert by_kind["COLLISION"]["thrust"] >= 0.97 * sum(by_kind["COLLISION"].values())
    assert by_kind["RIDGE"]["normal"] >= 0.97 * sum(by_kind["RIDGE"].values()), dict(by_kind["RIDGE"])
    assert by_kind["TRANSFORM"]["strike-slip"] >= 0.97 * sum(by_kind["TRANSFORM"].values())
    # Where the events are: ~60 % on convergent boundaries, ~25 % on ridges, ~15 % on transforms.
    kinds = collections.Counter({kind: sum(counts.values()) for kind, counts in by_kind.items()})
    convergent = sum(kinds[kind] for kind in SUBDUCTION + ("COLLISION",))
    assert abs(convergent / COUNT - 0.60) <= 0.03 and abs(kinds["RIDGE"] / COUNT - 0.25) <= 0.03 \
        and abs(kinds["TRANSFORM"] / COUNT - 0.15) <= 0.03, dict(kinds)
    # And what they are, by rake: ~60/25/15 % thrust, normal, strike-slip.
    for klass, share in [("thrust", 0.60), ("normal", 0.25), ("strike-slip", 0.15)]:
        assert abs(overall[klass] / COUNT - share) <= 0.10, dict(overall)


# (what, west, south, east, north, the class that must dominate there)
PLACES = [
    ("off Japan", 140.0, 34.0, 146.0, 42.0, "thrust"),
    ("off Chile", -76.0, -40.0, -68.0, -18.0, "thrust"),
    ("Mid-Atlantic Ridge", -48.0, 20.0, -25.0, 38.0, "normal"),
    ("San Andreas", -124.5, 33.5, -115.0, 40.5, "strike-slip"),
]


@pytest.mark.parametrize("what,west,south,east,north,expected", PLACES, ids=[p[0] for p in PLACES])
def test_known_places_have_their_mechanisms(ours, what, west, south, east, north, expected):
    found = collections.Counter(rake_class(event["mechanism"]["nodalPlanes"][0]["rake"]) for event in ours.values()
                                if west <= event["longitude"] <= east and south <= event["latitude"] <= north
                                and event["depth"] <= 70)
    assert sum(found.values()) >= 3, (what, dict(found))
    # The ridge's transforms put strike-slip events among its normal faults, as in GCMT's catalogue.
    assert found.most_common(1)[0][0] == expected and found[expected] >= 0.5 * sum(found.values()), (what, dict(found))


def test_quakemap_draws_the_beachballs(catalogue, tmp_path):
    import numpy as np
    from PIL import Image
    png = tmp_path / "balls.png"
    result = subprocess.run([str(BIN / "quakemap"), "render", str(catalogue[0]), "--symbol", "beachball", "--limit", "0",
                             "--width", "1024", "-o", str(png)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"drew {COUNT}" in result.stderr, result.stderr
    pixels = np.asarray(Image.open(png).convert("RGB")).astype(int)
    assert pixels.shape == (512, 1024, 3)
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    # Compressional quadrants in the magnitude colours (yellow to red), dilatational ones white;
    # the basemap and the plate lines are neither in any quantity.
    warm = (red > 200) & (blue < 120) & (red - blue > 100)
    white = (red > 245) & (green > 245) & (blue > 245)
    assert warm.mean() > 0.02 and white.mean() > 0.02, (warm.mean(), white.mean())
