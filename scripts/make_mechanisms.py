#!/usr/bin/env python3
"""Write a synthetic GCMT NDK catalogue of focal mechanisms along the PB2002 plate boundaries.

Part of quakemap (tests and demonstrations of beachball maps). Python's standard library only.

    scripts/make_mechanisms.py [--count N] [--seed S] [--out PATH]

N events (default 3000) of the year 2024, drawn with random.Random(S) (default 2002) and
written to PATH (default standard output) in the Global CMT project's "new" NDK format: five
lines of 80 fixed columns an event, as ObsPy's reader (obspy.io.ndk) and quakemap's
(Sources/QuakeParse/Parse/NDKDecoder.swift) read them. The same arguments give the same bytes:
one seeded generator drawn in a fixed order, no clock, no dict or set order.

THE CATALOGUE IS SYNTHETIC. Every event is made up; the hypocentre catalogue is written "SYN"
and the region column says which boundary and which kind of event it imitates, e.g.
"SYN PA-OK INTERPLATE" or "SYN AF-SA RIDGE".

Boundaries. The plate boundaries are the project's own compact copy of Bird's PB2002
(Sources/CPlateData/pb2002.c, a C byte array in the format that scripts/embed_plates.py
documents): the decimal byte list is parsed out of the .c file and decoded here. Lines that
appear twice (pieces of PA-AN, KE/PA, NA/PA, PA-BR, BR-AU at 180°) are used once. Each step
between two points is an event site with its length, azimuth (the digitised direction) and
a class:

  subduction   kind 1 or 2: a subduction zone whose overriding plate is on the left (1) or
               the right (2) of the digitised direction, from Bird's "/" and "\\".
  ridge, transform
               kind 0. PB2002's compact copy carries no ridge/transform class (Bird's
               PB2002_steps.dat does, from plate velocities, which this script does not
               have), so it is guessed from the geometry, a heuristic good enough for a
               synthetic catalogue and no more: for each step, the length-weighted axial
               mean direction (the doubled-angle average, so that 10° and 190° agree) of the
               steps of its line within 400 km along the line either side; a step within
               45° of that direction is a ridge segment, a step across it a transform. On a
               staircase of ridge segments offset by transforms the ridge segments usually
               hold most of the length, so this separates them; where the transforms hold
               most (the Gulf of California, the equatorial Atlantic) the roles are swapped
               by the list below.
  convergent   kind 0 lines that are continental collisions or thrust belts, from the list.

The list (REGIONS below): a boundary name and a longitude/latitude box of step midpoints:
continental and other transforms whose steps are long and nearly all parallel, so that the
geometry would call them ridges (San Andreas and Queen Charlotte–Fairweather on NA-PA, the
Alpine fault, Macquarie Ridge, Dead Sea, North and East Anatolian, Chaman, Sagaing, the
Caribbean's northern and southern boundaries, the North Andes, the Scotia Ridges, Owen and
Gloria), each with its known sense of slip; thrust belts with the overriding plate named
(Himalaya, Makran and Zagros, Bitlis, Timor and Flores, the sub-Andean belt, North Panama,
the eastern Sea of Japan, the Algerian margin); the two transform-dominated spreading
systems named above. QUIET names diffuse or little-known boundaries of PB2002's small
plates (Amur, Yangtze, Sunda, Okhotsk's land edges, those of Southeast Asia and Melanesia),
kept at a fifth of their length's weight and classed by the geometry. The sense of an
oceanic transform's slip is read from the staircase: walking along the transform, if the
ridge segment before it lies to the right and the one after it to the left, the plate on
the left moves backwards (left-lateral, rake 0); the mirror image is right-lateral (rake
180); otherwise one draw decides for the step.

What this gets wrong, knowingly: back-arc basins and rifts without transforms are all
ridge; short oblique steps of a staircase go to whichever side of 45° they fall; small
plates' boundaries whose kind the geometry cannot tell (New Guinea, the Moluccas) still get
ridge or transform events, at a fifth of the weight. It is a map that reads right at a
glance, not a tectonic model.

Events. A class is drawn first, ~60 % convergent (subduction zones, about a tenth of them
on thrust belts), ~25 % ridge, ~15 % transform, roughly the real GCMT catalogue's mix; then
a step of that class with probability proportional to its length, a point along it, and a
few tens of km of scatter. Strike, dip and rake (Aki & Richards: the plane dips to the right of the
strike; rake positive for reverse slip):

  interplate   (subduction, most of them) thrusts on the plate interface: strike along the
               trench with the dip toward the overriding plate, dip 10–35° growing with
               depth, rake 90 ± 20, centroid depth 10–60 km, placed landward of the trench
               where an interface of that dip reaches that depth.
  intraslab    (subduction, one in seven) 60–250 km landward, 60–650 km deep along a slab of
               30–65° dip; down-dip extension (T along the slab) above 300 km mostly,
               down-dip compression (P along it) below, the other axes turned at random.
  outer rise   (subduction, one in 25) normal faults 20–80 km seaward of the trench.
  collision    thrust belts: strike along the belt, dip 15–40° under the overriding plate.
  ridge        normal faults: strike along the step, dip 45–60° to either side, rake
               −90 ± 20, 5–15 km deep.
  transform    strike-slip: strike along the step, dip 75–90°, rake 0 or 180 ± 15 as the
               sense says, 5–20 km deep.

Moment magnitudes follow Gutenberg–Richter with b = 1 from Mw 5.0 up to 8.5 on plate
interfaces, 8.3 in slabs and 8.2 in thrust belts, 8.0 at outer rises, 7.8 on transforms and
7.0 on ridges (LARGEST); the scalar moment is M0 = 10^(1.5 Mw + 9.1) N·m, written in dyn·cm
(N·m × 1e7). About one event in eight belongs to an aftershock sequence: a mainshock of
Mw 6.8 to its kind's largest (6.0–7.0 on ridges) with up to 150 aftershocks (Omori-like
times, Mw 5.0 to the mainshock's less 0.8) within ~50 km along its boundary, sharing its
class and, with scatter, its mechanism, so that maps get crowded.

Tensors. Plane 1's strike, dip and rake are rounded to whole degrees (as NDK writes them)
and the moment tensor is computed from the rounded plane: with n the plane's normal and d
the slip (north, east, down), M = M0 (n dᵀ + d nᵀ), written in NDK's r, θ, φ order (r up, θ
south, φ east: Mrr = Mdd, Mtt = Mnn, Mpp = Mee, Mrt = Mnd, Mrp = −Med, Mtp = −Mne). The
auxiliary plane has normal d and slip n; the principal axes are T = (n + d)/√2, P =
(n − d)/√2, N = n × d with eigenvalues M0, 0, −M0. About 4 % of the events get a CLVD part
of up to 20 % (eigenvalues 1, −ε, −(1 − ε) or 1 − ε, ε, −1 on the same axes); their axes,
eigenvalues and best double couple (normal (T + P)/√2, slip (T − P)/√2) are then computed
from the tensor as written, with a cyclic Jacobi eigen solver. The exponent on line 4 is
that of the largest of M0 and the components, so the mantissas read like GCMT's
("23  1.234 0.012 -1.246 ..."); line 5's scalar moment is √(ΣMᵢⱼ²/2) (M0 for a double
couple).

Quirks that have tripped up readers, a few of each: strikes of exactly 0 and 360, rakes of
exactly 180 and −180, vertical planes (dip 90), Mrr exactly 0 (vertical strike-slip), equal
P and T plunges (vertical dip-slip, whose auxiliary plane is horizontal: ObsPy 1.5.1's
mt2plane raises on it), centroid longitudes of exactly 180 and −180 and near them (on the
Kermadec trench where PB2002 crosses 180°), negative depths (−0.5 km, as real NDK files
have) on the hypocentre line, moments from 1e16 N·m (Mw 4.6, below the Gutenberg–Richter
range) to 1e23 N·m (Mw 9.27, a megathrust mainshock off Chile), one explosion-like tensor (a
large isotropic part; "CMT: 0", a general moment tensor) and one CLVD-like one. Moments stop
at 1e23 N·m: 1e26 N·m would be Mw 11.3, beyond any earthquake and outside the magnitudes
quakemap accepts (−5…10). Every record stays valid NDK that ObsPy reads without a warning
(the first record, which ObsPy's format detection reads, has a positive depth).
"""

import argparse
import bisect
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import embed_plates  # noqa: E402  (the format's encoder and decoder, beside this script)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_PATH = os.path.join(ROOT, "Sources", "CPlateData", "pb2002.c")
OTHER, LEFT, RIGHT = 0, 1, 2
EARTH_KM = 6371.0
YEAR_SECONDS = 366 * 86400  # 2024 is a leap year
M_MIN, M_MAX, B_VALUE = 5.0, 8.5, 1.0
WINDOW_KM = 400.0  # the ridge/transform axial mean looks this far along the line either side

# (name, west, south, east, north, role, parameter, what) for step midpoints in the box.
# role: "transform" (parameter: the sense, "R" right-lateral or "L" left-lateral),
# "convergent" (parameter: the overriding plate), "flip" (a transform-dominated spreading
# system: the local axial mean is the transforms' direction), "quiet" (diffuse: a fifth of
# the weight, classed by the geometry).
REGIONS = [
    ("NA-PA", -126.0, 32.0, -114.0, 41.0, "transform", "R", "San Andreas"),
    ("NA-PA", -147.0, 50.0, -129.0, 61.0, "transform", "R", "Queen Charlotte-Fairweather"),
    ("AU-PA", 168.0, -45.0, 176.0, -41.0, "transform", "R", "Alpine fault"),
    ("PA-AU", 157.0, -62.0, 166.0, -47.0, "transform", "R", "Macquarie Ridge"),
    ("AR-AF", 34.0, 29.0, 37.5, 37.0, "transform", "L", "Dead Sea"),
    ("AT-EU", 25.0, 38.0, 42.0, 42.0, "transform", "R", "North Anatolian"),
    ("AT-AR", 36.0, 35.0, 42.0, 40.0, "transform", "L", "East Anatolian"),
    ("EU-IN", 64.0, 24.0, 72.459, 35.0, "transform", "L", "Chaman"),
    ("IN-EU", 95.0, 14.0, 98.0, 29.0, "transform", "R", "Sagaing"),
    ("CA-NA", -91.0, 12.0, -61.0, 21.0, "transform", "L", "Motagua-Swan-Oriente"),
    ("CA-SA", -68.5, 9.5, -57.5, 11.5, "transform", "R", "El Pilar"),
    ("SC-SA", -77.0, -56.0, -29.0, -51.0, "transform", "L", "North Scotia Ridge"),
    ("SC-AN", -65.0, -62.0, -27.0, -57.0, "transform", "L", "South Scotia Ridge"),
    ("AR-IN", 56.0, 14.0, 66.0, 25.0, "transform", "R", "Owen fracture zone"),
    ("EU-AF", -25.0, 34.0, -12.0, 39.0, "transform", "R", "Gloria fault"),
    ("ND-SA", -82.0, -4.0, -60.0, 11.0, "transform", "R", "North Andes"),
    ("EU-IN", 72.0, 25.0, 98.0, 36.0, "convergent", "EU", "Himalaya"),
    ("AR-EU", 44.0, 24.0, 66.0, 35.0, "convergent", "EU", "Makran and Zagros"),
    ("EU-AR", 40.0, 34.0, 46.0, 40.0, "convergent", "EU", "Zagros and Bitlis"),
    ("TI-AU", 120.0, -12.0, 133.0, -6.0, "convergent", "TI", "Timor Trough"),
    ("BS-TI", 120.0, -9.0, 133.0, -6.0, "convergent", "TI", "Flores-Wetar thrust"),
    ("AP-SA", -80.0, -25.0, -60.0, -10.0, "convergent", "AP", "sub-Andean thrust belt"),
    ("PM-CA", -87.0, 8.0, -76.0, 11.0, "convergent", "PM", "North Panama deformed belt"),
    ("OK-AM", 136.0, 34.0, 144.0, 55.0, "convergent", "OK", "eastern Sea of Japan"),
    ("EU-AF", -6.0, 34.0, 11.0, 38.5, "convergent", "AF", "Algerian margin and Tell"),
    ("NA-PA", -116.0, 22.0, -108.0, 33.5, "flip", None, "Gulf of California"),
    ("AF-SA", -48.0, -3.0, -12.0, 16.0, "flip", None, "equatorial Atlantic"),
    ("NA-EU", 100.0, 60.0, 180.0, 90.0, "quiet", None, "Chersky range"),
]

# Diffuse or little-known boundaries of PB2002's small plates (Amur, Yangtze, Sunda, Okhotsk's
# land edges, North-South America east of the Antilles, and the small plates of Southeast Asia
# and Melanesia): a fifth of the weight, classed by the geometry.
QUIET = (
    "AM-EU", "EU-AM", "AM-YA", "EU-YA", "YA-SU", "EU-SU", "OK-EU", "OK-NA", "NA-SA", "CL-PS",
    "PA-CL", "CL-NB", "MO-BH", "AU-MO", "WL-MO", "AU-BH", "SU-BH", "MS-BH", "BH-BS", "MS-SU",
    "BS-SU", "SU-TI", "PS-SU", "PS-YA", "YA-ON", "ON-PS", "AM-ON", "MS-BS", "SU-BU", "BU-EU",
    "IN-BU", "SB-WL", "WL-SS", "WL-BH", "PS-MA",
)

# The share of each class among the events, and of kinds of event within a class.
SHARES = (("convergent", 0.60), ("ridge", 0.25), ("transform", 0.15))
# The largest magnitude each kind of event is drawn up to (spreading ridges break in short
# segments; the largest oceanic transform and outer-rise events are below Mw 8.2).
LARGEST = {"interplate": M_MAX, "intraslab": 8.3, "outer rise": 8.0, "collision": 8.2, "ridge": 7.0,
           "transform": 7.8}
COLLISION_WEIGHT = 0.35  # per km of a thrust belt, against 1 per km of subduction zone
QUIET_WEIGHT = 0.2
INTRASLAB_SHARE, OUTER_RISE_SHARE = 1 / 7, 1 / 25
NON_DC_SHARE = 0.04


def fail(message, code=2):
    print("make_mechanisms: " + message, file=sys.stderr)
    sys.exit(code)


# ---------------------------------------------------------------------------------------------
# PB2002 from the C byte array


def read_c_bytes(path):
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except OSError as error:
        fail("%s: %s" % (path, error.strerror))
    found = re.search(r"bytes\[(\d+)\]\s*=\s*\{([^}]*)\}", source)
    if not found:
        fail("%s: no `bytes[N] = { ... }` array" % path)
    data = bytes(int(number) for number in re.findall(r"\d+", found.group(2)))
    if len(data) != int(found.group(1)):
        fail("%s: the array holds %d bytes, not the %s it declares" % (path, len(data), found.group(1)))
    return data


def decode_plates(data):
    """[(name, plate A, plate B, kind, [(lon, lat), ...])] in degrees: scripts/embed_plates.py's own decoder."""
    if data[:len(embed_plates.MAGIC)] != embed_plates.MAGIC:
        fail("not a QMPLATE1 array")
    return [(name, a, b, kind, [(x / 1000.0, y / 1000.0) for x, y in points])
            for name, a, b, kind, points in embed_plates.decode(data)]


# ---------------------------------------------------------------------------------------------
# Geometry on the sphere (degrees in, degrees out)


def wrap(longitude):
    """The longitude in −180…180 (180 stays 180)."""
    wrapped = (longitude + 180.0) % 360.0 - 180.0
    return 180.0 if wrapped == -180.0 and longitude > 0 else wrapped


def distance_km(lon0, lat0, lon1, lat1):
    p0, p1 = math.radians(lat0), math.radians(lat1)
    dp, dl = p1 - p0, math.radians(lon1 - lon0)
    h = math.sin(dp / 2) ** 2 + math.cos(p0) * math.cos(p1) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def destination(lon, lat, azimuth, km):
    """The point `km` from (lon, lat) along the great circle leaving at `azimuth`."""
    if km == 0:
        return lon, lat
    p, l, a, d = math.radians(lat), math.radians(lon), math.radians(azimuth), km / EARTH_KM
    p2 = math.asin(max(-1.0, min(1.0, math.sin(p) * math.cos(d) + math.cos(p) * math.sin(d) * math.cos(a))))
    l2 = l + math.atan2(math.sin(a) * math.sin(d) * math.cos(p), math.cos(d) - math.sin(p) * math.sin(p2))
    return wrap(math.degrees(l2)), math.degrees(p2)


class Step:
    """One step of a boundary line: where, how long, which way, and its class."""

    __slots__ = ("boundary", "index", "lon0", "lat0", "lon1", "lat1", "length", "azimuth", "klass",
                 "over_side", "sense", "along")

    def __init__(self, boundary, index, lon0, lat0, lon1, lat1):
        self.boundary, self.index = boundary, index
        # A step across ±180° is taken the short way round.
        if abs(lon1 - lon0) > 180:
            lon1 += -360.0 if lon1 > lon0 else 360.0
        self.lon0, self.lat0, self.lon1, self.lat1 = lon0, lat0, lon1, lat1
        self.length = distance_km(lon0, lat0, lon1, lat1)
        mid = math.radians((lat0 + lat1) / 2)
        self.azimuth = math.degrees(math.atan2((lon1 - lon0) * math.cos(mid), lat1 - lat0)) % 360.0
        self.klass = None      # "subduction", "convergent", "ridge", "transform"
        self.over_side = None  # LEFT or RIGHT: where the overriding plate is (thrusts)
        self.sense = None      # "L", "R" or None (transforms)
        self.along = 0.0       # km along the line to the step's middle

    def midpoint(self):
        return wrap((self.lon0 + self.lon1) / 2), (self.lat0 + self.lat1) / 2

    def point(self, fraction):
        return wrap(self.lon0 + (self.lon1 - self.lon0) * fraction), self.lat0 + (self.lat1 - self.lat0) * fraction


class Boundary:
    __slots__ = ("name", "a", "b", "kind", "steps", "weight")

    def __init__(self, name, a, b, kind, points):
        self.name, self.a, self.b, self.kind = name, a, b, kind
        self.weight = 1.0
        self.steps = []
        along = 0.0
        for index, ((lon0, lat0), (lon1, lat1)) in enumerate(zip(points, points[1:])):
            step = Step(self, index, lon0, lat0, lon1, lat1)
            if step.length <= 0:
                continue
            step.along = along + step.length / 2
            along += step.length
            self.steps.append(step)

    def label(self):
        return "%s-%s" % (self.a, self.b)


def region_of(boundary, step):
    lon, lat = step.midpoint()
    for name, west, south, east, north, role, parameter, _ in REGIONS:
        if name == boundary.name and west <= lon <= east and south <= lat <= north:
            return role, parameter
    return None, None


def axial_difference(a, b):
    """The angle between two undirected lines of azimuths a and b, 0…90."""
    d = abs((a - b) % 180.0)
    return min(d, 180.0 - d)


def classify(boundary):
    """Set each step's class (and the overriding side or the slip sense) as the docstring says."""
    if boundary.kind != OTHER:
        for step in boundary.steps:
            step.klass, step.over_side = "subduction", boundary.kind
        return
    steps = boundary.steps
    roles = [region_of(boundary, step) for step in steps]
    if boundary.name in QUIET or any(role == "quiet" for role, _ in roles):
        boundary.weight = QUIET_WEIGHT
    # The local axial mean: doubled angles weighted by length within WINDOW_KM along the line.
    for i, step in enumerate(steps):
        role, parameter = roles[i]
        if role == "transform":
            step.klass, step.sense = "transform", parameter
            continue
        if role == "convergent":
            step.klass = "convergent"
            step.over_side = LEFT if parameter == boundary.a else RIGHT
            continue
        c = s = 0.0
        for other in steps:
            if abs(other.along - step.along) <= WINDOW_KM:
                angle = math.radians(2 * other.azimuth)
                c += other.length * math.cos(angle)
                s += other.length * math.sin(angle)
        axis = math.degrees(math.atan2(s, c)) / 2 % 180.0
        along_axis = axial_difference(step.azimuth, axis) <= 45.0
        if role == "flip":
            along_axis = not along_axis
        step.klass = "ridge" if along_axis else "transform"
    # The sense of slip of each transform from the ridge segments either side of its run.
    for i, step in enumerate(steps):
        if step.klass != "transform" or step.sense is not None:
            continue
        before = next((steps[j] for j in range(i - 1, -1, -1) if steps[j].klass == "ridge"
                       and step.along - steps[j].along <= 300), None)
        after = next((steps[j] for j in range(i + 1, len(steps)) if steps[j].klass == "ridge"
                      and steps[j].along - step.along <= 300), None)
        if before is None or after is None:
            continue
        side_before = side_of(step, before.lon0, before.lat0)
        side_after = side_of(step, after.lon1, after.lat1)
        if side_before < 0 < side_after:
            step.sense = "L"
        elif side_after < 0 < side_before:
            step.sense = "R"


def side_of(step, lon, lat):
    """> 0 where (lon, lat) is left of the step's line, < 0 right (local east-north plane)."""
    mid = math.radians((step.lat0 + step.lat1) / 2)
    dlon = (lon - step.lon0 + 180.0) % 360.0 - 180.0
    east, north = dlon * math.cos(mid), lat - step.lat0
    step_east, step_north = (step.lon1 - step.lon0) * math.cos(mid), step.lat1 - step.lat0
    return step_east * north - step_north * east


def load_boundaries(path):
    boundaries, seen = [], set()
    for name, a, b, kind, points in decode_plates(read_c_bytes(path)):
        key = (name, tuple(points))
        if key in seen:
            continue
        seen.add(key)
        boundary = Boundary(name, a, b, kind, points)
        if boundary.steps:
            classify(boundary)
            boundaries.append(boundary)
    return boundaries


class Sampler:
    """Steps of one class, drawn with probability proportional to length × weight."""

    def __init__(self, steps, weight):
        self.steps = steps
        self.cumulative = []
        total = 0.0
        for step in steps:
            total += step.length * weight(step)
            self.cumulative.append(total)
        self.total = total

    def draw(self, rng):
        return self.steps[min(len(self.steps) - 1, bisect.bisect_right(self.cumulative, rng.random() * self.total))]


# ---------------------------------------------------------------------------------------------
# Vectors (north, east, down) and mechanisms


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def scale(u, k):
    return (u[0] * k, u[1] * k, u[2] * k)


def add(u, v):
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def unit(u):
    n = math.sqrt(dot(u, u))
    return (u[0] / n, u[1] / n, u[2] / n)


def horizontal(azimuth):
    a = math.radians(azimuth)
    return (math.cos(a), math.sin(a), 0.0)


def rotate(v, axis, angle):
    """v turned by `angle` degrees about the unit vector `axis` (Rodrigues)."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    return add(add(scale(v, c), scale(cross(axis, v), s)), scale(axis, dot(axis, v) * (1 - c)))


def plane_vectors(strike, dip, rake):
    """The plane's normal (towards the hanging wall, upwards) and slip (of the hanging wall)."""
    f, d, r = math.radians(strike), math.radians(dip), math.radians(rake)
    normal = (-math.sin(d) * math.sin(f), math.sin(d) * math.cos(f), -math.cos(d))
    slip = (math.cos(r) * math.cos(f) + math.cos(d) * math.sin(r) * math.sin(f),
            math.cos(r) * math.sin(f) - math.cos(d) * math.sin(r) * math.cos(f),
            -math.sin(r) * math.sin(d))
    return normal, slip


def plane_from_vectors(normal, slip):
    """(strike 0…360, dip 0…90, rake −180…180) of the plane with this normal and slip."""
    if normal[2] > 0:
        normal, slip = scale(normal, -1), scale(slip, -1)
    dip = math.degrees(math.acos(max(-1.0, min(1.0, -normal[2]))))
    strike = math.degrees(math.atan2(-normal[0], normal[1])) % 360.0
    along = horizontal(strike)
    rake = math.degrees(math.atan2(dot(slip, cross(normal, along)), dot(slip, along)))
    return strike, dip, rake


def plunge_azimuth(v):
    """A principal axis as (plunge, azimuth), pointing into the lower hemisphere."""
    if v[2] < 0:
        v = scale(v, -1)
    plunge = math.degrees(math.asin(max(-1.0, min(1.0, v[2]))))
    azimuth = math.degrees(math.atan2(v[1], v[0])) % 360.0 if abs(v[0]) + abs(v[1]) > 1e-12 else 0.0
    return plunge, azimuth


def normalised_rake(rake):
    rake = (rake + 180.0) % 360.0 - 180.0
    return 180.0 if rake == -180.0 else rake


def tensor_from_axes(axes_values):
    """Σ λ v vᵀ over (λ, v) in (north, east, down), as (Mrr, Mtt, Mpp, Mrt, Mrp, Mtp)."""
    m = [[0.0] * 3 for _ in range(3)]
    for value, v in axes_values:
        for i in range(3):
            for j in range(3):
                m[i][j] += value * v[i] * v[j]
    return ned_to_rtp(m)


def ned_to_rtp(m):
    return (m[2][2], m[0][0], m[1][1], m[0][2], -m[1][2], -m[0][1])


def rtp_to_ned(t):
    rr, tt, pp, rt, rp, tp = t
    return [[tt, -tp, rt], [-tp, pp, -rp], [rt, -rp, rr]]


def jacobi(m):
    """Eigenvalues and unit eigenvectors of a symmetric 3×3 matrix (cyclic Jacobi rotations),
    as [(value, vector)] from the largest value to the smallest."""
    a = [row[:] for row in m]
    v = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    for _ in range(100):
        off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2
        size = sum(a[i][j] ** 2 for i in range(3) for j in range(3))
        if off <= 1e-30 * size or off == 0.0:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if a[p][q] == 0.0:
                continue
            theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
            t = math.copysign(1.0, theta) / (abs(theta) + math.sqrt(theta * theta + 1))
            c = 1 / math.sqrt(t * t + 1)
            s = t * c
            for k in range(3):  # columns p and q of a·J
                akp, akq = a[k][p], a[k][q]
                a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
            for k in range(3):  # rows p and q of Jᵀ·a
                apk, aqk = a[p][k], a[q][k]
                a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
            for k in range(3):
                vkp, vkq = v[k][p], v[k][q]
                v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
    pairs = [(a[i][i], (v[0][i], v[1][i], v[2][i])) for i in range(3)]
    pairs.sort(key=lambda pair: -pair[0])
    return pairs


class Mechanism:
    """What an NDK record says of the source, in mantissas of 10^exponent dyn·cm."""

    def __init__(self, exponent, tensor, axes, moment, plane1, plane2, general=False):
        self.exponent, self.tensor, self.axes, self.moment = exponent, tensor, axes, moment
        self.plane1, self.plane2, self.general = plane1, plane2, general


def mantissa(value):
    value = round(value, 3)
    return 0.0 if value == 0 else value  # never "-0.000"


def exponent_for(values):
    largest = max(abs(value) for value in values)
    exponent = int(math.floor(math.log10(largest)))
    # A mantissa that would round up to 10.000 takes the next exponent.
    if round(largest / 10 ** exponent, 3) >= 10:
        exponent += 1
    return exponent


def whole(angle):
    return int(math.floor(angle + 0.5))


def written_plane(strike, dip, rake):
    s, d, r = whole(strike) % 360, min(90, max(0, whole(dip))), whole(rake)
    if r <= -180:
        r += 360
    if r > 180:
        r -= 360
    return s, d, r


def double_couple(plane, moment_nm):
    """The mechanism of a pure double couple on `plane` (whole degrees) of M0 `moment_nm`."""
    strike, dip, rake = plane
    normal, slip = plane_vectors(strike, dip, rake)
    dyne = moment_nm * 1e7
    m = [[dyne * (normal[i] * slip[j] + slip[i] * normal[j]) for j in range(3)] for i in range(3)]
    exact = ned_to_rtp(m)
    exponent = exponent_for(list(exact) + [dyne])
    unit_moment = 10.0 ** exponent
    tensor = [mantissa(value / unit_moment) for value in exact]
    aux = written_plane(*plane_from_vectors(slip, normal))
    t_axis = unit(add(normal, slip))
    p_axis = unit(add(normal, scale(slip, -1)))
    n_axis = cross(normal, slip)
    m0 = mantissa(dyne / unit_moment)
    axes = [(m0, t_axis), (0.0, n_axis), (-m0, p_axis)]
    return Mechanism(exponent, tensor, [(value, *rounded_axis(v)) for value, v in axes], m0, plane, aux)


def rounded_axis(v):
    plunge, azimuth = plunge_azimuth(v)
    return whole(plunge), whole(azimuth) % 360


def general_tensor(exact_dyne, general):
    """The mechanism of any tensor (dyn·cm, r θ φ): axes and best double couple from the
    written tensor's eigenvectors."""
    exponent = exponent_for(exact_dyne)
    unit_moment = 10.0 ** exponent
    tensor = [mantissa(value / unit_moment) for value in exact_dyne]
    pairs = jacobi(rtp_to_ned(tensor))
    (t_value, t_axis), (n_value, n_axis), (p_value, p_axis) = pairs
    normal = unit(add(t_axis, p_axis))
    slip = unit(add(t_axis, scale(p_axis, -1)))
    plane1 = written_plane(*plane_from_vectors(normal, slip))
    plane2 = written_plane(*plane_from_vectors(slip, normal))
    moment = math.sqrt(sum(v * v for v in tensor[:3]) / 2 + sum(v * v for v in tensor[3:]))
    axes = [(mantissa(value), *rounded_axis(v)) for value, v in pairs]
    return Mechanism(exponent, tensor, axes, mantissa(moment), plane1, plane2, general)


def non_double_couple(plane, moment_nm, epsilon):
    """A double couple's axes with a CLVD part: eigenvalues (1, −ε, −(1 − ε)) for ε > 0,
    (1 − |ε|, |ε|, −1) for ε < 0, times M0."""
    normal, slip = plane_vectors(*plane)
    t_axis, p_axis = unit(add(normal, slip)), unit(add(normal, scale(slip, -1)))
    n_axis = cross(normal, slip)
    e = abs(epsilon)
    values = (1.0, -e, -(1.0 - e)) if epsilon > 0 else (1.0 - e, e, -1.0)
    dyne = moment_nm * 1e7
    exact = tensor_from_axes([(dyne * values[0], t_axis), (dyne * values[1], n_axis), (dyne * values[2], p_axis)])
    return general_tensor(exact, general=False)


# ---------------------------------------------------------------------------------------------
# Events


def gutenberg_richter(rng, low=M_MIN, high=M_MAX, b=B_VALUE):
    """A magnitude from the truncated exponential (Gutenberg–Richter) law."""
    u = rng.random()
    return low - math.log10(1 - u * (1 - 10 ** (-b * (high - low)))) / b


def clip(value, low, high):
    return max(low, min(high, value))


class Event:
    __slots__ = ("time", "lon", "lat", "depth", "mw", "moment", "plane", "place", "epsilon", "special",
                 "hypo_depth", "mechanism")

    def __init__(self, time, lon, lat, depth, mw, plane, place):
        self.time, self.lon, self.lat, self.depth, self.mw = time, lon, lat, depth, mw
        self.moment = 10 ** (1.5 * mw + 9.1)
        self.plane, self.place = plane, place
        self.epsilon = 0.0
        self.special = None  # "explosion" or "clvd"
        self.hypo_depth = None
        self.mechanism = None


def over_azimuth(step, side):
    """The azimuth, from the step, towards the plate on `side`."""
    return (step.azimuth + (-90.0 if side == LEFT else 90.0)) % 360.0


def thrust_strike(step, side):
    # The plane dips to the right of its strike: towards the overriding plate.
    return (over_azimuth(step, side) - 90.0) % 360.0


class Generator:
    def __init__(self, boundaries, rng):
        self.rng = rng
        self.boundaries = boundaries
        steps = [step for boundary in boundaries for step in boundary.steps]

        def weight(step):
            w = step.boundary.weight
            return w * COLLISION_WEIGHT if step.klass == "convergent" else w

        self.samplers = {
            "convergent": Sampler([s for s in steps if s.klass in ("subduction", "convergent")], weight),
            "ridge": Sampler([s for s in steps if s.klass == "ridge"], weight),
            "transform": Sampler([s for s in steps if s.klass == "transform"], weight),
        }
        self.subduction = Sampler([s for s in steps if s.klass == "subduction"], weight)

    # Each make_* returns an Event at a point of `step` (or near `origin` for aftershocks).

    def place(self, step, kind):
        return "SYN %s %s" % (step.boundary.label(), kind)

    def scatter(self, lon, lat, km):
        rng = self.rng
        lon, lat = destination(lon, lat, rng.uniform(0, 360), abs(rng.gauss(0, km)))
        return lon, lat

    def interplate(self, step, time, mw, at=None, depth=None):
        rng = self.rng
        depth = rng.triangular(10, 60, 22) if depth is None else depth
        dip = clip(8 + 0.4 * depth + rng.gauss(0, 3), 10, 35)
        strike = thrust_strike(step, step.over_side) + rng.gauss(0, 8)
        rake = 90 + clip(rng.gauss(0, 10), -20, 20)
        if at is None:
            lon, lat = step.point(rng.random())
            landward = clip((depth - 5) / math.tan(math.radians(dip)) + rng.gauss(0, 10), 0, 220)
            lon, lat = destination(lon, lat, over_azimuth(step, step.over_side), landward)
            lon, lat = self.scatter(lon, lat, 10)
        else:
            lon, lat = at
        return Event(time, lon, lat, depth, mw, (strike, dip, rake), self.place(step, "INTERPLATE"))

    def intraslab(self, step, time, mw):
        rng = self.rng
        side = step.over_side
        towards = over_azimuth(step, side)
        landward = rng.uniform(60, 250)
        slab = rng.uniform(30, 65)
        depth = clip(30 + landward * math.tan(math.radians(slab)) + rng.gauss(0, 15), 60, 650)
        lon, lat = destination(*step.point(rng.random()), towards, landward)
        lon, lat = self.scatter(lon, lat, 15)
        # The slab's down-dip direction there, steeper at depth, and the axis across it.
        local = math.radians(clip(slab + 10 + rng.gauss(0, 8), 20, 85))
        h = horizontal(towards)
        down = (h[0] * math.cos(local), h[1] * math.cos(local), math.sin(local))
        across = (-h[0] * math.sin(local), -h[1] * math.sin(local), math.cos(local))
        down = unit(rotate(down, unit(cross(down, across)), rng.gauss(0, 8)))
        across = unit(rotate(across, down, rng.gauss(0, 15)))
        across = unit(add(across, scale(down, -dot(across, down))))
        extension = rng.random() < (0.7 if depth < 300 else 0.2)
        t_axis, p_axis = (down, across) if extension else (across, down)
        normal = unit(add(t_axis, p_axis))
        slip = unit(add(t_axis, scale(p_axis, -1)))
        return Event(time, lon, lat, depth, mw, plane_from_vectors(normal, slip), self.place(step, "INTRASLAB"))

    def outer_rise(self, step, time, mw, at=None):
        rng = self.rng
        side = step.over_side
        seaward = (over_azimuth(step, side) + 180.0) % 360.0
        if at is None:
            lon, lat = destination(*step.point(rng.random()), seaward, rng.uniform(20, 80))
            lon, lat = self.scatter(lon, lat, 8)
        else:
            lon, lat = destination(*at, seaward, rng.uniform(60, 120))
        strike = step.azimuth + rng.gauss(0, 8) + (180.0 if rng.random() < 0.5 else 0.0)
        plane = (strike, rng.uniform(45, 60), -90 + clip(rng.gauss(0, 8), -15, 15))
        return Event(time, lon, lat, rng.uniform(5, 25), mw, plane, self.place(step, "OUTER RISE"))

    def collision(self, step, time, mw, at=None):
        rng = self.rng
        depth = rng.uniform(5, 40)
        dip = rng.uniform(15, 40)
        if at is None:
            lon, lat = step.point(rng.random())
            landward = clip(depth / math.tan(math.radians(dip)), 0, 100)
            lon, lat = destination(lon, lat, over_azimuth(step, step.over_side), landward)
            lon, lat = self.scatter(lon, lat, 12)
        else:
            lon, lat = at
        plane = (thrust_strike(step, step.over_side) + rng.gauss(0, 10), dip, 90 + clip(rng.gauss(0, 10), -20, 20))
        return Event(time, lon, lat, depth, mw, plane, self.place(step, "COLLISION"))

    def ridge(self, step, time, mw, at=None):
        rng = self.rng
        if at is None:
            lon, lat = self.scatter(*step.point(rng.random()), 8)
        else:
            lon, lat = at
        strike = step.azimuth + rng.gauss(0, 6) + (180.0 if rng.random() < 0.5 else 0.0)
        plane = (strike, rng.uniform(45, 60), -90 + clip(rng.gauss(0, 10), -20, 20))
        return Event(time, lon, lat, rng.uniform(5, 15), mw, plane, self.place(step, "RIDGE"))

    def transform(self, step, time, mw, at=None):
        rng = self.rng
        if at is None:
            lon, lat = self.scatter(*step.point(rng.random()), 6)
        else:
            lon, lat = at
        if step.sense is None:
            # Unknown from the staircase: one draw for the step, kept for its later events.
            step.sense = "L" if rng.random() < 0.5 else "R"
        sense = step.sense
        strike = step.azimuth + rng.gauss(0, 5) + (180.0 if rng.random() < 0.5 else 0.0)
        rake = (0.0 if sense == "L" else 180.0) + clip(rng.gauss(0, 7), -15, 15)
        plane = (strike, rng.uniform(75, 90), rake)
        return Event(time, lon, lat, rng.uniform(5, 20), mw, plane, self.place(step, "TRANSFORM"))

    def background(self, klass, time):
        """One event of `klass` on a step drawn by length, its magnitude by Gutenberg–Richter
        up to the largest its kind has."""
        rng = self.rng
        step = self.samplers[klass].draw(rng)
        if step.klass == "subduction":
            u = rng.random()
            kind = "intraslab" if u < INTRASLAB_SHARE else (
                "outer rise" if u < INTRASLAB_SHARE + OUTER_RISE_SHARE else "interplate")
        else:
            kind = {"convergent": "collision", "ridge": "ridge", "transform": "transform"}[step.klass]
        maker = getattr(self, kind.replace(" ", "_"))
        return maker(step, time, gutenberg_richter(rng, M_MIN, LARGEST[kind]))

    def sequence(self, klass, time, mw, size, step=None):
        """A mainshock and `size` aftershocks within ~50 km along its boundary."""
        rng = self.rng
        if step is None:
            step = self.samplers[klass].draw(rng)
        maker = {"subduction": self.interplate, "convergent": self.collision, "ridge": self.ridge,
                 "transform": self.transform}[step.klass]
        main = maker(step, time, mw)
        events = [main]
        half = min(50.0, 0.5 * 10 ** (0.5 * mw - 1.8))
        for _ in range(size):
            # Omori: n(t) ∝ 1/(c + t)^p, p = 1.2, c = 0.05 days; wrapped into the year.
            days = 0.05 * ((1 - rng.random()) ** (-1 / 0.2) - 1)
            when = time + days * 86400.0
            if when >= YEAR_SECONDS:
                when = time + rng.random() * (YEAR_SECONDS - time)
            small = gutenberg_richter(rng, M_MIN, max(M_MIN + 0.1, mw - 0.8))
            along = rng.uniform(-half, half)
            lon, lat = destination(main.lon, main.lat, step.azimuth, along)
            lon, lat = destination(lon, lat, step.azimuth + 90.0, rng.gauss(0, 10))
            if step.klass == "subduction" and rng.random() < 0.08:
                event = self.outer_rise(step, when, small, at=(lon, lat))
            elif step.klass == "subduction":
                event = self.interplate(step, when, small, at=(lon, lat),
                                        depth=clip(main.depth + rng.gauss(0, 8), 8, 60))
            else:
                event = maker(step, when, small, at=(lon, lat))
            # Aftershocks look like their mainshock, with scatter.
            if event.place == main.place and rng.random() < 0.7:
                s, d, r = main.plane
                event.plane = (s + rng.gauss(0, 10), clip(d + rng.gauss(0, 5), 5, 90), r + rng.gauss(0, 10))
            events.append(event)
        return events


def mb_ms(rng, mw, depth):
    mb = clip(mw - 0.2 + rng.gauss(0, 0.2), 4.0, 6.6)
    ms = clip(mw - 0.3 + rng.gauss(0, 0.25), 3.5, 8.8) if depth < 70 else 0.0
    return round(mb, 1), round(ms, 1)


def generate(count, seed, boundaries):
    rng = random.Random(seed)
    generator = Generator(boundaries, rng)
    targets = {klass: int(round(count * share)) for klass, share in SHARES}
    targets["transform"] = count - targets["convergent"] - targets["ridge"]
    events = []

    def draw_time():
        return rng.randrange(0, YEAR_SECONDS * 10) / 10.0

    # The specials: explosion-like, CLVD-like, and events at and near the antimeridian.
    specials = []
    if count >= 60:
        kermadec = [s for s in generator.subduction.steps if s.boundary.name == "KE/PA"
                    and min(abs(s.lon0), abs(s.lon1)) <= 180 <= max(abs(s.lon0), abs(s.lon1))]
        kermadec.sort(key=lambda s: (s.lat0, s.lon0))
        step = kermadec[0] if kermadec else generator.subduction.steps[0]
        for longitude in (180.0, -180.0, 179.99, -179.99, 179.9):
            event = generator.interplate(step, draw_time(), gutenberg_richter(rng, 5.0, 6.5))
            # Along the trench at the antimeridian, a little landward (west) of it.
            event.lon = longitude
            event.lat = -37.16 + rng.uniform(-0.8, 0.8)
            specials.append(event)
        arc = generator.subduction.draw(rng)
        explosion = generator.intraslab(arc, draw_time(), 5.3)
        explosion.depth, explosion.special, explosion.place = 3.0, "explosion", "SYN EXPLOSION-LIKE"
        clvd_site = generator.samplers["ridge"].draw(rng)
        clvd = generator.ridge(clvd_site, draw_time(), 5.6)
        clvd.depth, clvd.special, clvd.place = 6.0, "clvd", "SYN CLVD-LIKE"
        specials += [explosion, clvd]
        targets["convergent"] -= 6
        targets["ridge"] -= 1

    # Aftershock sequences: about an eighth of the events, the first a Mw 9.27 megathrust.
    sequences = []
    if count >= 200:
        budget = count // 8
        chile = [s for s in generator.subduction.steps if s.boundary.name == "NZ\\SA" and -39 < s.lat0 < -35]
        first = True
        while budget > 0:
            u = rng.random()
            klass = "convergent" if u < 0.7 else ("transform" if u < 0.9 else "ridge")
            if first:
                mw, step = 2 / 3 * (23 - 9.1), (chile[0] if chile else None)
                klass = "convergent"
            else:
                largest = {"convergent": M_MAX, "transform": LARGEST["transform"], "ridge": LARGEST["ridge"]}[klass]
                mw, step = gutenberg_richter(rng, min(6.8, largest - 1.0), largest), None
            size = int(clip(round(10 ** (mw - 6.2)), 8, 150))
            size = min(size, budget, targets[klass] - 1)
            if size < 1:
                break
            group = generator.sequence(klass, draw_time() * 0.8, mw, size, step)
            if first:
                group[0].moment = 1.0e23
            first = False
            sequences.append(group)
            targets[klass] -= len(group)
            budget -= len(group)

    for klass, _ in SHARES:
        for _ in range(max(0, targets[klass])):
            events.append(generator.background(klass, draw_time()))
    for group in sequences:
        events.extend(group)
    events.extend(specials)
    events = events[:count]

    # A tiny one, below the Gutenberg–Richter range: 1e16 N·m, Mw 4.6.
    if count >= 60:
        tiny = events[len(events) // 3]
        tiny.moment, tiny.mw = 1.0e16, 2 / 3 * (16 - 9.1)

    for event in events:
        if event.special is None and rng.random() < NON_DC_SHARE:
            event.epsilon = rng.choice((-1, 1)) * rng.uniform(0.02, 0.1)
    events.sort(key=lambda e: (e.time, e.lat, e.lon))
    quirks(events, rng)
    return events, rng


def quirks(events, rng):
    """Nudge a few events onto the exact values that have tripped readers up."""
    def pick(predicate, how_many):
        chosen = [e for e in events[1:] if e.special is None and e.epsilon == 0 and predicate(e)]
        return chosen[:how_many]

    def wrapped(angle):
        return (angle + 180.0) % 360.0 - 180.0

    used = set()

    def take(predicate, how_many):
        found = pick(lambda e: id(e) not in used and predicate(e), how_many)
        used.update(id(e) for e in found)
        return found

    for e in take(lambda e: abs(wrapped(e.plane[0])) < 4, 3):
        e.plane = (0.0, e.plane[1], e.plane[2])
    for e in take(lambda e: abs(wrapped(e.plane[0])) < 4, 3):
        e.plane = (360.0, e.plane[1], e.plane[2])
    transforms = lambda e: e.place.endswith("TRANSFORM")
    for e in take(lambda e: transforms(e) and abs(abs(wrapped(e.plane[2])) - 180) < 8, 3):
        e.plane = (e.plane[0], e.plane[1], 180.0)
    for e in take(lambda e: transforms(e) and abs(abs(wrapped(e.plane[2])) - 180) < 8, 3):
        e.plane = (e.plane[0], e.plane[1], -180.0)
    # Vertical strike-slip: dip 90 and Mrr exactly 0.
    for e in take(lambda e: transforms(e) and e.plane[1] > 85, 4):
        e.plane = (e.plane[0], 90.0, 0.0 if abs(wrapped(e.plane[2])) < 90 else 180.0)
    for e in take(lambda e: transforms(e) and e.plane[1] > 84, 2):
        e.plane = (e.plane[0], 90.0, e.plane[2])
    # Vertical dip-slip: P and T plunge 45° alike.
    for e in take(lambda e: e.place.endswith("INTRASLAB"), 3):
        e.plane = (e.plane[0], 90.0, 90.0 if rng.random() < 0.5 else -90.0)
    # Negative depths on the hypocentre line.
    for depth, e in zip((-0.5, -0.5, -1.2), take(lambda e: e.place.endswith("RIDGE"), 3)):
        e.hypo_depth = depth


# ---------------------------------------------------------------------------------------------
# NDK


def civil(seconds):
    """(year, month, day, hour, minute, tenths of a second) of seconds after 2024-01-01."""
    tenths = int(round(seconds * 10))
    days, rest = divmod(tenths, 864000)
    hour, rest = divmod(rest, 36000)
    minute, tenth = divmod(rest, 600)
    year, month = 2024, 1
    lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    while days >= lengths[month - 1]:
        days -= lengths[month - 1]
        month += 1
        if month > 12:
            month, year = 1, year + 1
            lengths[1] = 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return year, month, days + 1, hour, minute, tenth


def mechanism_of(event):
    plane = written_plane(event.plane[0], event.plane[1], normalised_rake(event.plane[2]))
    # The quirks keep what they set: 360 and −180 as written.
    if event.plane[0] == 360.0:
        plane = (360, plane[1], plane[2])
    if event.plane[2] == -180.0:
        plane = (plane[0], plane[1], -180)
    if plane[1] == 0:
        plane = (plane[0], 1, plane[2])
    if event.special == "explosion":
        normal, slip = plane_vectors(*plane)
        t_axis, p_axis = unit(add(normal, slip)), unit(add(normal, scale(slip, -1)))
        n_axis = cross(normal, slip)
        dyne = event.moment * 1e7
        exact = tensor_from_axes([(dyne * 1.25, t_axis), (dyne * 0.95, n_axis), (dyne * 0.7, p_axis)])
        return general_tensor(exact, general=True)
    if event.special == "clvd":
        normal, slip = plane_vectors(*plane)
        t_axis, p_axis = unit(add(normal, slip)), unit(add(normal, scale(slip, -1)))
        n_axis = cross(normal, slip)
        dyne = event.moment * 1e7
        exact = tensor_from_axes([(dyne * 1.0, t_axis), (dyne * -0.46, n_axis), (dyne * -0.54, p_axis)])
        return general_tensor(exact, general=False)
    if event.epsilon:
        return non_double_couple(plane, event.moment, event.epsilon)
    return double_couple(plane, event.moment)


def names(events):
    """C + YYYYMMDDhhmm + A, B, … for events of the same minute."""
    taken, result = {}, []
    for event in events:
        year, month, day, hour, minute, _ = civil(event.time)
        stem = "C%04d%02d%02d%02d%02d" % (year, month, day, hour, minute)
        n = taken.get(stem, 0)
        taken[stem] = n + 1
        if n >= 26:
            fail("more than 26 events in the minute %s" % stem)
        result.append(stem + chr(ord("A") + n))
    return result


def record(event, name, rng):
    m = event.mechanism
    mb, ms = mb_ms(rng, event.mw, event.depth)
    half_duration = clip(1.05e-8 * (event.moment * 1e7) ** (1 / 3), 0.6, 150.0)
    shift = round(half_duration * rng.uniform(0.5, 1.3) + rng.gauss(0, 0.8), 1)
    # The hypocentre: a few km off the centroid, its depth as a location catalogue gives it.
    hlon, hlat = destination(event.lon, event.lat, rng.uniform(0, 360), abs(rng.gauss(0, 12)))
    if event.lon in (180.0, -180.0):
        hlon = event.lon
    hdepth = event.hypo_depth
    if hdepth is None:
        hdepth = 10.0 if event.depth < 15 and rng.random() < 0.5 else clip(event.depth + rng.gauss(0, 8), 0.0, 700.0)
    # The reference (hypocentre) time is the event's; the centroid comes `shift` s later.
    year, month, day, hour, minute, tenth = civil(event.time)
    seconds = "%02d.%d" % divmod(tenth, 10)
    line1 = "SYN  %04d/%02d/%02d %02d:%02d:%s %6.2f %7.2f %5.1f %3.1f %3.1f %-24s" % (
        year, month, day, hour, minute, seconds, hlat, hlon, hdepth, mb, ms, event.place[:24])
    body = (rng.randint(20, 180), rng.randint(40, 450), 40)
    surface = (rng.randint(20, 180), rng.randint(40, 450), 50)
    mantle = (rng.randint(20, 180), rng.randint(40, 400), 125) if event.mw >= 5.5 else (0, 0, 0)
    kind = 0 if m.general else 1
    function = "BOXHD" if event.mw >= 7.5 and rng.random() < 0.5 else "TRIHD"
    line2 = "%-16s B:%3d %4d %3d S:%3d %4d %3d M:%3d %4d %3d CMT: %d %s:%5.1f" % (
        (name,) + body + surface + mantle + (kind, function, half_duration))
    depth_type = "FREE" if event.depth >= 15 or rng.random() < 0.6 else "FIX "
    depth_error = 0.0 if depth_type == "FIX " else round(rng.uniform(0.1, 3.0), 1)
    stamp_year, stamp_month, stamp_day, stamp_hour, stamp_minute, stamp_tenth = civil(event.time + 86400 * 120)
    stamp = "S-%04d%02d%02d%02d%02d%02d" % (stamp_year, stamp_month, stamp_day, stamp_hour, stamp_minute,
                                            stamp_tenth // 10)
    line3 = "CENTROID: %8.1f%4.1f%7.2f%5.2f%8.2f%5.2f%6.1f%5.1f %-4s %s" % (
        shift, rng.uniform(0.0, 0.6), event.lat, rng.uniform(0.0, 0.03), event.lon, rng.uniform(0.0, 0.03),
        event.depth, depth_error, depth_type, stamp)
    errors = [abs(v) * rng.uniform(0.003, 0.03) + rng.uniform(0.001, 0.02) for v in m.tensor]
    line4 = "%2d" % m.exponent + "".join("%7.3f%6.3f" % (v, mantissa(min(e, 9.999))) for v, e in zip(m.tensor, errors))
    line5 = "V10" + "".join("%8.3f%3d%4d" % axis for axis in m.axes) + "%8.3f" % m.moment \
        + "".join("%4d%3d%5d" % plane for plane in (m.plane1, m.plane2))
    lines = [line1, line2, line3, line4, line5]
    for number, line in enumerate(lines, 1):
        if len(line) != 80:
            fail("internal: line %d of %s is %d columns: %r" % (number, name, len(line), line))
    return "\n".join(lines) + "\n"


def ndk(events, rng):
    for event in events:
        # Centroids to the hundredth of a degree and tenth of a km, as written.
        event.lon = wrap(round(event.lon, 2)) if event.lon not in (180.0, -180.0) else event.lon
        event.lat = clip(round(event.lat, 2), -89.99, 89.99)
        event.depth = round(clip(event.depth, 1.0, 700.0), 1)
        event.mechanism = mechanism_of(event)
    # ObsPy's format detection reads the first record's hypocentre: keep its depth positive.
    if events and events[0].hypo_depth is not None and events[0].hypo_depth < 0:
        events[0].hypo_depth = None
    return "".join(record(event, name, rng) for event, name in zip(events, names(events)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=3000, help="how many events (default %(default)s)")
    parser.add_argument("--seed", type=int, default=2002, help="the random seed (default %(default)s)")
    parser.add_argument("--out", default="-", help="the NDK file to write (default: standard output)")
    args = parser.parse_args(argv)
    if args.count < 1:
        fail("--count must be at least 1", 1)
    boundaries = load_boundaries(C_PATH)
    events, rng = generate(args.count, args.seed, boundaries)
    text = ndk(events, rng).encode("ascii")
    if args.out == "-":
        sys.stdout.buffer.write(text)
        sys.stdout.buffer.flush()
    else:
        directory = os.path.dirname(os.path.abspath(args.out))
        temporary = os.path.join(directory, "." + os.path.basename(args.out) + ".tmp-%d" % os.getpid())
        with open(temporary, "wb") as f:
            f.write(text)
        os.replace(temporary, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
